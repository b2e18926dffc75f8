/// Unicode case folding for caseless matching (`"Straße"` → `"strasse"`,
/// `"ΣΊΣΥΦΟΣ"` → `"σίσυφοσ"`), over ICU's `UCaseMap`.
///
/// Folding is locale-independent except for the Turkic dotted/dotless i
/// (``turkic``). A `CaseFolder` is immutable and may be shared across threads
/// (ICU's case-mapping functions take the `UCaseMap` as const).
public final class CaseFolder: Sendable {
  private let caseMap: ICUHandle
  private let asciiFastPath: Bool

  /// Default folding (`U_FOLD_CASE_DEFAULT`).
  public static let `default`: CaseFolder = CaseFolder(excludeSpecialI: false)
  /// Turkic folding (`U_FOLD_CASE_EXCLUDE_SPECIAL_I`): `I` → `ı`, `İ` → `i`.
  public static let turkic: CaseFolder = CaseFolder(excludeSpecialI: true)

  private init(excludeSpecialI: Bool) {
    let (handle, _) = icu_caseMapOpen(locale: nil, excludeSpecialI: excludeSpecialI)
    // ucasemap_open fails only when out of memory.
    guard let handle else { fatalError("ucasemap_open failed: out of memory") }
    caseMap = handle
    // ASCII folds to ASCII lowercase, except I under Turkic rules.
    asciiFastPath = !excludeSpecialI
  }

  deinit { icu_caseMapClose(caseMap) }

  /// Case-folds UTF-8 bytes. The corresponding C function is `ucasemap_utf8FoldCase`.
  /// Ill-formed bytes are copied through.
  public func fold<Bytes: Collection<UInt8>>(utf8: Bytes) -> [UInt8] {
    withContiguousBytes(utf8) { bytes in
      if asciiFastPath && isASCII(bytes) { return asciiLowercased(bytes) }
      switch icu_foldCaseUTF8(caseMap, bytes) {
      case .success(let folded): return folded
      case .failure: return Array(bytes)
      }
    }
  }

  /// Case-folds many strings on all cores; output `i` belongs to input `i`.
  public func fold(_ strings: ByteStrings, parallel: Bool = true) -> ByteStrings {
    ByteStrings.build(count: strings.count, parallel: parallel) { indices, chunk in
      for i in indices {
        chunk.bytes.append(contentsOf: self.fold(utf8: strings[i]))
        chunk.close()
      }
    }
  }

  /// Case-folds a string. The corresponding C function is `ucasemap_utf8FoldCase`.
  public func fold(_ string: String) -> String {
    String(decoding: fold(utf8: string.utf8), as: UTF8.self)
  }

  /// Lowercases UTF-8 bytes (root locale rules; for display, not matching).
  /// The corresponding C function is `ucasemap_utf8ToLower`.
  public func lowercase<Bytes: Collection<UInt8>>(utf8: Bytes) -> [UInt8] {
    withContiguousBytes(utf8) { bytes in
      switch icu_lowercaseUTF8(caseMap, bytes) {
      case .success(let lowered): return lowered
      case .failure: return Array(bytes)
      }
    }
  }

  private func asciiLowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    bytes.map { b in (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }
  }
}

/// Case-folds a string with ``CaseFolder/default``.
public func caseFold(_ string: String) -> String { CaseFolder.default.fold(string) }
