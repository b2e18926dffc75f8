import OhanaCore
import OhanaIO
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// Issue 45, item 5: a table's other columns shown in `--explain` like the
/// model's own comparisons. The reference for each column's level is the
/// table's own cells (the same text or not, after folding case and
/// punctuation); the weights must add up to the pair's weight.
@Suite struct ColumnExplanationTests {
  static let givens = ["Oliver", "Amelia", "Harry", "Isla", "George", "Beatrice", "Jacob", "Poppy", "Charlie", "Freya"]
  static let families = ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Wright", "Hughes", "Green"]

  /// 300 people, three records each, with a birthplace (one of 40: every
  /// 4th person's third record has another) and an occupation (one of 12,
  /// missing on every 5th record). Names repeat across people; birth dates
  /// tell them apart.
  static func table() -> (table: ContactTable, place: [String], job: [String?]) {
    var contacts: [Contact] = []
    var place: [String] = [], job: [String?] = []
    for p in 0..<300 {
      for k in 0..<3 {
        var c = Contact(givenName: givens[p % givens.count], familyName: families[(p / 7) % families.count])
        c.uid = "p\(p)-\(k)"
        c.birthday = String(format: "19%02d-%02d-%02d", 40 + p % 50, 1 + p % 12, 1 + (p / 12) % 28)
        let at = k == 2 && p % 4 == 0 ? "Town \((p + 11) % 40)" : "Town \(p % 40)"
        let work: String? = (3 * p + k) % 5 == 0 ? nil : "Trade \(p % 12)"
        place.append(at)
        job.append(work)
        c.extras = [ExtraProperty(name: "X-CSV", parameters: "HEADER=birthplace", value: at)]
        if let work { c.extras.append(ExtraProperty(name: "X-CSV", parameters: "HEADER=occupation", value: work)) }
        contacts.append(c)
      }
    }
    return (ContactTable(contacts: contacts), place, job)
  }

  @Test func theOtherColumnsAreComparisonsOfTheirOwnInTheExplanation() throws {
    let (table, place, job) = Self.table()
    let result = Deduplicator(configuration: DedupeConfiguration(estimateWeights: true)).findDuplicates(in: table)
    try #require(!result.pairs.isEmpty)
    let weights = result.explanationWeights
    #expect(Set(weights.columnNames) == ["birthplace", "occupation"])
    var bytes: [UInt8] = []
    result.writeExplanation(table: table) { bytes += $0 }
    let (pairs, errors) = ExplainedPair.read(ndjson: bytes)
    #expect(errors.isEmpty)
    #expect(pairs.count == result.pairs.count)
    var row: [String: Int] = [:]
    for r in 0..<table.rowCount { row[table.string(.uid, at: r) ?? ""] = r }
    var sawDifferent = false, sawNull = false
    for p in pairs {
      let a = try #require(row[p.a]), b = try #require(row[p.b])
      let levels = Dictionary(p.levels, uniquingKeysWith: { x, _ in x })
      let parts = Dictionary(p.parts, uniquingKeysWith: { x, _ in x })
      // The level from the cells themselves.
      let expectPlace = place[a] == place[b] ? "same" : "different"
      #expect(levels["birthplace"] == expectPlace)
      let expectJob = job[a] == nil || job[b] == nil ? "null" : job[a] == job[b] ? "same" : "different"
      #expect(levels["occupation"] == expectJob)
      if expectPlace == "different" || expectJob == "different" { sawDifferent = true }
      if expectJob == "null" { sawNull = true }
      // An agreement never weighs against a match, a disagreement never
      // for one, a missing value nothing.
      for name in ["birthplace", "occupation"] {
        let w = try #require(parts[name])
        switch levels[name] {
        case "same": #expect(w >= 0)
        case "different": #expect(w <= 0)
        default: #expect(w == 0)
        }
      }
      // The built-in comparisons are all there, and the weight adds up
      // (each number is written to 0.01).
      #expect(Set(levels.keys).isSuperset(of: Comparison.allCases.map(\.description)))
      let adjust = try #require(p.adjust)
      #expect(abs(p.parts.reduce(0) { $0 + $1.weight } + adjust - p.weight) <= 0.005 * Double(p.parts.count + 2))
    }
    #expect(sawDifferent && sawNull)
  }

  /// The reader tells a column named like a built-in comparison apart, and
  /// knows the built-in names the model writes.
  @Test func aColumnNamedLikeAComparisonIsToldApart() {
    #expect(ExplainedPair.builtIn == Set(Comparison.allCases.map(\.description)))
    let line = #"{"a":"x","b":"y","weight":5,"levels":{"given":"exact"},"columns":{"given":"same","town":"different"},"parts":{"given":2},"column_parts":{"given":4,"town":-1},"adjust":0}"#
    let (pairs, errors) = ExplainedPair.read(ndjson: Array(line.utf8))
    #expect(errors.isEmpty)
    #expect(pairs.first?.levels.map(\.comparison) == ["given", "column given", "town"])
    #expect(pairs.first?.parts.map(\.weight) == [2, 4, -1])
  }
}
