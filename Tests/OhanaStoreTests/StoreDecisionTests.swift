import Foundation
import OhanaCore
import OhanaDedupe
import OhanaIO
import OhanaStore
import _OhanaTestSupport
import Testing

/// A reviewer's decisions kept in the entity store (issue 34): the oracle
/// is one full dedupe run over all the contacts with all the decisions.
@Suite struct StoreDecisionTests {
  typealias T = EntityStoreTests

  /// Random decisions over a book, made from its clusters so that they
  /// matter: a member taken out, a cluster split, two clusters joined,
  /// a contact kept apart from another's cluster.
  static func decisions(
    _ table: ContactTable, config: DedupeConfiguration, count: Int, rng: inout SeededRandom
  ) -> [DedupeDecision] {
    let result = Deduplicator(configuration: config).findDuplicates(in: table)
    var groups: [Int32: [String]] = [:]
    for r in 0..<table.rowCount { groups[result.clusterOf[r], default: []].append(table.uid(at: r) ?? "") }
    let big = groups.values.filter { $0.count >= 2 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    let all = (0..<table.rowCount).compactMap { table.uid(at: $0) }
    func pick<E>(_ a: [E]) -> E { a[Int(rng.next() % UInt64(a.count))] }
    var out: [DedupeDecision] = []
    for k in 0..<count {
      var d: DedupeDecision
      switch rng.next() % 4 {
      case 0:
        let c = pick(big)
        let m = pick(c)
        d = .different([m], from: c.filter { $0 != m })
      case 1:
        let c = pick(big)
        let cut = 1 + Int(rng.next() % UInt64(c.count - 1))
        d = .different(Array(c[..<cut]), from: Array(c[cut...]))
      case 2:
        d = .same([pick(pick(big)), pick(pick(big))])
        if Set(d.uids).count < 2 { d = .same([pick(all), pick(all)]) }
      default:
        d = .different([pick(all)], from: pick(big))
        if d.from.contains(d.uids[0]) { continue }
      }
      if d.kind == .same && Set(d.uids).count < 2 { continue }
      d.line = k + 1
      out.append(d)
    }
    // Contradictions: a `same` across a third of the `different`s before
    // it (skipped by the full run and by the store alike).
    for (k, d) in out.enumerated() where d.kind == .different && k % 3 == 0 {
      var c = DedupeDecision.same([d.uids[0], d.from[0]])
      c.line = count + k + 1
      out.append(c)
    }
    return out
  }

  /// A book split at random into batches, each decision given with the
  /// first batch by which all its contacts have come (or a later one),
  /// against one full run with the decisions in the order the store took
  /// them. Without the chaining guard the partitions must be equal; with
  /// it they may differ where its order decides. Every kept decision holds
  /// in the store in both.
  @Test(arguments: [
    (UInt64(21), 3, false), (22, 5, false), (23, 4, false), (26, 2, false), (27, 7, false), (24, 6, true), (25, 3, true),
  ])
  func batchesWithDecisionsGiveTheFullRunsPartition(seed: UInt64, batches: Int, guarded: Bool) throws {
    var config = T.storeConfiguration
    if !guarded {
      config.maxClusterSize = 1_000_000
      config.linkThreshold = -1_000_000
    }
    let table = try T.book(2000, seed: seed, dupRate: 0.25)
    var rng = SeededRandom(seed: seed)
    let decisions = Self.decisions(table, config: config, count: 24, rng: &rng)
    var batchOf: [String: Int] = [:]
    var rows = [[UInt32]](repeating: [], count: batches)
    for r in 0..<table.rowCount {
      let b = Int(rng.next() % UInt64(batches))
      rows[b].append(UInt32(r))
      batchOf[table.uid(at: r) ?? ""] = b
    }
    var given = [[DedupeDecision]](repeating: [], count: batches)
    for d in decisions {
      let first = (d.uids + d.from).map { batchOf[$0] ?? 0 }.max() ?? 0
      given[first + Int(rng.next() % UInt64(batches - first))].append(d)
    }
    // The full run, with the decisions in the store's order.
    var full = config
    full.decisions = given.flatMap { $0 }
    let fullResult = Deduplicator(configuration: full).findDuplicates(in: table)
    var fullClusters: [String: Int32] = [:]
    for r in 0..<table.rowCount { fullClusters[table.uid(at: r) ?? ""] = fullResult.clusterOf[r] }
    let fullSkipped = Set(fullResult.statistics.decisionsSkipped.map(\.line))

    let store = try EntityStore.create(at: T.tempPath("s.sqlite"), configuration: config)
    if seed.isMultiple(of: 2) { store.clusterLogLimit = Int.max }
    var refused = 0, skipped = Set<Int>(), kept = 0, reopened = 0
    for b in 0..<batches where !rows[b].isEmpty || !given[b].isEmpty {
      let run = try store.link(table.gathering(rows: rows[b]), source: "batch \(b)", decisions: given[b])
      refused += run.pairsRefusedByGuard
      skipped.formUnion(run.decisionsSkipped.map(\.line))
      kept += run.decisionsKept
      reopened += run.clustersReopened
    }
    #expect(skipped == fullSkipped, "the store skips the decisions the full run skips")
    #expect(!skipped.isEmpty, "the contradictions are skipped")
    #expect(kept + skipped.count == decisions.count)
    #expect(try store.keptDecisions().count == kept)
    let incremental = try T.storePartition(store)
    #expect(incremental.count == table.rowCount)
    #expect(try store.membersDisagreements() == 0)
    #expect(try store.countsDisagreement() == 0)
    for d in decisions where !skipped.contains(d.line) {
      switch d.kind {
      case .same: #expect(Set(d.uids.map { incremental[$0] }).count == 1, "same, line \(d.line)")
      case .different:
        for x in d.uids { for y in d.from { #expect(incremental[x] != incremental[y], "different, line \(d.line)") } }
      }
    }
    let a = T.pairs(fullClusters), b = T.pairs(incremental)
    let differing = a.symmetricDifference(b).count
    print(
      "store decisions seed \(seed), \(batches) batches, guard \(guarded): \(kept) decisions kept, \(skipped.count) skipped, "
        + "\(reopened) clusters reopened; full \(a.count) pairs, incremental \(b.count), \(differing) differ")
    if !guarded {
      #expect(differing == 0, "without the guard the partitions must be equal")
    } else {
      #expect(Double(differing) <= 0.01 * Double(a.count) + 16 * Double(refused + fullResult.statistics.pairsRefusedByGuard))
    }
  }

  /// Kept decisions bind later runs that bring none: a new contact that
  /// bridges two contacts kept apart joins one of them only; a member
  /// taken out stays out when its cluster is updated; the stable id stays
  /// with the oldest contact; --changes names the decision.
  @Test func keptDecisionsBindLaterRuns() throws {
    let store = try EntityStore.create(at: T.tempPath("s.sqlite"), configuration: T.storeConfiguration)
    _ = try store.link(
      T.table(
        T.card("a1", "Ada", "Quist", tel: "+12125550101", email: "ada@quist.example"),
        T.card("a2", "Ada", "Quist", tel: "+12125550101", email: "ada@quist.example"),
        T.card("a3", "Ada", "Quist", tel: "+12125550101", email: "ada@quist.example")), source: "day1")
    let ada = try #require(try store.cluster(ofUID: "a1"))
    #expect(try store.cluster(ofUID: "a3") == ada)
    // Day 2: a3 is taken out by a reviewer.
    let r2 = try store.link(
      T.table(), source: "day2", decisions: [.different(["a3"], from: ["a1", "a2"]), .same(["a1", "nobody"])])
    #expect(r2.decisionsKept == 1 && r2.decisionsSkipped.count == 1)
    #expect(try store.cluster(ofUID: "a1") == ada, "the part with the oldest contact keeps the id")
    #expect(try store.cluster(ofUID: "a2") == ada)
    let out = try #require(try store.cluster(ofUID: "a3"))
    #expect(out != ada)
    let decisionID = try #require(try store.keptDecisions().first?.line)
    #expect(r2.changes.contains { $0.kind == .split && $0.cluster == ada && $0.decisions == [Int64(decisionID)] })
    // Day 3: a fourth Ada sharing everything; a2 updated. No decision is
    // given, and the kept one still holds.
    let r3 = try store.link(
      T.table(
        T.card("a4", "Ada", "Quist", tel: "+12125550101", email: "ada@quist.example"),
        T.card("a2", "Ada", "Quist", tel: "+12125550101", email: "ada.q@quist.example")), source: "day3")
    #expect(r3.updated == 1 && r3.added == 1)
    #expect(try store.cluster(ofUID: "a3") != (try store.cluster(ofUID: "a1")))
    #expect(try store.cluster(ofUID: "a2") == ada && (try store.cluster(ofUID: "a4")) != nil)
    #expect(r3.pairsRefusedByDecision > 0)
    // Reopened: the store can be read back and agrees with itself.
    let again = try EntityStore.open(at: store.path)
    #expect(try again.keptDecisions().count == 1)
    #expect(try again.membersDisagreements() == 0)
  }
}
