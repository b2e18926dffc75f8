import OhanaCore
import OhanaDedupe
import OhanaIO

extension EntityStore {
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
    // the text would be copied again at each doubling, and faulted in).
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
  /// script's transliteration rules for names met before); returns the
  /// texts the store does not hold yet.
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

  /// The keys of stored contacts from their comparison records.
  func keys(ofRecords records: Cards) throws(StoreError) -> LinkKeys {
    guard let keys = LinkKeys(records: records.bytes, ends: records.ends, configuration: configuration) else {
      throw StoreError("a stored comparison record cannot be read: the store is damaged")
    }
    return keys
  }

  /// Parses stored cards back into a table, one row per card, in order.
  /// The sources a merge's survivorship rules read (``Survivorship/readsSources``):
  /// the first `stored.count` rows (read back from the store, whose vCard
  /// text has no source) take the `source` the store kept for them; every
  /// other row keeps its own, else takes the batch's `label`, as the store
  /// records it.
  static func setSources(_ table: inout ContactTable, stored: [String?], label: String) {
    var column = Array(table[.sourceProvider])
    var pool = table.pool
    let labelID = pool.intern(label)
    for r in 0..<table.rowCount {
      if r < stored.count {
        column[r] = stored[r].map { pool.intern($0) } ?? labelID
      } else if column[r].isAbsent {
        column[r] = labelID
      }
    }
    table.pool = pool
    table.setAttribute(.sourceProvider, column)
  }

  static func table(of cards: [[UInt8]], extra: [UInt8] = [], extraCount: Int = 0) throws(StoreError) -> ContactTable {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(cards.reduce(extra.count) { $0 + $1.count })
    for c in cards { bytes.append(contentsOf: c) }
    bytes.append(contentsOf: extra)
    let result: ReadResult
    do {
      result = try ContactIO.read(bytes: bytes, format: .vcard4, options: ReadOptions())
    } catch {
      throw StoreError("stored contacts could not be read back: \(error)")
    }
    guard result.table.rowCount == cards.count + extraCount else {
      throw StoreError(
        "stored contacts read back as \(result.table.rowCount) contacts, not \(cards.count + extraCount): the store is damaged")
    }
    return result.table
  }
}
