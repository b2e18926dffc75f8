import OhanaCore
import OhanaDedupe
import OhanaIO

#if canImport(Glibc)
  import Glibc
#endif

/// Dedupe over time: contacts and their clusters kept in one SQLite file,
/// so that later batches link to yesterday's clusters without computing
/// the pairs among stored contacts again, and cluster ids stay stable.
///
/// ```swift
/// let store = try EntityStore.create(at: "entities.sqlite", configuration: DedupeConfiguration())
/// let day1 = try store.link(table1, source: "day1.vcf")   // creates the clusters
/// let day2 = try store.link(table2, source: "day2.vcf")   // links into them
/// for change in day2.changes { print(change.kind, change.cluster) }
/// ```
///
/// A run is one SQLite transaction: killed at any point, the store is as
/// it was before the run. The schema (README "Entity store") is plain SQL:
/// `sqlite3 entities.sqlite 'select * from clusters limit 5'`.
///
/// The store keeps each contact as vCard 4.0 text, its comparison record
/// (``LinkKeys/comparisonRecords(_:)``: what blocking and scoring read of
/// it, so that a stored contact is compared again without parsing its text)
/// and its blocking keys (hashes; ``LinkKeys/version``). Records and keys
/// carry versions: a store made with other ones has them made again from
/// the contacts' text when it is opened. The model (weights), threshold,
/// blocking rules and region are fixed when the store is made: a later
/// batch is scored exactly as the first was.
public final class EntityStore {
  public let path: String
  let db: SQLiteDatabase
  /// The dedupe settings the store was made with (every run uses them).
  public let configuration: DedupeConfiguration
  /// The model the store was made with: the built-in weights, or EM's fit
  /// on the first batch (the built-in weights until the first batch).
  public internal(set) var model: FellegiSunterModel
  /// The key buckets' bits (`meta.bucket_bits`; ``KeyPostings/storeBucketBits``).
  let bucketBits: Int
  /// Clusters the cluster log may hold before a run folds it in; nil: a
  /// 16th of the store's clusters, or none when the run folds the key log (``foldClusterLog(limit:)``). For tests.
  package var clusterLogLimit: Int?

  /// The schema's version (`meta.schema_version`).
  public static let schemaVersion = 6

  init(path: String, db: SQLiteDatabase, configuration: DedupeConfiguration, model: FellegiSunterModel, bucketBits: Int) {
    self.path = path
    self.db = db
    self.configuration = configuration
    self.model = model
    self.bucketBits = bucketBits
  }

  /// Whether `path` holds a store (a file that exists and is not empty).
  public static func exists(at path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && st.st_size > 0
  }

  /// Opens an existing store.
  public static func open(at path: String) throws(StoreError) -> EntityStore {
    guard exists(at: path) else { throw StoreError("no entity store at \(path)") }
    let db = try SQLiteDatabase(path: path, create: false)
    var meta = try readMeta(db)
    if meta["schema_version"] == "1" {
      // Version 2 added the key log (`block_key_log`); a version-1 store
      // is the same store with an empty log.
      try db.execute(
        "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS \(logTable); UPDATE meta SET value = '2' WHERE key = 'schema_version'; COMMIT")
      meta["schema_version"] = "2"
    }
    // Version 3 keeps a comparison record per contact and finds uids through
    // the key buckets; a version-2 store has both made from its contacts.
    // Version 4 keeps each cluster's members in `clusters.members` instead
    // of an index on `contacts(cluster)`; a store of 2 or 3 has them listed.
    // Version 5 keeps clusters in `cluster_base` and `cluster_log` under the
    // view `clusters`; a store of 2 to 4 has its table renamed.
    let upgrade = meta["schema_version"] == "2"
    let listMembers = upgrade || meta["schema_version"] == "3"
    let addLog = listMembers || meta["schema_version"] == "4"
    // Version 6 keeps a reviewer's decisions (`decisions`); a store of 2
    // to 5 has none.
    let addDecisions = addLog || meta["schema_version"] == "5"
    guard addDecisions || meta["schema_version"] == String(schemaVersion) else {
      throw StoreError("\(path): not an Ohana entity store of schema version \(schemaVersion) (found \(meta["schema_version"] ?? "none"))")
    }
    guard let config = StoredSettings.configuration(meta) else {
      throw StoreError("\(path): the stored dedupe settings cannot be read")
    }
    // No model yet: made, but no batch linked (the first fixes it).
    var model = FellegiSunterModel.defaults
    if let text = meta["model"] {
      guard let m = FellegiSunterModel(storedText: text) else { throw StoreError("\(path): the stored model cannot be read") }
      model = m
    }
    try applyPragmas(db)
    try db.execute("CREATE TABLE IF NOT EXISTS \(foldTable); CREATE TABLE IF NOT EXISTS \(nameLogTable)")
    // A store whose `meta` has no `bucket_bits` has 2^20 buckets
    // (``KeyPostings/legacyBucketBits``).
    var bits = KeyPostings.legacyBucketBits
    if let text = meta["bucket_bits"] {
      guard let b = Int(text), (8...24).contains(b) else { throw StoreError("\(path): the stored bucket bits cannot be read") }
      bits = b
    }
    let store = EntityStore(path: path, db: db, configuration: config, model: model, bucketBits: bits)
    // Keys or records of another version (an ohana that computes them
    // otherwise made the store): made again from the contacts' text.
    // Both in one transaction, with the schema version they bring.
    let rebuild =
      upgrade || meta["keys_version"] != String(LinkKeys.version)
      || meta["record_version"] != String(LinkKeys.recordVersion)
    if rebuild || addDecisions {
      try store.writing { () throws(StoreError) in
        if listMembers { try store.listMembers() }
        if addLog { try store.addClusterLog() }
        if addDecisions { try store.db.execute("CREATE TABLE IF NOT EXISTS \(decisionTable)") }
        if rebuild { try store.rebuildIndex() }
        try store.setMeta("schema_version", String(schemaVersion))
      }
    }
    return store
  }

