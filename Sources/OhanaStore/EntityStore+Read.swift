import OhanaCore
import OhanaDedupe

#if canImport(Glibc)
  import Glibc
#endif

extension EntityStore {
  /// Calls `body(cluster, card)` with every cluster's merged contact as
  /// vCard 4.0 (a cluster of one: its contact), in cluster id order;
  /// with `only`, just those clusters.
  public func forEachMergedCard(only: [Int64]? = nil, _ body: (Int64, [UInt8]) throws -> Void) throws {
    if let only {
      let q = try db.prepare(
        "SELECT cl.merged, c.vcard FROM clusters cl LEFT JOIN contacts c ON cl.merged IS NULL AND c.cluster = cl.id WHERE cl.id = ?")
      for id in only.sorted() {
        q.bind(1, id)
        while try q.step() { try body(id, q.isNull(0) ? q.bytes(1) : q.bytes(0)) }
        q.reset()
      }
      return
    }
    let q = try db.prepare(
      "SELECT cl.id, cl.merged, c.vcard FROM clusters cl LEFT JOIN contacts c ON cl.merged IS NULL AND c.cluster = cl.id ORDER BY cl.id")
    while try q.step() { try body(q.int64(0), q.isNull(1) ? q.bytes(2) : q.bytes(1)) }
  }

  /// Calls `body(uid, cluster)` for every stored contact (by contact id);
  /// with `only`, just the contacts of those clusters. A contact without a
  /// uid is named `contact-N` (its id in the store).
  public func forEachAssignment(only: [Int64]? = nil, _ body: (String, Int64) throws -> Void) throws {
    if let only {
      let q = try db.prepare("SELECT uid, id FROM contacts WHERE cluster = ? ORDER BY id")
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

  /// The cluster of the stored contact with this uid.
  public func cluster(ofUID uid: String) throws(StoreError) -> Int64? {
    let q = try db.prepare("SELECT cluster FROM contacts WHERE uid = ?")
    q.bind(1, text: uid)
    return try q.step() ? q.int64(0) : nil
  }

  /// Contacts and clusters stored.
  public func counts() throws(StoreError) -> (contacts: Int, clusters: Int) {
    (Int(try scalar("SELECT count(*) FROM contacts")), Int(try scalar("SELECT count(*) FROM clusters")))
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

  /// SQLite's `PRAGMA integrity_check` ("ok" when the file is sound).
  public func integrityCheck() throws(StoreError) -> String {
    let q = try db.prepare("PRAGMA integrity_check")
    var lines: [String] = []
    while try q.step() { lines.append(q.text(0) ?? "") }
    return lines.joined(separator: "\n")
  }
}
