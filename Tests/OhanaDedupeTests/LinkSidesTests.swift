import OhanaCore
import Testing

@testable import OhanaDedupe

/// Linking two tables (``LinkSides``, issue 44 item 6): the candidates are
/// the dedupe's candidates with the pairs within a side taken out (checked
/// against a filter written here over the unlinked run's pairs), every
/// joined pair crosses, and `withinSides` is the dedupe of both.
@Suite struct LinkSidesTests {
  /// 60 people on the left; the right holds 40 of them again (the given
  /// name one letter short for every third) and 20 others; both sides
  /// share family names, so blocks mix the sides.
  static func table() -> (table: ContactTable, rightStart: Int) {
    let given = ["Anneliese", "Bartholomew", "Cornelius", "Dorothea", "Evangeline", "Frederick"]
    let family = ["Smith", "Jones", "Brown", "Black", "Green", "White", "Young", "King", "Wood", "Hall"]
    func person(_ p: Int, short: Bool) -> Contact {
      var c = Contact(
        givenName: short ? String(given[p % given.count].dropLast()) : given[p % given.count],
        familyName: family[(p / given.count) % family.count])
      c.birthday = "19\(50 + p % 50)-0\(1 + p % 9)-1\(p % 10)"
      return c
    }
    var contacts = (0..<60).map { p -> Contact in
      var c = person(p, short: false)
      c.uid = "L\(p)"
      return c
    }
    for i in 0..<60 {
      let p = i < 40 ? i : i + 100
      var c = person(p, short: i % 3 == 2)
      c.uid = "R\(i)"
      contacts.append(c)
    }
    return (ContactTable(contacts: contacts), 60)
  }

  @Test func candidatesAreTheDedupesPairsAcrossTheSides() {
    let (table, start) = Self.table()
    let plain = Deduplicator(configuration: DedupeConfiguration(estimateWeights: false))
    let all = Set(plain.candidatePairs(in: table).map { [$0.first, $0.second] })
    let expected = all.filter { ($0[0] < start) != ($0[1] < start) }
    var linked = plain
    linked.link = LinkSides(rightStart: start)
    let got = linked.candidatePairs(in: table).map { [$0.first, $0.second] }
    #expect(Set(got) == expected)
    #expect(got.count == expected.count, "each pair once")
    #expect(expected.count < all.count, "the table has pairs within a side to take out")
    // And the packed filter itself, on pairs made by hand, at 1 and 3 threads.
    let packed: [UInt64] = [(0, 1), (0, 60), (59, 60), (60, 61), (3, 119), (61, 119)].map {
      UInt64($0.0) << 32 | UInt64($0.1)
    }
    for threads in [1, 3] {
      #expect(LinkSides(rightStart: 60).candidates(packed, threads: threads) == [packed[1], packed[2], packed[4]])
      #expect(LinkSides(rightStart: 60, withinSides: true).candidates(packed, threads: threads) == packed)
    }
  }

  @Test func everyJoinedPairCrossesAndTheTrueOnesAreFound() {
    let (table, start) = Self.table()
    var dedupe = Deduplicator(configuration: DedupeConfiguration(estimateWeights: false))
    dedupe.link = LinkSides(rightStart: start)
    let result = dedupe.findDuplicates(in: table)
    #expect(result.pairs.allSatisfy { $0.first < start && $0.second >= start })
    // Person i (i < 40) is left row i and right row 60 + i.
    let found = result.pairs.filter { $0.second == $0.first + start && $0.first < 40 }.count
    #expect(found >= 36, "\(found) of 40")
    #expect(result.pairs.count - found <= 2, "\(result.pairs.count - found) wrong")
    // Link and dedupe: the dedupe of both tables, the same clusters.
    var both = dedupe
    both.link = LinkSides(rightStart: start, withinSides: true)
    var plain = dedupe
    plain.link = nil
    #expect(both.findDuplicates(in: table).clusterOf == plain.findDuplicates(in: table).clusterOf)
  }

  /// With a truth, the true pairs counted are those across the sides.
  @Test func truthCountsPairsAcross() {
    // Entities: 0 on rows 0, 1 (left) and 2 (right); 1 on rows 3 (right) and 4 (right).
    let truth: [Int32] = [0, 0, 1, 0, 1]
    let link = LinkSides(rightStart: 2)
    // Rows 0, 1 left; 2, 3, 4 right. Entity 0: left 0, 1, right 3 -> 2 pairs; entity 1: right 2, 4 -> 0.
    let pairs: [UInt64] = [0 << 32 | 3, 1 << 32 | 2]
    let across = Deduplicator.truthCounts(truth, pairs: pairs, link: link)
    #expect(across.truePairs == 2 && across.compared == 1)
    let within = Deduplicator.truthCounts(truth, pairs: pairs)
    #expect(within.truePairs == 4 && within.compared == 1)
  }
}
