import COhanaICU

/// A locale's collation (sort order), over ICU's `UCollator`.
///
/// Create one per locale and options and share it freely: it is `Sendable`.
/// ICU collators must not be used by two threads at once, so the collator
/// keeps a pool of clones and lends one to each calling thread (see
/// ``sortKeys(for:parallel:)`` for the bulk path, which takes one clone per
/// worker for a whole chunk).
///
/// ```swift
/// let de = try Collator(locale: "de")
/// de.compare("Äpfel", "Zebra")   // .ascending
/// let key = de.sortKey("Müller") // bytes; compare keys with memcmp
/// ```
///
/// Sort keys compare byte-wise exactly like ``compare(_:_:)``: that is how
/// OhanaText sorts without a pairwise ICU call (see ``KeySort``).
///
/// Locales are ICU locale ids or BCP 47 tags: `en`, `de`,
/// `de-u-co-phonebk` (or `de@collation=phonebook`), `sv`, `ja`,
/// `zh-u-co-pinyin`, `root`. A locale ICU has no data for falls back to
/// the root collation; ``actualLocale`` tells which data was used.
public final class Collator: Sendable {
  /// The locale as given.
  public let locale: String
  /// The locale's ICU id (BCP 47 tags converted), as passed to `ucol_open`.
  public let icuLocale: String
  /// The strength the collator was made with.
  public let strength: Strength
  /// The alternate handling the collator was made with.
  public let alternate: AlternateHandling
  /// The locale whose collation data ICU actually uses (`ucol_getLocaleByType`),
  /// e.g. `root` for a locale without its own tailoring.
  public let actualLocale: String
  /// `U_USING_DEFAULT_WARNING` when ICU fell back to root data, else `zeroError`
  /// or another warning from `ucol_open`.
  public let openStatus: ICUStatus

  let pool: ICUClonePool

  /// Opens a collator. The corresponding C function is `ucol_open`, followed by
  /// `ucol_setAttribute` for each option given.
  ///
  /// - Parameters:
  ///   - locale: an ICU locale id or BCP 47 tag (`de`, `de-u-co-phonebk`, `root`).
  ///   - strength: levels of difference that count (default tertiary).
  ///   - alternate: whether spaces and punctuation count (default non-ignorable).
  ///   - caseFirst: upper or lower case first; nil keeps the locale's default.
  ///   - caseLevel: an extra level for case only; nil keeps the locale's default.
  ///   - numeric: digits sort by numeric value ("2" < "10"); nil keeps the default.
  /// - Throws: ``TextError`` with code ``TextError/Code/collatorUnavailable`` or
  ///   ``TextError/Code/invalidAttribute``.
  public init(
    locale: String,
    strength: Strength = .tertiary,
    alternate: AlternateHandling = .nonIgnorable,
    caseFirst: CaseFirst? = nil,
    caseLevel: Bool? = nil,
    numeric: Bool? = nil
  ) throws(TextError) {
    let icuLocale = Collator.icuLocaleID(locale)
    let (opened, status) = icu_collatorOpen(icuLocale)
    guard let handle = opened else {
      throw TextError(
        code: .collatorUnavailable, status: status,
        message: "cannot open a collator for locale '\(locale)'")
    }
    var settings: [(Int32, Int32, String)] = [
      (OHANA_ICU_COL_STRENGTH, strength.icuValue, "strength"),
      (OHANA_ICU_COL_ALTERNATE_HANDLING, alternate.icuValue, "alternate"),
    ]
    if let caseFirst { settings.append((OHANA_ICU_COL_CASE_FIRST, caseFirst.icuValue, "caseFirst")) }
    if let caseLevel {
      settings.append((OHANA_ICU_COL_CASE_LEVEL, caseLevel ? OHANA_ICU_COL_ON : OHANA_ICU_COL_OFF, "caseLevel"))
    }
    if let numeric {
      settings.append(
        (OHANA_ICU_COL_NUMERIC_COLLATION, numeric ? OHANA_ICU_COL_ON : OHANA_ICU_COL_OFF, "numeric"))
    }
    for (attribute, value, name) in settings {
      let result = icu_collatorSetAttribute(handle, attribute, value)
      if result.isFailure {
        icu_collatorClose(handle)
        throw TextError(
          code: .invalidAttribute, status: result,
          message: "collator for '\(locale)' rejected \(name)")
      }
    }
    self.locale = locale
    self.icuLocale = icuLocale
    self.strength = strength
    self.alternate = alternate
    self.openStatus = status
    self.actualLocale = icu_collatorLocale(handle, actual: true)
    self.pool = ICUClonePool(
      prototype: handle, clone: icu_collatorClone, close: icu_collatorClose)
  }

  /// Converts a BCP 47 tag (`de-u-co-phonebk`) to an ICU locale id
  /// (`de@collation=phonebook`); ICU ids (`de_DE`, `root`) pass unchanged.
  static func icuLocaleID(_ locale: String) -> String {
    guard locale.utf8.contains(UInt8(ascii: "-")), !locale.utf8.contains(UInt8(ascii: "@"))
    else { return locale }
    return icu_localeForLanguageTag(locale) ?? locale
  }
}

/// The result of a collation comparison.
public enum CollationOrder: Int8, Sendable, Hashable {
  case ascending = -1
  case same = 0
  case descending = 1
}

extension Collator {
  /// Compares two UTF-8 strings. The corresponding C function is `ucol_strcollUTF8`.
  /// Ill-formed UTF-8 compares as U+FFFD.
  public func compare<A: Collection<UInt8>, B: Collection<UInt8>>(utf8 a: A, _ b: B)
    -> CollationOrder
  {
    withContiguousBytes(a) { pa in
      withContiguousBytes(b) { pb in
        let r = pool.withInstance { icu_compareUTF8($0, pa, pb) }
        return r < 0 ? .ascending : (r > 0 ? .descending : .same)
      }
    }
  }

  /// Compares two strings. The corresponding C function is `ucol_strcollUTF8`.
  public func compare(_ a: String, _ b: String) -> CollationOrder {
    compare(utf8: a.utf8, b.utf8)
  }

  /// The sort key of a UTF-8 string: bytes that compare (as unsigned bytes,
  /// shorter first on a common prefix) like the strings do under this collator.
  /// The key ends with a zero byte and holds no other zero byte.
  /// The corresponding C function is `ucol_getSortKey`.
  public func sortKey<Bytes: Collection<UInt8>>(utf8: Bytes) -> [UInt8] {
    var out: [UInt8] = []
    appendSortKey(utf8: utf8, to: &out)
    return out
  }

  /// The sort key of a string; see ``sortKey(utf8:)``.
  public func sortKey(_ string: String) -> [UInt8] { sortKey(utf8: string.utf8) }

  /// Appends the sort key of a UTF-8 string to a byte arena and returns the
  /// key's length in bytes.
  @discardableResult
  public func appendSortKey<Bytes: Collection<UInt8>>(utf8: Bytes, to arena: inout [UInt8]) -> Int {
    withContiguousBytes(utf8) { bytes in
      pool.withInstance { handle in
        var writer = SortKeyWriter()
        return writer.append(bytes, collator: handle, to: &arena)
      }
    }
  }
}

/// Runs `body` over the bytes of `c`, copying only when `c` is not contiguous.
@inline(__always)
func withContiguousBytes<C: Collection<UInt8>, R>(
  _ c: C, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
) rethrows -> R {
  if let r = try c.withContiguousStorageIfAvailable(body) { return r }
  return try Array(c).withUnsafeBufferPointer(body)
}
