import OhanaCore
import OhanaDedupe
import OhanaIO

#if canImport(Glibc)
  import Glibc
#endif

/// What one run of ``EntityStore/link(_:source:removing:)`` did.
public struct StoreRun: Sendable {
  /// The run's id (`runs.id`).
  public var id: Int64 = 0
  /// Contacts stored for the first time, replaced (same uid), removed.
  public var added = 0, updated = 0, removed = 0
  /// Input contacts whose uid is stored with the very same vCard text:
  /// left out of the run (nothing about them changed).
  public var unchanged = 0
  /// Uids given to remove that the store does not hold.
  public var removeNotFound = 0
  /// Input contacts left out because a later contact of the same input has
  /// the same uid (the later one is the update).
  public var repeatedInInput = 0
  public var clustersCreated = 0, clustersMerged = 0, clustersSplit = 0, clustersDeleted = 0
  /// Stored contacts met through a shared block or name order whose
  /// phones and e-mails let the pair reach the threshold.
  public var storedCandidates = 0
  /// Whether this run folded the key log into the key buckets (an
  /// occasional run does; ``EntityStore/BucketCache``).
  public var keyLogCompacted = false
  /// Key entries in the log after this run (0 after a compaction).
  public var keyLogEntries = 0
  /// Whether this run folded the cluster log into `cluster_base` (an
  /// occasional run does; ``EntityStore/foldClusterLog(limit:)``).
  public var clusterLogFolded = false
  /// Clusters in the cluster log after this run (0 after a fold).
  public var clusterLogRows = 0
  /// Stored contacts read back to be compared (the candidates with their
  /// whole clusters).
  public var storedLoaded = 0
  public var pairsCompared = 0, pairsAccepted = 0, pairsRefusedByGuard = 0
  /// A reviewer's decisions given to this run and kept (obeyed by every
  /// later run too), and those skipped, each with its line and why.
  public var decisionsKept = 0
  public var decisionsSkipped: [InputError] = []
  /// Accepted pairs not joined because a kept decision keeps their
  /// contacts apart.
  public var pairsRefusedByDecision = 0
  /// Stored clusters clustered again because a decision names their
  /// contacts (a new one, or one that a contact of this batch meets).
  public var clustersReopened = 0
  /// Every change, in the order of ``StoreChange``'s kinds per cluster.
  public var changes: [StoreChange] = []
  /// The ids of the clusters this run made or changed (sorted).
  public var changedClusters: [Int64] = []
  /// Seconds per stage.
  public var timings: [String: Double] = [:]
  /// The first run only: the merged contacts, one per cluster in id order
  /// (later runs read them from the store).
  public var merged: ContactTable? = nil
  /// The first run only: ``merged`` as vCard 4.0, cards end to end (what
  /// `-o merged.vcf` writes, encoded while the store was written).
  public var mergedVCards: [UInt8]? = nil
  /// A later run: the merged contacts of ``changedClusters`` as vCard 4.0,
  /// in that order, cards end to end (what `-o --changed-only` writes,
  /// made by the run's own merge, so not read back from the store).
  public var changedVCards: [UInt8]? = nil
}

/// One change to the store's clusters.
public struct StoreChange: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    /// A contact stored for the first time, in `cluster`.
    case added
    /// A contact replaced by a new version (same uid), now in `cluster`.
    case updated
    /// A contact taken out (it was in `cluster`).
    case removed
    /// A cluster made from new contacts only.
    case created
    /// `other` was merged into `cluster` (it stays as an alias of it).
    case merged
    /// Part of `cluster` split off as the new cluster `other`.
    case split
    /// Every contact of `cluster` was removed.
    case deleted
  }
  public var kind: Kind
  public var cluster: Int64
  public var uid: String? = nil
  public var other: Int64? = nil
  /// The accepted pairs behind the change, as `--explain` writes them (a
  /// JSON array, `[]` when there are none).
  public var evidence: String = "[]"
  /// The kept decisions (`decisions.id`) that name a contact of the
  /// changed cluster (or, for a split, of the cluster it split from).
  public var decisions: [Int64] = []
}

