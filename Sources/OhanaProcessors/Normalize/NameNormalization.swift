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
    var tidyMemo: [StringID: StringID] = [:]
    var recaseMemo: [StringID: StringID] = [:]
    var counts: [String: Int] = [:]
    var pool = table.pool

    func text(_ id: StringID) -> String? { id.isPresent ? pool.string(id) : nil }
    func intern(_ s: String) -> StringID { s.isEmpty ? .absent : pool.intern(s) }
    /// White space collapsed and NFC.
    func tidy(_ id: StringID) -> StringID {
      guard id.isPresent else { return id }
      if let t = tidyMemo[id] { return t }
      let s = text(id) ?? ""
      let collapsed = NameText.words(s).joined(separator: " ")
      let normal = (try? nfc.normalize(collapsed)) ?? collapsed
      let out = normal == s ? id : intern(normal)
      tidyMemo[id] = out
      return out
    }
    func recased(_ id: StringID) -> StringID {
      guard id.isPresent else { return id }
      if let t = recaseMemo[id] { return t }
      let out = text(id).flatMap(NameText.recased).map(intern) ?? id
      recaseMemo[id] = out
      return out
    }

    for row in 0..<n {
      var changed = false
      // Tidy every value first.
      for a in touched {
        let before = columns[a, row]
        let after = tidy(before)
        if after != before {
          columns[a, row] = after
          counts["names.whitespace", default: 0] += 1
          changed = true
        }
      }
      let hasParts = Self.partAttributes.contains { columns[$0, row].isPresent }
      // A full name that is the organization's (a company's card) is no
      // person's name: it is not split.
      let isOrganization = columns[.fullName, row].isPresent && organization[row].isPresent
        && text(columns[.fullName, row]).map(Self.folded) == text(organization[row]).map(Self.folded)
      if !hasParts, !isOrganization, let full = text(columns[.fullName, row]) {
        let parts = NameText.parse(full)
        if !parts.given.isEmpty || !parts.family.isEmpty {
          columns[.prefix, row] = intern(parts.prefix.joined(separator: " "))
          columns[.givenName, row] = intern(parts.given)
          columns[.middleName, row] = intern(parts.middle.joined(separator: " "))
          columns[.familyName, row] = intern(parts.family)
          columns[.suffix, row] = intern(parts.suffix.joined(separator: " "))
          counts["names.split", default: 0] += 1
          changed = true
        }
      } else if hasParts {
        // Titles out of the given name, suffixes out of the family name.
        if let given = text(columns[.givenName, row]) {
          var words = NameText.words(given)
          let titles = NameText.takeTitles(&words)
          if !titles.isEmpty {
            columns[.givenName, row] = intern(words.joined(separator: " "))
            let prefix = (text(columns[.prefix, row]).map { [$0] } ?? []) + titles
            columns[.prefix, row] = intern(prefix.joined(separator: " "))
            counts["names.titles", default: 0] += 1
            changed = true
          }
        }
        if let family = text(columns[.familyName, row]) {
          var words = NameText.words(family.replacingOccurrencesOfComma)
          let hadComma = family.contains(",")
          let suffixes = NameText.takeSuffixes(&words, afterComma: hadComma)
          if !suffixes.isEmpty {
            columns[.familyName, row] = intern(words.joined(separator: " "))
            let suffix = (text(columns[.suffix, row]).map { [$0] } ?? []) + suffixes
            columns[.suffix, row] = intern(suffix.joined(separator: " "))
            counts["names.suffixes", default: 0] += 1
            changed = true
          }
        }
      }
      for a in Self.cased {
        let before = columns[a, row]
        let after = recased(before)
        if after != before {
          columns[a, row] = after
          counts["names.recased.\(a.name)", default: 0] += 1
          changed = true
        }
      }
      if rebuildFullName {
        let parts = Self.partAttributes.compactMap { text(columns[$0, row]) }
        if !parts.isEmpty {
          let full = intern(parts.joined(separator: " "))
          if full != columns[.fullName, row] {
            columns[.fullName, row] = full
            counts["names.full-name-rebuilt", default: 0] += 1
            changed = true
          }
        }
      }
      if changed { counts["names.contacts-changed", default: 0] += 1 }
    }
    table.pool = pool
    for a in touched { table.setAttribute(a, columns.ids[a.rawValue]) }
    for (k, v) in counts { context.count(k, v) }
    var result = frame
    result.table = table
    return result
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
