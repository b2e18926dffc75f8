import OhanaCore
import OhanaText

/// Puts names into a consistent form (issue 46, item 2; rules in
/// ``NameText``), writing the result into the name columns:
/// - a contact with a full name and no name parts gets the parts parsed
///   from it (``NameText/parse(_:)``): "Smith, John" and "Dr. John A.
///   Smith Jr." both become parts; a full name that is the contact's
///   organization (a company's card) is not split;
/// - leading titles of the given name go to the prefix, trailing
///   suffixes of the family name to the suffix;
/// - every name value (full name, parts, nickname) typed all in capitals
///   or all in lower case is re-cased; one in mixed case is kept;
/// - white space runs become one space, the ends are trimmed, and the text
///   is made Unicode NFC.
///
/// The full name is rebuilt from the parts only with ``rebuildFullName``.
/// Counters (by field): `names.recased.<field>`, `names.split` (full
/// names split into parts), `names.titles`, `names.suffixes`,
/// `names.whitespace`, `names.contacts-changed`. An enricher: keeps rows,
/// order and every other column.
public struct NameNormalization: PostProcessor {
  public let rebuildFullName: Bool
  public let role: StageRole

  public init(rebuildFullName: Bool = false, role: StageRole = .core) {
    self.rebuildFullName = rebuildFullName
    self.role = role
  }

  public var name: String { "normalize-names" }

  static let partAttributes: [ContactAttribute] = [.prefix, .givenName, .middleName, .familyName, .suffix]
  static let cased: [ContactAttribute] = [.fullName, .prefix, .givenName, .middleName, .familyName, .suffix, .nickname]

  /// A name compared without its case and white space (a full name
  /// re-cased still names its organization).
  static func folded(_ s: String) -> String { NameText.words(s).joined(separator: " ").lowercased() }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    let n = table.rowCount
    let touched = [ContactAttribute.fullName, .nickname] + Self.partAttributes
    var columns = Columns(table, touched)
    let organization = table[.organization]
    let nfc = Normalizer(.nfc)
    var pool = table.pool
    // Names repeat: each distinct value is worked out once (by its id).
    var tidyMemo = IDMemo<StringID>(count: pool.count)
    var recaseMemo = IDMemo<StringID>(count: pool.count)
    var titleMemo = IDMemo<(rest: StringID, titles: [String])>(count: pool.count)
    var suffixMemo = IDMemo<(rest: StringID, suffixes: [String])>(count: pool.count)
    var whitespace = 0, split = 0, titled = 0, suffixed = 0, rebuilt = 0, changedContacts = 0
    var recasedCount = [Int](repeating: 0, count: ContactAttribute.allCases.count)

    func text(_ id: StringID) -> String? { id.isPresent ? pool.string(id) : nil }
    func intern(_ s: String) -> StringID { s.isEmpty ? .absent : pool.intern(s) }
    /// White space collapsed and NFC.
    func tidy(_ id: StringID) -> StringID {
      guard id.isPresent else { return id }
      return tidyMemo.value(id) {
        // Most names are settled already: known from their bytes, no String.
        if pool.withBytes(of: id, NameText.isSettledASCII) { return id }
        let s = text(id) ?? ""
        let collapsed = NameText.words(s).joined(separator: " ")
        let normal = (try? nfc.normalize(collapsed)) ?? collapsed
        return normal == s ? id : intern(normal)
      }
    }
    func recased(_ id: StringID) -> StringID {
      guard id.isPresent else { return id }
      return recaseMemo.value(id) {
        if pool.withBytes(of: id, NameText.isSettledASCII) { return id }
        return text(id).flatMap(NameText.recased).map(intern) ?? id }
    }
    func joined(_ id: StringID, _ more: [String]) -> StringID {
      intern(((text(id).map { [$0] } ?? []) + more).joined(separator: " "))
    }

