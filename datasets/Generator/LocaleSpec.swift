/// One name as written in its script, with a Latin form (for e-mail
/// addresses and transliterated duplicates) and an optional phonetic
/// reading (Japanese kana for X-PHONETIC-* properties).
struct NameEntry: Sendable, Equatable {
  var native: String
  var latin: String
  var phonetic: String?
}

enum NameOrder: Sendable {
  /// "Given Family" (most of the world).
  case givenFirst
  /// "FamilyGiven" with no space (Chinese, Korean).
  case familyFirstJoined
  /// "Family Given" (Japanese, Vietnamese).
  case familyFirstSpaced
}

enum StreetStyle: Sendable {
  case numberFirst        // 12 Main Street
  case numberLast         // Hauptstraße 12
  case numberLastComma    // Calle Mayor, 12
  case numberFirstComma   // 12, Station Road
  case russian            // ул. Ленина, д. 12
  case turkish            // Atatürk Caddesi No: 12
  case chinese            // 中山路12号
  case japanese           // 本町1-2-3
}

struct City: Sendable {
  var name: String
  var region: String
  /// `#` is a digit, `@` an upper-case letter.
  var postal: String
}

struct Company: Sendable {
  var name: String
  var domain: String
}

/// Everything the generator knows about one locale: names, places, how
/// addresses are written and which phone plan applies. A class, so that
/// handing a locale around costs one reference count, not twenty.
final class LocaleSpec: Sendable {
  let tag: String
  let region: String
  let country: String
  let order: NameOrder
  let weight: Int
  let female: [NameEntry]
  let male: [NameEntry]
  let family: [NameEntry]
  /// Female forms of family names where the language has them, parallel to `family`.
  let familyFemale: [NameEntry]?
  let middle: [NameEntry]
  let nicknames: [String: [String]]
  let cities: [City]
  let streets: [String]
  let streetStyle: StreetStyle
  let domains: [String]
  let companies: [Company]
  let notes: [String]
  /// Whether names use a non-Latin script (transliteration is a variation).
  let nonLatin: Bool
  let plan: PhonePlan

  init(
    tag: String, region: String, country: String, order: NameOrder, weight: Int,
    female: [NameEntry], male: [NameEntry], family: [NameEntry], familyFemale: [NameEntry]? = nil,
    middle: [NameEntry] = [], nicknames: [String: [String]], cities: [City], streets: [String],
    streetStyle: StreetStyle, domains: [String], companies: [Company], notes: [String] = [],
    nonLatin: Bool = false
  ) {
    self.tag = tag
    self.region = region
    self.country = country
    self.order = order
    self.weight = weight
    self.female = female
    self.male = male
    self.family = family
    self.familyFemale = familyFemale
    self.middle = middle
    self.nicknames = nicknames
    self.cities = cities
    self.streets = streets
    self.streetStyle = streetStyle
    self.domains = domains
    self.companies = companies
    self.notes = notes
    self.nonLatin = nonLatin
    // Every locale's region has a plan; a test checks the table.
    plan = phonePlans[region] ?? usPhonePlan
  }
}

// MARK: Compact literals for the tables

/// "Native|latin|phonetic, ..." → entries; latin defaults to the lowercased native.
func names(_ list: String) -> [NameEntry] {
  list.split(separator: ",").map { raw in
    let parts = raw.trimmingSpaces().split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    let native = parts[0]
    let latin = parts.count > 1 && !parts[1].isEmpty ? parts[1] : native.lowercased()
    let phonetic = parts.count > 2 ? parts[2] : nil
    return NameEntry(native: native, latin: latin, phonetic: phonetic)
  }
}

/// "William=Bill/Will, Robert=Bob" → [given: nicknames].
func nicknames(_ list: String) -> [String: [String]] {
  var out: [String: [String]] = [:]
  for raw in list.split(separator: ",") {
    let kv = raw.trimmingSpaces().split(separator: "=")
    guard kv.count == 2 else { continue }
    out[String(kv[0])] = kv[1].split(separator: "/").map(String.init)
  }
  return out
}

/// "City|Region|postal; ..." → cities.
func cities(_ list: String) -> [City] {
  list.split(separator: ";").map { raw in
    let p = raw.trimmingSpaces().split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    return City(name: p[0], region: p.count > 1 ? p[1] : "", postal: p.count > 2 ? p[2] : "")
  }
}

/// "Name|domain; ..." → companies.
func companies(_ list: String) -> [Company] {
  list.split(separator: ";").map { raw in
    let p = raw.trimmingSpaces().split(separator: "|").map(String.init)
    return Company(name: p[0], domain: p.count > 1 ? p[1] : "example.com")
  }
}

func list(_ s: String) -> [String] {
  s.split(separator: ";").map { $0.trimmingSpaces() }
}

extension Substring {
  func trimmingSpaces() -> String {
    var s = self[...]
    while let f = s.first, f == " " || f == "\n" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\n" { s = s.dropLast() }
    return String(s)
  }
}
