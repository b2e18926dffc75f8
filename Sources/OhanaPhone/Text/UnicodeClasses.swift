/// Character classes of the hard-coded (non-metadata) patterns, as
/// libphonenumber's Python port sees them (`\d` = Unicode Nd, `\w`).
/// Non-ASCII tables come from the generated metadata blob.
enum UnicodeClasses {
  /// The decimal value of a Unicode Nd digit, or -1.
  @inline(__always)
  static func digitValue(_ c: UInt32) -> Int {
    if c < 0x80 {
      return c >= 0x30 && c <= 0x39 ? Int(c - 0x30) : -1
    }
    return PhoneMetadataTables.shared.ndDigitValue(c)
  }

  /// Python's `\w`: letters, numbers and underscore.
  @inline(__always)
  static func isWord(_ c: UInt32) -> Bool {
    if c < 0x80 {
      return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
    }
    return PhoneMetadataTables.shared.isWordScalar(c)
  }

  @inline(__always)
  static func isPlus(_ c: UInt32) -> Bool { c == 0x2B || c == 0xFF0B }

  /// libphonenumber's VALID_PUNCTUATION, matched case-insensitively (so `X` too).
  @inline(__always)
  static func isPunctuation(_ c: UInt32) -> Bool {
    if c < 0x80 {
      switch c {
      case 0x2D, 0x78, 0x58, 0x20, 0x28, 0x29, 0x2E, 0x5B, 0x5D, 0x2F, 0x7E: return true
      default: return false
      }
    }
    switch c {
    case 0x2010...0x2015, 0x2212, 0x30FC, 0xFF0D...0xFF0F, 0x00A0, 0x00AD, 0x200B, 0x2060, 0x3000,
      0xFF08, 0xFF09, 0xFF3B, 0xFF3D, 0x2053, 0x223C, 0xFF5E:
      return true
    default:
      return false
    }
  }

  /// `[A-Za-z]` under Python's case-insensitive Unicode matching.
  @inline(__always)
  static func isAlphaIgnoringCase(_ c: UInt32) -> Bool {
    (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x130 || c == 0x131 || c == 0x17F || c == 0x212A
  }

  @inline(__always)
  static func isASCIILetter(_ c: UInt32) -> Bool {
    (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
  }

  /// The E.161 keypad digit of a letter, after Python's `str.upper()`
  /// (which also maps dotless i and long s to ASCII), or nil.
  @inline(__always)
  static func keypadDigit(_ c: UInt32) -> UInt8? {
    var u = c
    if u >= 0x61 && u <= 0x7A { u -= 0x20 }
    if u == 0x131 { u = 0x49 }
    if u == 0x17F { u = 0x53 }
    guard u >= 0x41 && u <= 0x5A else { return nil }
    let keys: StaticString = "22233344455566677778889999"
    return keys.withUTF8Buffer { $0[Int(u - 0x41)] }
  }

  /// Simple lower-casing for the extension labels (ASCII, full-width Latin,
  /// Cyrillic, Ó).
  @inline(__always)
  static func lower(_ c: UInt32) -> UInt32 {
    if c >= 0x41 && c <= 0x5A { return c + 0x20 }
    if c >= 0xFF21 && c <= 0xFF3A { return c + 0x20 }
    if c >= 0x410 && c <= 0x42F { return c + 0x20 }
    if c == 0xD3 { return 0xF3 }
    return c
  }
}