  /// Makes an empty store at `path` (which must not hold one). The first
  /// ``link(_:source:removing:)`` clusters its batch as a full run does,
  /// fitting the model there when `configuration` asks for EM.
  ///
  /// `unjournaled`: for a file that is renamed into place once the first
  /// batch is in (as `ohana dedupe --store` does), write without a
  /// rollback journal or syncs until then: a crash leaves only that file,
  /// never a damaged store. Later runs are journaled as always.
  public static func create(
    at path: String, configuration: DedupeConfiguration, unjournaled: Bool = false
  ) throws(StoreError) -> EntityStore {
    try create(at: path, configuration: configuration, unjournaled: unjournaled, bucketBits: KeyPostings.storeBucketBits)
  }

  /// ``create(at:configuration:unjournaled:)`` with the key buckets' bits
  /// (tests: a store with the buckets of an earlier one).
  package static func create(
    at path: String, configuration: DedupeConfiguration, unjournaled: Bool, bucketBits: Int
  ) throws(StoreError) -> EntityStore {
    if exists(at: path) { throw StoreError("\(path) already exists") }
    let db = try SQLiteDatabase(path: path, create: true)
    // 16 KiB pages (SQLite's default is 4 KiB): a later run's point reads
    // touch fewer pages through the mapping, and its random writes fall on
    // fewer pages.
    try db.execute("PRAGMA page_size = 16384")
    try applyPragmas(db)
    if unjournaled { try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF") }
    // The first batch writes the file; reading it through a mapping only
    // helps later runs' lookups (and would count the new file's pages as
    // this process's memory).
    try db.execute("PRAGMA mmap_size = 0")
    try db.execute("BEGIN IMMEDIATE")
    try db.execute(schema)
    var settings = StoredSettings.meta(configuration)
    settings["schema_version"] = String(schemaVersion)
    settings["keys_version"] = String(LinkKeys.version)
    settings["record_version"] = String(LinkKeys.recordVersion)
    settings["bucket_bits"] = String(bucketBits)
    settings["created"] = Self.now()
    let insert = try db.prepare("INSERT INTO meta(key, value) VALUES(?, ?)")
    for (k, v) in settings.sorted(by: { $0.key < $1.key }) {
      insert.bind(1, text: k)
      insert.bind(2, text: v)
      try insert.run()
    }
    try db.execute("COMMIT")
    // The model is not known until the first batch (EM may fit it).
    return EntityStore(path: path, db: db, configuration: configuration, model: .defaults, bucketBits: bucketBits)
  }

  /// Bytes of the store read through a mapping (SQLite's default ceiling).
  static let mmapSize = 2_147_418_112

  static func applyPragmas(_ db: SQLiteDatabase) throws(StoreError) {
    // A rollback journal (the default) keeps the store one file between
    // runs; 256 MiB of page cache for the first run's bulk inserts; a later
    // run reads the store through a mapping (its lookups are point reads
    // spread over the whole file).
    try db.execute("PRAGMA foreign_keys = OFF; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = \(mmapSize)")
  }

  static func readMeta(_ db: SQLiteDatabase) throws(StoreError) -> [String: String] {
    let q = try db.prepare("SELECT key, value FROM meta")
    var out: [String: String] = [:]
    while try q.step() {
      if let k = q.text(0), let v = q.text(1) { out[k] = v }
    }
    return out
  }

  static func now() -> String {
    var t = time(nil)
    var tmv = tm()
    gmtime_r(&t, &tmv)
    func two(_ x: Int32) -> String { x < 10 ? "0\(x)" : "\(x)" }
    return "\(tmv.tm_year + 1900)-\(two(tmv.tm_mon + 1))-\(two(tmv.tm_mday))T\(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec))Z"
  }

  /// `contacts` has no index but its id. Uids are found through their
  /// postings in the key buckets, and a cluster's contacts through its
  /// `members` list: a batch's new contacts would land all over an index on
  /// either column, and rewriting those pages would be most of what a later
  /// run writes (where a changed cluster's row, with its `members`, is
  /// written anyway).
  /// Comparison records, a row a contact: apart from `contacts`, so that the
  /// stored contacts a batch reads back touch fewer pages than their whole
  /// rows would (its reads through the mapping cost a page fault per page).
  static let recordTable = "records(id INTEGER PRIMARY KEY, cluster INTEGER NOT NULL, record BLOB NOT NULL)"

  /// Folded names (``recallFolds(_:)``).
  static let foldTable = "name_folds(text BLOB PRIMARY KEY, folded BLOB NOT NULL) WITHOUT ROWID"

  /// Later runs' name-order entries, a row a run (``NameOrderLog``).
  static let nameLogTable = "name_order_log(run INTEGER PRIMARY KEY, entries BLOB NOT NULL)"

  /// Later runs' key entries, a row a run (``BucketCache``).
  static let logTable = "block_key_log(run INTEGER PRIMARY KEY, entries BLOB NOT NULL)"

  /// Clusters a later run changed, a row each (`seq` in the order
  /// written; at most one row per cluster id): they stand over their rows
  /// in `cluster_base` until enough of them are folded in
  /// (``foldClusterLog(limit:)``). The clusters a batch changes are spread
  /// over every page of `cluster_base` (each page written twice with the
  /// rollback journal); their rows appended here fill few pages.
  static let clusterLogTable =
    "cluster_log(seq INTEGER PRIMARY KEY, id INTEGER NOT NULL UNIQUE, size INTEGER NOT NULL, merged TEXT, members TEXT NOT NULL)"

  /// `clusters`, as SQL reads it: every cluster of `cluster_base`, with
  /// its row in `cluster_log` where it has one (every id of the log is one
  /// of the base's). Scanned in id order and found by id as a table is.
  static let clustersView = """
    CREATE VIEW clusters(id, created_run, size, merged, members) AS
      SELECT b.id, b.created_run,
             CASE WHEN l.id IS NULL THEN b.size ELSE l.size END,
             CASE WHEN l.id IS NULL THEN b.merged ELSE l.merged END,
             CASE WHEN l.id IS NULL THEN b.members ELSE l.members END
      FROM cluster_base b LEFT JOIN cluster_log l ON l.id = b.id
    """

  /// Brings a store whose clusters are the table `clusters` (schema 4 and
  /// earlier) to `cluster_base` with the log and the view (in the caller's
  /// transaction; the rename touches the schema only).
  func addClusterLog() throws(StoreError) {
    try db.execute("ALTER TABLE clusters RENAME TO cluster_base; CREATE TABLE \(Self.clusterLogTable); \(Self.clustersView)")
  }

  /// The schema (README "Entity store").
  static let schema = """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE runs(
      id INTEGER PRIMARY KEY, started TEXT NOT NULL, source TEXT NOT NULL,
      added INTEGER NOT NULL DEFAULT 0, updated INTEGER NOT NULL DEFAULT 0, removed INTEGER NOT NULL DEFAULT 0,
      clusters_created INTEGER NOT NULL DEFAULT 0, clusters_merged INTEGER NOT NULL DEFAULT 0,
      clusters_split INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE contacts(
      id INTEGER PRIMARY KEY, uid TEXT, source TEXT NOT NULL, cluster INTEGER NOT NULL,
      run INTEGER NOT NULL, vcard TEXT NOT NULL);
    CREATE TABLE \(recordTable);
    CREATE TABLE cluster_base(
      id INTEGER PRIMARY KEY, created_run INTEGER NOT NULL, size INTEGER NOT NULL, merged TEXT, members TEXT NOT NULL);
    CREATE TABLE \(clusterLogTable);
    \(clustersView);
    CREATE TABLE aliases(alias INTEGER PRIMARY KEY, cluster INTEGER NOT NULL, run INTEGER NOT NULL);
    CREATE INDEX aliases_cluster ON aliases(cluster);
    CREATE TABLE block_keys(bucket INTEGER PRIMARY KEY, entries BLOB NOT NULL);
    CREATE TABLE \(logTable);
    CREATE TABLE \(foldTable);
    CREATE TABLE \(nameLogTable);
    CREATE TABLE \(decisionTable);
    CREATE TABLE name_order(
      name INTEGER NOT NULL, contact INTEGER NOT NULL, class INTEGER NOT NULL, PRIMARY KEY(name, contact)) WITHOUT ROWID;
    """
}

/// The dedupe settings a store keeps in `meta`.
enum StoredSettings {
  static func meta(_ c: DedupeConfiguration) -> [String: String] {
    [
      "region": c.defaultRegion, "max_block": String(c.maxBlockSize), "threshold": "\(c.threshold)",
      "estimated_threshold": "\(c.estimatedThreshold)",
      "link_threshold": "\(c.linkThreshold)", "max_cluster": String(c.maxClusterSize),
      "estimate_weights": c.estimateWeights ? "1" : "0", "automatic_weights": c.automaticWeights ? "1" : "0",
      "block_names": c.blockOnNames ? "1" : "0", "block_addresses": c.blockOnAddresses ? "1" : "0",
      "block_phones": c.blockOnPhones ? "1" : "0", "block_emails": c.blockOnEmails ? "1" : "0",
      "rules": c.blockingRules.description, "guard_linkage": c.guardLinkage.rawValue,
      "survivorship": c.survivorship.text,
    ]
  }

