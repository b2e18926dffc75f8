import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// Issue 45 (blocking recall, every column compared): the rule
/// `column+name` and the least m a column needs to weigh. The references
/// are brute force over every pair, or m and u counted by hand.
@Suite struct ColumnBlockingTests {
  // Names chosen to sound unlike each other: equal sound here is equal text.
  static let families = [
    "Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Wright", "Robinson", "White", "Hughes",
    "Edwards", "Green", "Hall", "Lewis", "Clarke", "Jackson",
  ]
  static let givens = [
    "Oliver", "Amelia", "Harry", "Isla", "George", "Beatrice", "Jacob", "Poppy", "Charlie", "Freya", "Thomas", "Rosie",
    "Ulrich",
  ]

  /// 200 people, two records each. A birthplace out of 30 (u about 1/30:
  /// blocked on), the same on both records but for every 5th person; a
  /// gender (u 1/2: too common to block on); the names repeat across
  /// people (family out of 17, given out of 13), so a birthplace with the
  /// family name is what finds a pair.
  static func people() -> (table: ContactTable, truePairs: [UInt64], place: [Int]) {
    var contacts: [Contact] = []
    var pairs: [UInt64] = []
    var place: [Int] = []
    for p in 0..<200 {
      for k in 0..<2 {
        var c = Contact(givenName: givens[p % 13], familyName: families[p % 17])
        c.uid = "r\(p)-\(k)"
        let at = k == 1 && p % 5 == 0 ? (p + 7) % 30 : p % 30
        place.append(at)
        c.extras = [
          ExtraProperty(name: "X-CSV", parameters: "HEADER=birthplace", value: "Place \(at)"),
          ExtraProperty(name: "GENDER", value: p % 2 == 0 ? "F" : "M"),
        ]
        contacts.append(c)
      }
      pairs.append(UInt64(2 * p) << 32 | UInt64(2 * p + 1))
    }
    return (ContactTable(contacts: contacts), pairs, place)
  }

  /// The rule's pairs are exactly the pairs that share a birthplace and
  /// the family name (brute force over all 79,800 pairs; no birthdays
  /// here, so no birth year); a shared given name alone does not pair
  /// them, and the gender, shared by half of all pairs, is not blocked on.
  @Test func columnKeysPairTheRowsThatShareAColumnAndAName() {
    let (table, truePairs, place) = Self.people()
    var columns = AttributeComparisons(table: table)
    columns.estimate(confident: truePairs)
    let birthplace = columns.attributes.first { $0.name == "birthplace" }
    #expect((birthplace?.m ?? 0) >= Blocking.columnLeastM)
    #expect((birthplace?.u ?? 1) <= Blocking.columnAgreement)
    let gender = columns.attributes.first { $0.name == "GENDER" }
    #expect((gender?.u ?? 0) > Blocking.columnAgreement)

    let keys = ContactKeys(table: table, configuration: DedupeConfiguration())
    let found = Blocking.columnKeys(keys, columns, threads: 2)
    var stats = DedupeResult.Statistics()
    let pairs = Blocking.candidatePairs(
      keys: keys, configuration: DedupeConfiguration().withoutBlockingKeys, statistics: &stats, columns: found)

    var expected: [UInt64] = []
    let n = table.rowCount
    for a in 0..<n {
      for b in (a + 1)..<n where place[a] == place[b] {
        let pa = a / 2, pb = b / 2
        if pa % 17 == pb % 17 { expected.append(UInt64(a) << 32 | UInt64(b)) }
      }
    }
    #expect(stats.cappedBlocks == 0)
    #expect(pairs == expected, "\(pairs.count) pairs, \(expected.count) expected")
    // The true pairs whose birthplaces agree are all among them.
    let agreeing = truePairs.filter { place[Int($0 >> 32)] == place[Int($0 & 0xFFFF_FFFF)] }
    #expect(agreeing.count == 160)
    #expect(Set(agreeing).isSubset(of: Set(pairs)))
  }

