import OhanaCore
import OhanaDedupe

#if canImport(Glibc)
  import Glibc
#endif

extension EntityStore {
  /// Calls `body(cluster, card)` with every cluster's merged contact as
  /// vCard 4.0, in cluster id order; with `only`, just those clusters.
  ///
  /// A cluster of one keeps no merged text in the store (its contact is
  /// it); its merged contact is made here from the contact, through the
  /// same merge as a full run's, so that the output is the one `ohana
  /// dedupe` writes (repeated e-mails folded, the producer's PRODID
  /// dropped), whichever run wrote the cluster.
  public func forEachMergedCard(only: [Int64]? = nil, _ body: (Int64, [UInt8]) throws -> Void) throws {
    var pending: [(id: Int64, card: [UInt8], single: Bool)] = []
    func drain() throws {
      let singles = pending.filter(\.single).map(\.card)
      var merged = try mergedSingles(singles).makeIterator()
      for p in pending {
        if p.single {
          guard let m = merged.next() else { throw StoreError("a cluster of one could not be merged") }
          try body(p.id, m)
        } else {
          try body(p.id, p.card)
        }
      }
      pending.removeAll(keepingCapacity: true)
    }
    if let only {
      let q = try db.prepare(
        "SELECT cl.merged, c.vcard FROM clusters cl LEFT JOIN contacts c ON cl.merged IS NULL AND c.id = json_extract(cl.members, '$[0]') WHERE cl.id = ?")
      for id in only.sorted() {
        q.bind(1, id)
        while try q.step() { pending.append(q.isNull(0) ? (id, q.bytes(1), true) : (id, q.bytes(0), false)) }
        q.reset()
        if pending.count >= Self.mergeChunk { try drain() }
      }
      try drain()
      return
    }
    let q = try db.prepare(
      "SELECT cl.id, cl.merged, c.vcard FROM clusters cl LEFT JOIN contacts c ON cl.merged IS NULL AND c.id = json_extract(cl.members, '$[0]') ORDER BY cl.id")
    while try q.step() {
      pending.append(q.isNull(1) ? (q.int64(0), q.bytes(2), true) : (q.int64(0), q.bytes(1), false))
      if pending.count >= Self.mergeChunk { try drain() }
    }
    try drain()
  }

  /// Clusters read at a time by ``forEachMergedCard(only:_:)``.
  static let mergeChunk = 50_000

  /// The merged contacts of clusters of one, from their contacts' cards.
  func mergedSingles(_ cards: [[UInt8]]) throws(StoreError) -> [[UInt8]] {
    if cards.isEmpty { return [] }
    let table = try Self.table(of: cards)
    let n = table.rowCount
    let result = DedupeResult.linked(clusterOf: (0..<n).map { Int32($0) }, pairs: [], model: model)
    let merged = Deduplicator(configuration: configuration, model: model).merge(table, result)
    guard merged.rowCount == n else { throw StoreError("clusters of one merged into \(merged.rowCount) contacts, not \(n)") }
    let encoded = Self.encode(merged, rows: Array(0..<n))
    return (0..<n).map { Array(encoded.card($0)) }
  }

  /// Calls `body(uid, cluster)` for every stored contact (by contact id);
  /// with `only`, just the contacts of those clusters. A contact without a
  /// uid is named `contact-N` (its id in the store).
  public func forEachAssignment(only: [Int64]? = nil, _ body: (String, Int64) throws -> Void) throws {
    if let only {
      let q = try db.prepare(
        "SELECT c.uid, c.id FROM clusters cl, json_each(cl.members) m JOIN contacts c ON c.id = m.value WHERE cl.id = ? ORDER BY c.id")
      for id in only.sorted() {
        q.bind(1, id)
        while try q.step() { try body(q.text(0) ?? "contact-\(q.int64(1))", id) }
        q.reset()
      }
      return
    }
    let q = try db.prepare("SELECT uid, cluster, id FROM contacts ORDER BY id")
    while try q.step() { try body(q.text(0) ?? "contact-\(q.int64(2))", q.int64(1)) }
  }

  /// The cluster `id` names now: itself while it exists, else the cluster
  /// it was merged into (aliases resolve); nil for an id never given or
  /// whose contacts were all removed.
  public func resolve(_ id: Int64) throws(StoreError) -> Int64? {
    let q = try db.prepare("SELECT id FROM clusters WHERE id = ?")
    q.bind(1, id)
    if try q.step() { return id }
    let a = try db.prepare("SELECT cluster FROM aliases WHERE alias = ?")
    a.bind(1, id)
    return try a.step() ? a.int64(0) : nil
  }

