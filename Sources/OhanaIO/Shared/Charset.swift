import Foundation

/// The one place where legacy charsets are converted to UTF-8.
///
/// Meant to call `OhanaText.CharsetConverter` (ICU) once that lands; until
/// then a small table over Foundation's encodings is used.
enum Charset {
  struct Unknown: Error {}

  /// Normalizes a charset label for lookup: lower case, no '-', '_' or ' '.
  private static func key<C: Collection>(_ name: C) -> String where C.Element == UInt8 {
    var out: [UInt8] = []
    for b in name where b != UInt8(ascii: "-") && b != UInt8(ascii: "_") && b != ASCII.space {
      out.append(ASCII.lower(b))
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static let table: [String: String.Encoding] = [
    "utf8": .utf8, "usascii": .ascii, "ascii": .ascii,
    "iso88591": .isoLatin1, "latin1": .isoLatin1, "iso885915": .isoLatin1,
    "iso88592": .isoLatin2, "latin2": .isoLatin2,
    "windows1250": .windowsCP1250, "cp1250": .windowsCP1250,
    "windows1251": .windowsCP1251, "cp1251": .windowsCP1251,
    "windows1252": .windowsCP1252, "cp1252": .windowsCP1252,
    "windows1253": .windowsCP1253, "cp1253": .windowsCP1253,
    "windows1254": .windowsCP1254, "cp1254": .windowsCP1254,
    "shiftjis": .shiftJIS, "sjis": .shiftJIS, "windows31j": .shiftJIS, "cp932": .shiftJIS,
    "eucjp": .japaneseEUC, "iso2022jp": .iso2022JP,
    "utf16": .utf16, "utf16le": .utf16LittleEndian, "utf16be": .utf16BigEndian,
    "utf32": .utf32,
  ]

  static func isUTF8Label<C: Collection>(_ name: C) -> Bool where C.Element == UInt8 {
    let k = key(name)
    return k == "utf8" || k == "usascii" || k == "ascii"
  }

  /// Converts `bytes` from the charset named `name` to UTF-8, appending to
  /// `out`. Throws `Unknown` for a charset it does not know or bytes that
  /// are not valid in it.
  static func toUTF8<N: Collection, C: Collection>(_ bytes: C, charset name: N, into out: inout [UInt8]) throws(Unknown)
  where N.Element == UInt8, C.Element == UInt8 {
    guard let encoding = table[key(name)] else { throw Unknown() }
    guard let s = String(bytes: bytes, encoding: encoding) else { throw Unknown() }
    out.append(contentsOf: s.utf8)
  }
}
