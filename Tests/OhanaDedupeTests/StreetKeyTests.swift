import OhanaCore
import OhanaPhone
import OhanaProcessors
import Testing

@testable import OhanaDedupe

/// Dedupe's street key (``KeyFunctions/streetKey(_:language:)``) reads
/// street types as `normalize --comparison-keys` does. The oracle is
/// ``StreetText/key(_:country:)``, a separate implementation over Swift
/// strings (its own words, its own case folding): two streets of one
/// country have one dedupe key exactly when they have one comparison key.
@Suite struct StreetKeyTests {
  static func key(_ street: String, country: String?) -> UInt64 {
    let region = country.flatMap { RegionCode($0) }?.rawValue ?? 0
    let language = StreetTypes.shared.language(region: region)
    return Array(street.utf8).withUnsafeBytes { KeyFunctions.streetKey($0, language: language, types: StreetTypes.shared) }
  }

  /// Streets written with every form of their type, in each language's
  /// order, with names that hold type words themselves (`St Johns`,
  /// `Court`), house numbers and trailing words.
  static func streets(_ language: StreetText.Language) -> [String] {
    // Forms whose case folding is the same in both (the dedupe key folds
    // ASCII case only; the comparison key folds all, and NFKC makes `º`
    // an `o`): the ordinal signs left out, capitals only of ASCII forms.
    let forms = (StreetText.tables[language] ?? [:]).keys.sorted().filter { !$0.contains("º") && !$0.contains("ª") }
    // Every form, as typed and capitalised, with and without a dot.
    let typed = forms.flatMap { f in
      [f, f.capitalized + "."] + (f.utf8.allSatisfy { $0 < 0x80 } ? [f.uppercased()] : [])
    }
    switch language {
    case .en:
      return typed.flatMap { ["12 Main \($0)", "7 St Johns \($0)", "Court \($0) North", "\($0)"] }
    case .fr, .es, .it, .pt:
      return typed.flatMap { ["12 \($0) de la Paix", "\($0) Mayor 5", "\($0)"] }
    case .de, .nl:
      // (A type word alone, no type, is its words: `Straße` alone and
      // `strasse` alone differ here, as the dedupe key folds no `ß`.)
      return typed.flatMap { ["Haupt\($0) 5", "Am Kanal \($0) 3"] + ($0.utf8.allSatisfy { $0 < 0x80 } ? [$0] : []) }
    }
  }

  static let countries: [StreetText.Language: String] = [
    .en: "US", .de: "DE", .nl: "NL", .fr: "FR", .es: "ES", .it: "IT", .pt: "BR",
  ]

  @Test(arguments: StreetText.Language.allCases)
  func oneKeyExactlyWhenTheComparisonKeyIsOne(_ language: StreetText.Language) {
    let country = Self.countries[language]
    let streets = Self.streets(language)
    var byKey: [UInt64: Set<String>] = [:]
    var byText: [String: Set<UInt64>] = [:]
    for s in streets {
      let k = Self.key(s, country: country)
      // The oracle's key, without the spaces (the dedupe key hashes the
      // words end to end).
      let text = StreetText.key(s, country: country).replacingOccurrences(of: " ", with: "")
      byKey[k, default: []].insert(text)
      byText[text, default: []].insert(k)
    }
    for (k, texts) in byKey { #expect(texts.count == 1, "key \(k): \(texts.sorted())") }
    for (t, keys) in byText { #expect(keys.count == 1, "\(t): \(keys.count) keys") }
    // And the types were read: fewer keys than streets.
    #expect(byKey.count < streets.count / 2, "\(byKey.count) keys for \(streets.count) streets")
  }

  @Test func theLanguagesAreInTheirCasesOrder() {
    for (i, l) in StreetTypes.languages.enumerated() { #expect(StreetTypes.kind(i) == l) }
    #expect(StreetTypes.kind(StreetTypes.englishIndex) == .en)
    #expect(StreetTypes.kind(StreetTypes.languages.count) == nil)
  }

  @Test func examples() {
    #expect(Self.key("12 Main St.", country: "US") == Self.key("12 MAIN STREET", country: nil))
    #expect(Self.key("12 Main St", country: "US") != Self.key("12 Main Ave", country: "US"))
    #expect(Self.key("Hauptstr. 5", country: "DE") == Self.key("Hauptstraße 5", country: "DE"))
    #expect(Self.key("12 av. de la République", country: "FR") == Self.key("12 Avenue de la République", country: "FR"))
    // A country whose language has no table: the words as written.
    #expect(Self.key("1 Main St", country: "JP") != Self.key("1 Main Street", country: "JP"))
    // No type at all: the key of the words alone (as before).
    let plain = Array("12 Elm".utf8).withUnsafeBytes { KeyFunctions.streetKey($0) }
    #expect(Self.key("12 Elm", country: "US") == plain)
  }
}
