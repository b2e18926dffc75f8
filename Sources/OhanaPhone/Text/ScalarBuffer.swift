/// Up to 256 Unicode scalar values: the raw input of one parse, decoded
/// from UTF-8, and the pieces cut from it. (An array rather than inline
/// storage: it is passed to many scanners, and sharing it is free.)
struct ScalarBuffer {
  static let capacity = 256
  private var storage: [UInt32] = []
  /// Which kinds of characters occur (a superset after cutting), so that
  /// scanners can skip work: see the `Kind` bits.
  private(set) var kinds: UInt8 = 0

  /// Character kinds recorded in `kinds`.
  enum Kind {
    static let nonASCII: UInt8 = 1
    static let letter: UInt8 = 2
    static let semicolon: UInt8 = 4
    static let slash: UInt8 = 8
    /// `#`, `,`, `~`: extension markers.
    static let extensionMark: UInt8 = 16
  }

  @inline(__always)
  static func kind(of scalar: UInt32) -> UInt8 {
    scalar < 0x80 ? asciiKind(UInt8(truncatingIfNeeded: scalar)) : Kind.nonASCII
  }

  /// The kind bits of one ASCII byte, by comparisons (no table lookup).
  @inline(__always)
  static func asciiKind(_ b: UInt8) -> UInt8 {
    if (b | 0x20) &- 0x61 < 26 { return Kind.letter }
    if b < 0x30 || b > 0x39 {
      switch b {
      case 0x3B: return Kind.semicolon
      case 0x2F, 0x5C: return Kind.slash
      case 0x23, 0x2C, 0x7E: return Kind.extensionMark
      default: return 0
      }
    }
    return 0
  }

  /// Whether any character of one of `mask`'s kinds may occur.
  @inline(__always)
  func mayContain(_ mask: UInt8) -> Bool { kinds & mask != 0 }

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
    kinds |= Self.kind(of: scalar)
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

  /// ASCII fast path over contiguous bytes (one pass, no per-byte append);
  /// other input goes through the standard decoder.
  private mutating func decode(contiguous bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
    let n = bytes.count
    var k: UInt8 = 0
    var allASCII = true
    for b in bytes {
      if b >= 0x80 {
        allASCII = false
        break
      }
      k |= Self.asciiKind(b)
    }
    if allASCII {
      guard n <= limit else { return false }
      // Safe: exactly `n` elements are initialized, and `n` is the capacity.
      storage = [UInt32](unsafeUninitializedCapacity: n) { buffer, initialized in
        for i in 0..<n { buffer[i] = UInt32(bytes[i]) }
        initialized = n
      }
      kinds = k
      return true
    }
    storage.removeAll(keepingCapacity: true)
    storage.reserveCapacity(Swift.min(n, limit + 1))
    k = Kind.nonASCII
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    defer { kinds = k }
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let s):
        if storage.count >= limit { return false }
        storage.append(s.value)
        k |= Self.kind(of: s.value)
      case .error:
        if storage.count >= limit { return false }
        storage.append(0xFFFD)
      case .emptyInput:
        return true
      }
    }
  }

  private mutating func decode(generic bytes: some Collection<UInt8>, limit: Int) -> Bool {
    kinds = 0xFF
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
