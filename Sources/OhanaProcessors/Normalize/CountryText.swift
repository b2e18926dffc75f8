import OhanaText

/// Country names and codes as address books write them, in any language,
/// to ISO 3166-1 (issue 46, item 2): the names are CLDR's, through ICU
/// (``CountryNames``), in ``displayLocales``, with the alpha-2 and alpha-3
/// codes and a few names in common use that CLDR does not list
/// (``aliases``). A name that two countries share in some language is
/// left out (it decides nothing).
///
/// Names are compared folded: NFKC with case folding, accents,
/// punctuation and spaces taken off ("Côte d’Ivoire", "COTE D'IVOIRE" and
/// "cote divoire" meet). A name in the ISO standard's inverted form
/// ("Korea, Republic of", "Iran (Islamic Republic of)") is also tried
/// turned round, and an official name without the words before its "of"
/// that describe a state ("Republic of Angola"). Nothing else is guessed:
/// a name that is not known is left as typed, never made another country.
public final class CountryText: Sendable {
  /// The languages whose names are read: the large languages of the
  /// world's address books.
  public static let displayLocales = [
    "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "is", "pl", "cs", "sk", "sl", "hr", "sr", "hu",
    "ro", "bg", "el", "tr", "ru", "uk", "ar", "he", "fa", "hi", "bn", "ur", "ja", "zh", "zh_Hant", "ko", "th", "vi",
    "id", "ms", "fil", "sw", "ca", "eu", "gl", "et", "lv", "lt", "ga", "cy",
  ]

  /// Names in common use that CLDR's standard names leave out (older
  /// names, abbreviations, parts of a country that stand for it in an
  /// address). Facts, typed for this project.
  public static let aliases: [String: String] = [
    "USA": "US", "U.S.A.": "US", "U.S.": "US", "United States of America": "US", "America": "US",
    "UK": "GB", "U.K.": "GB", "Great Britain": "GB", "Britain": "GB", "England": "GB", "Scotland": "GB",
    "Wales": "GB", "Northern Ireland": "GB", "Holland": "NL", "Czech Republic": "CZ", "Swaziland": "SZ",
    "Burma": "MM", "Ivory Coast": "CI", "Macedonia": "MK", "Turkey": "TR", "Russian Federation": "RU",
    "Republic of Korea": "KR", "Democratic People's Republic of Korea": "KP", "Vatican": "VA",
    "Cape Verde": "CV", "East Timor": "TL", "UAE": "AE", "PRC": "CN", "People's Republic of China": "CN",
    "Deutschland": "DE", "BRD": "DE", "Schweiz": "CH", "Suisse": "CH", "Svizzera": "CH", "Österreich": "AT",
    "España": "ES", "Italia": "IT", "Nederland": "NL", "België": "BE", "Belgique": "BE", "Sverige": "SE",
    "Norge": "NO", "Danmark": "DK", "Suomi": "FI", "Polska": "PL", "Brasil": "BR", "México": "MX", "Nippon": "JP",
    "Nihon": "JP", "Democratic Republic of the Congo": "CD", "DR Congo": "CD", "Republic of the Congo": "CG",
    "Hong Kong": "HK", "Macao": "MO", "Macau": "MO", "Palestine": "PS", "Laos": "LA",
    "Lao People's Democratic Republic": "LA", "Caribbean Netherlands": "BQ",
    "Bonaire, Sint Eustatius and Saba": "BQ", "Heard Island and McDonald Islands": "HM", "Holy See": "VA",
    "Syrian Arab Republic": "SY", "United States Minor Outlying Islands": "UM",
    // ISO 3166-1's own names with a part in parentheses.
    "Falkland Islands (Malvinas)": "FK", "Saint Martin (French part)": "MF", "Sint Maarten (Dutch part)": "SX",
    "Holy See (Vatican City State)": "VA", "Taiwan, Province of China": "TW",
    "Saint Helena, Ascension and Tristan da Cunha": "SH",
  ]

  public static let shared = CountryText()

  private let byName: [String: String]
  /// Keys that begin names of two countries ("congo": Congo - Kinshasa and
  /// Congo - Brazzaville): never taken as a country alone.
  private let sharedStarts: Set<String>
  /// Folded alpha-2 and alpha-3 codes → alpha-2.
  private let byCode: [String: String]
  /// Every code, upper case.
  public let codes: Set<String>

