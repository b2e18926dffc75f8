import OhanaCore
import OhanaDedupe
import OhanaIO

/// The first batch of an empty store: clustered as a full run is (its fit
/// fixes the store's model), then stored, each contact with its id (row +
/// 1) and cluster (clusters numbered in order of their first rows).
///
/// One method per stage, run in order by
/// ``link(_:into:source:decisions:recordChanges:)``; each ends with its lap
/// in ``StoreRun/timings`` under the stage's name (`uids`, `dedupe`, ...
/// `changes`). SQLite writes on this thread while another prepares what
/// it writes next: the comparison records, key buckets and name order
/// during the contact rows, the merged contacts during the keys (one
/// extra thread at a time).
struct FirstRun {
  typealias Cards = EntityStore.Cards

  private let store: EntityStore
  private let source: String
  private let recordChanges: Bool
  /// What the run did, and the time of each stage.
  private var run = StoreRun()
  private var stages = StageClock()
  /// The batch: the last contact of each uid.
  private let table: ContactTable
  private let n: Int
  private var config: DedupeConfiguration
  /// The kept decisions: every one, and those new in this run.
  private var decided: (all: [DedupeDecision], new: [DedupeDecision]) = ([], [])
  /// The model fitted on the batch (the store's from now on).
  private var fitted = FellegiSunterModel.defaults
  /// Each row's cluster id, each id's size (by id), and the next id.
  private var clusterID: [Int64] = []
  private var sizes: [Int] = []
  private var next: Int64 = 1
  /// Each row's contact id; each row's input, and whether any row names one.
  private var ids: [Int64] = []
  private var sourceColumn = StringColumn()
  private var tagged = false
  /// The merged contacts, one per cluster in id order, and their text.
  private var merged = ContactTable()
  private var mergedCards = Cards()

  /// Links `input` into the empty `store` (in the caller's transaction):
  /// every stage, in order.
  static func link(
    _ input: ContactTable, into store: EntityStore, source: String, decisions: [DedupeDecision], recordChanges: Bool
  ) throws(StoreError) -> StoreRun {
    var r = try FirstRun(store: store, input: input, source: source, recordChanges: recordChanges)
    let (keys, result) = try r.dedupe(decisions)
    let encoded = r.encode(result)
    let prepared = try r.storeContacts(encoded, keys: keys)
    let (records, buckets, names) = r.waitKeys(prepared)
    try r.storeRecords(records)
    let mergedLater = try r.storeKeys(keys, result, buckets: buckets, names: names)
    r.waitMerge(mergedLater)
    r.encodeMerged()
    try r.storeClusters()
    try r.changes(result)
    return r.run
  }

  /// Adds the time since the last lap to stage `name`.
  private mutating func lap(_ name: String) { stages.lap(name, &run.timings) }

  /// Begins the run: its row in `runs`, then stage `uids`: the last
  /// contact of each uid (earlier ones are replaced within the input).
  private init(store: EntityStore, input: ContactTable, source: String, recordChanges: Bool) throws(StoreError) {
    self.store = store
    self.source = source
    self.recordChanges = recordChanges
    run.id = try store.beginRun(source: source)
    let (keep, repeated) = EntityStore.lastOfEachUID(input)
    run.repeatedInInput = repeated
    table = repeated == 0 ? input : input.gathering(rows: keep.map { UInt32($0) })
    n = table.rowCount
    config = store.configuration
    lap("uids")
  }

  /// Stage `dedupe`: the decisions kept, the batch clustered as a full run
  /// is (obeying them), and the fitted model kept as the store's.
  private mutating func dedupe(_ decisions: [DedupeDecision]) throws(StoreError) -> (keys: LinkKeys, result: DedupeResult) {
    let table = self.table
    let batchUIDs = Set((0..<n).compactMap { table.uid(at: $0) })
    decided = try store.keepDecisions(decisions, run: &run) { batchUIDs.contains($0) }
    config.decisions = decided.all
    // `column+name` is not kept by the store (its later runs compare no
    // other columns), so the first run does not use it either.
    config.blockingRules.remove(.init(.otherColumns))
    let dedupe = Deduplicator(configuration: config)
    let keys = LinkKeys(table: table, configuration: config)
    let result = dedupe.findDuplicates(linkKeys: keys, table: table)
    run.pairsRefusedByDecision = result.statistics.pairsRefusedByDecision
    fitted = result.model
    store.model = fitted
    try store.setMeta("model", fitted.storedText)
    run.pairsCompared = result.statistics.pairsCompared
    run.pairsAccepted = result.statistics.pairsAccepted
    run.pairsRefusedByGuard = result.statistics.pairsRefusedByGuard
    lap("dedupe")
    return (keys, result)
  }

