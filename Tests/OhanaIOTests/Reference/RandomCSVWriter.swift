import Foundation

/// Writes random CSV files the way contact exporters do: our own header,
/// Google Contacts (old and new) and Outlook headers, with cells holding
/// commas, quotes, embedded LF / CR LF / CR, blanks at both ends, empty
/// cells, accents, CJK and emoji; sometimes a byte order mark, LF or CR LF
/// record ends, short records, blank records, stray quotes inside unquoted
/// cells and text after a closing quote (both read leniently, as documented).
struct RandomCSVWriter {
  enum Style: CaseIterable { case ours, googleOld, googleNew, outlook }

  /// What a column's cells hold: `multi` cells may carry Google's " ::: ".
  enum Content { case text, multi, label }

  static func numbered(_ n: ClosedRange<Int>, _ make: (Int) -> [String]) -> [String] {
    var out: [String] = []
    for i in n { out.append(contentsOf: make(i)) }
    return out
  }

  static let ours: [String] = {
    var a: [String] = [
      "uid", "fullName", "givenName", "familyName", "middleName", "prefix", "suffix", "nickname", "organization",
      "department", "jobTitle", "birthday", "note",
    ]
    for k in ["phone", "email", "url", "impp", "other"] {
      a += numbered(1...2) { ["\(k) \($0) label", "\(k) \($0) value"] }
    }
    let parts: [String] = ["label", "street", "locality", "region", "postalCode", "country", "poBox", "extended"]
    a += numbered(1...2) { n in parts.map { "address \(n) \($0)" } }
    a += [
      "email 3 type", "website 1 value", "address 3 city", "address 3 postal code", "address 3 po box",
      "address 3 extended address", "im 1 value",
    ]
    return a
  }()

  static let googleOld: [String] = {
    var a: [String] = [
      "Name", "Given Name", "Additional Name", "Family Name", "Yomi Name", "Given Name Yomi", "Name Prefix",
      "Name Suffix", "Initials", "Nickname", "Short Name", "Maiden Name", "Birthday", "Gender", "Location",
      "Occupation", "Notes", "Language", "Photo", "Group Membership",
    ]
    a += numbered(1...3) { ["E-mail \($0) - Type", "E-mail \($0) - Value"] }
    a += numbered(1...3) { ["Phone \($0) - Type", "Phone \($0) - Value"] }
    let parts: [String] = [
      "Type", "Formatted", "Street", "City", "PO Box", "Region", "Postal Code", "Country", "Extended Address",
    ]
    a += numbered(1...2) { n in parts.map { "Address \(n) - \($0)" } }
    a += [
      "Organization 1 - Type", "Organization 1 - Name", "Organization 1 - Yomi Name", "Organization 1 - Title",
      "Organization 1 - Department", "Organization 1 - Symbol", "Organization 1 - Location",
      "Website 1 - Type", "Website 1 - Value", "IM 1 - Type", "IM 1 - Service", "IM 1 - Value",
      "Relation 1 - Type", "Relation 1 - Value", "Custom Field 1 - Type", "Custom Field 1 - Value",
    ]
    return a
  }()

  static let googleNew: [String] = {
    var a: [String] = [
      "First Name", "Middle Name", "Last Name", "Phonetic First Name", "Name Prefix", "Name Suffix", "Nickname",
      "File As", "Organization Name", "Organization Title", "Organization Department", "Birthday", "Notes",
      "Photo", "Labels",
    ]
    a += numbered(1...2) { ["E-mail \($0) - Label", "E-mail \($0) - Value"] }
    a += numbered(1...3) { ["Phone \($0) - Label", "Phone \($0) - Value"] }
    a += [
      "Address 1 - Label", "Address 1 - Formatted", "Address 1 - Street", "Address 1 - City",
      "Address 1 - PO Box", "Address 1 - Region", "Address 1 - Postal Code", "Address 1 - Country",
      "Address 1 - Extended Address", "Website 1 - Label", "Website 1 - Value",
    ]
    return a
  }()

  static let outlook: [String] = [
    "Title", "First Name", "Middle Name", "Last Name", "Suffix", "Company", "Department", "Job Title",
    "Business Street", "Business Street 2", "Business Street 3", "Business City", "Business State",
    "Business Postal Code", "Business Country/Region", "Home Street", "Home Street 2", "Home Street 3",
    "Home City", "Home State", "Home Postal Code", "Home Country/Region", "Other Street", "Other City",
    "Other State", "Other Postal Code", "Other Country/Region", "Assistant's Phone", "Business Fax",
    "Business Phone", "Business Phone 2", "Callback", "Car Phone", "Company Main Phone", "Home Fax",
    "Home Phone", "Home Phone 2", "ISDN", "Mobile Phone", "Other Fax", "Other Phone", "Pager", "Primary Phone",
    "Radio Phone", "TTY/TDD Phone", "Telex", "Account", "Anniversary", "Birthday", "Business Address PO Box",
    "Categories", "E-mail Address", "E-mail Type", "E-mail Display Name", "E-mail 2 Address", "E-mail 2 Type",
    "E-mail 3 Address", "Home Address PO Box", "Keywords", "Notes", "Other Address PO Box", "Web Page",
    "Personal Web Page", "User 1",
  ]

