import Foundation

/// One card made of a cluster's cards, as written back to the server: the
/// survivor's text with what the others add, line by line.
///
/// - Every line of the survivor stays as written (its UID, VERSION, PHOTO,
///   X- properties, groups), except CATEGORIES and NICKNAME, whose values
///   are joined with the others'.
/// - A property a card has once (FN, N, BDAY, ANNIVERSARY, GENDER, ORG,
///   TITLE, ROLE, PHOTO, LOGO, TZ, GEO, SORT-STRING) comes from the
///   survivor; from the first other card that has it when the survivor
///   has none.
/// - Every other property (TEL, EMAIL, ADR, URL, IMPP, NOTE, RELATED, X-
///   properties, ...) of the other cards is added unless the survivor
///   already has it: phones compared by their digits (a national number
///   the same as an international one ending in it, 7 digits or more),
///   e-mails without case, the rest by value without case or extra spaces.
/// - A grouped property (`item1.TEL` with its `item1.X-ABLabel`) moves as
///   a unit, under a group name the survivor does not use.
/// - Never taken from the others: BEGIN, END, VERSION, UID, PRODID, REV,
///   KIND, CLIENTPIDMAP; PID parameters are dropped from what is added
///   (they point into the other card's CLIENTPIDMAP).
/// - A vCard 4 phone added to a vCard 3 card loses its `tel:` scheme and
///   `VALUE=uri`, and `PREF=1` becomes `TYPE=pref`.
enum CardMerge {
  static let never: Set<String> = ["BEGIN", "END", "VERSION", "UID", "PRODID", "REV", "KIND", "CLIENTPIDMAP", "X-ADDRESSBOOKSERVER-KIND"]
  static let once: Set<String> = [
    "FN", "N", "BDAY", "ANNIVERSARY", "GENDER", "ORG", "TITLE", "ROLE", "PHOTO", "LOGO", "TZ", "GEO", "SORT-STRING",
  ]
  static let lists: Set<String> = ["CATEGORIES", "NICKNAME"]

  /// The key two lines are the same property by.
  static func key(_ line: VCardText.Line) -> String {
    switch line.name {
    case "TEL":
      var digits = ""
      for c in line.value.unicodeScalars where ("0"..."9").contains(c) { digits.unicodeScalars.append(c) }
      return "TEL:" + digits
    case "EMAIL":
      return "EMAIL:" + line.value.trimmingCharacters(in: .whitespaces).lowercased()
    default:
      let words = line.value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
      return line.name + ":" + words.joined(separator: " ")
    }
  }

  /// Whether a phone key is already among `keys` (same digits, or one
  /// ending in the other with 7 digits or more).
  static func hasPhone(_ key: String, in keys: Set<String>) -> Bool {
    if keys.contains(key) { return true }
    let digits = key.dropFirst(4)
    guard digits.count >= 7 else { return false }
    for k in keys where k.hasPrefix("TEL:") {
      let other = k.dropFirst(4)
      guard other.count >= 7 else { continue }
      if other.hasSuffix(digits) || digits.hasSuffix(other) { return true }
    }
    return false
  }

  static func isKnown(_ line: VCardText.Line, _ keys: Set<String>) -> Bool {
    let k = key(line)
    return line.name == "TEL" ? hasPhone(k, in: keys) : keys.contains(k)
  }

  /// Splits a CATEGORIES or NICKNAME value at its unescaped commas.
  static func listItems(_ value: String) -> [String] {
    var items: [String] = []
    var current = ""
    var escaped = false
    for c in value {
      if escaped {
        current.append(c)
        escaped = false
      } else if c == "\\" {
        current.append(c)
        escaped = true
      } else if c == "," {
        items.append(current)
        current = ""
      } else {
        current.append(c)
      }
    }
    items.append(current)
    return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// A line of another card as the survivor's version writes it.
  static func adapted(_ line: VCardText.Line, group: String, to version: String) -> VCardText.Line {
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
    if written == line.parameters && value == line.value && group == line.group {
      return line  // as written, folds and all
    }
    return VCardText.written(group: group, name: line.nameAsWritten, parameters: written, value: value)
  }

  /// The survivor with what `others` add.
  static func merge(survivor: VCardText, others: [VCardText]) -> VCardText {
    let version = survivor.version
    var lines = Array(survivor.lines.dropLast())  // END:VCARD goes back last
    var keys = Set(lines.map(key))
    var present = Set(lines.map(\.name))
    var groups = Set(lines.map(\.group))
    var added: [VCardText.Line] = []
    var listAdditions: [String: [String]] = [:]  // CATEGORIES/NICKNAME values to add
    var listKnown: [String: Set<String>] = [:]
    for l in lines where lists.contains(l.name) {
      listKnown[l.name, default: []].formUnion(listItems(l.value).map { $0.lowercased() })
    }

    func freshGroup() -> String {
      var n = 1
      while groups.contains("ITEM\(n)") { n += 1 }
      groups.insert("ITEM\(n)")
      return "ITEM\(n)"
    }

    for other in others {
      // Grouped lines first gathered by group, to move as units.
      var byGroup: [String: [VCardText.Line]] = [:]
      var groupOrder: [String] = []
      for l in other.lines where !l.group.isEmpty {
        if byGroup[l.group] == nil { groupOrder.append(l.group) }
        byGroup[l.group, default: []].append(l)
      }
      for l in other.lines where l.group.isEmpty {
        if never.contains(l.name) { continue }
        if lists.contains(l.name) {
          for item in listItems(l.value) where listKnown[l.name, default: []].insert(item.lowercased()).inserted {
            listAdditions[l.name, default: []].append(item)
          }
          continue
        }
        if once.contains(l.name) {
          if present.insert(l.name).inserted { added.append(adapted(l, group: "", to: version)) }
          continue
        }
        if isKnown(l, keys) { continue }
        keys.insert(key(l))
        added.append(adapted(l, group: "", to: version))
      }
      for g in groupOrder {
        let members = byGroup[g] ?? []
        let primary = members.filter { !$0.name.hasPrefix("X-AB") && !never.contains($0.name) }
        let isNew =
          primary.isEmpty
          ? members.contains { !isKnown($0, keys) }
          : primary.contains { once.contains($0.name) ? !present.contains($0.name) : !isKnown($0, keys) }
        guard isNew else { continue }
        let name = freshGroup()
        for l in members where !never.contains(l.name) {
          keys.insert(key(l))
          present.insert(l.name)
          added.append(adapted(l, group: name, to: version))
        }
      }
    }
    // CATEGORIES and NICKNAME: the survivor's first line takes the new
    // values; a survivor without one gets a line.
    for name in lists.sorted() {
      guard let extra = listAdditions[name], !extra.isEmpty else { continue }
      if let i = lines.firstIndex(where: { $0.name == name }) {
        let l = lines[i]
        lines[i] = VCardText.written(
          group: l.group, name: l.nameAsWritten, parameters: l.parameters, value: ([l.value] + extra).joined(separator: ","))
      } else {
        added.append(VCardText.written(group: "", name: name, parameters: "", value: extra.joined(separator: ",")))
      }
    }
    guard let end = survivor.lines.last else { return survivor }
    return VCardText(lines: lines + added + [end])
  }
}
