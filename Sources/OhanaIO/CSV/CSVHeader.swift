import OhanaCore

/// What one CSV column holds.
enum CSVTarget: Equatable {
  case attribute(ContactAttribute)
  /// The value / label of field slot `slot` (kind, fixed label from the header).
  case fieldValue(slot: Int)
  case fieldLabel(slot: Int)
  case address(slot: Int, AddressAttribute)
  /// A column we have no place for: kept as extra property X-CSV;HEADER=<name>.
  case extra
  case ignored
}

/// A field or address slot: e.g. Google's "Phone 2", Outlook's "Mobile Phone".
struct CSVSlot {
  var isAddress: Bool
  var kind: FieldKind
  var fixedLabel: String?
}

/// Maps a header row to targets. Recognized: our own header (the
/// `CSVWriter` names: `fullName`, `phone 1 label`, `address 1 street`...),
/// Google Contacts exports (old and new: `Given Name`, `E-mail 1 - Type`,
/// `Phone 1 - Value`, `Address 1 - City`, `Organization 1 - Name`...) and
/// Outlook exports (`First Name`, `Mobile Phone`, `E-mail 2 Address`,
/// `Business Street`...), also in German (`Vorname`, `Mobiltelefon`,
/// `E-Mail 2: Adresse`, `Straße privat`...; other languages of Outlook are
/// not mapped: their columns are kept as extra properties). Matching ignores case and surrounding blanks.
/// Multiple values in one Google cell (separated by ` ::: `) become several
/// fields with the same label.
struct CSVHeader {
  var targets: [CSVTarget] = []
  var names: [String] = []
  var slots: [CSVSlot] = []
  private var slotIndex: [String: Int] = [:]
  /// Per column: its role and how it was decided (``MappedColumn``).
  var columns: [MappedColumn] = []
  /// Per column: whether it was mapped by the user or detected (its
  /// missing-value words are missing, repeats of a role are joined, dates
  /// read into ISO).
  var mapped: [Bool] = []
  /// Per column of the role `gender`: the extra property's name.
  var extraNames: [String?] = []
  /// The order of day and month in the birthday columns.
  var dateOrder: DateText.Order = .dayFirst
  /// The byte between cells.
  var delimiter: UInt8 = ASCII.comma

  init(cells: [String]) {
    for raw in cells {
      let name = raw.trimmingBlanks
      names.append(name)
      let t = target(for: name.lowercased())
      targets.append(t)
      mapped.append(false)
      extraNames.append(nil)
      columns.append(MappedColumn(column: name, role: Self.role(of: t, slots), how: t == .extra || t == .ignored ? "unmapped" : "known"))
    }
  }

  /// The header with `mapping` applied and, where it allows, every column
  /// it does not name and no known header covers detected from its name and
  /// confirmed by `samples` (records after the header, cells by column).
  init(cells: [String], samples: [[String]], mapping: ColumnMapping, dateOrder given: DateText.Order?) {
    self.init(cells: cells)
    var birthdayValues: [String] = []
    for c in names.indices {
      let values = samples.compactMap { c < $0.count ? $0[c] : nil }
      let name = names[c]
      var role: ColumnRole? = nil
      var how = columns[c].how
      if let r = mapping.roles[name] {
        role = r
        how = "given"
      } else if targets[c] != .extra {
        // A known header (ours, Google's, Outlook's): as it is, but
        // Outlook's `Title` (a prefix) is a job title where its values
        // are no prefixes (Salesforce, Zoho).
        if mapping.detect, case .attribute(.prefix) = targets[c], name.lowercased() == "title",
          !ColumnDetection.areHonorifics(values)
        {
          role = .title
          how = "detected"
        } else {
          continue
        }
      } else if mapping.detect {
        if let r = ColumnDetection.role(forHeader: name) {
          if ColumnDetection.confirms(r, values) {
            role = r
            how = "detected"
          } else {
            how = "unmapped: the header reads as \(r), the values do not"
          }
        } else {
          let filled = values.filter { !ColumnDetection.isMissing($0) }
          if filled.count >= 3, filled.allSatisfy(ColumnDetection.isEmail) {
            role = .email
            how = "values"
          }
        }
      }
      guard let role else {
        columns[c].how = how
        continue
      }
      if role == .birthday { birthdayValues += values }
      targets[c] = target(for: role, header: name)
      if role == .gender { extraNames[c] = "GENDER" }
      mapped[c] = true
      columns[c] = MappedColumn(column: name, role: role, how: how)
    }
    dateOrder = given ?? DateText.order(of: birthdayValues)
    // A one-line address beside a city or postcode of its own address and
    // no street: it is the street (a French `Adresse`, Thunderbird's
    // `Home Address`).
    for c in columns.indices where columns[c].role == .address && columns[c].how != "given" {
      let owner = Self.owner(names[c])
      let group = columns.indices.filter { Self.owner(names[$0]) == owner }.compactMap { columns[$0].role }
      if group.contains(.street) {
        // Google's `Address 1 - Formatted` beside `Address 1 - Street`:
        // the same address again, kept as it came, not a second one.
        columns[c] = MappedColumn(column: names[c], role: nil, how: "unmapped: the address's parts have columns of their own")
        targets[c] = .extra
        mapped[c] = false
      } else if group.contains(.locality) || group.contains(.postcode) {
        columns[c].role = .street
        targets[c] = target(for: .street, header: names[c])
      }
    }
  }

