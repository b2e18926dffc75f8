import OhanaCore
import OhanaDedupe
import OhanaIO

#if canImport(Glibc)
  import Glibc
#endif

extension EntityStore {
  /// Links `input` to the store: its contacts are blocked and scored
  /// against the stored contacts and each other (never the stored
  /// contacts among themselves), join or make clusters, and are stored. A
  /// contact whose uid the store holds replaces that contact (an update);
  /// `removing` takes contacts out by uid. The first batch of an empty
  /// store is clustered as a full run is (and fixes the model:
  /// ``FirstRun``); a later one is linked (``IncrementalRun``). One
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

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
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