  private init() {
    var names: [String: String] = [:]
    var ambiguous: Set<String> = []
    var starts: [String: String] = [:]
    var shared: Set<String> = []
    func add(name: String, _ code: String) {
      let words = Self.words(name)
      for n in 1...max(1, words.count) where n <= words.count {
        let start = words[..<n].joined()
        if let other = starts[start], other != code { shared.insert(start) } else { starts[start] = code }
      }
      add(words.joined(), code)
    }
    func add(_ key: String, _ code: String) {
      guard !key.isEmpty, !ambiguous.contains(key) else { return }
      if let known = names[key], known != code {
        names[key] = nil
        ambiguous.insert(key)
      } else {
        names[key] = code
      }
    }
    let codes = CountryNames.codes
    var byCode: [String: String] = [:]
    for code in codes {
      byCode[Self.key(code)] = code
      if let a3 = CountryNames.alpha3(code) { byCode[Self.key(a3)] = code }
    }
    self.byCode = byCode
    for locale in Self.displayLocales {
      for code in codes {
        if let n = CountryNames.name(code, in: locale) { add(name: n, code) }
      }
    }
    for (alias, code) in Self.aliases { names[Self.key(alias)] = code }
    byName = names
    sharedStarts = shared
    self.codes = Set(codes)
  }

  /// Words that describe a state before "of" in an official name.
  static let stateWords: Set<String> = [
    "republic", "kingdom", "state", "states", "commonwealth", "principality", "grand", "duchy", "sultanate",
    "federal", "federated", "islamic", "united", "democratic", "plurinational", "bolivarian", "independent",
    "socialist", "co", "operative", "cooperative", "oriental", "hashemite", "arab", "peoples", "union", "emirate",
  ]

  /// The ISO 3166-1 alpha-2 code of the country `text` names, or nil.
  /// Never a guess: a name that is not known whole, or in one of the
  /// standard's inverted forms, is nil.
  public func code(_ text: String) -> String? {
    let k = Self.key(text)
    // A code first ("NGA" is also a name of Russia in Vietnamese).
    if k.count == 2 || k.count == 3, k.allSatisfy({ $0.isASCII && $0.isLetter }), let c = byCode[k] { return c }
    if let c = byName[k] { return c }
    // The standard's inverted forms: "Korea, Republic of", "Iran (Islamic
    // Republic of)" → "Republic of Korea", "Islamic Republic of Iran".
    var turned: String? = nil
    if let comma = text.firstIndex(of: ",") {
      turned = String(text[text.index(after: comma)...]) + " " + String(text[..<comma])
    } else if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
      let inside = String(text[text.index(after: open)..<close])
      if Self.words(inside).last == "of" { turned = inside + " " + String(text[..<open]) }
    }
    var candidates = [text]
    if let turned {
      if let c = byName[Self.key(turned)] { return c }
      candidates.append(turned)
    }
    // An official name: "Republic of Angola", "Plurinational State of
    // Bolivia" → the name after the words that describe a state.
    for candidate in candidates {
      let words = Self.words(candidate)
      if let of = words.firstIndex(of: "of"), of > 0, words[..<of].allSatisfy({ Self.stateWords.contains($0) }) {
        if let c = byName[words[(of + 1)...].joined()] { return c }
      }
    }
    // "Bolívia, Estado Plurinacional da" → "Bolívia", unless the part
    // before the comma begins two countries' names ("Congo, ...").
    if let comma = text.firstIndex(of: ",") {
      let head = Self.key(String(text[..<comma]))
      if !sharedStarts.contains(head), let c = byName[head] { return c }
    }
    return nil
  }

  /// The name of `code` in `locale` (CLDR), or nil.
  public func name(_ code: String, locale: String) -> String? { CountryNames.name(code, in: locale) }

  /// `text` folded for comparison (see ``CountryText``): its ``words(_:)``
  /// run together, so that "Guinea-Bissau", "Guinea Bissau" and
  /// "Åland-Inseln", "Ålandinseln" meet.
  static func key(_ text: String) -> String { words(text).joined() }

  /// The words of `text` folded: accents and case off, `&` read as "and",
  /// "St." as "Saint", "the" left out, apostrophes joining ("d'Ivoire").
  static func words(_ text: String) -> [String] {
    let folded = (try? Normalizer.nfkcCasefold.normalize(text)) ?? text.lowercased()
    let decomposed = (try? Normalizer.nfd.normalize(folded)) ?? folded
    var words: [String] = []
    var word = ""
    func close() {
      guard !word.isEmpty else { return }
      switch word {
      case "the": break
      case "st": words.append("saint")
      case "ste": words.append("sainte")
      default: words.append(word)
      }
      word = ""
    }
    for s in decomposed.unicodeScalars {
      switch s.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .spacingMark: continue
      case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter, .decimalNumber:
        word.unicodeScalars.append(s)
      default:
        if s == "'" || s == "\u{2019}" { continue }
        close()
        if s == "&" { words.append("and") }
      }
    }
    close()
    return words
  }
}
