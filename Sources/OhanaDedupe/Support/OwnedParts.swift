/// Parts handed to the workers, each read by one of them and freed as soon
/// as it is done (``release(_:)``), so that a list laid out or sorted from
/// its parts never holds the parts and the whole at once. Owns the only
/// unsafe pointer of the handing over.
final class OwnedParts<Element>: @unchecked Sendable {
  // Safe: part p is read and then released by one piece of work only, and
  // the pool returns only when every piece is done.
  private let parts: UnsafeMutableBufferPointer<[Element]>

  init(_ values: consuming [[Element]]) {
    parts = .allocate(capacity: values.count)
    _ = parts.initialize(fromContentsOf: values)
  }

  deinit {
    parts.deinitialize()
    parts.deallocate()
  }

  var count: Int { parts.count }
  /// Part `p` (empty once released).
  func part(_ p: Int) -> [Element] { parts[p] }
  func release(_ p: Int) { parts[p] = [] }
}
