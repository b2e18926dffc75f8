import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// A reviewer's decisions (issue 34), checked against their definition:
/// contacts a `different` decision separates are never in one cluster,
/// those of a `same` decision always are, whatever the scores.
@Suite struct DecisionTests {
  /// Contacts 0-2 share one e-mail (one person by the scores), 3 and 4 are
  /// strangers to everyone.
  let table = ContactTable(contacts: [
    Contact(uid: "a", fullName: "Kate Smith", fields: [ContactField(kind: .email, value: "kate@x.org")]),
    Contact(uid: "b", fullName: "Kate Smith", fields: [ContactField(kind: .email, value: "kate@x.org")]),
    Contact(uid: "c", fullName: "Kate Smith", fields: [ContactField(kind: .email, value: "kate@x.org")]),
    Contact(uid: "d", fullName: "Omar Haddad", fields: [ContactField(kind: .phone, value: "+44 20 7031 3000")]),
    Contact(uid: "e", fullName: "Yuki Tanaka", fields: [ContactField(kind: .phone, value: "+81 90 8975 6748")]),
  ])

  func clusters(_ decisions: [DedupeDecision]) -> (clusterOf: [Int32], stats: DedupeResult.Statistics) {
    var config = DedupeConfiguration()
    config.decisions = decisions
    let r = Deduplicator(configuration: config).findDuplicates(in: table)
    return (r.clusterOf, r.statistics)
  }

  @Test func withoutDecisionsTheScoresDecide() {
    let c = clusters([]).clusterOf
    #expect(c[0] == c[1] && c[1] == c[2])
    #expect(c[3] != c[0] && c[4] != c[0] && c[3] != c[4])
  }

  @Test func differentTakesAMemberOut() {
    let (c, s) = clusters([.different(["c"], from: ["a", "b"])])
    #expect(c[0] == c[1])
    #expect(c[2] != c[0])
    #expect(s.decisionsApplied == 1 && s.pairsRefusedByDecision >= 1)
  }

  @Test func differentSplitsAClusterAtTheBoundary() {
    let (c, _) = clusters([.different(["a"], from: ["c"])])
    #expect(c[0] != c[2])
    // b goes with one of them (the scores tie; either is a valid split).
    #expect(c[1] == c[0] || c[1] == c[2])
  }

  @Test func sameJoinsStrangers() {
    let (c, s) = clusters([.same(["d", "e"])])
    #expect(c[3] == c[4])
    #expect(c[3] != c[0])
    #expect(s.decisionsApplied == 1)
  }

  @Test func anUnknownUIDSkipsItsDecisionOnlyWithItsLine() {
    var bad = DedupeDecision.same(["d", "nobody"])
    bad.line = 7
    let (c, s) = clusters([bad, .different(["c"], from: ["a", "b"])])
    #expect(c[3] != c[4])
    #expect(c[2] != c[0])
    #expect(s.decisionsApplied == 1)
    #expect(s.decisionsSkipped.map(\.line) == [7])
    #expect(s.decisionsSkipped.first?.reason.contains("nobody") == false, "no uid in a reason")
  }

  @Test func aContradictionIsSkippedAndTheEarlierDecisionStands() {
    var later = DedupeDecision.different(["d"], from: ["e"])
    later.line = 2
    let (c, s) = clusters([.same(["d", "e"]), later])
    #expect(c[3] == c[4])
    #expect(s.decisionsSkipped.map(\.line) == [2])
    var sameLater = DedupeDecision.same(["a", "c"])
    sameLater.line = 5
    let (c2, s2) = clusters([.different(["a"], from: ["c"]), sameLater])
    #expect(c2[0] != c2[2])
    #expect(s2.decisionsSkipped.map(\.line) == [5])
  }

  /// Random books of a few households (shared e-mails and phones, so the
  /// scores make clusters) and random decisions: every decision that was
  /// not skipped holds in the clusters, checked pair by pair.
  @Test(arguments: 0..<20) func randomDecisionsAlwaysHold(seed: Int) {
    var rng = SeededRandom(seed: UInt64(seed) &+ 1)
    let n = 24
    var contacts: [Contact] = []
    for i in 0..<n {
      let household = Int(rng.next() % 6)
      var fields = [ContactField(kind: .email, value: "h\(household)@x.org")]
      if rng.next() % 2 == 0 { fields.append(ContactField(kind: .phone, value: "+44 20 7031 300\(household)")) }
      contacts.append(Contact(uid: "u\(i)", fullName: "Person \(household)", fields: fields))
    }
    let table = ContactTable(contacts: contacts)
    var decisions: [DedupeDecision] = []
    for k in 0..<Int(rng.next() % 6 + 1) {
      let a = (0..<Int(rng.next() % 3 + 1)).map { _ in "u\(rng.next() % UInt64(n))" }
      let b = (0..<Int(rng.next() % 3 + 1)).map { _ in "u\(rng.next() % UInt64(n))" }.filter { !a.contains($0) }
      var d: DedupeDecision = rng.next() % 2 == 0 || b.isEmpty ? .same(a + b) : .different(a, from: b)
      d.line = k + 1
      if d.kind == .same && Set(d.uids).count < 2 { continue }
      decisions.append(d)
    }
    var config = DedupeConfiguration()
    config.decisions = decisions
    let r = Deduplicator(configuration: config).findDuplicates(in: table)
    let skipped = Set(r.statistics.decisionsSkipped.map(\.line))
    func row(_ uid: String) -> Int { Int(uid.dropFirst()) ?? -1 }
    for d in decisions where !skipped.contains(d.line) {
      switch d.kind {
      case .same:
        let ids = Set(d.uids.map { r.clusterOf[row($0)] })
        #expect(ids.count == 1, "seed \(seed) line \(d.line)")
      case .different:
        for x in d.uids {
          for y in d.from { #expect(r.clusterOf[row(x)] != r.clusterOf[row(y)], "seed \(seed) line \(d.line)") }
        }
      }
    }
    #expect(r.statistics.decisionsApplied + r.statistics.decisionsSkipped.count == decisions.count)
  }
}
