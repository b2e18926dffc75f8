import OhanaCore

/// Which member of a cluster gives each single-valued attribute of the
/// merged contact (the golden record; issue 46, item 3). Multi-valued
/// fields (phones, e-mails, addresses) are always the union of the
/// members', a value already taken dropped (``Deduplicator/merge(_:_:)``).
///
/// The rules, each with the most complete member (today's choice) as the
/// tie-break, then row order:
/// - ``Rule/mostComplete``: the member with the most fields, addresses and
///   attributes (the name: the member with the most name parts, then the
///   longest full name);
/// - ``Rule/sources(_:)``: the member whose source (`--source NAME=PATH`,
///   the contact's `sourceProvider`) comes first in the list; members of
///   other sources after;
/// - ``Rule/mostRecent``: the member with the latest `REV` (RFC 6350
///   §6.7.4; its digits compared, so `2019-11-04T10:00:00Z` and
///   `20191104T100000Z` are one time); members without one last;
/// - ``Rule/mostFrequent``: the value the most members have;
/// - ``Rule/longest``: the longest value.
///
/// Only members that have the attribute are considered; the name (full
/// name, given, family, middle, prefix and suffix) is taken whole from one
/// member. With provenance, the merged contact's ``fieldSourcesColumn``
/// says which member gave each attribute: `name=UID;birthday=UID`, each uid
/// preceded by its source and a colon when it has one (`crm:U17`).
public struct Survivorship: Sendable, Hashable {
  public enum Rule: Sendable, Hashable, CustomStringConvertible {
    case mostComplete
    case sources([String])
    case mostRecent
    case mostFrequent
    case longest

    /// `most-complete`, `most-recent`, `most-frequent`, `longest`, or
    /// `source:A,B,C`.
    public init?(text: String) {
      let t = text.trimmingWhitespace
      switch t.lowercased() {
      case "most-complete": self = .mostComplete
      case "most-recent": self = .mostRecent
      case "most-frequent": self = .mostFrequent
      case "longest": self = .longest
      default:
        guard t.lowercased().hasPrefix("source:") else { return nil }
        let list = t.dropFirst(7).split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        guard !list.isEmpty else { return nil }
        self = .sources(list)
      }
    }

    public var description: String {
      switch self {
      case .mostComplete: "most-complete"
      case .mostRecent: "most-recent"
      case .mostFrequent: "most-frequent"
      case .longest: "longest"
      case .sources(let l): "source:" + l.joined(separator: ",")
      }
    }
  }

  /// What a rule decides: the name as a whole, or one attribute.
  public enum Field: String, Sendable, CaseIterable, Hashable {
    case name, nickname, organization, department, jobTitle, birthday, note

    var attributes: [ContactAttribute] {
      switch self {
      case .name: [.fullName, .givenName, .familyName, .middleName, .prefix, .suffix]
      case .nickname: [.nickname]
      case .organization: [.organization]
      case .department: [.department]
      case .jobTitle: [.jobTitle]
      case .birthday: [.birthday]
      case .note: [.note]
      }
    }
  }

  /// The derived column naming, per merged contact, the member that gave
  /// each attribute.
  public static let fieldSourcesColumn = "dedupe.fieldSources"

  public var defaultRule: Rule
  public var rules: [Field: Rule]

  public init(defaultRule: Rule = .mostComplete, rules: [Field: Rule] = [:]) {
    self.defaultRule = defaultRule
    self.rules = rules
  }

  /// Today's merge: every attribute from the most complete member.
  public var isDefault: Bool { defaultRule == .mostComplete && rules.values.allSatisfy { $0 == .mostComplete } }

  public func rule(for field: Field) -> Rule { rules[field] ?? defaultRule }

