/// Countries as CLDR names them, through ICU (`uloc.h`): the ISO 3166-1
/// codes ICU knows, their alpha-3 codes, and their names in any locale.
public enum CountryNames {
  /// Every ISO 3166-1 alpha-2 code (`uloc_getISOCountries`; deprecated
  /// codes are not among them).
  public static let codes: [String] = icu_isoCountries()

  /// The alpha-3 code of `code` (`DE` → `DEU`), nil when ICU has none.
  public static func alpha3(_ code: String) -> String? {
    let a = icu_iso3Country("und_" + code)
    return a.isEmpty ? nil : a
  }

  /// The name of the country `code` in `locale` (`DE` in `fr` →
  /// `Allemagne`), nil when CLDR has none (ICU answers with the code).
  public static func name(_ code: String, in locale: String) -> String? {
    guard let n = icu_displayCountry("und_" + code, in: locale), n != code else { return nil }
    return n
  }
}
