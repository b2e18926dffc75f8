// Byte constants and small helpers shared by the readers and writers.
// Everything here works on UTF-8 / ASCII bytes; nothing creates a `String`.

@usableFromInline
enum ASCII {
  @usableFromInline static let tab: UInt8 = 0x09
  @usableFromInline static let lf: UInt8 = 0x0A
  @usableFromInline static let cr: UInt8 = 0x0D
  @usableFromInline static let space: UInt8 = 0x20
  @usableFromInline static let quote: UInt8 = 0x22
  @usableFromInline static let hash: UInt8 = 0x23
  @usableFromInline static let apostrophe: UInt8 = 0x27
  @usableFromInline static let comma: UInt8 = 0x2C
  @usableFromInline static let dot: UInt8 = 0x2E
  @usableFromInline static let colon: UInt8 = 0x3A
  @usableFromInline static let semicolon: UInt8 = 0x3B
  @usableFromInline static let equals: UInt8 = 0x3D
  @usableFromInline static let backslash: UInt8 = 0x5C
  @usableFromInline static let caret: UInt8 = 0x5E

  /// Lower-cases an ASCII letter and leaves every other byte alone.
  @inlinable @inline(__always)
  static func lower(_ b: UInt8) -> UInt8 {
    // Safe: wrapping subtraction is the range check 'A'...'Z'.
    (b &- 0x41) < 26 ? b | 0x20 : b
  }

  @inlinable @inline(__always)
  static func upper(_ b: UInt8) -> UInt8 {
    (b &- 0x61) < 26 ? b & 0xDF : b
  }

  @inlinable @inline(__always)
  static func isSpace(_ b: UInt8) -> Bool { b == space || b == tab }

  /// The value of a hexadecimal digit, or nil.
  @inlinable @inline(__always)
  static func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
  }

  static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

extension Collection where Element == UInt8 {
  /// Case-insensitive ASCII comparison with an upper-case literal.
  @inlinable
  func asciiEqualsUppercase(_ upper: [UInt8]) -> Bool {
    guard count == upper.count else { return false }
    var i = upper.startIndex
    for b in self {
      if ASCII.upper(b) != upper[i] { return false }
      i += 1
    }
    return true
  }

  /// Case-insensitive ASCII prefix test with an upper-case literal.
  @inlinable
  func asciiHasPrefixUppercase(_ upper: [UInt8]) -> Bool {
    guard count >= upper.count else { return false }
    var i = upper.startIndex
    for b in self.prefix(upper.count) {
      if ASCII.upper(b) != upper[i] { return false }
      i += 1
    }
    return true
  }

  /// True when every byte is below 0x80.
  @inlinable
  var isASCII: Bool {
    for b in self where b >= 0x80 { return false }
    return true
  }
}

/// UTF-8 validation over bytes (no `String` is built).
enum UTF8Validation {
  static func isValid<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
    var it = bytes.makeIterator()
    while let b0 = it.next() {
      if b0 < 0x80 { continue }
      let need: Int
      var minScalar: UInt32
      var scalar: UInt32
      switch b0 {
      case 0xC2...0xDF: need = 1; minScalar = 0x80; scalar = UInt32(b0 & 0x1F)
      case 0xE0...0xEF: need = 2; minScalar = 0x800; scalar = UInt32(b0 & 0x0F)
      case 0xF0...0xF4: need = 3; minScalar = 0x10000; scalar = UInt32(b0 & 0x07)
      default: return false
      }
      for _ in 0..<need {
        guard let b = it.next(), b & 0xC0 == 0x80 else { return false }
        scalar = (scalar << 6) | UInt32(b & 0x3F)
      }
      if scalar < minScalar || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
    }
    return true
  }

  /// The largest `n <= limit` such that `bytes[..<n]` does not end inside a
  /// multi-byte UTF-8 sequence (used when folding lines).
  static func boundary(in bytes: ArraySlice<UInt8>, atMost limit: Int) -> Int {
    let start = bytes.startIndex
    if limit >= bytes.count { return bytes.count }
    var n = limit
    // Move back while the byte at the cut is a continuation byte.
    while n > 0 && bytes[start + n] & 0xC0 == 0x80 { n -= 1 }
    return n == 0 ? limit : n
  }
}
