/// A fixed-size buffer of values that concurrent workers fill at
/// disjoint indices: each index is written by at most one worker, and read
/// only after the workers have joined (`Parallel.forEach`
/// returning orders their writes before the reads).
///
/// The only unsafe code of the phone pass lives here. Indices are checked
/// (an index out of range is a programming error, never an input's).
final class SharedBuffer<Element: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: the disjoint-index contract above is the caller's.
  private let storage: UnsafeMutableBufferPointer<Element>

  /// `count` copies of `value`.
  init(repeating value: Element, count: Int) {
    storage = .allocate(capacity: Swift.max(0, count))
    storage.initialize(repeating: value)
  }

  /// `count` elements left for the workers to write: every index must be
  /// written before it is read or ``array()`` is called. (Plain values only,
  /// so that no uninitialized memory ever holds a reference.)
  init(uninitializedCount count: Int) where Element: BitwiseCopyable {
    storage = .allocate(capacity: Swift.max(0, count))
  }

  deinit {
    storage.deinitialize()
    storage.deallocate()
  }

  var count: Int { storage.count }

  subscript(i: Int) -> Element {
    @inline(__always) get {
      precondition(i >= 0 && i < storage.count, "SharedBuffer index out of range")
      return storage[i]
    }
    @inline(__always) set {
      precondition(i >= 0 && i < storage.count, "SharedBuffer index out of range")
      storage[i] = newValue
    }
  }

  /// The values as an array (a copy).
  func array() -> [Element] { Array(storage) }
}
