import Foundation
import OhanaCore
import OhanaDatasets
import OhanaDedupe
import OhanaIO
import OhanaStore
import _OhanaTestSupport
import Testing

/// The entity store against an independent oracle: one full dedupe run
/// over the same contacts (a different path: full blocking over one
/// table, no stored keys, no lookups, no stored clusters).
@Suite struct EntityStoreTests {
  static func book(_ n: Int, seed: UInt64, dupRate: Double, handKeyed: Bool = false) throws -> ContactTable {
    var bytes: [UInt8] = []
    let g = DatasetGenerator(
      options: GeneratorOptions(contacts: n, seed: seed, version: .mixed, dupRate: dupRate, handKeyed: handKeyed))
    try g.generate(vcard: { bytes.append(contentsOf: $0) })
    return try ContactIO.read(bytes: bytes, format: .vcard4).table
  }

  static func tempPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-store-tests-" + UUID().uuidString)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
  }

  /// Pairs of uids in one cluster.
  static func pairs<C: Hashable>(_ clusterOf: [String: C]) -> Set<[String]> {
    var groups: [C: [String]] = [:]
    for (u, c) in clusterOf { groups[c, default: []].append(u) }
    var out = Set<[String]>()
    for m in groups.values where m.count > 1 {
      let s = m.sorted()
      for i in 0..<(s.count - 1) { for j in (i + 1)..<s.count { out.insert([s[i], s[j]]) } }
    }
    return out
  }

  static func storePartition(_ store: EntityStore) throws -> [String: Int64] {
    var out: [String: Int64] = [:]
    try store.forEachAssignment { uid, c in out[uid] = c }
    return out
  }

  static func fullPartition(_ table: ContactTable, _ config: DedupeConfiguration) -> (clusters: [String: Int32], refused: Int) {
    let r = Deduplicator(configuration: config).findDuplicates(in: table)
    var out: [String: Int32] = [:]
    for row in 0..<table.rowCount { out[table.uid(at: row) ?? "row\(row)"] = r.clusterOf[row] }
    return (out, r.statistics.pairsRefusedByGuard)
  }

  static var storeConfiguration: DedupeConfiguration {
    var c = DedupeConfiguration()
    c.termFrequencies = false
    return c
  }

  /// Random splits of a generated address book into 2 to 10 batches,
  /// linked one after the other, give the full run's clusters (as
  /// partitions), but where the chaining guard's order decides.
  @Test(arguments: [(UInt64(1), 2), (2, 3), (3, 5), (4, 7), (5, 10)])
  func batchesGiveTheFullRunsPartition(seed: UInt64, batches: Int) throws {
    try Self.compareBatches(seed: seed, batches: batches, config: Self.storeConfiguration)
  }

  /// Without the chaining guard (no size cap, no link threshold) nothing
  /// depends on the order: the partitions must be equal.
  @Test(arguments: [(UInt64(6), 4), (7, 9)])
  func withoutTheGuardBatchesGiveExactlyTheFullRunsPartition(seed: UInt64, batches: Int) throws {
    var config = Self.storeConfiguration
    config.maxClusterSize = 1_000_000
    config.linkThreshold = -1_000_000
    try Self.compareBatches(seed: seed, batches: batches, config: config)
  }

  static func compareBatches(seed: UInt64, batches: Int, config: DedupeConfiguration) throws {
    let table = try Self.book(3000, seed: seed, dupRate: 0.2)
    let full = Self.fullPartition(table, config)
    var rng = SplitMix64(seed: seed &+ 99, stream: 1, index: 0)
    var rows = [[UInt32]](repeating: [], count: batches)
    for r in 0..<table.rowCount { rows[Int(rng.next() % UInt64(batches))].append(UInt32(r)) }
    let path = Self.tempPath("s.sqlite")
    let store = try EntityStore.create(at: path, configuration: config)
    // Even seeds keep every changed cluster in the cluster log (never
    // folded in); odd ones fold it at the default share.
    if seed.isMultiple(of: 2) { store.clusterLogLimit = Int.max }
    var refused = 0
    for b in rows where !b.isEmpty {
      let run = try store.link(table.gathering(rows: b), source: "batch")
      refused += run.pairsRefusedByGuard
    }
    let incremental = try Self.storePartition(store)
    #expect(incremental.count == table.rowCount)
    #expect(try store.membersDisagreements() == 0, "clusters.members agree with contacts.cluster")
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
    let a = Self.pairs(full.clusters), b = Self.pairs(incremental)
    let differing = a.symmetricDifference(b).count
    print(
      "store equivalence seed \(seed), \(batches) batches: full run \(a.count) pairs in clusters, incremental \(b.count), "
        + "\(differing) differ; guard refusals full \(full.refused), incremental \(refused)")
    if full.refused == 0 && refused == 0 {
      #expect(differing == 0, "no guard refusal, so the partitions must be equal")
    } else {
      // Each refusal can move one contact (at most maxClusterSize pairs).
      #expect(differing <= 16 * (full.refused + refused))
      #expect(Double(differing) <= 0.01 * Double(a.count), "more than 1% of pairs differ")
    }
  }

  /// The key buckets' size is storage only: a store with 2^20 buckets (as
  /// stores made before session 13 have) and one with the new 2^14 give
  /// the same ids, clusters and changes through batches, an update, a
  /// removal and the key log's folding.
  @Test func bucketBitsDoNotChangeTheAnswer() throws {
    let table = try Self.book(2000, seed: 31, dupRate: 0.2)
    let all = try Self.cards(of: table)
    let tableOf = Self.table(of:)
    var rng = SplitMix64(seed: 31, stream: 2, index: 0)
    var batches = [[Int]](repeating: [], count: 5)
    for i in all.indices { batches[i < 1200 ? 0 : 1 + Int(rng.next() % 4)].append(i) }
    // The update: a contact of the first batch takes the content of one of
    // the second; the removal: one of the third.
    let (u, from) = (batches[0][3], batches[1][0])
    let update = all[from].text.replacingOccurrences(of: "UID:\(all[from].uid)\r\n", with: "UID:\(all[u].uid)\r\n")
    let stores = try [20, 14].map { bits in
      try EntityStore.create(
        at: Self.tempPath("bits\(bits).sqlite"), configuration: Self.storeConfiguration, unjournaled: false, bucketBits: bits)
    }
    var runs: [[StoreRun]] = [[], []]
    for (k, store) in stores.enumerated() {
      for b in batches { runs[k].append(try store.link(tableOf(b.map { all[$0].text }), source: "batch")) }
      runs[k].append(try store.link(tableOf([update]), source: "update", removing: [all[batches[2][1]].uid]))
    }
    #expect(runs[0].contains { $0.keyLogCompacted }, "the batches fold the key log at least once")
    #expect(
      runs.joined().allSatisfy { !$0.keyLogCompacted || $0.clusterLogRows == 0 },
      "a run that folds the key log folds the cluster log")
    for (i, (a, b)) in zip(runs[0], runs[1]).enumerated() {
      let sameChanges = a.changes == b.changes  // (a Bool: the arrays would fill the log)
      #expect(sameChanges, "run \(i + 1): the changes differ")
      #expect(a.pairsCompared == b.pairsCompared && a.storedCandidates == b.storedCandidates)
    }
    #expect(try Self.storePartition(stores[0]) == Self.storePartition(stores[1]))
    #expect(runs[1].last?.updated == 1 && runs[1].last?.removed == 1)
    #expect(try stores[1].membersDisagreements() == 0)
    #expect(try stores[1].countsDisagreement() == 0, "the counts kept in meta agree with the rows")
  }

  /// Cards of a vCard text, with each card's uid.
  static func cards(_ text: [UInt8]) -> [(uid: String, text: String)] {
    String(decoding: text, as: UTF8.self).components(separatedBy: "END:VCARD\r\n").dropLast().map { c in
      let card = c + "END:VCARD\r\n"
      let line = card.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") } ?? "UID:"
      return (String(line.dropFirst(4)), card)
    }
  }

  /// A large first batch, then small ones whose keys stay in the key log
  /// over several runs until it is folded into the buckets; then updates
  /// and removals of contacts whose keys are in the log or the buckets.
  /// Without the guard, the store's partition must equal one full run
  /// over the final contacts exactly.
  @Test func keyLogAcrossRunsUpdatesAndRemovals() throws {
    var config = Self.storeConfiguration
    config.maxClusterSize = 1_000_000
    config.linkThreshold = -1_000_000
    let table = try Self.book(3000, seed: 21, dupRate: 0.2)
    let all = try Self.cards(of: table)
    let tableOf = Self.table(of:)
    // The small batches: the members of 300 clusters of the full run,
    // each cluster spread over consecutive batches, so that most of their
    // pairs are found only through the keys earlier small batches left in
    // the log. The rest is the base.
    let first = Self.fullPartition(table, config).clusters
    var members: [Int32: [Int]] = [:]
    for (i, c) in all.enumerated() { if let k = first[c.uid] { members[k, default: []].append(i) } }
    var small = [[Int]](repeating: [], count: 6)
    var inSmall = Set<Int>()
    for (n, k) in members.keys.sorted().filter({ (members[$0]?.count ?? 0) > 1 }).prefix(300).enumerated() {
      for (m, i) in (members[k] ?? []).enumerated() {
        small[(n + m) % 6].append(i)
        inSmall.insert(i)
      }
    }
    let store = try EntityStore.create(at: Self.tempPath("s.sqlite"), configuration: config)
    _ = try store.link(tableOf(all.indices.filter { !inSmall.contains($0) }.map { all[$0].text }), source: "base")
    var logSeen = 0, compactions = 0
    for b in 0..<6 {
      let run = try store.link(tableOf(small[b].map { all[$0].text }), source: "small \(b)")
      if run.keyLogCompacted { compactions += 1 } else { logSeen = max(logSeen, run.keyLogEntries) }
    }
    #expect(compactions >= 1, "six batches of 100 into 2,400 fold the log in at least once")
    #expect(logSeen > 0, "some runs leave their keys in the log")
    // Updates: a contact of the last small batch (keys in the log) and one
    // of the base (keys in the buckets) take another contact's content;
    // removals: one of each again.
    var final = all.map(\.text)
    func takeOver(_ i: Int, from j: Int) -> String {
      all[j].text.replacingOccurrences(of: "UID:\(all[j].uid)\r\n", with: "UID:\(all[i].uid)\r\n")
    }
    let inLog = small[5], inBase = all.indices.filter { !inSmall.contains($0) }
    let updated = [inLog[0]: inBase[17], inBase[5]: inLog[3]]
    for (i, j) in updated { final[i] = takeOver(i, from: j) }
    let run = try store.link(
      tableOf(updated.keys.sorted().map { final[$0] }), source: "updates", removing: [all[inLog[1]].uid, all[inBase[40]].uid])
    #expect(run.updated == 2 && run.removed == 2)
    final[inLog[1]] = ""
    final[inBase[40]] = ""
    let remaining = try tableOf(final.filter { !$0.isEmpty })
    let full = Self.fullPartition(remaining, config)
    let incremental = try Self.storePartition(store)
    #expect(incremental.count == remaining.rowCount)
    #expect(try store.membersDisagreements() == 0, "clusters.members agree with contacts.cluster")
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
    let a = Self.pairs(full.clusters), b = Self.pairs(incremental)
    let differing = a.symmetricDifference(b).count
    #expect(differing == 0, "\(differing) pairs differ from the full run")
    #expect(a.count > 300)
  }

  /// Whether the sqlite3 shell is there (the migration tests use it to make
  /// stores of earlier schemas); says so loudly when it is not.
  static func hasShell() -> Bool {
    if SQLiteShell.path != nil { return true }
    Issue.record("the sqlite3 shell is not installed (apt-get install sqlite3): migration not tested")
    return false
  }

  /// Runs SQL on the store at `path` through the sqlite3 shell.
  static func sql(_ path: String, _ text: String) throws -> String {
    let r = try #require(try SQLiteShell.run(path, text, readOnly: false))
    #expect(r.status == 0)
    return r.output
  }

  /// A store of schema version 1 (before the key log), made here from a
  /// new one by the sqlite3 shell, opens, takes a batch and is version 2.
  @Test func versionOneStoreIsMigrated() throws {
    guard Self.hasShell() else { return }
    let sql = Self.sql
    let path = try Self.earlierStore(
      "v1.sqlite", [Self.card("a1", "Ada", "Quist", tel: "+12125550101")],
      Self.toVersionFour + "DROP TABLE block_key_log; UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    #expect(try sql(path, "SELECT value FROM meta WHERE key = 'schema_version'") == "1")
    let store = try EntityStore.open(at: path)
    let run = try store.link(Self.table(Self.card("a2", "Ada", "Quist", tel: "+12125550101")), source: "day2")
    #expect(run.added == 1)
    #expect(try store.cluster(ofUID: "a2") == store.cluster(ofUID: "a1"), "the key of a1 is found after the migration")
    #expect(try sql(path, "SELECT value FROM meta WHERE key = 'schema_version'") == "6")
    #expect(try store.membersDisagreements() == 0)
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
  }

  /// Two contacts that share a phone, one with an e-mail, one with
  /// neither: a cluster of two and two of one.
  static let pairAndTwoSingles = [
    card("a1", "Ada", "Quist", tel: "+12125550101"), card("a2", "Ada", "Quist", tel: "+12125550101"),
    card("b1", "Bo", "Lind", email: "bo@lind.example"), card("c1", "Cy", "Moss"),
  ]

  /// SQL that takes a store of today's schema back to version 4's tables
  /// (clusters in the table `clusters`, no log): with the log empty, as a
  /// store made by one batch has it.
  static let toVersionFour =
    "DROP VIEW clusters; DROP TABLE cluster_log; ALTER TABLE cluster_base RENAME TO clusters; "
    + "UPDATE meta SET value = '4' WHERE key = 'schema_version'; "

  /// A store of schema version 4 (clusters in one table), made here from a
  /// new one by the sqlite3 shell: opened, its table becomes
  /// `cluster_base` under the view `clusters` with an empty log, and a
  /// later run's changed clusters go to the log.
  @Test func versionFourStoreGetsTheClusterLog() throws {
    guard Self.hasShell() else { return }
    let sql = Self.sql
    var before = ""
    let path = try Self.earlierStore(
      "v4.sqlite",
      Self.pairAndTwoSingles,
      Self.toVersionFour
    ) { before = try sql($0, "SELECT * FROM clusters ORDER BY id") }
    #expect(try sql(path, "SELECT type FROM sqlite_schema WHERE name = 'clusters'") == "table")
    let store = try EntityStore.open(at: path)
    store.clusterLogLimit = Int.max
    #expect(try sql(path, "SELECT value FROM meta WHERE key = 'schema_version'") == "6")
    #expect(try sql(path, "SELECT type FROM sqlite_schema WHERE name = 'clusters'") == "view")
    #expect(try sql(path, "SELECT * FROM clusters ORDER BY id") == before, "the clusters as the table held them")
    let run = try store.link(Self.table(Self.card("b2", "Bo", "Lind", email: "bo@lind.example")), source: "day2")
    #expect(run.added == 1 && run.clusterLogRows == 1)
    #expect(try store.cluster(ofUID: "b2") == store.cluster(ofUID: "b1"))
    #expect(try sql(path, "SELECT count(*) FROM cluster_log") == "1", "b1's cluster, changed, is in the log")
    #expect(try sql(path, "SELECT size FROM cluster_base WHERE id = (SELECT id FROM cluster_log)") == "1", "its base row as it was")
    #expect(try sql(path, "SELECT size FROM clusters WHERE id = (SELECT id FROM cluster_log)") == "2", "the view reads the log's")
    #expect(try store.membersDisagreements() == 0)
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
    #expect(try store.integrityCheck() == "ok")
  }

  /// Where a cluster's row is kept is storage only: a store that never
  /// folds the cluster log and one that folds it every run give the same
  /// changes, partition and merged contacts through batches, a bridge, an
  /// update and a removal; each store's `clusters` agrees with its
  /// contacts' own `cluster` column. Then the first is folded at last:
  /// `clusters` reads the same, and the log is empty.
  @Test func clusterLogDoesNotChangeTheAnswer() throws {
    guard Self.hasShell() else { return }
    let table = try Self.book(2000, seed: 41, dupRate: 0.3)
    let all = try Self.cards(of: table)
    let tableOf = Self.table(of:)
    var rng = SplitMix64(seed: 41, stream: 2, index: 0)
    var batches = [[Int]](repeating: [], count: 6)
    for i in all.indices { batches[i < 1000 ? 0 : 1 + Int(rng.next() % 5)].append(i) }
    let (u, from) = (batches[0][3], batches[1][0])
    let update = all[from].text.replacingOccurrences(of: "UID:\(all[from].uid)\r\n", with: "UID:\(all[u].uid)\r\n")
    let stores = try ["never", "always"].map { name in
      try EntityStore.create(at: Self.tempPath("log-\(name).sqlite"), configuration: Self.storeConfiguration)
    }
    stores[0].clusterLogLimit = Int.max
    stores[1].clusterLogLimit = 0
    var runs: [[StoreRun]] = [[], []]
    for (k, store) in stores.enumerated() {
      for b in batches { runs[k].append(try store.link(tableOf(b.map { all[$0].text }), source: "batch")) }
      runs[k].append(try store.link(tableOf([update]), source: "update", removing: [all[batches[2][1]].uid]))
    }
    #expect(runs[0].allSatisfy { !$0.clusterLogFolded } && (runs[0].last?.clusterLogRows ?? 0) > 100, "the log kept its rows")
    #expect(runs[1].dropFirst().allSatisfy { $0.clusterLogFolded }, "folded every later run")
    #expect(runs[0].contains { $0.clustersMerged > 0 }, "a bridge merged two stored clusters")
    for (i, (a, b)) in zip(runs[0], runs[1]).enumerated() {
      let sameChanges = a.changes == b.changes
      #expect(sameChanges, "run \(i + 1): the changes differ")
    }
    #expect(try Self.storePartition(stores[0]) == Self.storePartition(stores[1]))
    func merged(_ s: EntityStore) throws -> [Int64: [UInt8]] {
      var out: [Int64: [UInt8]] = [:]
      try s.forEachMergedCard(only: nil) { id, card in out[id] = card }
      return out
    }
    let mergedNever = try merged(stores[0])
    #expect(mergedNever == (try merged(stores[1])))
    for s in stores {
      #expect(try s.membersDisagreements() == 0, "clusters agree with contacts.cluster")
      #expect(try s.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
      #expect(try s.integrityCheck() == "ok")
    }
    let view = try Self.sql(stores[0].path, "SELECT * FROM clusters ORDER BY id")
    #expect(try stores[0].foldClusterLogNow())
    #expect(try Self.sql(stores[0].path, "SELECT count(*) FROM cluster_log") == "0")
    #expect(try Self.sql(stores[0].path, "SELECT * FROM clusters ORDER BY id") == view, "the fold changes no cluster")
    #expect(try Self.sql(stores[0].path, "SELECT * FROM cluster_base ORDER BY id") == view, "the base holds them all")
  }

  /// A store made today from `cards` (one batch), then taken back to an
  /// earlier schema by `downgrade` through the sqlite3 shell; `look` sees
  /// it before the downgrade.
  static func earlierStore(
    _ name: String, _ cards: [String], _ downgrade: String, look: (String) throws -> Void = { _ in }
  ) throws -> String {
    let path = Self.tempPath(name)
    do {
      let store = try EntityStore.create(at: path, configuration: Self.storeConfiguration)
      _ = try store.link(try table(of: cards), source: "day1")
    }
    try look(path)
    _ = try sql(path, downgrade)
    return path
  }

  /// A store of schema version 2 (no comparison records, uids through an
  /// SQL index, keys as that version kept them), made here from a new one
  /// by the sqlite3 shell with its keys and records taken away: opened, it
  /// has them made again from the contacts' text, and links as before.
  @Test func versionTwoStoreIsRebuilt() throws {
    guard Self.hasShell() else { return }
    let sql = Self.sql
    let path = try Self.earlierStore(
      "v2.sqlite",
      [
        Self.card("a1", "Ada", "Quist", tel: "+12125550101"), Self.card("b1", "Bo", "Lind", email: "bo@lind.example"),
        Self.card("c1", "Cy", "Moss"),
      ],
      Self.toVersionFour + "DROP TABLE records; DELETE FROM block_keys; DELETE FROM block_key_log; DELETE FROM name_order; "
        + "CREATE UNIQUE INDEX contacts_uid ON contacts(uid); DELETE FROM meta WHERE key = 'record_version'; "
        + "ALTER TABLE clusters DROP COLUMN members; CREATE INDEX contacts_cluster ON contacts(cluster); "
        + "DELETE FROM meta WHERE key IN ('contact_count', 'cluster_count'); "
        + "UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    let store = try EntityStore.open(at: path)
    #expect(try sql(path, "SELECT value FROM meta WHERE key = 'schema_version'") == "6")
    #expect(try sql(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'contacts_cluster'") == "0")
    #expect(try store.membersDisagreements() == 0, "members listed from the contacts")
    #expect(try store.countsDisagreement() == nil, "a store of schema 2 keeps no counts until its next run")
    let counted = try store.counts()
    let clusterRows = try sql(path, "SELECT count(*) FROM clusters")
    #expect(counted.contacts == 3 && "\(counted.clusters)" == clusterRows, "counted from the rows")
    #expect(try sql(path, "SELECT count(*) FROM records") == "3")
    #expect(try sql(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'contacts_uid'") == "0")
    #expect(try store.cluster(ofUID: "b1") != nil, "uids are found through the rebuilt postings")
    // A duplicate by phone, one by e-mail, and an update of c1.
    let run = try store.link(
      Self.table(
        Self.card("a2", "Ada", "Quist", tel: "+12125550101"), Self.card("b2", "Bo", "Lind", email: "bo@lind.example"),
        Self.card("c1", "Cy", "Moss", tel: "+12125550199")),
      source: "day2")
    #expect(run.added == 2)
    #expect(run.updated == 1)
    #expect(try store.cluster(ofUID: "a2") == store.cluster(ofUID: "a1"), "a2 joins a1 through the rebuilt phone key")
    #expect(try store.cluster(ofUID: "b2") == store.cluster(ofUID: "b1"), "b2 joins b1 through the rebuilt e-mail key")
    #expect(try sql(path, "SELECT count(*) FROM contacts") == "5")
    #expect(try store.membersDisagreements() == 0)
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
    #expect(try store.integrityCheck() == "ok")
  }

  /// A store of schema version 3 (an index on `contacts(cluster)`, no
  /// `clusters.members`), made here from a new one by the sqlite3 shell:
  /// opened, it lists every cluster's members as its contacts say, drops
  /// the index, and links, merges and splits as before.
  @Test func versionThreeStoreListsMembers() throws {
    guard Self.hasShell() else { return }
    let sql = Self.sql
    var before = ""
    let path = try Self.earlierStore(
      "v3.sqlite",
      Self.pairAndTwoSingles,
      Self.toVersionFour + "ALTER TABLE clusters DROP COLUMN members; CREATE INDEX contacts_cluster ON contacts(cluster); "
        + "UPDATE meta SET value = '3' WHERE key = 'schema_version'"
    ) { before = try sql($0, "SELECT id, size, members FROM clusters ORDER BY id") }
    let store = try EntityStore.open(at: path)
    #expect(try sql(path, "SELECT value FROM meta WHERE key = 'schema_version'") == "6")
    #expect(try sql(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'contacts_cluster'") == "0")
    #expect(try sql(path, "SELECT id, size, members FROM clusters ORDER BY id") == before, "the members a new store wrote")
    // a3 joins a1 and a2; then a1 is updated into someone else (it leaves
    // their cluster) and c1 is removed (its cluster goes).
    let run = try store.link(Self.table(Self.card("a3", "Ada", "Quist", tel: "+12125550101")), source: "day2")
    #expect(run.added == 1)
    #expect(try store.cluster(ofUID: "a3") == store.cluster(ofUID: "a1"))
    #expect(try store.membersDisagreements() == 0)
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
    let later = try store.link(
      Self.table(Self.card("a1", "Ann", "Zorn", tel: "+12125550177")), source: "day3", removing: ["c1"])
    #expect(later.updated == 1 && later.removed == 1)
    #expect(try store.cluster(ofUID: "a1") != store.cluster(ofUID: "a2"))
    #expect(try store.cluster(ofUID: "a3") == store.cluster(ofUID: "a2"))
    #expect(try store.membersDisagreements() == 0)
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
    #expect(try sql(path, "SELECT count(*) FROM clusters c, json_each(c.members) m WHERE m.value = 4") == "0", "c1 left")
    #expect(try store.integrityCheck() == "ok")
  }

  /// vCard text of a small card.
  static func card(_ uid: String, _ given: String, _ family: String, tel: String? = nil, email: String? = nil) -> String {
    var s = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(uid)\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\n"
    if let tel { s += "TEL:\(tel)\r\n" }
    if let email { s += "EMAIL:\(email)\r\n" }
    return s + "END:VCARD\r\n"
  }

  static func table(_ cards: String...) throws -> ContactTable { try table(of: cards) }

  static func table(of cards: [String]) throws -> ContactTable {
    try ContactIO.read(bytes: Array(cards.joined().utf8), format: .vcard4).table
  }

  /// `table` as vCard 4.0 cards, each with its uid (every one has one).
  static func cards(of table: ContactTable) throws -> [(uid: String, text: String)] {
    var text = [UInt8]()
    try ContactIO.write(table, format: .vcard4, to: &text)
    let all = cards(text)
    #expect(all.count == table.rowCount && all.allSatisfy { !$0.uid.isEmpty })
    return all
  }

  /// Ids through joins, bridges, updates and removals, as DESIGN §9 says.
  @Test func idsStayStable() throws {
    let store = try EntityStore.create(at: Self.tempPath("s.sqlite"), configuration: Self.storeConfiguration)
    // Day 1: Ada twice (one cluster), Ben, and Cleo twice, once by phone
    // and once by e-mail with a name typed differently (weight 2: below the
    // threshold, so two clusters).
    let r1 = try store.link(
      Self.table(
        Self.card("a1", "Ada", "Quist", tel: "+12125550101", email: "ada@quist.example"),
        Self.card("a2", "Ada", "Quist", tel: "+12125550101", email: "ada@quist.example"),
        Self.card("b1", "Ben", "Ruiz", tel: "+12125550202", email: "ben@ruiz.example"),
        Self.card("c1", "Cleo", "Marsh", tel: "+12125550303"),
        Self.card("c2", "Clea", "Marshe", email: "cleo@marsh.example")), source: "day1")
    let ada = try #require(try store.cluster(ofUID: "a1"))
    #expect(try store.cluster(ofUID: "a2") == ada)
    let ben = try #require(try store.cluster(ofUID: "b1"))
    let c1 = try #require(try store.cluster(ofUID: "c1"))
    let c2 = try #require(try store.cluster(ofUID: "c2"))
    #expect(Set([ada, ben, c1, c2]).count == 4, "day 1: Ada, Ben, Cleo by phone, Cleo by e-mail")
    #expect(r1.added == 5)

    // Day 2: a third Ada joins her cluster (its id kept); a Cleo with both
    // the phone and the e-mail bridges the two Cleo clusters: the older
    // id stays, the other becomes its alias.
    let r2 = try store.link(
      Self.table(
        Self.card("a3", "Ada", "Quist", tel: "+12125550101"),
        Self.card("c3", "Cleo", "Marsh", tel: "+12125550303", email: "cleo@marsh.example")), source: "day2")
    #expect(try store.cluster(ofUID: "a3") == ada)
    let cleo = min(c1, c2)
    for u in ["c1", "c2", "c3"] { #expect(try store.cluster(ofUID: u) == cleo) }
    #expect(try store.resolve(max(c1, c2)) == cleo, "the absorbed id resolves to the kept one")
    #expect(r2.changes.contains { $0.kind == .merged && $0.cluster == cleo && $0.other == max(c1, c2) })
    #expect(r2.changes.contains { $0.kind == .added && $0.uid == "a3" && $0.cluster == ada && $0.evidence != "[]" })
    #expect(r2.clustersMerged == 1)
    #expect(try store.membersDisagreements() == 0, "clusters.members agree with contacts.cluster")
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")

    // Day 3: a1 (Ada's oldest) changes into someone else: the cluster
    // splits. a1 is still the cluster's oldest contact (an update keeps its
    // age), so its part keeps the id; a2 and a3 get a new one.
    let r3 = try store.link(Self.table(Self.card("a1", "Zed", "Okoro", tel: "+12125559999")), source: "day3")
    #expect(r3.updated == 1)
    #expect(try store.cluster(ofUID: "a1") == ada, "the updated oldest contact keeps the cluster's id")
    let rest = try #require(try store.cluster(ofUID: "a2"))
    #expect(rest != ada)
    #expect(try store.cluster(ofUID: "a3") == rest)
    #expect(r3.changes.contains { $0.kind == .split && $0.cluster == ada && $0.other == rest })
    #expect(try store.membersDisagreements() == 0, "clusters.members agree with contacts.cluster")
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")

    // Day 4: a2 (oldest of its cluster) is removed: a3 keeps the id.
    let r4 = try store.link(Self.table(), source: "day4", removing: ["a2", "nobody"])
    #expect(r4.removed == 1 && r4.removeNotFound == 1)
    #expect(try store.cluster(ofUID: "a2") == nil)
    #expect(try store.cluster(ofUID: "a3") == rest)
    #expect(try store.membersDisagreements() == 0, "clusters.members agree with contacts.cluster")
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")

    // Day 5: Ben leaves; his cluster is deleted and its id resolves to nothing.
    let r5 = try store.link(Self.table(), source: "day5", removing: ["b1"])
    #expect(r5.clustersDeleted == 1)
    #expect(try store.resolve(ben) == nil)
    let counts = try store.counts()
    #expect(counts.contacts == 5, "7 stored, a2 and b1 removed")
    #expect(try store.membersDisagreements() == 0, "clusters.members agree with contacts.cluster")
    #expect(try store.countsDisagreement() == 0, "the counts kept in meta agree with the rows")
  }

  /// The same export linked again changes nothing; one edited contact in
  /// it is the only update.
  @Test func sameExportAgainIsUnchanged() throws {
    let table = try Self.book(500, seed: 9, dupRate: 0.2)
    let store = try EntityStore.create(at: Self.tempPath("s.sqlite"), configuration: Self.storeConfiguration)
    _ = try store.link(table, source: "day1")
    let before = try Self.storePartition(store)
    let again = try store.link(table, source: "day2")
    #expect(again.unchanged == table.rowCount)
    #expect(again.added == 0 && again.updated == 0 && again.changes.isEmpty)
    #expect(try Self.storePartition(store) == before)
    // Edit one contact's note: an update, and nothing else moves.
    var text = [UInt8]()
    try ContactIO.write(table, format: .vcard4, to: &text)
    let firstUID = try #require(table.uid(at: 0))
    let edited = String(decoding: text, as: UTF8.self).replacingOccurrences(
      of: "UID:\(firstUID)\r\n", with: "UID:\(firstUID)\r\nNOTE:edited\r\n")
    let third = try store.link(try ContactIO.read(bytes: Array(edited.utf8), format: .vcard4).table, source: "day3")
    #expect(third.updated == 1 && third.unchanged == table.rowCount - 1)
    #expect(try Self.storePartition(store) == before)
    // Removing a uid the batch also brings: the batch wins.
    let secondUID = try #require(table.uid(at: 1))
    let fourth = try store.link(table.gathering(rows: [1]), source: "day4", removing: [secondUID])
    #expect(fourth.removed == 0 && fourth.unchanged == 1)
    #expect(try store.cluster(ofUID: secondUID) != nil)
  }

  /// A failing run changes nothing: the transaction is rolled back.
  @Test func failedRunLeavesTheStoreAsItWas() throws {
    let path = Self.tempPath("s.sqlite")
    let store = try EntityStore.create(at: path, configuration: Self.storeConfiguration)
    _ = try store.link(Self.table(Self.card("a1", "Ada", "Quist", tel: "+12125550101")), source: "day1")
    let before = try Self.storePartition(store)
    // A stored card that no longer reads as one card: the store is damaged,
    // and the run that meets it must stop without a change.
    try store.damageForTesting(uid: "a1")
    #expect(throws: StoreError.self) {
      _ = try store.link(Self.table(Self.card("a9", "Ada", "Quist", tel: "+12125550101")), source: "day2")
    }
    let reopened = try EntityStore.open(at: path)
    #expect(try Self.storePartition(reopened) == before)
  }

  /// A cluster whose `members` no longer read as a list (a hand-made
  /// `UPDATE` gone wrong): the run that meets it stops with an error and
  /// changes nothing.
  @Test func damagedMembersStopTheRun() throws {
    guard Self.hasShell() else { return }
    let path = try Self.earlierStore(
      "members.sqlite",
      [Self.card("a1", "Ada", "Quist", tel: "+12125550101"), Self.card("a2", "Ada", "Quist", tel: "+12125550101")],
      "UPDATE cluster_base SET members = '[1,' WHERE size = 2")
    let store = try EntityStore.open(at: path)
    let before = try Self.storePartition(store)
    #expect(before.count == 2 && Set(before.values).count == 1)
    #expect(throws: StoreError.self) {
      _ = try store.link(Self.table(Self.card("a3", "Ada", "Quist", tel: "+12125550101")), source: "day2")
    }
    #expect(try Self.storePartition(EntityStore.open(at: path)) == before, "nothing stored")
    #expect(try Self.sql(path, "SELECT count(*) FROM runs") == "1")
  }
}