extension EntityStore {
  /// Links `input` to the store: its contacts are blocked and scored
  /// against the stored contacts and each other (never the stored
  /// contacts among themselves), join or make clusters, and are stored. A
  /// contact whose uid the store holds replaces that contact (an update);
  /// `removing` takes contacts out by uid. The first batch of an empty
  /// store is clustered as a full run is (and fixes the model). One
  /// transaction: on any error nothing is changed. `recordChanges` off
  /// leaves ``StoreRun/changes`` empty (a first batch of millions makes a
  /// change per contact).
  ///
  /// `decisions` (a reviewer's, README "Review decisions") are checked
  /// against the store's contacts and the batch's, and against the
  /// decisions kept before them; those that hold are kept in the store and
  /// obeyed by this run and every later one (``StoreRun/decisionsSkipped``
  /// lists the others).
  public func link(
    _ input: ContactTable, source: String, removing: [String] = [], decisions: [DedupeDecision] = [],
    recordChanges: Bool = true
  ) throws(StoreError) -> StoreRun {
    try db.execute("BEGIN IMMEDIATE")
    do throws(StoreError) {
      let stored = try scalar("SELECT EXISTS(SELECT 1 FROM contacts)")
      let fitted = try meta("model")
      let empty = stored == 0 && fitted == nil
      let run =
        empty
        ? try FirstRun.link(input, into: self, source: source, decisions: decisions, recordChanges: recordChanges)
        : try IncrementalRun.link(input, into: self, source: source, removing: removing, decisions: decisions)
      let clock = ContinuousClock()
      let t = clock.now
      try db.execute("COMMIT")
      // Later runs through this store read it through a mapping again.
      if empty { try db.execute("PRAGMA mmap_size = \(Self.mmapSize)") }
      var done = run
      done.timings["commit"] = Self.seconds(clock.now - t)
      return done
    } catch {
      try? db.execute("ROLLBACK")
      throw error
    }
  }

  func scalar(_ sql: String) throws(StoreError) -> Int64 {
    let q = try db.prepare(sql)
    return try q.step() ? q.int64(0) : 0
  }

  func meta(_ key: String) throws(StoreError) -> String? {
    let q = try db.prepare("SELECT value FROM meta WHERE key = ?")
    q.bind(1, text: key)
    return try q.step() ? q.text(0) : nil
  }

