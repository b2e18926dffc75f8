import Foundation
import OhanaDedupe
import OhanaIO
import OhanaPhone

/// One card made of a cluster's cards, as written back to the server: the
/// survivor's text with what the others add, line by line, within the
/// cardinalities of the survivor's version (``VCardCardinality``).
///
/// - Every line of the survivor stays as written (its UID, VERSION, PHOTO,
///   X- properties, groups), except CATEGORIES, whose values are joined
///   with the others'. The others' new nicknames come on NICKNAME lines of
///   their own (Radicale's vobject keeps only the first item of a list).
/// - **A property a card has once** — what ``VCardCardinality`` makes
///   single-valued in the survivor's version (4.0: N, FN, BDAY,
///   ANNIVERSARY, GENDER; 3.0: N, FN, BDAY, SORT-STRING, CLASS; ...), and
///   what a person has one of in an address book (ORG, TITLE, ROLE, PHOTO,
///   LOGO, SOUND, TZ, GEO, Evolution's X-EVOLUTION-FILE-AS) — comes from the
///   survivor; from the first other card that has it when the survivor has
///   none. Another card's value that differs (compared without case and
///   extra spaces; N by its components) is never dropped silently: it is
///   listed in the plan among the cluster's `set_aside`, and
///   - an N or FN that names the same family with another given name, which
///     is not a typo of the survivor's (more than a quarter of its letters
///     differ, in Damerau–Levenshtein distance, and it is not an initial),
///     is a real alternative (`Bob` for `Robert`): its given name joins
///     NICKNAME (vCard 3.0 and 4.0);
///   - any other differing value of a text property is kept in the card as
///     `X-OHANA-ALT-<NAME>` (the other card's parameters and value, its
///     `;` and `,` escaped as a text value's): a typo variant of the name,
///     a second birthday, another organization;
///   - a second PHOTO, LOGO or SOUND, and a second X-EVOLUTION-FILE-AS or
///     SORT-STRING (made from the name), are not carried: the plan lists
///     them, and the undo log keeps the whole card they came from.
/// - Every other property (TEL, EMAIL, ADR, URL, IMPP, NOTE, RELATED, X-
///   properties, ...) of the other cards is added unless the survivor
///   already has it: phones compared as numbers (the same E.164 value, read
///   with the card's country as the default region, else with the region
///   of the cluster's first number written with `+`, else the plan's
///   region), the digits only for what does not parse (trunk zeros left
///   aside, one number ending in the other with 7 digits or more); e-mails
///   without case; the rest by value without case or extra spaces.
/// - A grouped property (`item1.TEL` with its `item1.X-ABLabel`) moves as
///   a unit, under a group name the survivor does not use.
/// - Never taken from the others: BEGIN, END, VERSION, UID, PRODID, REV,
///   KIND, CLIENTPIDMAP; PID parameters are dropped from what is added
///   (they point into the other card's CLIENTPIDMAP).
/// - A vCard 4 phone added to a vCard 3 card loses its `tel:` scheme and
///   `VALUE=uri`, and `PREF=1` becomes `TYPE=pref`.
struct CardMerge {
  static let never: Set<String> = ["BEGIN", "END", "VERSION", "UID", "PRODID", "REV", "KIND", "CLIENTPIDMAP", "X-ADDRESSBOOKSERVER-KIND"]
  /// Single-valued by what a contact is, whatever the version allows.
  static let oncePolicy: Set<String> = [
    "ORG", "TITLE", "ROLE", "PHOTO", "LOGO", "SOUND", "TZ", "GEO", "X-EVOLUTION-FILE-AS",
  ]
  /// Differing values of these are listed, not carried.
  static let notCarried: Set<String> = ["PHOTO", "LOGO", "SOUND", "X-EVOLUTION-FILE-AS", "SORT-STRING"]
  static let lists: Set<String> = ["CATEGORIES", "NICKNAME"]

  /// The region for national numbers when a card says nothing of its own.
  var defaultRegion: RegionCode = .us
  let engine = PhoneNumberEngine()

  /// What the merge did with another card's value that it did not add as
  /// it was (see the type's documentation).
  typealias SetAside = WriteBackPlan.SetAside

  /// The merged card and what it set aside.
  struct Result {
    var card: VCardText
    var setAside: [SetAside]
  }

