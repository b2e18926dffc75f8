import COhanaICU

extension Collator {
  /// How many levels of difference count (`UCOL_STRENGTH`).
  public enum Strength: Sendable, Hashable {
    /// Base letters only: `a` = `á` = `A`.
    case primary
    /// Base letters and accents: `a` = `A` < `á`.
    case secondary
    /// Letters, accents and case (ICU's default): `a` < `A` < `á`.
    case tertiary
    /// Adds a level for punctuation when ``AlternateHandling/shifted``.
    case quaternary
    /// Ties broken by code point order after all levels.
    case identical

    var icuValue: Int32 {
      switch self {
      case .primary: OHANA_ICU_COL_PRIMARY
      case .secondary: OHANA_ICU_COL_SECONDARY
      case .tertiary: OHANA_ICU_COL_TERTIARY
      case .quaternary: OHANA_ICU_COL_QUATERNARY
      case .identical: OHANA_ICU_COL_IDENTICAL
      }
    }
  }

  /// Whether spaces and punctuation count (`UCOL_ALTERNATE_HANDLING`).
  public enum AlternateHandling: Sendable, Hashable {
    /// Spaces and punctuation sort as characters (ICU's default).
    case nonIgnorable
    /// Spaces and punctuation are ignored at levels 1–3: "de la" = "dela".
    case shifted

    var icuValue: Int32 {
      switch self {
      case .nonIgnorable: OHANA_ICU_COL_NON_IGNORABLE
      case .shifted: OHANA_ICU_COL_SHIFTED
      }
    }
  }

  /// Which case sorts first at the tertiary level (`UCOL_CASE_FIRST`).
  public enum CaseFirst: Sendable, Hashable {
    case lowerFirst
    case upperFirst

    var icuValue: Int32 {
      switch self {
      case .lowerFirst: OHANA_ICU_COL_LOWER_FIRST
      case .upperFirst: OHANA_ICU_COL_UPPER_FIRST
      }
    }
  }
}