  /// Stage `encode`: cluster ids in order of each cluster's first row, and
  /// the contacts' text (on every core).
  private mutating func encode(_ result: DedupeResult) -> Cards {
    var clusterID = [Int64](repeating: 0, count: n)
    var sizes = [Int](repeating: 0, count: n + 1)  // by cluster id
    var next: Int64 = 1
    for r in 0..<n {
      let rep = Int(result.clusterOf[r])
      if rep == r {
        clusterID[r] = next
        next += 1
      } else {
        clusterID[r] = clusterID[rep]
      }
      sizes[Int(clusterID[r])] += 1
    }
    (self.clusterID, self.sizes, self.next) = (clusterID, sizes, next)
    let encoded = EntityStore.encode(table, rows: Array(0..<n))
    lap("encode")
    return encoded
  }

  /// Stage `store contacts`: the contact rows, while the other core
  /// prepares the comparison records, uid postings, key buckets and name
  /// order (returned, under way).
  private mutating func storeContacts(
    _ encoded: Cards, keys: LinkKeys
  ) throws(StoreError) -> BackgroundTask<(records: Cards, buckets: [(Int64, [UInt8])], names: [(Int64, Int64, Int)])> {
    let (table, n, bits) = (self.table, self.n, store.bucketBits)
    let prepared = BackgroundTask { () -> (records: Cards, buckets: [(Int64, [UInt8])], names: [(Int64, Int64, Int)]) in
      let records = keys.comparisonRecords(0..<n, threads: 1)
      let uidKeys = EntityStore.uidPostings(table)
      return (
        Cards(bytes: records.bytes, ends: records.ends), EntityStore.bucketBlobs(keys, rows: 0..<n, uids: uidKeys, bits: bits),
        EntityStore.nameOrderEntries(keys, rows: 0..<n)
      )
    }
    let sourceColumn = table[.sourceProvider]
    tagged = (0..<n).contains { sourceColumn[$0].isPresent }
    self.sourceColumn = sourceColumn
    ids = (0..<n).map { Int64($0 + 1) }
    try store.insertContactRows(
      ids: ids, clusters: clusterID, cards: encoded.card, uids: .table(table), source: source,
      sourceOf: tagged ? { table.string(.sourceProvider, at: $0) } : nil, run: run.id)
    lap("store contacts")
    return prepared
  }

  /// Stage `wait keys`: what the other core prepared.
  private mutating func waitKeys(
    _ prepared: BackgroundTask<(records: Cards, buckets: [(Int64, [UInt8])], names: [(Int64, Int64, Int)])>
  ) -> (records: Cards, buckets: [(Int64, [UInt8])], names: [(Int64, Int64, Int)]) {
    let ready = prepared.wait()
    lap("wait keys")
    return ready
  }

  /// Stage `store records`: the comparison records.
  private mutating func storeRecords(_ records: Cards) throws(StoreError) {
    try store.insertRecords(ids: ids, clusters: clusterID, records: records.card)
    lap("store records")
  }

  /// Stage `store keys`: the key buckets, name order and folds, while the
  /// other core merges the clusters (returned, under way).
  private mutating func storeKeys(
    _ keys: LinkKeys, _ result: DedupeResult, buckets: [(Int64, [UInt8])], names: [(Int64, Int64, Int)]
  ) throws(StoreError) -> BackgroundTask<ContactTable> {
    // One thread: the other core is this one's, writing.
    var oneThread = config
    oneThread.threads = 1
    let mergeAlone = Deduplicator(configuration: oneThread, model: fitted)
    var table = self.table
    // A rule that names sources reads each member's source as the store
    // keeps it: its own, else the batch's.
    if config.survivorship.readsSources { EntityStore.setSources(&table, stored: [], label: source) }
    let merging = table
    let mergedLater = BackgroundTask { mergeAlone.merge(merging, result, linkKeys: keys) }
    let addBucket = try store.db.prepare("INSERT INTO block_keys(bucket, entries) VALUES(?, ?)")
    var entryCount = 0
    for (b, blob) in buckets {
      addBucket.bind(1, b)
      addBucket.bind(2, bytes: blob, blob: true)
      try addBucket.run()
      entryCount += blob.count / KeyPostings.entrySize
    }
    try store.setMeta("key_entries", String(entryCount))
    try store.insertNameOrder(names)
    try store.keepFolds(LinkKeys.nonASCIINameTexts(table))
    lap("store keys")
    return mergedLater
  }

