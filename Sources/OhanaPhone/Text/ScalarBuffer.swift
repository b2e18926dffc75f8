/// Up to 256 Unicode scalar values: the raw input of one parse, decoded
/// from UTF-8, and the pieces cut from it. (An array rather than inline
/// storage: it is passed to many scanners, and sharing it is free.)
struct ScalarBuffer {
  static let capacity = 256
  private var storage: [UInt32] = []

  init() {}

  var count: Int { storage.count }

  @inline(__always)
  subscript(index: Int) -> UInt32 { storage[index] }

  /// Appends a scalar; returns false when full.
  @inline(__always)
  @discardableResult
  mutating func append(_ scalar: UInt32) -> Bool {
    guard storage.count < Self.capacity else { return false }
    storage.append(scalar)
    return true
  }

  mutating func truncate(to newCount: Int) {
    if newCount < count { storage.removeLast(count - Swift.max(0, newCount)) }
  }

  /// Removes the first `n` scalars.
  mutating func removeFirst(_ n: Int) {
    guard n > 0 else { return }
    storage.removeFirst(Swift.min(n, count))
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

  /// Keeps only `storage[range]` (in place).
  mutating func keep(_ range: Range<Int>) {
    truncate(to: range.upperBound)
    removeFirst(range.lowerBound)
  }

  /// Decodes UTF-8 (ill-formed sequences become U+FFFD). Returns false when
  /// the input has more than `limit` scalars.
  mutating func decode(utf8 bytes: some Collection<UInt8>, limit: Int) -> Bool {
    if let result = bytes.withContiguousStorageIfAvailable({ decode(contiguous: $0, limit: limit) }) {
      return result
    }
    return decode(generic: bytes, limit: limit)
  }

  /// ASCII fast path over contiguous bytes; other sequences go through the
  /// standard decoder.
  private mutating func decode(contiguous bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
    storage.removeAll(keepingCapacity: true)
    storage.reserveCapacity(Swift.min(bytes.count, limit + 1))
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b < 0x80 {
        if storage.count >= limit { return false }
        storage.append(UInt32(b))
        i += 1
        continue
      }
      // Non-ASCII: decode the rest with the standard decoder.
      var iterator = bytes[i...].makeIterator()
      var decoder = UTF8()
      while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let s):
          if storage.count >= limit { return false }
          storage.append(s.value)
        case .error:
          if storage.count >= limit { return false }
          storage.append(0xFFFD)
        case .emptyInput:
          return true
        }
      }
    }
    return true
  }

  private mutating func decode(generic bytes: some Collection<UInt8>, limit: Int) -> Bool {
    storage.removeAll(keepingCapacity: true)
    storage.reserveCapacity(Swift.min(bytes.count, limit + 1))
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let s):
        if storage.count >= limit { return false }
        storage.append(s.value)
      case .error:
        if storage.count >= limit { return false }
        storage.append(0xFFFD)
      case .emptyInput:
        return true
      }
    }
  }
}
