extension EntityStore {
  /// The sorted-names neighbourhood as one run sees it: the `name_order`
  /// table plus the log of later runs' entries (`name_order_log`, one row a
  /// run), as for the key buckets (``BucketCache``).
  ///
  /// The table is keyed by name, so a batch's new contacts would land on
  /// nearly every one of its pages; in the log they are one row, and the
  /// log is folded into the table when the key log is folded into the
  /// buckets.
  /// Entries are ``KeyPostings/Entry`` values: the name key (whose order
  /// is the table's `name` order), the contact and its class.
  final class NameOrderLog {
    let store: EntityStore
    private var rows: [(run: Int64, entries: [KeyPostings.Entry])] = []
    /// Every logged entry, sorted (rows of earlier runs, then this run's).
    private var all: [KeyPostings.Entry] = []
    private var dirtyRows = Set<Int>()
    private var added: [KeyPostings.Entry] = []
    private let before: SQLiteStatement
    private let after: SQLiteStatement
    private let delete: SQLiteStatement

    init(_ store: EntityStore) throws(StoreError) {
      self.store = store
      before = try store.db.prepare(
        "SELECT name, contact, class FROM name_order WHERE name < ? ORDER BY name DESC, contact DESC LIMIT ?")
      after = try store.db.prepare(
        "SELECT name, contact, class FROM name_order WHERE name >= ? ORDER BY name, contact LIMIT ?")
      delete = try store.db.prepare("DELETE FROM name_order WHERE name = ? AND contact = ?")
      let q = try store.db.prepare("SELECT run, entries FROM name_order_log ORDER BY run")
      while try q.step() { rows.append((q.int64(0), KeyPostings.decode(q.bytes(1)))) }
      all = rows.flatMap(\.entries)
      all.sort()
    }

    /// The `count` stored contacts before name key `k` and the `count` from
    /// it on, in the table and the log together (as the table alone would
    /// give them if it held the log's entries).
    func neighbours(of k: UInt64, count: Int) throws(StoreError) -> [(contact: Int64, cls: UInt8)] {
      var out: [(contact: Int64, cls: UInt8)] = []
      var lo = 0, hi = all.count
      while lo < hi {
        let m = (lo + hi) / 2
        if all[m].key < k { lo = m + 1 } else { hi = m }
      }
      for (q, forward) in [(before, false), (after, true)] {
        q.bind(1, EntityStore.nameOrder(k))
        q.bind(2, count)
        var found: [KeyPostings.Entry] = []
        while try q.step() {
          found.append(
            KeyPostings.Entry(key: UInt64(bitPattern: q.int64(0)) ^ (1 << 63), contact: q.int64(1), cls: UInt8(q.int(2) & 3)))
        }
        q.reset()
        let logged = forward ? all[lo..<min(all.count, lo + count)] : all[max(0, lo - count)..<lo]
        if !logged.isEmpty {
          // The nearest `count` of both, on this side of k.
          found = (found + logged).sorted()
          found = forward ? Array(found.prefix(count)) : Array(found.suffix(count))
        }
        out.append(contentsOf: found.map { ($0.contact, $0.cls) })
      }
      return out
    }

    func insert(_ e: KeyPostings.Entry) { added.append(e) }

    /// Takes an entry out, in the table or the log.
    func remove(_ k: UInt64, contact: Int64) throws(StoreError) {
      delete.bind(1, EntityStore.nameOrder(k))
      delete.bind(2, contact)
      try delete.run()
      if KeyPostings.remove(k, contact: contact, from: &all) {
        for n in rows.indices where KeyPostings.remove(k, contact: contact, from: &rows[n].entries) { dirtyRows.insert(n) }
      }
    }

    /// Writes this run's entries as its log row and the changed rows; with
    /// `fold`, moves the whole log into the table instead.
    func flush(run: Int64, fold: Bool) throws(StoreError) {
      added.sort()
      if fold {
        var everything = all + added
        everything.sort()
        try store.insertNameOrder(everything.map { (EntityStore.nameOrder($0.key), $0.contact, Int($0.cls)) })
        try store.db.execute("DELETE FROM name_order_log")
        rows = []
        all = []
        added = []
        return
      }
      var parts = dirtyRows.sorted().map { rows[$0] }
      dirtyRows.removeAll()
      if !added.isEmpty { parts.append((run, added)) }
      try store.writeLogRows(parts, table: "name_order_log")
      all.append(contentsOf: added)
      all.sort()
      added = []
    }
  }
}
