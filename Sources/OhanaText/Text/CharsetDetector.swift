/// Guesses the charset of 8-bit text, over ICU's charset detector (`ucsdet`).
///
/// ICU scores the text against each charset it knows (byte n-gram statistics
/// of the languages each single-byte charset serves, and the multi-byte
/// structure of Shift_JIS, GB18030, EUC and Big5) and returns every match,
/// best first, with a confidence from 0 to 100. Short text gives weak and
/// often wrong answers: feed it all the text you have.
///
/// ```swift
/// let best = try CharsetDetector.detect(bytes).first  // ("windows-1251", 62)
/// ```
///
/// ICU names a single-byte match after the Windows code page when the text
/// has bytes in 0x80–0x9F (`windows-1252` rather than `ISO-8859-1`); see
/// ``windowsCodePage(for:hasC1Bytes:)`` for applying that rule yourself.
public enum CharsetDetector {
  /// One candidate charset.
  public struct Match: Hashable, Sendable, CustomStringConvertible {
    /// ICU's name of the charset (`windows-1251`, `Shift_JIS`, `ISO-8859-8-I`...).
    public let name: String
    /// ICU's confidence, 0 to 100.
    public let confidence: Int

    public init(name: String, confidence: Int) {
      self.name = name
      self.confidence = confidence
    }

    public var description: String { "\(name) (\(confidence))" }
  }

  /// Every match ICU finds, best first (empty for empty text). The
  /// corresponding C functions are `ucsdet_open`, `ucsdet_setText`,
  /// `ucsdet_detectAll`, `ucsdet_getName`, `ucsdet_getConfidence` and
  /// `ucsdet_close`.
  /// - Throws: ``TextError`` with code ``TextError/Code/inputTooLarge``
  ///   past 2 GiB, ``TextError/Code/conversionFailed`` when ICU fails.
  public static func detect<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(TextError) -> [Match] {
    if bytes.isEmpty { return [] }
    guard bytes.count < Int(Int32.max) else {
      throw TextError(
        code: .inputTooLarge, status: .indexOutOfBoundsError,
        message: "\(bytes.count) bytes is too large to detect at once")
    }
    let result = withContiguousBytes(bytes) { icu_detectCharsets($0) }
    switch result {
    case .success(let matches): return matches.map { Match(name: $0.0, confidence: $0.1) }
    case .failure(let status):
      throw TextError(code: .conversionFailed, status: status, message: "charset detection failed")
    }
  }

  /// The Windows code page that extends an ISO 8859 charset, for text that
  /// has bytes in 0x80–0x9F (C1 controls in ISO 8859, letters and
  /// punctuation in the Windows code pages): ISO-8859-1 → windows-1252,
  /// -2 → windows-1250, -6 → windows-1256, -7 → windows-1253, -8 (and -8-I)
  /// → windows-1255, -9 → windows-1254, -13 → windows-1257. Other names,
  /// and any name when `hasC1Bytes` is false, come back unchanged
  /// (ISO-8859-5 has no Windows counterpart: windows-1251 orders Cyrillic
  /// differently).
  public static func windowsCodePage(for name: String, hasC1Bytes: Bool) -> String {
    guard hasC1Bytes else { return name }
    switch name.uppercased() {
    case "ISO-8859-1": return "windows-1252"
    case "ISO-8859-2": return "windows-1250"
    case "ISO-8859-6", "ISO-8859-6-I", "ISO-8859-6-E": return "windows-1256"
    case "ISO-8859-7": return "windows-1253"
    case "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-8-E": return "windows-1255"
    case "ISO-8859-9": return "windows-1254"
    case "ISO-8859-13": return "windows-1257"
    default: return name
    }
  }
}
