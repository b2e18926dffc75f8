/// Up to 256 Unicode scalar values held inline: the raw input of one parse,
/// decoded from UTF-8, and the pieces cut from it.
struct ScalarBuffer {
  static let capacity = 256
  private var storage = InlineArray<256, UInt32>(repeating: 0)
  private(set) var count = 0

  init() {}

  @inline(__always)
  subscript(index: Int) -> UInt32 { storage[index] }

  /// Appends a scalar; returns false when full.
  @inline(__always)
  @discardableResult
  mutating func append(_ scalar: UInt32) -> Bool {
    guard count < Self.capacity else { return false }
    storage[count] = scalar
    count += 1
    return true
  }

  mutating func truncate(to newCount: Int) {
    if newCount < count { count = Swift.max(0, newCount) }
  }

  /// Removes the first `n` scalars.
  mutating func removeFirst(_ n: Int) {
    guard n > 0 else { return }
    let k = Swift.min(n, count)
    var i = k
    while i < count {
      storage[i - k] = storage[i]
      i += 1
    }
    count -= k
  }

  /// Index of the first occurrence of the ASCII `needle` at or after `from`, or -1.
  func find(_ needle: StaticString, from: Int = 0) -> Int {
    let n = needle.utf8CodeUnitCount
    guard n > 0, count >= n else { return -1 }
    return needle.withUTF8Buffer { pattern in
      var i = Swift.max(0, from)
      while i + n <= count {
        var j = 0
        while j < n && storage[i + j] == UInt32(pattern[j]) { j += 1 }
        if j == n { return i }
        i += 1
      }
      return -1
    }
  }

  /// Decodes UTF-8 (ill-formed sequences become U+FFFD). Returns false when
  /// the input has more than `limit` scalars.
  mutating func decode(utf8 bytes: some Collection<UInt8>, limit: Int) -> Bool {
    count = 0
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let s):
        if count >= limit { return false }
        storage[count] = s.value
        count += 1
      case .error:
        if count >= limit { return false }
        storage[count] = 0xFFFD
        count += 1
      case .emptyInput:
        return true
      }
    }
  }
}