  /// The owner word of a header (`home` of `Home City`), "" when none.
  static func owner(_ header: String) -> String {
    let words = ColumnDetection.normalized(header).split(separator: " ").map(String.init)
    guard let first = words.first, words.count > 1, ColumnDetection.prefixWords.contains(first) else { return "" }
    return first
  }

  /// The target of a role; address parts share a slot per address their
  /// header names (`Mailing Street` and `Mailing City` one, `Other City`
  /// another), with the label it gives (home, work, other).
  private mutating func target(for role: ColumnRole, header: String) -> CSVTarget {
    switch role {
    case .id: return .attribute(.uid)
    case .name: return .attribute(.fullName)
    case .given: return .attribute(.givenName)
    case .middle: return .attribute(.middleName)
    case .family: return .attribute(.familyName)
    case .prefix: return .attribute(.prefix)
    case .suffix: return .attribute(.suffix)
    case .nickname: return .attribute(.nickname)
    case .organization: return .attribute(.organization)
    case .department: return .attribute(.department)
    case .title: return .attribute(.jobTitle)
    case .birthday: return .attribute(.birthday)
    case .note: return .attribute(.note)
    case .gender: return .extra
    case .email: return .fieldValue(slot: slot("mapped \(header)", isAddress: false, kind: .email, label: nil))
    case .phone(let label): return .fieldValue(slot: slot("mapped \(header)", isAddress: false, kind: .phone, label: label))
    case .address: return .address(slot: slot("mapped one-line \(header)", isAddress: true, kind: .other, label: nil), .street)
    case .street, .extended, .locality, .region, .postcode, .country:
      let owner = Self.owner(header)
      let label: String? =
        switch owner {
        case "home", "private", "residential": "home"
        case "work", "business", "office": "work"
        case "other": "other"
        default: nil
        }
      let part: AddressAttribute =
        switch role {
        case .street: .street
        case .extended: .extended
        case .locality: .locality
        case .region: .region
        case .postcode: .postalCode
        default: .country
        }
      return .address(slot: slot("mapped address \(owner)", isAddress: true, kind: .other, label: label), part)
    }
  }

  /// The role a known header's target gives, for the report.
  static func role(of t: CSVTarget, _ slots: [CSVSlot]) -> ColumnRole? {
    switch t {
    case .attribute(let a):
      switch a {
      case .uid: return .id
      case .fullName: return .name
      case .givenName: return .given
      case .middleName: return .middle
      case .familyName: return .family
      case .prefix: return .prefix
      case .suffix: return .suffix
      case .nickname: return .nickname
      case .organization: return .organization
      case .department: return .department
      case .jobTitle: return .title
      case .birthday: return .birthday
      case .note: return .note
      default: return nil
      }
    case .fieldValue(let s):
      guard s < slots.count else { return nil }
      switch slots[s].kind {
      case .email: return .email
      case .phone: return .phone(label: slots[s].fixedLabel)
      default: return nil
      }
    case .address(_, let a):
      switch a {
      case .street: return .street
      case .extended: return .extended
      case .locality: return .locality
      case .region: return .region
      case .postalCode: return .postcode
      case .country: return .country
      default: return nil
      }
    default: return nil
    }
  }