  /// A column one person's records seldom agree on (m below
  /// `minimumM`: a visit date) weighs nothing, however rare its values;
  /// and it is not blocked on. By hand: 25 of 200 true pairs agree.
  @Test func aColumnRecordsSeldomAgreeOnWeighsNothing() {
    var contacts: [Contact] = []
    var truePairs: [UInt64] = []
    var rng = SeededRandom(seed: 45)
    for p in 0..<200 {
      let first = Int(rng.next() % 150)
      for k in 0..<2 {
        var c = Contact(givenName: Self.givens[p % 13], familyName: Self.families[p % 17])
        let day = k == 1 && p % 8 != 0 ? Int(rng.next() % 150) : first
        c.extras = [ExtraProperty(name: "X-CSV", parameters: "HEADER=visit", value: "2020-\(day)")]
        contacts.append(c)
      }
      truePairs.append(UInt64(2 * p) << 32 | UInt64(2 * p + 1))
    }
    let table = ContactTable(contacts: contacts)
    var columns = AttributeComparisons(table: table)
    columns.estimate(confident: truePairs)
    guard let visit = columns.attributes.first(where: { $0.name == "visit" }) else {
      Issue.record("visit not compared")
      return
    }
    // Pairs that agree: every 8th by construction, and any other whose
    // second draw met the first by chance; counted here from the table.
    var agree = 0
    for p in truePairs where contacts[Int(p >> 32)].extras[0].value == contacts[Int(p & 0xFFFF_FFFF)].extras[0].value {
      agree += 1
    }
    let m = (Double(agree) + 1) / 202
    #expect(abs(visit.m - m) < 1e-12)
    #expect(m < AttributeComparisons.minimumM && m > visit.u * 4)
    #expect(visit.typicalSame == 0 && visit.different == 0)
    #expect(!columns.weighs)
    let keys = ContactKeys(table: table, configuration: DedupeConfiguration())
    #expect(Blocking.columnKeys(keys, columns, threads: 2).keys.isEmpty)
  }

  /// `column+name` is in the default rules (the library's and `all`),
  /// used where fewer than half the contacts have a phone or an e-mail,
  /// and always when named; `basic` leaves it out.
  @Test func theColumnRuleIsInAllAndUsedWhereFewContactsHaveAPhoneOrAnEmail() {
    let library = DedupeConfiguration()
    #expect(library.blockingRules.contains(.otherColumns) && !library.columnRuleAlways)
    #expect(library.usesColumnRule(contacts: 1000, withPhoneOrEmail: 499))
    #expect(!library.usesColumnRule(contacts: 1000, withPhoneOrEmail: 500))
    #expect(!library.usesColumnRule(contacts: 1000, withPhoneOrEmail: 1000))
    var all = DedupeConfiguration()
    #expect(all.setBlocking("all") == nil)
    #expect(all.blockingRules == library.blockingRules && !all.columnRuleAlways)
    var named = DedupeConfiguration()
    #expect(named.setBlocking("all,column+name") == nil)
    #expect(named.usesColumnRule(contacts: 1000, withPhoneOrEmail: 1000))
    // Naming it once does not stick when the rules are set again.
    #expect(named.setBlocking("all") == nil && !named.usesColumnRule(contacts: 1000, withPhoneOrEmail: 1000))
    var basic = DedupeConfiguration()
    #expect(basic.setBlocking("basic") == nil)
    #expect(!basic.usesColumnRule(contacts: 1000, withPhoneOrEmail: 0))
  }

  /// Through a whole run: 200 people, two records each, with a birthplace
  /// and birth dates (EM fits; the birthplace is a column blocked on).
  /// With no phones the rule makes its keys; with a phone on every record
  /// (each its own) it is withheld; named, it makes them again.
  @Test func aRunWithholdsTheColumnRuleWhereMostContactsHaveAPhone() {
    func table(phones: Bool) -> ContactTable {
      var contacts: [Contact] = []
      for p in 0..<200 {
        for k in 0..<2 {
          var c = Contact(givenName: Self.givens[p % 13], familyName: Self.families[p % 17])
          c.uid = "r\(p)-\(k)"
          c.birthday = "19\(50 + p % 40)-\(10 + p % 3)-\(10 + p % 17)"
          c.extras = [ExtraProperty(name: "X-CSV", parameters: "HEADER=birthplace", value: "Place \(p % 30)")]
          if phones { c.fields = [ContactField(kind: .phone, value: "+1 312 555 \(String(1000 + 2 * p + k))")] }
          contacts.append(c)
        }
      }
      return ContactTable(contacts: contacts)
    }
    func run(phones: Bool, blocking: String) -> DedupeResult.Statistics {
      var config = DedupeConfiguration(estimateWeights: true)
      _ = config.setBlocking(blocking)
      var d = Deduplicator(configuration: config)
      d.truth = (0..<400).map { Int32($0 / 2) }
      return d.findDuplicates(in: table(phones: phones)).statistics
    }
    let without = run(phones: false, blocking: "all")
    #expect(without.weightsEstimated && without.attributes.contains { $0.name == "birthplace" })
    #expect(without.contactsWithPhoneOrEmail == 0 && !without.columnRuleWithheld)
    // Its keys were made (the truth's per-rule count names only rules with keys).
    #expect(without.truePairsByRule["column+name"] != nil)
    let with = run(phones: true, blocking: "all")
    #expect(with.weightsEstimated && with.contactsWithPhoneOrEmail == 400)
    #expect(with.columnRuleWithheld && with.pairsByColumns == 0 && with.truePairsByRule["column+name"] == nil)
    let named = run(phones: true, blocking: "all,column+name")
    #expect(named.weightsEstimated && !named.columnRuleWithheld && named.truePairsByRule["column+name"] != nil)
  }
}
