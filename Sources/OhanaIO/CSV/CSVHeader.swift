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

  init(cells: [String]) {
    for raw in cells {
      let name = raw.trimmingBlanks
      names.append(name)
      targets.append(target(for: name.lowercased()))
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

  private static let outlookPhones: [String: String] = [
    "primary phone": "pref", "home phone": "home", "home phone 2": "home", "mobile phone": "cell",
    "pager": "pager", "home fax": "home,fax", "business phone": "work", "business phone 2": "work",
    "business fax": "work,fax", "company main phone": "work", "assistant's phone": "assistant",
    "other phone": "other", "other fax": "fax", "car phone": "car", "callback": "callback", "isdn": "isdn",
    "radio phone": "radio", "tty/tdd phone": "textphone", "telex": "telex",
  ]

  /// Outlook's German export: phone columns and their labels.
  private static let germanOutlookPhones: [String: String] = [
    "haupttelefon": "pref", "telefon privat": "home", "telefon privat 2": "home", "telefon (privat)": "home",
    "telefon (privat 2)": "home", "mobiltelefon": "cell", "mobiltelefon 2": "cell", "pager": "pager",
    "fax privat": "home,fax", "telefon geschäftlich": "work", "telefon geschäftlich 2": "work",
    "fax geschäftlich": "work,fax", "telefon firma": "work", "telefon assistent": "assistant",
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

extension String {
  var trimmingBlanks: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