  private mutating func slot(_ key: String, isAddress: Bool, kind: FieldKind, label: String?) -> Int {
    if let s = slotIndex[key] { return s }
    slots.append(CSVSlot(isAddress: isAddress, kind: kind, fixedLabel: label))
    slotIndex[key] = slots.count - 1
    return slots.count - 1
  }

  private static let attributes: [String: ContactAttribute] = {
    var d: [String: ContactAttribute] = [:]
    for a in ContactAttribute.allCases where a != .sourceProvider { d[a.name.lowercased()] = a }
    let aliases: [String: ContactAttribute] = [
      // Google
      "name": .fullName, "given name": .givenName, "first name": .givenName, "additional name": .middleName,
      "middle name": .middleName, "family name": .familyName, "last name": .familyName,
      "name prefix": .prefix, "name suffix": .suffix, "notes": .note, "organization 1 - name": .organization,
      "organization name": .organization, "organization 1 - title": .jobTitle, "organization title": .jobTitle,
      "organization 1 - department": .department, "organization department": .department,
      "display name": .fullName, "full name": .fullName,
      // Outlook
      "title": .prefix, "suffix": .suffix, "company": .organization, "job title": .jobTitle,
      "department": .department,
      // Outlook in German (its export names every column in the UI's language)
      "anrede": .prefix, "vorname": .givenName, "weitere vornamen": .middleName, "nachname": .familyName,
      "firma": .organization, "abteilung": .department, "position": .jobTitle, "geburtstag": .birthday,
      "notizen": .note,
      // Ours: the input a contact was read from (a read of several).
      "source": .sourceProvider,
    ]
    d.merge(aliases) { a, _ in a }
    return d
  }()

  private static let kindWords: [String: FieldKind] = [
    "phone": .phone, "e-mail": .email, "email": .email, "website": .url, "url": .url, "im": .impp,
    "impp": .impp, "other": .other,
  ]

  private static let addressParts: [String: AddressAttribute] = [
    "label": .label, "type": .label, "street": .street, "city": .locality, "locality": .locality,
    "region": .region, "postal code": .postalCode, "postalcode": .postalCode, "country": .country,
    "po box": .poBox, "pobox": .poBox, "extended address": .extended, "extended": .extended,
  ]

  /// (An assistant's phone is another person's number, and telex no phone:
  /// those columns travel through as extra properties.)
  private static let outlookPhones: [String: String] = [
    "primary phone": "pref", "home phone": "home", "home phone 2": "home", "mobile phone": "cell",
    "pager": "pager", "home fax": "home,fax", "business phone": "work", "business phone 2": "work",
    "business fax": "work,fax", "company main phone": "work",
    "other phone": "other", "other fax": "fax", "car phone": "car", "callback": "callback", "isdn": "isdn",
    "radio phone": "radio", "tty/tdd phone": "textphone",
  ]

  /// Outlook's German export: phone columns and their labels.
  private static let germanOutlookPhones: [String: String] = [
    "haupttelefon": "pref", "telefon privat": "home", "telefon privat 2": "home", "telefon (privat)": "home",
    "telefon (privat 2)": "home", "mobiltelefon": "cell", "mobiltelefon 2": "cell", "pager": "pager",
    "fax privat": "home,fax", "telefon geschäftlich": "work", "telefon geschäftlich 2": "work",
    "fax geschäftlich": "work,fax", "telefon firma": "work",
    "weiteres telefon": "other", "weiteres fax": "fax", "autotelefon": "car", "rückmeldung": "callback",
    "telefon für hörbehinderte": "textphone",
  ]

  /// Outlook's German export: address columns (the three addresses are
  /// `privat`, `geschäftlich` and `Weitere`).
  private static let germanOutlookAddresses: [String: (slot: String, label: String, part: AddressAttribute)] = [
    "straße privat": ("home", "home", .street), "straße privat 2": ("home", "home", .extended),
    "straße privat 3": ("home", "home", .extended), "ort privat": ("home", "home", .locality),
    "bundesland/kanton privat": ("home", "home", .region), "postleitzahl privat": ("home", "home", .postalCode),
    "land/region privat": ("home", "home", .country), "postfach privat": ("home", "home", .poBox),
    "straße geschäftlich": ("business", "work", .street), "straße geschäftlich 2": ("business", "work", .extended),
    "straße geschäftlich 3": ("business", "work", .extended), "ort geschäftlich": ("business", "work", .locality),
    "region geschäftlich": ("business", "work", .region),
    "postleitzahl geschäftlich": ("business", "work", .postalCode),
    "land/region geschäftlich": ("business", "work", .country), "postfach geschäftlich": ("business", "work", .poBox),
    "weitere straße": ("other", "other", .street), "weitere straße 2": ("other", "other", .extended),
    "weitere straße 3": ("other", "other", .extended), "weiterer ort": ("other", "other", .locality),
    "weiteres/r bundesland/kanton": ("other", "other", .region),
    "weitere postleitzahl": ("other", "other", .postalCode), "weiteres/e land/region": ("other", "other", .country),
  ]

