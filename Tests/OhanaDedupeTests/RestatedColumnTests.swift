import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// Issue 45 (every column compared, but each agreement once): a table's
/// column that holds the name again (`first_and_surname` beside
/// `first_name` and `surname`, as in Splink's historical figures) is not
/// compared. The reference is the table's construction: which rows were
/// written as the name and which were not.
@Suite struct RestatedColumnTests {
  static let givens = ["Oliver", "Amelia", "Harry", "Isla", "George", "Beatrice", "Jacob", "Poppy"]
  static let families = ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Wright", "Hughes"]

  /// 400 contacts. `first_and_surname` is "Given Family" on every row but
  /// each 4th, where it has a typo (so 75% of rows restate the name);
  /// `surname_first` is "FAMILY, Given" on every row; `preferred` is the
  /// given name on each 3rd row and a nickname of its own otherwise (33%);
  /// `birthplace` is one of 30 towns, never a name.
  static func table() -> ContactTable {
    var contacts: [Contact] = []
    for r in 0..<400 {
      let g = givens[r % givens.count], f = families[(r / 3) % families.count]
      var c = Contact(givenName: g, familyName: f)
      c.uid = "r\(r)"
      let both = r % 4 == 3 ? "\(g)x \(f)" : "\(g) \(f)"
      c.extras = [
        ExtraProperty(name: "X-CSV", parameters: "HEADER=first_and_surname", value: both),
        ExtraProperty(name: "X-CSV", parameters: "HEADER=surname_first", value: "\(f.uppercased()), \(g)"),
        ExtraProperty(name: "X-CSV", parameters: "HEADER=preferred", value: r % 3 == 0 ? g : "Nick\(r % 7)"),
        ExtraProperty(name: "X-CSV", parameters: "HEADER=birthplace", value: "Town \(r % 30)"),
      ]
      contacts.append(c)
    }
    return ContactTable(contacts: contacts)
  }

  @Test func columnsThatHoldTheNameAgainAreNotCompared() {
    let columns = AttributeComparisons(table: Self.table())
    let restated = Dictionary(uniqueKeysWithValues: columns.restated.map { ($0.name, $0.share) })
    #expect(Set(restated.keys) == ["first_and_surname", "surname_first"])
    // 300 of the 400 rows carry the name as it is.
    #expect(abs((restated["first_and_surname"] ?? 0) - 0.75) < 1e-9)
    #expect(restated["surname_first"] == 1)
    let compared = Set(columns.attributes.map(\.name))
    #expect(compared.isDisjoint(with: ["first_and_surname", "surname_first"]))
    // A column that equals the given name on a third of the rows is a
    // column of its own, and a birthplace never is a name.
    #expect(compared.isSuperset(of: ["preferred", "birthplace"]))
  }

  /// The dedupe's statistics name the column; with no name columns in the
  /// table nothing is restated (the column is then the only name there is).
  @Test func theStatisticsNameTheColumnAndANamelessTableKeepsIt() {
    let d = Deduplicator(configuration: DedupeConfiguration(estimateWeights: true))
    let result = d.findDuplicates(in: Self.table())
    #expect(result.statistics.restatedColumns.map(\.name).sorted() == ["first_and_surname", "surname_first"])

    var nameless: [Contact] = []
    for r in 0..<200 {
      var c = Contact()
      c.uid = "n\(r)"
      c.extras = [
        ExtraProperty(name: "X-CSV", parameters: "HEADER=first_and_surname", value: "Person \(r % 40)")
      ]
      nameless.append(c)
    }
    let columns = AttributeComparisons(table: ContactTable(contacts: nameless))
    #expect(columns.restated.isEmpty)
    #expect(columns.attributes.map(\.name) == ["first_and_surname"])
  }
}
