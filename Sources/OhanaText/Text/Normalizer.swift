/// Unicode normalization (NFC, NFD, NFKC, NFKC_Casefold), over ICU's `UNormalizer2`.
///
/// A value type naming a form; the ICU instances behind it are process-wide,
/// immutable and thread-safe, so a `Normalizer` can be used from any thread.
///
/// ```swift
/// Normalizer.nfc.normalize("Mu\u{0308}ller")  // "Müller" (one scalar ü)
/// Normalizer.nfkc.normalize("ｶﾀｶﾅ")           // "カタカナ"
/// ```
public struct Normalizer: Sendable, Hashable {
  /// A normalization form.
  public enum Form: Sendable, Hashable {
    case nfc, nfd, nfkc
    /// NFKC, then case folding, then removal of default-ignorables: a
    /// matching key (`"Straße"` → `"strasse"`).
    case nfkcCasefold
  }

  /// The form this normalizer produces.
  public let form: Form

  public init(_ form: Form) { self.form = form }

  public static let nfc = Normalizer(.nfc)
  public static let nfd = Normalizer(.nfd)
  public static let nfkc = Normalizer(.nfkc)
  public static let nfkcCasefold = Normalizer(.nfkcCasefold)

  /// Normalizes UTF-8 bytes (ill-formed bytes become U+FFFD).
  /// The corresponding C function is `unorm2_normalize`.
  /// - Throws: ``TextError`` (``TextError/Code/transformFailed``) if ICU's data is missing.
  public func normalize<Bytes: Collection<UInt8>>(utf8: Bytes) throws(TextError) -> [UInt8] {
    // Fast path: ASCII is already NFC, NFD and NFKC.
    if form != .nfkcCasefold, let ascii = utf8.withContiguousStorageIfAvailable({ isASCII($0) }),
      ascii
    {
      return Array(utf8)
    }
    let (instance, status) = icu_normalizerInstance(form)
    guard let instance else { throw failure(status) }
    let result: Result<[UInt16], ICUStatus> = withContiguousBytes(utf8) { bytes in
      let units = icu_utf16(fromUTF8: bytes)
      return units.withUnsafeBufferPointer { src in
        if icu_isNormalized(instance, src) { return .success(units) }
        return icu_normalize(instance, src)
      }
    }
    switch result {
    case .success(let units): return units.withUnsafeBufferPointer { icu_utf8(fromUTF16: $0) }
    case .failure(let status): throw failure(status)
    }
  }

  /// Normalizes many strings on all cores; output `i` belongs to input `i`.
  /// - Throws: ``TextError`` (``TextError/Code/transformFailed``) if ICU's data is missing.
  public func normalize(_ strings: ByteStrings, parallel: Bool = true) throws(TextError)
    -> ByteStrings
  {
    let (instance, status) = icu_normalizerInstance(form)
    guard instance != nil else { throw failure(status) }
    let normalizer = self
    return ByteStrings.build(count: strings.count, parallel: parallel) { indices, chunk in
      for i in indices {
        let source = strings[i]
        let out = (try? normalizer.normalize(utf8: source)) ?? Array(source)
        chunk.bytes.append(contentsOf: out)
        chunk.close()
      }
    }
  }

  /// Normalizes a string. The corresponding C function is `unorm2_normalize`.
  public func normalize(_ string: String) throws(TextError) -> String {
    String(decoding: try normalize(utf8: string.utf8), as: UTF8.self)
  }

  /// Whether UTF-8 bytes are already in this form. The corresponding C function is
  /// `unorm2_isNormalized`.
  public func isNormalized<Bytes: Collection<UInt8>>(utf8: Bytes) -> Bool {
    let (instance, _) = icu_normalizerInstance(form)
    guard let instance else { return false }
    return withContiguousBytes(utf8) { bytes in
      icu_utf16(fromUTF8: bytes).withUnsafeBufferPointer { icu_isNormalized(instance, $0) }
    }
  }

  private func failure(_ status: ICUStatus) -> TextError {
    TextError(code: .transformFailed, status: status, message: "normalization to \(form) failed")
  }
}

@inline(__always)
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  var all: UInt8 = 0
  for b in bytes { all |= b }
  return all < 0x80
}
