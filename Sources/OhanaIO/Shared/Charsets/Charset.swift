import OhanaText

/// The one place where legacy charsets are converted to UTF-8: ICU through
/// `OhanaText.CharsetConverter` (any ICU charset name or alias).
enum Charset {
  struct Unknown: Error {}

  static func isUTF8Label<C: Collection>(_ name: C) -> Bool where C.Element == UInt8 {
    var k: [UInt8] = []
    for b in name where b != UInt8(ascii: "-") && b != UInt8(ascii: "_") { k.append(ASCII.lower(b)) }
    return k == Array("utf8".utf8) || k == Array("usascii".utf8) || k == Array("ascii".utf8)
  }

  /// Converts `bytes` from the charset named `name` to UTF-8, appending to
  /// `out`. Throws `Unknown` for a charset ICU does not know or a failed
  /// conversion (unmappable bytes become U+FFFD, as ICU substitutes them).
  static func toUTF8<N: Collection, C: Collection>(_ bytes: C, charset name: N, into out: inout [UInt8]) throws(Unknown)
  where N.Element == UInt8, C.Element == UInt8 {
    let label = String(decoding: name, as: UTF8.self)
    do {
      out.append(contentsOf: try CharsetConverter.toUTF8(bytes, charset: label))
    } catch {
      throw Unknown()
    }
  }
}
