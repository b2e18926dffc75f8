/// A CLDR region code (`US`, `GB`) or `001` for non-geographic entities,
/// packed into an integer: up to three upper-case ASCII characters.
public struct RegionCode: Hashable, Sendable, CustomStringConvertible {
  /// Characters packed big-endian, one byte each; unused bytes are zero.
  public let rawValue: UInt32

  @inlinable
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Upper-cases ASCII letters; returns nil unless 2-3 ASCII letters or digits.
  public init?(_ text: some StringProtocol) {
    self.init(utf8: Array(text.utf8))
  }

  /// From UTF-8 bytes (ASCII letters are upper-cased).
  @inlinable
  public init?(utf8 bytes: some Collection<UInt8>) {
    guard bytes.count >= 2, bytes.count <= 3 else { return nil }
    var value: UInt32 = 0
    for byte in bytes {
      var b = byte
      if b >= 0x61 && b <= 0x7A { b -= 0x20 }
      let isAlnum = (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
      guard isAlnum else { return nil }
      value = value << 8 | UInt32(b)
    }
    rawValue = value
  }

  /// `ZZ`, libphonenumber's unknown region.
  public static let unknown = RegionCode(rawValue: 0x5A5A)
  /// `US`, the default region of `ohana phone`.
  public static let us = RegionCode(rawValue: 0x5553)
  /// `001`, the region of non-geographic calling codes (+800, +882...).
  public static let nonGeographic = RegionCode(rawValue: 0x30_3031)

  /// Appends the code's ASCII bytes.
  public func appendUTF8(to out: inout [UInt8]) {
    var shift = 24
    while shift >= 0 {
      let b = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
      if b != 0 { out.append(b) }
      shift -= 8
    }
  }

  public var description: String {
    var bytes: [UInt8] = []
    appendUTF8(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