  static func configuration(_ m: [String: String]) -> DedupeConfiguration? {
    guard let region = m["region"], let maxBlock = m["max_block"].flatMap({ Int($0) }),
      let threshold = m["threshold"].flatMap({ Double($0) }), let link = m["link_threshold"].flatMap({ Double($0) }),
      let maxCluster = m["max_cluster"].flatMap({ Int($0) }), let rulesText = m["rules"]
    else { return nil }
    var rules = BlockingKey.Set()
    for name in rulesText.split(separator: ",") where !name.isEmpty {
      guard let k = BlockingKey(named: String(name)) else { return nil }
      rules.insert(.init(k))
    }
    var c = DedupeConfiguration(
      defaultRegion: region, maxBlockSize: maxBlock, threshold: threshold, linkThreshold: link, maxClusterSize: maxCluster,
      estimateWeights: m["estimate_weights"] == "1", automaticWeights: m["automatic_weights"] == "1",
      blockOnNames: m["block_names"] == "1", blockOnAddresses: m["block_addresses"] == "1",
      blockingRules: rules.intersection(.beyondBasic))
    c.blockOnPhones = m["block_phones"] == "1"
    c.blockOnEmails = m["block_emails"] == "1"
    // A store made before fitted weights had a threshold of their own used
    // one threshold for both.
    c.estimatedThreshold = m["estimated_threshold"].flatMap { Double($0) } ?? threshold
    // A store made before the guard had a choice used complete linkage.
    guard let linkage = GuardLinkage(rawValue: m["guard_linkage"] ?? "complete") else { return nil }
    c.guardLinkage = linkage
    // The golden records' rules (a store made before them merged by the
    // most complete member, the default).
    if let text = m["survivorship"] {
      guard let rules = try? Survivorship(text: text) else { return nil }
      c.survivorship = rules
    }
    // Term frequencies would change with every batch.
    c.termFrequencies = false
    return c
  }
}