  /// Stage `wait merge`: the merged contacts.
  private mutating func waitMerge(_ mergedLater: BackgroundTask<ContactTable>) {
    merged = mergedLater.wait()
    lap("wait merge")
  }

  /// Stage `encode merged`: the merged contacts' text on every core, now
  /// that this one is free (rather than on the other core alone, after the
  /// merge, while this one waits).
  private mutating func encodeMerged() {
    mergedCards = EntityStore.encode(merged, rows: Array(0..<merged.rowCount))
    lap("encode merged")
  }

  /// Stage `store clusters`: a row per cluster, the next ids and the counts.
  private mutating func storeClusters() throws(StoreError) {
    // Merged rows follow the clusters' first rows, so cluster ids 1, 2, ...;
    // a cluster of one keeps no merged text (its contact is it).
    // Members: contact ids (row + 1) by cluster (id - 1).
    let members = MemberLists(groups: Int(next) - 1, group: clusterID.map { Int($0) - 1 }, ids: ids)
    let add = try store.db.prepare("INSERT INTO cluster_base(id, created_run, size, merged, members) VALUES(?, ?, ?, ?, ?)")
    for m in 0..<merged.rowCount {
      let size = sizes[m + 1]
      add.bind(1, Int64(m + 1))
      add.bind(2, run.id)
      add.bind(3, size)
      if size > 1 { mergedCards.card(m).withUnsafeBytes { add.bind(4, raw: $0) } } else { add.bindNull(4) }
      add.bind(5, bytes: EntityStore.membersText(members[m]))
      try add.run()
    }
    try store.setMeta("next_cluster", String(next))
    try store.setMeta("next_contact", String(n + 1))
    // Into an empty store: n contacts, a cluster row per id given.
    try store.setMeta(EntityStore.contactCountKey, String(n))
    try store.setMeta(EntityStore.clusterCountKey, String(next - 1))
    lap("store clusters")
  }

  /// Stage `changes`: every contact added, every cluster of two or more
  /// created (unless the caller asked for none), the counts, and the run's
  /// row finished.
  private mutating func changes(_ result: DedupeResult) throws(StoreError) {
    if recordChanges {
      let (table, sourceColumn) = (self.table, self.sourceColumn)
      var evidence: [Int64: [MatchedPair]] = [:]
      for p in result.pairs { evidence[clusterID[p.first], default: []].append(p) }
      // The kept decisions behind each contact and cluster.
      var namedRows: [Int: String] = [:]
      if !decided.all.isEmpty {
        let named = Set(decided.all.flatMap { $0.uids + $0.from })
        for r in 0..<n { if let u = table.uid(at: r), named.contains(u) { namedRows[r] = u } }
      }
      let decisionsOfRow = EntityStore.decisionsOfRows(decided.all, rows: namedRows)
      var decisionsOfCluster: [Int64: Set<Int64>] = [:]
      for (r, ids) in decisionsOfRow { decisionsOfCluster[clusterID[r], default: []].formUnion(ids) }
      for r in 0..<n {
        run.changes.append(
          StoreChange(kind: .added, cluster: clusterID[r], uid: table.uid(at: r), decisions: decisionsOfRow[r] ?? []))
      }
      let sourceOf: ((Int) -> [UInt8])? = tagged ? { table.pool.bytes(of: sourceColumn[$0]) } : nil
      for id in Int64(1)..<next where sizes[Int(id)] > 1 {
        run.changes.append(
          StoreChange(
            kind: .created, cluster: id,
            evidence: EntityStore.evidenceJSON(
              evidence[id] ?? [], name: { EntityStore.name(table, row: $0, id: Int64($0 + 1)) }, source: sourceOf),
            decisions: (decisionsOfCluster[id] ?? []).sorted()))
      }
    }
    run.added = n
    run.clustersCreated = sizes.filter { $0 > 1 }.count
    run.changedClusters = Array(Int64(1)..<next)
    run.merged = merged
    run.mergedVCards = mergedCards.bytes
    try store.finishRun(run, first: true)
    lap("changes")
  }
}