  /// Columns no style maps: kept as extras (names that need escaping).
  static let strangers = [
    "X Custom", "Custom, Field", "Caret^Name", "Quote\"d", "Colon:Field", "Semi;colon", "Ünïcödé 列", "", "  ",
    "sourceProvider", "phone 1 foo",
  ]

  var r: SplitMix64
  var lineEnd: String
  var mixedLineEnds: Bool

  init(seed: UInt64) {
    r = SplitMix64(seed: seed)
    lineEnd = "\n"
    mixedLineEnds = false
  }

  mutating func header(_ style: Style) -> [String] {
    var names: [String]
    switch style {
    case .ours: names = Self.ours
    case .googleOld: names = Self.googleOld
    case .googleNew: names = Self.googleNew
    case .outlook: names = Self.outlook
    }
    // Some columns left out, a few strangers in, sometimes shuffled.
    names = names.filter { _ in r.chance(0.85) }
    for s in Self.strangers where r.chance(0.2) { names.insert(s, at: r.below(names.count + 1)) }
    if r.chance(0.3) { names.shuffle(using: &r) }
    // Matching ignores case and surrounding blanks.
    return names.map { n in
      var n = n
      if r.chance(0.1) { n = r.chance(0.5) ? n.uppercased() : n.lowercased() }
      if r.chance(0.05) { n = r.pick([" ", "\t", "  "]) + n + r.pick(["", " ", "\t"]) }
      return n
    }
  }

  static func content(_ name: String) -> Content {
    let n = name.lowercased()
    if n.hasSuffix("value") || n.hasSuffix("address") || n.hasSuffix("phone") || n.hasSuffix("web page") {
      return .multi
    }
    if n.hasSuffix("label") || n.hasSuffix("type") { return .label }
    return .text
  }

  /// One cell as written: quoted when it must be, sometimes when not;
  /// stray quotes and text after a closing quote now and then.
  mutating func cell(_ v: String) -> String {
    if v.isEmpty { return r.chance(0.1) ? "\"\"" : "" }
    // Bytes, not Characters: "\r\n" and a comma before a combining mark are one Character.
    let needs = v.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    let quoted = "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    if !needs {
      if r.chance(0.1) { return quoted }
      return v
    }
    // A quote inside an otherwise plain cell, not at its start: kept as text.
    if !v.utf8.contains(where: { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) && v.utf8.first != 0x22 && r.chance(0.4) {
      return v
    }
    if r.chance(0.03) { return quoted + r.pick(["tail", " x", "a\"b"]) }
    return quoted
  }

  mutating func value(for content: Content) -> String {
    if r.chance(0.45) { return "" }
    switch content {
    case .label: return r.chance(0.5) ? r.pick(["home", "work", "cell", "* Home", "Mobile", "Other"]) : RandomText.text(&r)
    case .text: return RandomText.text(&r)
    case .multi:
      if r.chance(0.15) { return (0..<(2 + r.below(2))).map { _ in RandomText.text(&r) }.joined(separator: " ::: ") }
      return RandomText.text(&r)
    }
  }

  mutating func end() -> String { mixedLineEnds ? r.pick(["\n", "\r\n"]) : lineEnd }

  /// A file of `records` records after the header, as bytes.
  mutating func file(style: Style, records: Int) -> [UInt8] {
    lineEnd = r.pick(["\n", "\r\n"])
    mixedLineEnds = r.chance(0.2)
    let names = header(style)
    var out = r.chance(0.3) ? "\u{FEFF}" : ""
    out += names.map { cell($0) }.joined(separator: ",") + end()
    let contents = names.map(Self.content)
    for k in 0..<records {
      if r.chance(0.02) {
        out += end()  // a blank record
        continue
      }
      var cells = contents.map { value(for: $0) }
      if r.chance(0.02) { cells = cells.map { _ in "" } }
      if r.chance(0.1) { cells.removeLast(r.below(cells.count)) }
      if cells.isEmpty { cells = [""] }
      out += cells.map { cell($0) }.joined(separator: ",")
      if k < records - 1 || r.chance(0.8) { out += end() }
    }
    return Array(out.utf8)
  }
}
