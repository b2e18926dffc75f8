/// Decodes a legacy charset to UTF-8 chunk by chunk, over ICU's `UConverter`.
///
/// For files read in chunks (a UTF-16 vCard): a character split across two
/// chunks is completed by the next call, and a leading byte-order mark is
/// dropped. Unmappable or ill-formed input becomes U+FFFD.
///
/// ```swift
/// let decoder = try CharsetDecoder(charset: "UTF-16")
/// for chunk in chunks { output += try decoder.decode(chunk) }
/// output += try decoder.finish()
/// ```
///
/// A decoder holds conversion state, so it is not `Sendable`: use one per
/// stream (and per thread).
public final class CharsetDecoder {
  /// ICU's canonical name of the charset.
  public let charset: String
  private let converter: ICUHandle
  private var pendingHighSurrogate: UInt16?
  private var atStart = true

  /// Opens a decoder. The corresponding C function is `ucnv_open`.
  /// - Throws: ``TextError`` with code ``TextError/Code/unknownCharset``.
  public init(charset: String) throws(TextError) {
    let (handle, status) = icu_converterOpen(charset)
    guard let handle, !charset.isEmpty else {
      throw TextError(
        code: .unknownCharset, status: status.isFailure ? status : .fileAccessError,
        message: "unknown charset '\(charset)'")
    }
    converter = handle
    self.charset = CharsetConverter.canonicalName(charset) ?? charset
  }

  deinit { icu_converterClose(converter) }

  /// Decodes one chunk; bytes of an incomplete character at its end are kept
  /// for the next call. The corresponding C function is `ucnv_toUnicode`.
  public func decode<Bytes: Collection<UInt8>>(_ chunk: Bytes) throws(TextError) -> [UInt8] {
    try convert(chunk, flush: false)
  }

  /// Ends the stream: an incomplete character left over becomes U+FFFD.
  /// The decoder can then start a new stream.
  public func finish() throws(TextError) -> [UInt8] {
    defer {
      icu_converterReset(converter)
      atStart = true
    }
    return try convert([UInt8](), flush: true)
  }

  private func convert<Bytes: Collection<UInt8>>(_ chunk: Bytes, flush: Bool) throws(TextError)
    -> [UInt8]
  {
    let result = withContiguousBytes(chunk) { icu_converterToUTF16(converter, $0, flush: flush) }
    var units: [UInt16]
    switch result {
    case .success(let u): units = u
    case .failure(let status):
      throw TextError(
        code: .conversionFailed, status: status, message: "cannot decode charset '\(charset)'")
    }
    if let high = pendingHighSurrogate {
      units.insert(high, at: 0)
      pendingHighSurrogate = nil
    }
    // Keep a trailing high surrogate until its pair arrives.
    if !flush, let last = units.last, (0xD800...0xDBFF).contains(last) {
      pendingHighSurrogate = units.removeLast()
    }
    if atStart, !units.isEmpty {
      atStart = false
      if units[0] == 0xFEFF { units.removeFirst() }
    }
    return units.withUnsafeBufferPointer { icu_utf8(fromUTF16: $0) }
  }
}

extension CharsetConverter {
  /// A Unicode encoding recognized from a byte-order mark or from the
  /// pattern of zero bytes in mostly-ASCII text (vCard, CSV).
  public struct DetectedEncoding: Hashable, Sendable {
    /// ICU charset name: `UTF-8`, `UTF-16LE`, `UTF-16BE`, `UTF-32LE`, `UTF-32BE`.
    public let charset: String
    /// Length of the byte-order mark (0 when detected without one).
    public let byteOrderMarkLength: Int

    public init(charset: String, byteOrderMarkLength: Int) {
      self.charset = charset
      self.byteOrderMarkLength = byteOrderMarkLength
    }
  }

  /// Recognizes UTF-8/16/32 by byte-order mark, or UTF-16 without one when
  /// the first bytes look like ASCII text in UTF-16 (every other byte zero).
  /// Returns nil when nothing points to a Unicode encoding other than plain
  /// bytes (the caller then assumes UTF-8 or a declared charset).
  public static func detectUnicodeEncoding<Bytes: Collection<UInt8>>(_ bytes: Bytes)
    -> DetectedEncoding?
  {
    let head = Array(bytes.prefix(512))
    func starts(_ bom: [UInt8]) -> Bool { head.starts(with: bom) }
    if starts([0xEF, 0xBB, 0xBF]) { return DetectedEncoding(charset: "UTF-8", byteOrderMarkLength: 3) }
    if starts([0xFF, 0xFE, 0x00, 0x00]) {
      return DetectedEncoding(charset: "UTF-32LE", byteOrderMarkLength: 4)
    }
    if starts([0x00, 0x00, 0xFE, 0xFF]) {
      return DetectedEncoding(charset: "UTF-32BE", byteOrderMarkLength: 4)
    }
    if starts([0xFF, 0xFE]) { return DetectedEncoding(charset: "UTF-16LE", byteOrderMarkLength: 2) }
    if starts([0xFE, 0xFF]) { return DetectedEncoding(charset: "UTF-16BE", byteOrderMarkLength: 2) }
    // No BOM: ASCII in UTF-16 has a zero in every other byte.
    let pairs = head.count / 2
    guard pairs >= 2 else { return nil }
    var evenZeros = 0
    var oddZeros = 0
    for i in 0..<pairs {
      if head[2 * i] == 0 { evenZeros += 1 }
      if head[2 * i + 1] == 0 { oddZeros += 1 }
    }
    if oddZeros * 10 >= pairs * 9 && evenZeros * 10 < pairs {
      return DetectedEncoding(charset: "UTF-16LE", byteOrderMarkLength: 0)
    }
    if evenZeros * 10 >= pairs * 9 && oddZeros * 10 < pairs {
      return DetectedEncoding(charset: "UTF-16BE", byteOrderMarkLength: 0)
    }
    return nil
  }
}