    for row in 0..<n {
      var changed = false
      // Tidy every value first.
      for a in touched {
        let before = columns[a, row]
        let after = tidy(before)
        if after != before {
          columns[a, row] = after
          whitespace += 1
          changed = true
        }
      }
      let hasParts = Self.partAttributes.contains { columns[$0, row].isPresent }
      if !hasParts, columns[.fullName, row].isPresent,
        // A full name that is the organization's (a company's card) is no
        // person's name: it is not split.
        !(organization[row].isPresent
          && text(columns[.fullName, row]).map(Self.folded) == text(organization[row]).map(Self.folded)),
        let full = text(columns[.fullName, row])
      {
        let parts = NameText.parse(full)
        if !parts.given.isEmpty || !parts.family.isEmpty {
          columns[.prefix, row] = intern(parts.prefix.joined(separator: " "))
          columns[.givenName, row] = intern(parts.given)
          columns[.middleName, row] = intern(parts.middle.joined(separator: " "))
          columns[.familyName, row] = intern(parts.family)
          columns[.suffix, row] = intern(parts.suffix.joined(separator: " "))
          split += 1
          changed = true
        }
      } else if hasParts {
        // Titles out of the given name, suffixes out of the family name.
        let given = columns[.givenName, row]
        if given.isPresent {
          let r = titleMemo.value(given) {
            var words = NameText.words(text(given) ?? "")
            let titles = NameText.takeTitles(&words)
            return titles.isEmpty ? (given, []) : (intern(words.joined(separator: " ")), titles)
          }
          if !r.titles.isEmpty {
            columns[.givenName, row] = r.rest
            columns[.prefix, row] = joined(columns[.prefix, row], r.titles)
            titled += 1
            changed = true
          }
        }
        let family = columns[.familyName, row]
        if family.isPresent {
          let r = suffixMemo.value(family) {
            let typed = text(family) ?? ""
            var words = NameText.words(typed.replacingOccurrencesOfComma)
            let suffixes = NameText.takeSuffixes(&words, afterComma: typed.contains(","))
            return suffixes.isEmpty ? (family, []) : (intern(words.joined(separator: " ")), suffixes)
          }
          if !r.suffixes.isEmpty {
            columns[.familyName, row] = r.rest
            columns[.suffix, row] = joined(columns[.suffix, row], r.suffixes)
            suffixed += 1
            changed = true
          }
        }
      }
      for a in Self.cased {
        let before = columns[a, row]
        let after = recased(before)
        if after != before {
          columns[a, row] = after
          recasedCount[a.rawValue] += 1
          changed = true
        }
      }
      if rebuildFullName {
        let parts = Self.partAttributes.compactMap { text(columns[$0, row]) }
        if !parts.isEmpty {
          let full = intern(parts.joined(separator: " "))
          if full != columns[.fullName, row] {
            columns[.fullName, row] = full
            rebuilt += 1
            changed = true
          }
        }
      }
      if changed { changedContacts += 1 }
    }
    table.pool = pool
    for a in touched { table.setAttribute(a, columns.ids[a.rawValue]) }
    let counts: [(String, Int)] =
      [
        ("names.whitespace", whitespace), ("names.split", split), ("names.titles", titled),
        ("names.suffixes", suffixed), ("names.full-name-rebuilt", rebuilt), ("names.contacts-changed", changedContacts),
      ] + Self.cased.map { ("names.recased.\($0.name)", recasedCount[$0.rawValue]) }
    for (k, v) in counts where v > 0 { context.count(k, v) }
    var result = frame
    result.table = table
    return result
  }
}

/// Values worked out once per string id: a slot per id of the pool as it
/// was when the pass began (ids made during the pass are worked out each
/// time; they are the pass's outputs, rarely read again).
struct IDMemo<T> {
  private var slot: [Int32]
  private var values: [T] = []
  init(count: Int) { slot = Array(repeating: -1, count: count) }
  mutating func value(_ id: StringID, _ make: () -> T) -> T {
    let i = id.index
    guard i < slot.count else { return make() }
    if slot[i] >= 0 { return values[Int(slot[i])] }
    let v = make()
    slot[i] = Int32(values.count)
    values.append(v)
    return v
  }
}

/// The name columns being written, by attribute.
private struct Columns {
  var ids: [[StringID]]
  init(_ table: ContactTable, _ attributes: [ContactAttribute]) {
    ids = Array(repeating: [], count: ContactAttribute.allCases.count)
    for a in attributes { ids[a.rawValue] = Array(table[a]) }
  }
  subscript(_ a: ContactAttribute, _ row: Int) -> StringID {
    get { ids[a.rawValue][row] }
    set { ids[a.rawValue][row] = newValue }
  }
}

extension String {
  fileprivate var replacingOccurrencesOfComma: String { String(map { $0 == "," ? " " : $0 }) }
}
