/// Conversion from legacy charsets to UTF-8, over ICU's `ucnv`.
///
/// Any name or alias ICU knows works: `Shift_JIS`, `ISO-8859-1`,
/// `windows-1252`, `UTF-16` (BOM-detecting, big-endian without one),
/// `UTF-16LE`, `UTF-16BE`, `KOI8-R`, `GB18030`, `Big5`... Unmappable or
/// ill-formed input becomes U+FFFD (ICU's substitution), and a leading
/// byte-order mark is dropped from the output.
///
/// ```swift
/// let utf8 = try CharsetConverter.toUTF8(bytes, charset: "Shift_JIS")
/// ```
public enum CharsetConverter {
  /// Converts bytes in `charset` to UTF-8. The corresponding C function is `ucnv_convert`.
  /// - Throws: ``TextError`` with code ``TextError/Code/unknownCharset`` when ICU
  ///   does not know the name, ``TextError/Code/inputTooLarge`` past 2 GiB,
  ///   ``TextError/Code/conversionFailed`` otherwise.
  public static func toUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes, charset: String)
    throws(TextError) -> [UInt8]
  {
    guard let canonical = canonicalName(charset) else {
      throw TextError(
        code: .unknownCharset, status: .fileAccessError, message: "unknown charset '\(charset)'")
    }
    guard bytes.count < Int(Int32.max) / 4 else {
      throw TextError(
        code: .inputTooLarge, status: .indexOutOfBoundsError,
        message: "\(bytes.count) bytes is too large to convert at once")
    }
    let result = withContiguousBytes(bytes) { icu_convertToUTF8($0, from: canonical) }
    switch result {
    case .success(var out):
      if out.count >= 3 && out[0] == 0xEF && out[1] == 0xBB && out[2] == 0xBF {
        out.removeFirst(3)
      }
      return out
    case .failure(let status):
      throw TextError(
        code: status == .fileAccessError ? .unknownCharset : .conversionFailed, status: status,
        message: "cannot convert from charset '\(charset)'")
    }
  }

  /// Converts UTF-8 to `charset` (the reverse of ``toUTF8(_:charset:)``);
  /// characters the charset lacks become its substitution character. The
  /// corresponding C function is `ucnv_convert`.
  /// - Throws: ``TextError`` with code ``TextError/Code/unknownCharset`` when ICU
  ///   does not know the name, ``TextError/Code/inputTooLarge`` past 512 MiB,
  ///   ``TextError/Code/conversionFailed`` otherwise.
  public static func fromUTF8<Bytes: Collection<UInt8>>(_ utf8: Bytes, charset: String) throws(TextError) -> [UInt8] {
    guard let canonical = canonicalName(charset) else {
      throw TextError(
        code: .unknownCharset, status: .fileAccessError, message: "unknown charset '\(charset)'")
    }
    guard utf8.count < Int(Int32.max) / 4 else {
      throw TextError(
        code: .inputTooLarge, status: .indexOutOfBoundsError,
        message: "\(utf8.count) bytes is too large to convert at once")
    }
    switch withContiguousBytes(utf8, { icu_convertFromUTF8($0, to: canonical) }) {
    case .success(let out): return out
    case .failure(let status):
      throw TextError(code: .conversionFailed, status: status, message: "cannot convert to charset '\(charset)'")
    }
  }

  /// Converts bytes in `charset` to a `String`; see ``toUTF8(_:charset:)``.
  public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes, charset: String)
    throws(TextError) -> String
  {
    String(decoding: try toUTF8(bytes, charset: charset), as: UTF8.self)
  }

  /// ICU's canonical name for a charset name or alias, or nil if unknown.
  /// The corresponding C functions are `ucnv_open` and `ucnv_getName`.
  public static func canonicalName(_ charset: String) -> String? {
    guard !charset.isEmpty, !charset.utf8.contains(0) else { return nil }
    return icu_charsetCanonicalName(charset)
  }
}
