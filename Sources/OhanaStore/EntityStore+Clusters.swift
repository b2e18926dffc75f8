import OhanaCore
import OhanaDedupe
import OhanaIO

extension EntityStore {
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
  /// `limit` clusters; by default a 16th of the store's clusters
  /// (``clusterLogFraction``), but a later run folds it whenever it folds
  /// the key log, so that one run is slow, not two. The log's rows are the
  /// changed clusters, mostly of two or more with their merged text; a
  /// cluster changed again rewrites its row where it lies in the log.
  /// Returns whether it folded, and the rows left in the log.
  func foldClusterLog(limit: Int?) throws(StoreError) -> (folded: Bool, rows: Int) {
    let rows = Int(try scalar("SELECT count(*) FROM cluster_log"))
    guard rows > 0 else { return (false, 0) }
    let cap: Int
    if let limit { cap = limit } else { cap = try counts().clusters / Self.clusterLogFraction }
    guard rows > cap else { return (false, rows) }
    // The log in id order, each row found in the base by id (joined the
    // other way, SQLite scans the whole base).
    try db.execute(
      "UPDATE cluster_base SET size = l.size, merged = l.merged, members = l.members "
        + "FROM (SELECT id, size, merged, members FROM cluster_log ORDER BY id) l WHERE l.id = cluster_base.id; "
        + "DELETE FROM cluster_log")
    return (true, 0)
  }

  /// `meta` keys holding how many contacts and clusters the store has (so
  /// that a run's summary does not count the rows of `clusters`).
  static let contactCountKey = "contact_count"
  static let clusterCountKey = "cluster_count"

  /// The counts kept in `meta`; nil in a store whose `meta` lacks them.
  func keptCounts() throws(StoreError) -> (contacts: Int, clusters: Int)? {
    guard let c = try meta(Self.contactCountKey).flatMap({ Int($0) }), let k = try meta(Self.clusterCountKey).flatMap({ Int($0) })
    else { return nil }
    return (c, k)
  }

  /// Adds a run's net rows to the stored counts; a store whose `meta` lacks
  /// them has them counted now, once.
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
}