  /// A survivorship file: one `FIELD=RULE` a line (`default=most-recent`,
  /// `name=source:crm,phonebook`, `birthday=most-frequent`); blank lines
  /// and lines starting with `#` are skipped. Throws the line number and
  /// reason of the first line it cannot read.
  public init(text: String) throws(SurvivorshipError) {
    self.init()
    for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(raw).trimmingWhitespace
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "=") else {
        throw SurvivorshipError(line: i + 1, reason: "expected FIELD=RULE")
      }
      let name = String(line[..<eq]).trimmingWhitespace, ruleText = String(line[line.index(after: eq)...])
      guard let rule = Rule(text: ruleText) else {
        throw SurvivorshipError(
          line: i + 1, reason: "unknown rule \"\(ruleText.trimmingWhitespace)\" (most-complete, most-recent, most-frequent, longest, source:A,B)")
      }
      if name.lowercased() == "default" {
        defaultRule = rule
      } else if let f = Field.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) {
        rules[f] = rule
      } else {
        throw SurvivorshipError(
          line: i + 1,
          reason: "unknown field \"\(name)\" (default, \(Field.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
    }
  }

  /// The rules as a survivorship file (``init(text:)`` reads it back):
  /// `default=RULE`, then one `FIELD=RULE` line per field with a rule of
  /// its own, in ``Field`` order. The entity store keeps its rules so.
  public var text: String {
    var lines = ["default=\(defaultRule)"]
    for f in Field.allCases { if let r = rules[f] { lines.append("\(f.rawValue)=\(r)") } }
    return lines.joined(separator: "\n")
  }

  /// Whether a rule names sources (which members' sources it reads).
  public var readsSources: Bool {
    ([defaultRule] + Array(rules.values)).contains { if case .sources = $0 { true } else { false } }
  }

  /// The member each field is taken from, per cluster of `result` (in the
  /// order of each cluster's first row, as the merged table's rows): nil
  /// where no member has the field. Clusters of one row take theirs.
  public func choices(input: ContactTable, result: DedupeResult, threads: Int) -> [[Field: Int]] {
    let (members, starts, reps) = ClusterMembers.lists(result.clusterOf, threads: threads)
    let inputColumns = ContactAttribute.allCases.map { input[$0] }
    let needsRecency = Field.allCases.contains { rule(for: $0) == .mostRecent }
    let recency = needsRecency ? Self.recency(input) : []
    let source = input[.sourceProvider]
    return reps.map { c in
      let group = members[Int(starts[Int(c)])..<Int(starts[Int(c) + 1])].map(Int.init)
      let order = group.count > 1 ? Self.completenessOrder(input, group, inputColumns) : group
      var out: [Field: Int] = [:]
      for field in Field.allCases {
        let attrs = field.attributes
        let having = order.filter { m in attrs.contains { inputColumns[$0.rawValue][m].isPresent } }
        guard let first = having.first else { continue }
        switch rule(for: field) {
        case .mostComplete:
          out[field] = field == .name ? Self.nameBest(input, having, inputColumns) : first
        case .sources(let list):
          func rank(_ m: Int) -> Int {
            guard let s = input.pool.string(source[m]) else { return list.count }
            return list.firstIndex(of: s) ?? list.count
          }
          out[field] = having.min { rank($0) < rank($1) } ?? first
        case .mostRecent:
          let top = having.map { recency[$0] }.max() ?? 0
          out[field] = having.first { recency[$0] == top } ?? first
        case .mostFrequent:
          let key = attrs[0]
          var tally: [StringID: Int] = [:]
          for m in having { tally[inputColumns[key.rawValue][m], default: 0] += 1 }
          let top = tally.values.max() ?? 0
          out[field] = having.first { tally[inputColumns[key.rawValue][$0]] == top } ?? first
        case .longest:
          let key = attrs[0]
          let top = having.map { input.pool.length(of: inputColumns[key.rawValue][$0]) }.max() ?? 0
          out[field] = having.first { input.pool.length(of: inputColumns[key.rawValue][$0]) == top } ?? first
        }
      }
      return out
    }
  }

  /// Sets, in `merged` (``Deduplicator/merge(_:_:)``'s table of `input`
  /// under `result`), each merged contact's attributes by these rules, and
  /// with `provenance` its ``fieldSourcesColumn``. Returns how many merged
  /// contacts took an attribute from another member than the most
  /// complete one.
  @discardableResult
  func apply(to merged: inout ContactTable, input: ContactTable, result: DedupeResult, provenance: Bool, threads: Int)
    -> Int
  {
    let chosen = choices(input: input, result: result, threads: threads)
    guard chosen.count == merged.rowCount else { return 0 }
    let sizes = ClusterMembers.sizes(result.clusterOf)
    var columns = ContactAttribute.allCases.map { Array(merged[$0]) }
    let inputColumns = ContactAttribute.allCases.map { input[$0] }
    let source = input[.sourceProvider]
    var provenanceText = [StringID](repeating: .absent, count: chosen.count)
    var pool = merged.pool
    var moved = 0
    for (k, picks) in chosen.enumerated() where sizes[k] > 1 {
      var parts: [String] = []
      var changed = false
      for field in Field.allCases {
        guard let m = picks[field] else { continue }
        for a in field.attributes {
          let v = inputColumns[a.rawValue][m]
          if columns[a.rawValue][k] != v {
            columns[a.rawValue][k] = v
            changed = true
          }
        }
        if provenance {
          var who = input.uid(at: m) ?? "row-\(m + 1)"
          if let s = input.pool.string(source[m]) { who = s + ":" + who }
          parts.append(field.rawValue + "=" + who)
        }
      }
      if changed { moved += 1 }
      if provenance && !parts.isEmpty { provenanceText[k] = pool.intern(parts.joined(separator: ";")) }
    }
    merged.pool = pool
    for a in ContactAttribute.allCases where a != .uid {
      merged.setAttribute(a, columns[a.rawValue])
    }
    if provenance { merged.setColumn(Self.fieldSourcesColumn, .string(provenanceText)) }
    return moved
  }

  /// `group`'s members, the most complete first (the merge's own measure:
  /// fields, addresses and attributes present), then row order.
  static func completenessOrder(_ t: ContactTable, _ group: [Int], _ columns: [StringColumn]) -> [Int] {
    func score(_ m: Int) -> Int {
      var s = t.fieldRange(of: m).count + t.addressRange(of: m).count
      if t.uuids.form(at: m) != .none { s += 1 }
      for c in columns where c[m].isPresent { s += 1 }
      return s
    }
    let scores = group.map(score)
    let first = scores.firstIndex(of: scores.max() ?? 0) ?? 0
    return [group[first]] + group.enumerated().filter { $0.offset != first }.map(\.element)
  }

  /// The member with the most name parts, then the longest full name (the
  /// merge's choice of a name).
  static func nameBest(_ t: ContactTable, _ having: [Int], _ columns: [StringColumn]) -> Int {
    let nameAttrs = Field.name.attributes.map(\.rawValue)
    var best = having[0], bestScore = (-1, -1)
    for m in having.sorted() {
      let s = (
        nameAttrs.filter { columns[$0][m].isPresent }.count,
        t.pool.length(of: columns[ContactAttribute.fullName.rawValue][m])
      )
      if s > bestScore {
        best = m
        bestScore = s
      }
    }
    return best
  }

  /// Each row's `REV` as a number of its first 14 digits (YYYYMMDDhhmmss,
  /// missing digits as zeros); 0 for a row without one.
  static func recency(_ t: ContactTable) -> [UInt64] {
    var out = [UInt64](repeating: 0, count: t.rowCount)
    for row in 0..<t.rowCount {
      for x in t.extraRange(of: row) {
        guard let name = t.pool.string(t.extras.name[x]), name.uppercased() == "REV" else { continue }
        let digits = Array((t.pool.string(t.extras.value[x]) ?? "").utf8.filter { $0 >= 48 && $0 <= 57 }.prefix(14))
        var v: UInt64 = 0
        for i in 0..<14 { v = v * 10 + (i < digits.count ? UInt64(digits[i] - 48) : 0) }
        out[row] = v
      }
    }
    return out
  }
}

/// A survivorship file's line that could not be read.
public struct SurvivorshipError: Error, Sendable, CustomStringConvertible {
  public let line: Int
  public let reason: String
  public var description: String { "line \(line): \(reason)" }
}