  func setMeta(_ key: String, _ value: String) throws(StoreError) {
    let q = try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)")
    q.bind(1, text: key)
    q.bind(2, text: value)
    try q.run()
  }

  func beginRun(source: String) throws(StoreError) -> Int64 {
    let q = try db.prepare("INSERT INTO runs(started, source) VALUES(?, ?)")
    q.bind(1, text: Self.now())
    q.bind(2, text: source)
    try q.run()
    return db.lastInsertRowID
  }

  /// Ends a run: its counts in `runs`, and the clusters it made or
  /// changed (`meta.last_run_changed`, "all" for the first run) for
  /// `ohana review --store --changed-only`.
  func finishRun(_ run: StoreRun, first: Bool = false) throws(StoreError) {
    try setMeta(Self.lastRunChangedKey, first ? "all" : run.changedClusters.map(String.init).joined(separator: ","))
    let q = try db.prepare(
      "UPDATE runs SET added=?, updated=?, removed=?, clusters_created=?, clusters_merged=?, clusters_split=? WHERE id=?")
    q.bind(1, run.added)
    q.bind(2, run.updated)
    q.bind(3, run.removed)
    q.bind(4, run.clustersCreated)
    q.bind(5, run.clustersMerged)
    q.bind(6, run.clustersSplit)
    q.bind(7, run.id)
    try q.run()
  }

  /// Rows of `table` to keep: the last of each uid (earlier ones are
  /// replaced within the input), and how many were left out.
  static func lastOfEachUID(_ table: ContactTable) -> (rows: [Int], repeated: Int) {
    // Usually every uid is distinct: a 64-bit hash of each uid's bytes
    // shows that without making a String per contact; any repeated hash
    // (a repeated uid, or a collision) takes the exact path below.
    var seen = Set<UInt64>()
    seen.reserveCapacity(table.rowCount)
    var distinct = true
    for r in 0..<table.rowCount where table.hasUID(at: r) {
      // A UUID uid by its 16 bytes and form (the text follows from them).
      if let (a, b) = table.uuids.value(at: r) {
        let h = Hash64.combine(Hash64.combine(a, b), UInt64(table.uuids.form(at: r).rawValue))
        if !seen.insert(h).inserted {
          distinct = false
          break
        }
        continue
      }
      let h = table.withUID(at: r) { Hash64.hash($0) }
      if !seen.insert(h).inserted {
        distinct = false
        break
      }
    }
    if distinct { return (Array(0..<table.rowCount), 0) }
    var last: [String: Int] = [:]
    var uids = [String?](repeating: nil, count: table.rowCount)
    for r in 0..<table.rowCount {
      if let u = table.uid(at: r) {
        uids[r] = u
        last[u] = r
      }
    }
    var rows: [Int] = []
    rows.reserveCapacity(table.rowCount)
    for r in 0..<table.rowCount where uids[r].map({ last[$0] == r }) ?? true { rows.append(r) }
    return (rows, table.rowCount - rows.count)
  }

  /// Cards of some rows, laid end to end (``card(_:)``: the i-th).
  struct Cards {
    var bytes: [UInt8] = []
    var ends: [Int] = []
    func card(_ i: Int) -> ArraySlice<UInt8> { bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }

    mutating func append<C: Collection<UInt8>>(_ card: C) {
      bytes.append(contentsOf: card)
      ends.append(bytes.count)
    }

    mutating func append(contentsOf other: Cards) {
      let base = bytes.count
      bytes.append(contentsOf: other.bytes)
      for e in other.ends { ends.append(base + e) }
    }
  }

  /// vCard 4.0 text of `rows`, encoded in parallel (`threads`: 1 on this thread alone).
  static func encode(_ table: ContactTable, rows: [Int], threads: Int = 0) -> Cards {
    let n = rows.count
    let chunks = threads == 1 ? 1 : max(1, min(64, n / 8192))
    let parts = Parallel.map(chunks, workers: threads) { c in
      let one = ContactIO.encodeVCards(table, rows: rows[Parallel.piece(c, of: chunks, count: n)])
      return Cards(bytes: one.bytes, ends: one.ends)
    }
    if parts.count == 1, let only = parts.first { return only }
    // Laid end to end in room reserved once (grown by doubling instead,
    // 400 MB of text was copied twice over and faulted in again).
    var all = Cards()
    all.bytes.reserveCapacity(parts.reduce(0) { $0 + $1.bytes.count })
    all.ends.reserveCapacity(n)
    for p in parts { all.append(contentsOf: p) }
    return all
  }

  /// The posting under which a contact's neighbourhood key is kept (for
  /// capped blocks; never a block itself: blocks come from the rows' keys).
  static func neighbourhoodPosting(_ nb: UInt64) -> UInt64 { (nb ^ 0xA5A5_5A5A_C3C3_3C3C) & ~1 }

  /// The posting under which a contact's uid is kept in the key buckets
  /// (the store's uid index: a lookup reads the uid's postings, then checks
  /// each contact's `uid`).
  static func uidPosting(_ bytes: UnsafeRawBufferPointer) -> UInt64 { Hash64.hash(bytes, seed: 0x5549_4450_4F53_5400) & ~1 }

  static func uidPosting(_ uid: String) -> UInt64 {
    var u = uid
    return u.withUTF8 { uidPosting(UnsafeRawBufferPointer($0)) }
  }

  /// The uid postings of a table's rows (0: no uid).
  static func uidPostings(_ table: ContactTable) -> [UInt64] {
    (0..<table.rowCount).map { r in table.hasUID(at: r) ? table.withUID(at: r) { uidPosting($0) } : 0 }
  }

  /// The uid postings of `uids` (0: none).
  static func uidPostings(_ uids: [String?]) -> [UInt64] { uids.map { $0.map { uidPosting($0) } ?? 0 } }

  /// Every stored key entry of `keys`' rows `rows` (block keys, the
  /// neighbourhood key and, with `uids` (by position in `rows`, 0 for
  /// none), the uid posting), sorted by key then row, unique: a counting
  /// sort by bucket, then each bucket sorted.
  static func blockEntries(_ keys: LinkKeys, rows: Range<Int>, uids: [UInt64]? = nil) -> [(key: UInt64, row: Int32, cls: UInt8)] {
    typealias E = (key: UInt64, row: Int32, cls: UInt8)
    let n = rows.count
    let chunks = max(1, min(64, n / 16384))
    let parts = Parallel.map(chunks) { c in
      var part: [E] = []
      part.reserveCapacity(n / chunks * 12)
      let lo = rows.lowerBound + n * c / chunks, hi = rows.lowerBound + n * (c + 1) / chunks
      keys.forEachBlockingKey(lo..<hi) { r, k, _ in part.append((k, Int32(r), UInt8(keys.contactClass(r)))) }
      for r in lo..<hi {
        let nb = keys.neighbourhoodKey(r)
        if nb != 0 { part.append((neighbourhoodPosting(nb), Int32(r), UInt8(keys.contactClass(r)))) }
        if let u = uids?[r - rows.lowerBound], u != 0 { part.append((u, Int32(r), UInt8(keys.contactClass(r)))) }
      }
      return part
    }
    let total = parts.reduce(0) { $0 + $1.count }
    let shift = UInt64(64 - KeyPostings.sortBits)
    var starts = [Int](repeating: 0, count: (1 << KeyPostings.sortBits) + 1)
    for p in parts { for e in p { starts[Int(e.key >> shift) + 1] += 1 } }
    for b in 0..<(1 << KeyPostings.sortBits) { starts[b + 1] += starts[b] }
    var fill = starts
    var all = [E](repeating: (0, 0, 0), count: total)
    for p in parts {
      for e in p {
        let b = Int(e.key >> shift)
        all[fill[b]] = e
        fill[b] += 1
      }
    }
    for b in 0..<(1 << KeyPostings.sortBits) where starts[b + 1] - starts[b] > 1 {
      all[starts[b]..<starts[b + 1]].sort { $0.key != $1.key ? $0.key < $1.key : $0.row < $1.row }
    }
    var w = 0
    for i in all.indices where i == 0 || all[i].key != all[w - 1].key || all[i].row != all[w - 1].row {
      all[w] = all[i]
      w += 1
    }
    all.removeSubrange(w...)
    return all
  }

  /// Gives the store's folds of `table`'s name texts outside ASCII to the
  /// name folder before keys are computed (so that ICU need not build a
  /// script's rules for names met before: 0.2 s for the dozen scripts of a
  /// generated batch); returns the texts the store does not hold yet.
  func recallFolds(_ table: ContactTable) throws(StoreError) -> [[UInt8]] {
    let q = try db.prepare("SELECT folded FROM name_folds WHERE text = ?")
    var known: [([UInt8], [UInt8])] = []
    var missing: [[UInt8]] = []
    for text in LinkKeys.nonASCIINameTexts(table) {
      q.bind(1, bytes: text, blob: true)
      if try q.step() { known.append((text, q.bytes(0))) } else { missing.append(text) }
      q.reset()
    }
    LinkKeys.rememberFolds(known)
    return missing
  }

  /// Keeps the folds of `texts` (computed, or remembered from this run's keys).
  func keepFolds(_ texts: [[UInt8]]) throws(StoreError) {
    let add = try db.prepare("INSERT OR IGNORE INTO name_folds(text, folded) VALUES(?, ?)")
    for text in texts.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      add.bind(1, bytes: text, blob: true)
      add.bind(2, bytes: LinkKeys.fold(text), blob: true)
      try add.run()
    }
  }

  /// The sorted-names key as a signed integer with the same order.
  static func nameOrder(_ k: UInt64) -> Int64 { Int64(bitPattern: k ^ (1 << 63)) }

  /// Stores rows `rows` of a table whose keys are `keys` as contacts `ids`
  /// in `clusters` (by position in `rows`), with their vCard text,
  /// comparison records, blocking keys, uid postings and place in name
  /// order. An id already stored is replaced (its keys must have been
  /// deleted first). Keys go through `cache`.
  func insertContacts(
    keys: LinkKeys, rows: Range<Int>, ids: [Int64], clusters: [Int64], cards: (Int) -> ArraySlice<UInt8>,
    records: Cards, uids: [String?], sources: [String?], source: String, run: Int64, cache: BucketCache,
    names: NameOrderLog, timings: inout [String: Double]
  ) throws(StoreError) {
    var stages = StageClock()
    try insertContactRows(
      ids: ids, clusters: clusters, cards: { cards(rows.lowerBound + $0) }, uids: .strings(uids), source: source,
      sourceOf: { sources[$0] }, run: run)
    try insertRecords(ids: ids, clusters: clusters, records: records.card)
    stages.lap("  contacts rows", &timings)
    for e in Self.blockEntries(keys, rows: rows, uids: Self.uidPostings(uids)) {
      cache.insert(KeyPostings.Entry(key: e.key, contact: ids[Int(e.row) - rows.lowerBound], cls: e.cls))
    }
    stages.lap("  block keys", &timings)
    for (i, r) in rows.enumerated() {
      if let k = keys.sortedNameKey(r) { names.insert(KeyPostings.Entry(key: k, contact: ids[i], cls: UInt8(keys.contactClass(r)))) }
    }
    stages.lap("  name order", &timings)
  }

  /// The uids of contacts to store: Strings, or a table's rows read in place.
  enum UIDs {
    case strings([String?])
    case table(ContactTable)
  }

  /// Contact rows: `ids[i]` in `clusters[i]` with text `cards(i)` (their
  /// comparison records go in apart: ``insertRecords(ids:clusters:records:)``).
  /// `source` is every contact's source, but where `sourceOf(i)` names one
  /// (a read of several inputs tags each contact with its input).
  func insertContactRows(
    ids: [Int64], clusters: [Int64], cards: (Int) -> ArraySlice<UInt8>, uids: UIDs, source: String,
    sourceOf: ((Int) -> String?)? = nil, run: Int64
  ) throws(StoreError) {
    let insert = try db.prepare("INSERT OR REPLACE INTO contacts(id, uid, source, cluster, run, vcard) VALUES(?, ?, ?, ?, ?, ?)")
    let sourceBytes = Array(source.utf8)
    for i in ids.indices {
      insert.bind(1, ids[i])
      switch uids {
      case .strings(let u):
        if let u = u[i] { insert.bind(2, text: u) } else { insert.bindNull(2) }
      case .table(let t):
        if t.hasUID(at: i) { t.withUID(at: i) { insert.bind(2, raw: $0) } } else { insert.bindNull(2) }
      }
      if let own = sourceOf?(i) { insert.bind(3, text: own) } else { insert.bind(3, bytes: sourceBytes) }
      insert.bind(4, clusters[i])
      insert.bind(5, run)
      cards(i).withUnsafeBytes { insert.bind(6, raw: $0) }
      try insert.run()
    }
  }

  /// Comparison records: `ids[i]` in `clusters[i]` with record `records(i)`
  /// (an id already stored is replaced).
  func insertRecords(ids: [Int64], clusters: [Int64], records: (Int) -> ArraySlice<UInt8>) throws(StoreError) {
    let insert = try db.prepare("INSERT OR REPLACE INTO records(id, cluster, record) VALUES(?, ?, ?)")
    for i in ids.indices {
      insert.bind(1, ids[i])
      insert.bind(2, clusters[i])
      records(i).withUnsafeBytes { insert.bind(3, raw: $0, blob: true) }
      try insert.run()
    }
  }

  /// The name-order entries (name, contact id, class) of `keys`' rows
  /// `rows` (stored as `ids`, by position; default: row + 1), sorted.
  static func nameOrderEntries(_ keys: LinkKeys, rows: Range<Int>, ids: [Int64]? = nil) -> [(Int64, Int64, Int)] {
    var names: [(Int64, Int64, Int)] = []
    for (i, r) in rows.enumerated() {
      if let k = keys.sortedNameKey(r) { names.append((nameOrder(k), ids?[i] ?? Int64(r + 1), keys.contactClass(r))) }
    }
    names.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    return names
  }

  func insertNameOrder(_ names: [(Int64, Int64, Int)]) throws(StoreError) {
    let addName = try db.prepare("INSERT OR IGNORE INTO name_order(name, contact, class) VALUES(?, ?, ?)")
    for (k, id, cls) in names {
      addName.bind(1, k)
      addName.bind(2, id)
      addName.bind(3, cls)
      try addName.run()
    }
  }

  /// The key buckets of `keys`' rows (contacts `ids[row]`, default `row +
  /// 1`), uid postings `uids` (by row, 0 for none) included, in bucket
  /// order: each bucket's entries are already sorted by key then contact.
  static func bucketBlobs(
    _ keys: LinkKeys, rows: Range<Int>, ids: [Int64]? = nil, uids: [UInt64], bits: Int
  ) -> [(Int64, [UInt8])] {
    let entries = blockEntries(keys, rows: rows, uids: uids)
    var out: [(Int64, [UInt8])] = []
    var i = 0
    while i < entries.count {
      let b = KeyPostings.bucket(entries[i].key, bits: bits)
      var j = i
      while j < entries.count && KeyPostings.bucket(entries[j].key, bits: bits) == b { j += 1 }
      var blob = [UInt8](repeating: 0, count: (j - i) * KeyPostings.entrySize)
      for (k, e) in entries[i..<j].enumerated() {
        KeyPostings.put(key: e.key, contact: ids?[Int(e.row)] ?? Int64(e.row) + 1, cls: e.cls, into: &blob, at: k * KeyPostings.entrySize)
      }
      out.append((b, blob))
      i = j
    }
    return out
  }

  /// Deletes the blocking keys, uid postings (`uids`, by row) and
  /// name-order entries of `keys`' rows (stored as contacts `ids`, by row).
  func deleteKeys(_ keys: LinkKeys, ids: [Int64], uids: [String?], cache: BucketCache, names: NameOrderLog) throws(StoreError) {
    for e in Self.blockEntries(keys, rows: 0..<keys.count, uids: Self.uidPostings(uids)) {
      try cache.remove(e.key, contact: ids[Int(e.row)])
    }
    for r in 0..<keys.count {
      guard let k = keys.sortedNameKey(r) else { continue }
      try names.remove(k, contact: ids[r])
    }
  }

  /// Writes a later run's clusters (`id`, `size`, `members`: its contact
  /// ids, ascending; `cards` holds their merged contacts by position); a
  /// cluster of one keeps no merged text (its contact is it). A stored
  /// cluster's row goes to `cluster_log` (replacing its row there, if it
  /// has one); a cluster new in this run (an id from `firstNew` on) is
  /// appended to `cluster_base`, as is an id that is in neither. Returns
  /// how many clusters are new.
  func storeClusters(
    _ entries: [(id: Int64, size: Int, members: ArraySlice<Int64>)], cards: Cards, run: Int64, firstNew: Int64
  ) throws(StoreError) -> Int {
    let update = try db.prepare("UPDATE cluster_log SET size = ?, merged = ?, members = ? WHERE id = ?")
    let log = try db.prepare(
      "INSERT INTO cluster_log(id, size, merged, members) SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM cluster_base WHERE id = ?1)")
    let insert = try db.prepare("INSERT INTO cluster_base(id, created_run, size, merged, members) VALUES(?, ?, ?, ?, ?)")
    var inserted = 0
    // In id order: the new ids append to `cluster_base`.
    for k in entries.indices.sorted(by: { entries[$0].id < entries[$1].id }) {
      let e = entries[k]
      let members = Self.membersText(e.members)
      func bindCard(_ q: SQLiteStatement, _ i: Int32) {
        if e.size > 1 { cards.card(k).withUnsafeBytes { q.bind(i, raw: $0) } } else { q.bindNull(i) }
      }
      if e.id < firstNew {
        update.bind(1, e.size)
        bindCard(update, 2)
        update.bind(3, bytes: members)
        update.bind(4, e.id)
        try update.run()
        if db.changes > 0 { continue }
        log.bind(1, e.id)
        log.bind(2, e.size)
        bindCard(log, 3)
        log.bind(4, bytes: members)
        try log.run()
        if db.changes > 0 { continue }
      }
      insert.bind(1, e.id)
      insert.bind(2, run)
      insert.bind(3, e.size)
      bindCard(insert, 4)
      insert.bind(5, bytes: members)
      try insert.run()
      inserted += 1
    }
    return inserted
  }

  /// Deletes cluster `id` from `cluster_base` and the log; returns the
  /// rows deleted from the base (1, or 0 for an id not stored).
  func deleteCluster(_ id: Int64, base: SQLiteStatement, log: SQLiteStatement) throws(StoreError) -> Int {
    base.bind(1, id)
    try base.run()
    let n = db.changes
    log.bind(1, id)
    try log.run()
    return n
  }

  /// The ids of the clusters in the cluster log, ascending.
  func loggedClusterIDs() throws(StoreError) -> [Int64] {
    let q = try db.prepare("SELECT id FROM cluster_log ORDER BY id")
    var ids: [Int64] = []
    while try q.step() { ids.append(q.int64(0)) }
    return ids
  }

  /// Folds the cluster log into `cluster_base` now, in a transaction of
  /// its own (for tests). Returns whether the log held anything.
  package func foldClusterLogNow() throws(StoreError) -> Bool {
    try writing { () throws(StoreError) in try foldClusterLog(limit: 0).folded }
  }

  /// The cluster log is folded in once it holds more than the store's
  /// clusters over this (``foldClusterLog(limit:)``), if the key log has
  /// not taken it along first.
  public static let clusterLogFraction = 16

  /// Folds the cluster log into `cluster_base` when it holds more than
  /// `limit` clusters; by default a 16th of the store's clusters, but a
  /// later run folds it whenever it folds the key log (about every 15 days
  /// of 10,000 contacts into 1,000,000, when the log holds ~30,000), so
  /// that one day is slow, not two. The log's rows are the changed
  /// clusters, mostly of two or more with their merged text, about 600
  /// bytes a row; a cluster changed again rewrites its row where it lies
  /// in the log. With the fold at an eighth, the log's commit grew from
  /// 0.03 to 0.14 s over 45 such days; the fold rewrites about the pages of
  /// `cluster_base` one day's clusters did before there was a log. Returns
  /// whether it folded, and the rows left in the log.
  func foldClusterLog(limit: Int?) throws(StoreError) -> (folded: Bool, rows: Int) {
    let rows = Int(try scalar("SELECT count(*) FROM cluster_log"))
    guard rows > 0 else { return (false, 0) }
    let cap: Int
    if let limit { cap = limit } else { cap = try counts().clusters / Self.clusterLogFraction }
    guard rows > cap else { return (false, rows) }
    // The log in id order, each row found in the base by id (joined the
    // other way, SQLite scans the whole base: 0.53 s of CPU against 0.19 s
    // for 29,463 rows into 1,209,917).
    try db.execute(
      "UPDATE cluster_base SET size = l.size, merged = l.merged, members = l.members "
        + "FROM (SELECT id, size, merged, members FROM cluster_log ORDER BY id) l WHERE l.id = cluster_base.id; "
        + "DELETE FROM cluster_log")
    return (true, 0)
  }

  /// `meta` keys holding how many contacts and clusters the store has (so
  /// that the summary does not count the 3,000 pages of `clusters` a run).
  static let contactCountKey = "contact_count"
  static let clusterCountKey = "cluster_count"

  /// The counts kept in `meta`; nil in a store made before they were kept.
  func keptCounts() throws(StoreError) -> (contacts: Int, clusters: Int)? {
    guard let c = try meta(Self.contactCountKey).flatMap({ Int($0) }), let k = try meta(Self.clusterCountKey).flatMap({ Int($0) })
    else { return nil }
    return (c, k)
  }

  /// Adds a run's net rows to the stored counts; a store without them (made
  /// before they were kept) has them counted now, once.
  func updateCounts(contacts: Int, clusters: Int) throws(StoreError) {
    if let (c, k) = try keptCounts() {
      try setMeta(Self.contactCountKey, String(c + contacts))
      try setMeta(Self.clusterCountKey, String(k + clusters))
    } else {
      let counted = try countedRows()
      try setMeta(Self.contactCountKey, String(counted.contacts))
      try setMeta(Self.clusterCountKey, String(counted.clusters))
    }
  }

  /// A contact's name in evidence: its uid, else `contact-N` (its id in
  /// the store, as ``forEachAssignment(only:_:)`` names it).
  static func name(_ table: ContactTable, row: Int, id: Int64) -> [UInt8] {
    table.hasUID(at: row) ? table.withUID(at: row) { Array($0) } : Array("contact-\(id)".utf8)
  }

  /// Pairs as `--explain` writes them, in a JSON array; rows named by
  /// `name`, and with `source` their inputs (a read of several).
  static func evidenceJSON(_ pairs: [MatchedPair], name: (Int) -> [UInt8], source: ((Int) -> [UInt8])?) -> String {
    var buf: [UInt8] = [0x5B]
    for (i, p) in pairs.enumerated() {
      if i > 0 { buf.append(0x2C) }
      DedupeResult.appendExplanation(
        p, a: name(p.first), b: name(p.second), sources: source.map { ($0(p.first), $0(p.second)) }, cluster: nil, to: &buf)
    }
    buf.append(0x5D)
    return String(decoding: buf, as: UTF8.self)
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}

/// Wall time per stage (``StoreRun/timings``, `--verbose`).
struct StageClock {
  private let clock = ContinuousClock()
  private var last: ContinuousClock.Instant

  init() { last = clock.now }

  /// Adds the time since the last lap to `timings[name]`.
  mutating func lap(_ name: String, _ timings: inout [String: Double]) {
    let now = clock.now
    timings[name, default: 0] += EntityStore.seconds(now - last)
    last = now
  }
}

extension EntityStore {
  /// What a data provider keeps between runs under `key` (a CardDAV
  /// book's sync token and the uid of each card, README "Live address
  /// books"), as text in `meta` (`provider:KEY`).
  package func providerState(_ key: String) throws(StoreError) -> String? { try meta("provider:" + key) }

  package func setProviderState(_ key: String, _ value: String) throws(StoreError) {
    try setMeta("provider:" + key, value)
  }
}