  private mutating func target(for h: String) -> CSVTarget {
    if h.isEmpty { return .ignored }
    if let a = Self.attributes[h] { return .attribute(a) }
    let words = h.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    // Ours: "<kind> <n> label|value", "address <n> <part>".
    if words.count >= 3, let n = Int(words[1]) {
      if words[0] == "address" {
        let part = words[2...].joined(separator: " ")
        if let a = Self.addressParts[part] {
          return .address(slot: slot("address \(n)", isAddress: true, kind: .other, label: nil), a)
        }
      } else if let kind = Self.kindWords[words[0]], words.count == 3 {
        let s = slot("\(words[0]) \(n)", isAddress: false, kind: kind, label: nil)
        if words[2] == "label" || words[2] == "type" { return .fieldLabel(slot: s) }
        if words[2] == "value" { return .fieldValue(slot: s) }
      }
    }
    // Google: "<Kind> <n> - Type|Label|Value", "Address <n> - <part>".
    if let dash = h.firstRange(of: " - ") {
      let left = h[..<dash.lowerBound].split(separator: " ").map(String.init)
      let part = String(h[dash.upperBound...])
      if left.count == 2, let n = Int(left[1]) {
        if left[0] == "address" {
          if let a = Self.addressParts[part] {
            return .address(slot: slot("address \(n)", isAddress: true, kind: .other, label: nil), a)
          }
          return .extra
        }
        if let kind = Self.kindWords[left[0]] {
          let s = slot("\(left[0]) \(n)", isAddress: false, kind: kind, label: nil)
          if part == "type" || part == "label" { return .fieldLabel(slot: s) }
          if part == "value" { return .fieldValue(slot: s) }
        }
      }
      return .extra
    }
    // Outlook in German.
    if let label = Self.germanOutlookPhones[h] {
      return .fieldValue(slot: slot(h, isAddress: false, kind: .phone, label: label))
    }
    if h == "e-mail-adresse" || (h.hasPrefix("e-mail ") && h.hasSuffix(": adresse")) {
      return .fieldValue(slot: slot(h, isAddress: false, kind: .email, label: nil))
    }
    if h == "webseite" { return .fieldValue(slot: slot(h, isAddress: false, kind: .url, label: nil)) }
    if let a = Self.germanOutlookAddresses[h] {
      return .address(slot: slot("outlook \(a.slot)", isAddress: true, kind: .other, label: a.label), a.part)
    }
    // Outlook.
    if let label = Self.outlookPhones[h] {
      return .fieldValue(slot: slot(h, isAddress: false, kind: .phone, label: label))
    }
    if h == "e-mail address" || (h.hasPrefix("e-mail ") && h.hasSuffix(" address")) {
      return .fieldValue(slot: slot(h, isAddress: false, kind: .email, label: nil))
    }
    if h == "web page" || h == "personal web page" {
      return .fieldValue(slot: slot(h, isAddress: false, kind: .url, label: nil))
    }
    for prefix in ["home", "business", "other"] where h.hasPrefix(prefix + " ") {
      let rest = String(h.dropFirst(prefix.count + 1))
      let part: AddressAttribute?
      switch rest {
      case "street": part = .street
      case "street 2", "street 3": part = .extended
      case "city": part = .locality
      case "state": part = .region
      case "postal code": part = .postalCode
      case "country", "country/region": part = .country
      case "address po box": part = .poBox
      default: part = nil
      }
      if let part {
        let label = prefix == "business" ? "work" : prefix
        return .address(slot: slot("outlook \(prefix)", isAddress: true, kind: .other, label: label), part)
      }
    }
    return .extra
  }
}