  static func version(_ card: VCardText) -> VCardCardinality.Version { VCardCardinality.Version(card.version) ?? .v30 }

  /// Names that the survivor's version, or the policy, holds once.
  static func single(_ version: VCardCardinality.Version) -> Set<String> {
    VCardCardinality.singleValued(version).union(oncePolicy).subtracting(["VERSION", "UID", "REV", "PRODID", "KIND"])
  }

  // MARK: Keys

  /// A value as compared: lower case, runs of spaces as one.
  static func folded(_ value: String) -> String {
    value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
  }

  /// The components of a structured value (N, ADR) at unescaped `;`,
  /// folded, trailing empty ones dropped.
  static func components(_ value: String) -> [String] {
    var parts = split(value, at: ";").map(folded)
    while parts.last?.isEmpty == true { parts.removeLast() }
    return parts
  }

  /// The pieces of a value between its unescaped `separator`s (escapes
  /// kept as written).
  static func split(_ value: String, at separator: Unicode.Scalar) -> [String] {
    var parts: [String] = []
    var current = ""
    var escaped = false
    for c in value.unicodeScalars {
      if escaped {
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == separator {
        parts.append(current)
        current = ""
        continue
      }
      current.unicodeScalars.append(c)
    }
    parts.append(current)
    return parts
  }

  /// How two values of a single-valued property are compared.
  static func sameSingle(_ name: String, _ a: String, _ b: String) -> Bool {
    name == "N" || name == "ORG" ? components(a) == components(b) : folded(a) == folded(b)
  }

  /// The digits of a phone value.
  static func digits(_ value: String) -> String {
    var d = ""
    for c in value.unicodeScalars where ("0"..."9").contains(c) { d.unicodeScalars.append(c) }
    return d
  }

  /// A phone value without a `tel:` scheme and its URI parameters.
  static func dialable(_ value: String) -> String {
    var v = value.trimmingCharacters(in: .whitespaces)
    if v.lowercased().hasPrefix("tel:") {
      v = String(v.dropFirst(4))
      if let semi = v.firstIndex(of: ";") {
        let params = v[semi...].lowercased()
        let ext = params.components(separatedBy: ";ext=").dropFirst().first?.split(separator: ";").first
        v = String(v[..<semi]) + (ext.map { " ext. " + $0 } ?? "")
      }
    }
    return v
  }

  /// The E.164 value of a phone read in `region` (its extension after
  /// `;ext=`), nil when it does not parse or is not a valid number.
  func e164(_ value: String, region: RegionCode) -> String? {
    guard let n = try? engine.parse(Self.dialable(value), defaultRegion: region), engine.isValid(n) else { return nil }
    var s = engine.format(n, as: .e164)
    if let ext = n.numberExtension, !ext.isEmpty { s += ";ext=" + ext }
    return s
  }

  /// The region a card's national numbers are read in: its first ADR's
  /// country, else `fallback`.
  func region(of card: VCardText, fallback: RegionCode) -> RegionCode { country(of: card) ?? fallback }

  /// The region of a card's first ADR whose country is known.
  func country(of card: VCardText) -> RegionCode? {
    for l in card.lines where l.name == "ADR" {
      let parts = Self.components(l.value)
      guard parts.count >= 7 else { continue }
      let country = parts[6]
      if !country.isEmpty, let code = CountryRegion.code(forCountry: country), let r = RegionCode(code) { return r }
    }
    return nil
  }

  /// The region of the first number written with `+` among `cards`.
  func plusRegion(_ cards: [VCardText]) -> RegionCode? {
    for card in cards {
      for l in card.lines where l.name == "TEL" && Self.dialable(l.value).hasPrefix("+") {
        if let n = try? engine.parse(Self.dialable(l.value), defaultRegion: .unknown), let r = engine.regionCode(for: n) {
          return r
        }
      }
    }
    return nil
  }

  /// What is known of the merged card's multi-valued properties.
  struct Known {
    var keys = Set<String>()
    /// Phone digits (trunk zeros off) of numbers that did not parse.
    var looseDigits: [String] = []
    var e164 = Set<String>()
  }

  /// The key a non-phone line is the same property by.
  static func key(_ line: VCardText.Line) -> String {
    switch line.name {
    case "EMAIL": return "EMAIL:" + line.value.trimmingCharacters(in: .whitespaces).lowercased()
    default: return line.name + ":" + folded(line.value)
    }
  }

  static func trunkless(_ digits: String) -> Substring {
    var d = Substring(digits)
    while d.first == "0" { d.removeFirst() }
    return d
  }

  /// Whether `line` is already among `known`; phones read in `region` (a
  /// number that parses and is valid there by its E.164 value, any other
  /// by its digits).
  func isKnown(_ line: VCardText.Line, _ known: Known, region: RegionCode) -> Bool {
    guard line.name == "TEL" else { return known.keys.contains(Self.key(line)) }
    if let e = e164(line.value, region: region) { return known.e164.contains(e) }
    let d = Self.trunkless(Self.digits(line.value))
    if known.looseDigits.contains(where: { $0 == d }) { return true }
    guard d.count >= 7 else { return false }
    for other in known.looseDigits + known.e164.map({ String(Self.trunkless(Self.digits($0))) }) where other.count >= 7 {
      if other.hasSuffix(d) || d.hasSuffix(other) { return true }
    }
    return false
  }

  func remember(_ line: VCardText.Line, _ known: inout Known, region: RegionCode) {
    guard line.name == "TEL" else {
      known.keys.insert(Self.key(line))
      return
    }
    if let e = e164(line.value, region: region) {
      known.e164.insert(e)
    } else {
      known.looseDigits.append(String(Self.trunkless(Self.digits(line.value))))
    }
  }

  // MARK: Names

  /// Damerau–Levenshtein distance (optimal string alignment) of two strings.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
    var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in 0...x.count { d[i][0] = i }
    for j in 0...y.count { d[0][j] = j }
    for i in 1...x.count {
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
      }
    }
    return d[x.count][y.count]
  }

  /// Whether `other` is another given name, not a typo of `mine` nor an initial.
  static func isAlternativeGiven(_ other: String, to mine: String) -> Bool {
    let o = other.trimmingCharacters(in: CharacterSet(charactersIn: ". ")), m = mine.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    guard o.count >= 2, m.count >= 2, o != m else { return false }
    return editDistance(o, m) * 4 > min(o.count, m.count)
  }

  /// The given name of `other` (an N or FN line) when it is a real
  /// alternative of the survivor's name `mine` (the same family).
  static func alternativeGivenName(_ name: String, other: String, mine: String) -> String? {
    if name == "N" {
      let o = components(other), m = components(mine)
      guard o.count >= 2, m.count >= 2, !o[0].isEmpty, o[0] == m[0], isAlternativeGiven(o[1], to: m[1]) else { return nil }
      // The given name as the other card wrote it (its case).
      let raw = other.split(separator: ";", omittingEmptySubsequences: false)
      return raw.count >= 2 ? raw[1].trimmingCharacters(in: .whitespaces) : nil
    }
    let o = other.split(separator: " "), m = folded(mine).split(separator: " ")
    guard o.count >= 2, m.count >= 2, folded(String(o[o.count - 1])) == String(m[m.count - 1]),
      isAlternativeGiven(folded(String(o[0])), to: String(m[0]))
    else { return nil }
    return String(o[0])
  }

  /// Splits a CATEGORIES or NICKNAME value at its unescaped commas.
  static func listItems(_ value: String) -> [String] {
    split(value, at: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// A line of another card as the survivor's version writes it, under
  /// `name` (its own by default).
  static func adapted(_ line: VCardText.Line, group: String, to version: String, name: String? = nil) -> VCardText.Line {
    var parameters = line.parameters.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
    parameters.removeAll { $0.uppercased().hasPrefix("PID=") }
    var value = line.value
    if version == "3.0" {
      if line.name == "TEL", value.lowercased().hasPrefix("tel:") {
        value = String(value.dropFirst(4))
        parameters.removeAll { $0.uppercased() == "VALUE=URI" }
      }
      if let i = parameters.firstIndex(where: { $0.uppercased().hasPrefix("PREF=") }) {
        parameters[i] = "TYPE=pref"
      }
    }
    let written = parameters.isEmpty ? "" : ";" + parameters.joined(separator: ";")
    if name == nil && written == line.parameters && value == line.value && group == line.group {
      return line  // as written, folds and all
    }
    return VCardText.written(group: group, name: name ?? line.nameAsWritten, parameters: written, value: value)
  }

  /// A structured value (N's `family;given;...`) as the text value of an
  /// X- property: its unescaped `;` and `,` escaped (RFC 6350 §3.4), so
  /// that a server that re-serializes the card (Radicale) writes it back
  /// unchanged; a text value stays as it is.
  static func asText(_ value: String) -> String {
    var out = String.UnicodeScalarView()
    var escaped = false
    for c in value.unicodeScalars {
      if escaped {
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == ";" || c == "," {
        out.append("\\")
      }
      out.append(c)
    }
    return String(out)
  }

  // MARK: The merge

  /// The survivor with what `others` add (`from`: each card's href, for
  /// the plan's list of what was set aside).
  func merge(survivor: VCardText, others: [(card: VCardText, from: String)]) -> Result {
    let version = survivor.version
    let cardinality = Self.version(survivor)
    let singles = Self.single(cardinality)
    // A card without a country of its own reads its numbers in the
    // cluster's: the first country among its cards, else the region of its
    // first number written with `+`, else the plan's region.
    let cards = [survivor] + others.map(\.card)
    let plus = cards.lazy.compactMap { self.country(of: $0) }.first ?? plusRegion(cards) ?? defaultRegion
    var lines = Array(survivor.lines.dropLast())  // END:VCARD goes back last
    var known = Known()
    let survivorRegion = region(of: survivor, fallback: plus)
    for l in lines { remember(l, &known, region: survivorRegion) }
    /// Values of each single-valued property so far: the survivor's, then
    /// those added, then those carried as X-OHANA-ALT-.
    var singleValues: [String: [String]] = [:]
    for l in lines where singles.contains(l.name) { singleValues[l.name, default: []].append(l.value) }
    var groups = Set(lines.map(\.group))
    var added: [VCardText.Line] = []
    var setAside: [SetAside] = []
    var listAdditions: [String: [String]] = [:]  // CATEGORIES/NICKNAME values to add
    var listKnown: [String: Set<String>] = [:]
    for l in lines where Self.lists.contains(l.name) {
      listKnown[l.name, default: []].formUnion(Self.listItems(l.value).map { $0.lowercased() })
    }

    func freshGroup() -> String {
      var n = 1
      while groups.contains("ITEM\(n)") { n += 1 }
      groups.insert("ITEM\(n)")
      return "ITEM\(n)"
    }

    func addListItem(_ list: String, _ item: String) -> Bool {
      guard listKnown[list, default: []].insert(item.lowercased()).inserted else { return false }
      listAdditions[list, default: []].append(item)
      return true
    }

    /// Another card's line of a single-valued property.
    func single(_ l: VCardText.Line, from: String) {
      let present = singleValues[l.name] ?? []
      if present.isEmpty {
        singleValues[l.name] = [l.value]
        added.append(Self.adapted(l, group: "", to: version))
        return
      }
      // The same as a value the card holds (as the property or beside it).
      if present.contains(where: { Self.sameSingle(l.name, $0, l.value) }) { return }
      var aside = SetAside(property: l.name, value: l.value, from: from, into: "", reason: "")
      if (l.name == "N" || l.name == "FN") && cardinality != .v21,
        let given = Self.alternativeGivenName(l.name, other: l.value, mine: present[0])
      {
        aside.into = "NICKNAME"
        aside.reason = "another given name of the same person (\(cardinality.rawValue) holds one \(l.name))"
        if !addListItem("NICKNAME", given) { aside.reason += "; already a nickname" }
      } else if Self.notCarried.contains(l.name) {
        singleValues[l.name, default: []].append(l.value)
        aside.reason =
          "a second \(l.name) is not carried (the survivor's is kept; the undo log keeps the card it came from)"
      } else {
        singleValues[l.name, default: []].append(l.value)
        aside.into = VCardCardinality.alternativePrefix + l.name
        aside.reason = "the survivor's \(l.name) is kept (\(l.name) occurs once); this value is kept beside it"
        var alt = Self.adapted(l, group: "", to: version, name: aside.into)
        alt = VCardText.written(group: "", name: aside.into, parameters: alt.parameters, value: Self.asText(alt.value))
        added.append(alt)
      }
      setAside.append(aside)
    }

    for (other, from) in others {
      let otherRegion = region(of: other, fallback: plus)
      // Grouped lines first gathered by group, to move as units.
      var byGroup: [String: [VCardText.Line]] = [:]
      var groupOrder: [String] = []
      for l in other.lines where !l.group.isEmpty {
        if Self.never.contains(l.name) { continue }
        if singles.contains(l.name) {
          single(l, from: from)
          continue
        }
        if byGroup[l.group] == nil { groupOrder.append(l.group) }
        byGroup[l.group, default: []].append(l)
      }
      for l in other.lines where l.group.isEmpty {
        if Self.never.contains(l.name) { continue }
        if Self.lists.contains(l.name) {
          for item in Self.listItems(l.value) { _ = addListItem(l.name, item) }
          continue
        }
        if singles.contains(l.name) {
          single(l, from: from)
          continue
        }
        if isKnown(l, known, region: otherRegion) { continue }
        remember(l, &known, region: otherRegion)
        added.append(Self.adapted(l, group: "", to: version))
      }
      for g in groupOrder {
        let members = byGroup[g] ?? []
        let primary = members.filter { !$0.name.hasPrefix("X-AB") }
        let isNew =
          primary.isEmpty
          ? members.contains { !isKnown($0, known, region: otherRegion) }
          : primary.contains { !isKnown($0, known, region: otherRegion) }
        guard isNew else { continue }
        let name = freshGroup()
        for l in members {
          remember(l, &known, region: otherRegion)
          added.append(Self.adapted(l, group: name, to: version))
        }
      }
    }
    // CATEGORIES: the survivor's first line takes the new values; a
    // survivor without one gets a line. NICKNAME: a line for each new
    // nickname (NICKNAME may repeat in 3.0 and 4.0), never a longer list:
    // Radicale's vobject keeps only the first item of a NICKNAME list.
    for nick in listAdditions["NICKNAME"] ?? [] {
      added.append(VCardText.written(group: "", name: "NICKNAME", parameters: "", value: nick))
    }
    for name in Self.lists.sorted() where name != "NICKNAME" {
      guard let extra = listAdditions[name], !extra.isEmpty else { continue }
      if let i = lines.firstIndex(where: { $0.name == name }) {
        let l = lines[i]
        lines[i] = VCardText.written(
          group: l.group, name: l.nameAsWritten, parameters: l.parameters, value: ([l.value] + extra).joined(separator: ","))
      } else {
        added.append(VCardText.written(group: "", name: name, parameters: "", value: extra.joined(separator: ",")))
      }
    }
    guard let end = survivor.lines.last else { return Result(card: survivor, setAside: setAside) }
    return Result(card: VCardText(lines: lines + added + [end]), setAside: setAside)
  }

  // MARK: The check before any request

  /// What makes `card` break its version's cardinalities (empty when it
  /// obeys them); a version other than 2.1, 3.0 and 4.0 is itself one.
  static func violations(_ card: VCardText) -> [String] {
    guard let version = VCardCardinality.Version(card.version) else {
      return ["VERSION \(card.version.isEmpty ? "is missing" : "\(card.version) is not 2.1, 3.0 or 4.0")"]
    }
    // A line without a colon is no property (RFC 6350 §3.3): not counted,
    // but a card holding one is not sent either.
    // Blank lines are no line at all.
    let content = card.lines.filter { $0.raw.unicodeScalars.contains(":") }
    let properties = content.filter { $0.name != "BEGIN" && $0.name != "END" }.map { l in
      (name: l.name, altID: altID(l.parameters))
    }
    var out = VCardCardinality.violations(properties, version: version).map(\.description)
    let blank = card.lines.filter { $0.raw.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" } }
    let malformed = card.lines.count - content.count - blank.count
    if malformed > 0 { out.append("\(malformed) line(s) without a colon, not a property") }
    return out
  }

  /// The ALTID parameter's value in `parameters` (`;A=b;ALTID=1`), nil when none.
  static func altID(_ parameters: String) -> String? {
    for p in parameters.split(separator: ";") where p.uppercased().hasPrefix("ALTID=") {
      return String(p.dropFirst(6)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
    return nil
  }
}