  /// The cluster of the stored contact with this uid (found through its
  /// postings in the key buckets, as a run finds it).
  public func cluster(ofUID uid: String) throws(StoreError) -> Int64? {
    let q = try db.prepare("SELECT uid, cluster FROM contacts WHERE id = ?")
    let want = Array(uid.utf8)
    for m in try BucketCache(self).members(Self.uidPosting(uid)) {
      q.bind(1, m.contact)
      if try q.step(), q.bytes(0) == want { return q.int64(1) }
      q.reset()
    }
    return nil
  }

  /// Runs `body` in one read transaction: its reads see one state of the
  /// store, and take SQLite's lock once instead of once a statement (the
  /// merged contacts of many clusters are many statements).
  public func reading<R>(_ body: () throws -> R) throws -> R {
    try transaction("BEGIN", wrap: { $0 }, body)
  }

  /// Runs `body` in one write transaction: all of it, or (on an error)
  /// nothing.
  func writing<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
    try transaction("BEGIN IMMEDIATE", wrap: { $0 }, body)
  }

  /// `body` between `begin` and COMMIT; rolled back when it throws (the
  /// rollback's own failure is not reported over the body's error). The
  /// store's own errors become `E` through `wrap`.
  private func transaction<R, E: Error>(
    _ begin: String, wrap: (StoreError) -> E, _ body: () throws(E) -> R
  ) throws(E) -> R {
    do throws(StoreError) { try db.execute(begin) } catch { throw wrap(error) }
    do throws(E) {
      let r = try body()
      do throws(StoreError) { try db.execute("COMMIT") } catch { throw wrap(error) }
      return r
    } catch {
      try? db.execute("ROLLBACK")
      throw error
    }
  }

  /// Contacts and clusters stored: kept in `meta` by every run
  /// (`contact_count`, `cluster_count`); counted from `clusters` in a store
  /// whose `meta` lacks them (its next run keeps them).
  public func counts() throws(StoreError) -> (contacts: Int, clusters: Int) {
    if let kept = try keptCounts() { return kept }
    return try countedRows()
  }

  /// Contacts and clusters counted from `clusters` (every contact is in
  /// one cluster, whose `size` counts it: far fewer pages than a count of
  /// `contacts` reads).
  func countedRows() throws(StoreError) -> (contacts: Int, clusters: Int) {
    let q = try db.prepare("SELECT coalesce(sum(size), 0), count(*) FROM clusters")
    guard try q.step() else { throw StoreError("the store cannot be counted") }
    return (q.int(0), q.int(1))
  }

  /// How far the counts kept in `meta` are from the rows (0 when they
  /// agree; nil when the store keeps none): contacts counted in `contacts`
  /// itself, clusters in `clusters`. For tests.
  package func countsDisagreement() throws(StoreError) -> Int? {
    guard let (c, k) = try keptCounts() else { return nil }
    let contacts = Int(try scalar("SELECT count(*) FROM contacts")), clusters = Int(try scalar("SELECT count(*) FROM clusters"))
    return abs(c - contacts) + abs(k - clusters)
  }

  /// The store file's size in bytes.
  public var fileSize: Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
  }
}

extension EntityStore {
  /// For tests of failing runs: overwrites a stored contact's text with
  /// something that is not a card.
  package func damageForTesting(uid: String) throws(StoreError) {
    let q = try db.prepare("UPDATE contacts SET vcard = ? WHERE uid = ?")
    q.bind(1, bytes: Array("not a card\r\n".utf8))
    q.bind(2, text: uid)
    try q.run()
  }

  /// For tests: how many clusters' `members` and `size` disagree with the
  /// contacts' own `cluster` column, as SQLite groups it (plus contacts in
  /// a cluster without a row); 0 when the two agree.
  package func membersDisagreements() throws(StoreError) -> Int64 {
    try scalar(
      """
      WITH o AS (SELECT cluster, json_group_array(id) AS m, count(*) AS n
                 FROM (SELECT cluster, id FROM contacts ORDER BY cluster, id) GROUP BY cluster)
      SELECT (SELECT count(*) FROM clusters cl LEFT JOIN o ON o.cluster = cl.id
              WHERE o.m IS NULL OR cl.members != o.m OR cl.size != o.n)
           + (SELECT count(*) FROM o WHERE o.cluster NOT IN (SELECT id FROM clusters))
      """)
  }

  /// SQLite's `PRAGMA integrity_check` ("ok" when the file is sound).
  public func integrityCheck() throws(StoreError) -> String {
    let q = try db.prepare("PRAGMA integrity_check")
    var lines: [String] = []
    while try q.step() { lines.append(q.text(0) ?? "") }
    return lines.joined(separator: "\n")
  }
}
