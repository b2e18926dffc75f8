/// The stored blocking keys: which contacts share each block key.
///
/// A contact has several (key, contact) entries: as an SQLite row each
/// they would be slow to insert and larger than the entries. They are kept
/// instead in buckets by the key's top bits (``storeBucketBits``,
/// a store's `meta.bucket_bits`), one row per bucket (`block_keys(bucket,
/// entries)`), each bucket a blob of entries sorted by key then contact,
/// 14 bytes an entry:
///
/// ```
/// key       8 bytes, little-endian (the block hash, rule blocks odd)
/// contact   6 bytes, little-endian: contact id << 2 | class
///           (class: 1 has phones, 2 has e-mails; the rules' skip)
/// ```
///
/// Besides blocking keys the buckets hold the neighbourhood keys of capped
/// blocks and the uid postings (``EntityStore/uidPosting(_:)``): the
/// store's uid index, which a day's new uids append to instead of landing
/// on pages all over an SQL index.
///
/// A lookup reads one bucket and binary-searches it. A later run appends
/// its new entries to a log (`block_key_log`, ``EntityStore/BucketCache``)
/// and rewrites only the buckets its removals touch.
enum KeyPostings {
  /// A new store's bucket bits: 2^14 buckets. A batch's key lookups, in
  /// one ordered pass, read each bucket at most once, so fewer buckets mean
  /// fewer reads, as long as a bucket fits in one 16 KiB page. A store
  /// whose `meta` has no `bucket_bits` keeps 2^20 (``legacyBucketBits``).
  static let storeBucketBits = 14
  /// Bucket bits of a store whose `meta` has no `bucket_bits`.
  static let legacyBucketBits = 20
  /// Bits of the counting sort that orders a batch's entries by key.
  static let sortBits = 20
  static let entrySize = 14

  struct Entry: Hashable, Comparable {
    var key: UInt64
    var contact: Int64
    var cls: UInt8

    static func < (a: Entry, b: Entry) -> Bool { a.key != b.key ? a.key < b.key : a.contact < b.contact }
  }

  static func bucket(_ key: UInt64, bits: Int) -> Int64 { Int64(key >> UInt64(64 - bits)) }

  static func encode(_ entries: [Entry]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: entries.count * entrySize)
    for (i, e) in entries.enumerated() { put(key: e.key, contact: e.contact, cls: e.cls, into: &out, at: i * entrySize) }
    return out
  }

  /// Writes one entry at `offset` of `blob`.
  static func put(key: UInt64, contact: Int64, cls: UInt8, into blob: inout [UInt8], at offset: Int) {
    var k = key
    for j in 0..<8 {
      blob[offset + j] = UInt8(truncatingIfNeeded: k)
      k >>= 8
    }
    var c = UInt64(contact) << 2 | UInt64(cls & 3)
    for j in 8..<14 {
      blob[offset + j] = UInt8(truncatingIfNeeded: c)
      c >>= 8
    }
  }

  /// The entries of a bucket's blob (a short tail, never written, is ignored).
  static func decode(_ bytes: [UInt8]) -> [Entry] {
    let n = bytes.count / entrySize
    var out: [Entry] = []
    out.reserveCapacity(n)
    for i in 0..<n {
      let o = i * entrySize
      var k: UInt64 = 0
      for j in (0..<8).reversed() { k = k << 8 | UInt64(bytes[o + j]) }
      var c: UInt64 = 0
      for j in (8..<14).reversed() { c = c << 8 | UInt64(bytes[o + j]) }
      out.append(Entry(key: k, contact: Int64(c >> 2), cls: UInt8(c & 3)))
    }
    return out
  }

  /// The entry at `i` of a bucket's blob.
  @inline(__always) static func entry(_ raw: UnsafeRawBufferPointer, _ i: Int) -> Entry {
    let o = i * entrySize
    var k: UInt64 = 0
    for j in (0..<8).reversed() { k = k << 8 | UInt64(raw[o + j]) }
    var c: UInt64 = 0
    for j in (8..<14).reversed() { c = c << 8 | UInt64(raw[o + j]) }
    return Entry(key: k, contact: Int64(c >> 2), cls: UInt8(c & 3))
  }

  /// The positions of `key`'s entries in a bucket's blob (sorted).
  static func bounds(of key: UInt64, in raw: UnsafeRawBufferPointer) -> Range<Int> {
    let n = raw.count / entrySize
    @inline(__always) func keyAt(_ i: Int) -> UInt64 {
      let o = i * entrySize
      var k: UInt64 = 0
      for j in (0..<8).reversed() { k = k << 8 | UInt64(raw[o + j]) }
      return k
    }
    var lo = 0, hi = n
    while lo < hi {
      let mid = (lo + hi) / 2
      if keyAt(mid) < key { lo = mid + 1 } else { hi = mid }
    }
    var end = lo
    hi = n
    while end < hi {
      let mid = (end + hi) / 2
      if keyAt(mid) <= key { end = mid + 1 } else { hi = mid }
    }
    return lo..<end
  }

  /// Takes `key`'s entry of `contact` out of sorted `entries` (found by
  /// binary search); whether there was one.
  static func remove(_ key: UInt64, contact: Int64, from entries: inout [Entry]) -> Bool {
    guard let i = range(of: key, in: entries).firstIndex(where: { $0.contact == contact }) else { return false }
    entries.remove(at: i)
    return true
  }

  /// The entries of `key` in sorted `entries`.
  static func range(of key: UInt64, in entries: [Entry]) -> ArraySlice<Entry> {
    var lo = 0, hi = entries.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if entries[mid].key < key { lo = mid + 1 } else { hi = mid }
    }
    var end = lo
    while end < entries.count && entries[end].key == key { end += 1 }
    return entries[lo..<end]
  }
}

extension EntityStore {
  /// The stored key entries as one run sees them: the buckets
  /// (`block_keys`) plus the log of later runs' entries (`block_key_log`,
  /// one row a run, its entries sorted).
  ///
  /// A later run appends its new contacts' entries to the log instead of
  /// rewriting their buckets: a batch's contacts touch buckets all over
  /// the table, so rewriting them would write most of its pages, twice with
  /// the rollback journal. The log is read whole when a run starts, and
  /// folded into the buckets when it holds more than an eighth as many
  /// entries as they do (``compactionShare``): an occasional run pays for
  /// rewriting the buckets once.
  /// Removals (updates, `--remove`) take entries out where they are.
  final class BucketCache {
    let store: EntityStore
    /// The store's bucket bits (``KeyPostings/storeBucketBits``).
    let bits: Int
    var buckets: [Int64: [KeyPostings.Entry]] = [:]
    var dirty = Set<Int64>()
    /// The log, a row per run (each sorted), and all of it sorted, for lookups.
    private var log: [(run: Int64, entries: [KeyPostings.Entry])] = []
    private var logAll: [KeyPostings.Entry] = []
    private var logDirty = Set<Int>()
    /// Entries this run adds (written as its log row by ``flush(run:)``).
    private var added: [KeyPostings.Entry] = []
    private let read: SQLiteStatement
    /// Whether the last ``flush(run:)`` folded the log into the buckets.
    private(set) var compacted = false
    /// Entries this run took out of the buckets (for `meta.key_entries`).
    private var removedFromBuckets = 0

    /// The log is folded into the buckets once it holds this share of their entries.
    static let compactionShare = 8

    init(_ store: EntityStore) throws(StoreError) {
      self.store = store
      bits = store.bucketBits
      read = try store.db.prepare("SELECT entries FROM block_keys WHERE bucket = ?")
      let rows = try store.db.prepare("SELECT run, entries FROM block_key_log ORDER BY run")
      while try rows.step() {
        log.append((rows.int64(0), KeyPostings.decode(rows.bytes(1))))
      }
      if log.count == 1 {
        logAll = log[0].entries
      } else if log.count > 1 {
        logAll = log.flatMap(\.entries)
        logAll.sort()
      }
    }

    var logEntryCount: Int { logAll.count }

    func entries(_ bucket: Int64) throws(StoreError) -> [KeyPostings.Entry] {
      if let b = buckets[bucket] { return b }
      read.bind(1, bucket)
      let e = try read.step() ? KeyPostings.decode(read.bytes(0)) : []
      read.reset()
      buckets[bucket] = e
      return e
    }

    /// The stored contacts of block `key`, by contact id.
    func members(_ key: UInt64) throws(StoreError) -> [KeyPostings.Entry] {
      let base = KeyPostings.range(of: key, in: try entries(KeyPostings.bucket(key, bits: bits)))
      let logged = logAll.isEmpty ? [] : KeyPostings.range(of: key, in: logAll)
      if logged.isEmpty { return Array(base) }
      if base.isEmpty { return Array(logged) }
      return (Array(base) + logged).sorted()
    }

    /// The stored contacts of many keys at once (``Postings``): the keys in
    /// order, so that buckets are read once each, in the file's order,
    /// searched in place, and the log is walked once. Of a key with more
    /// than `all` members only the count and the first `first` members (by
    /// contact) are kept: a block past the cap is paired on its
    /// neighbourhood alone, so its members are never read one by one.
    func lookup(_ keys: [UInt64], all: Int = .max, first: Int = 0) throws(StoreError) -> Postings {
      var sorted = keys
      sorted.sortUnique()
      var out = Postings()
      out.ranges.reserveCapacity(sorted.count)
      out.entries.reserveCapacity(sorted.count * 4)
      var li = 0
      var i = 0
      // One key's members: from the bucket (`raw` in place, or a bucket
      // this run changed) and the log, merged by contact, limited.
      func add(_ k: UInt64, bucket: ArraySlice<KeyPostings.Entry>?, raw: UnsafeRawBufferPointer?) {
        let inBucket: Range<Int>
        if let raw { inBucket = KeyPostings.bounds(of: k, in: raw) } else { inBucket = 0..<(bucket?.count ?? 0) }
        while li < logAll.count && logAll[li].key < k { li += 1 }
        let logStart = li
        while li < logAll.count && logAll[li].key == k { li += 1 }
        let total = inBucket.count + (li - logStart)
        if total == 0 { return }
        let keep = total > all ? min(first, total) : total
        let at = out.entries.count
        var fromBucket: [KeyPostings.Entry] = []
        if let raw {
          for e in inBucket.prefix(keep) { fromBucket.append(KeyPostings.entry(raw, e)) }
        } else if let bucket {
          fromBucket = Array(bucket.prefix(keep))
        }
        if li == logStart {
          out.entries.append(contentsOf: fromBucket)
        } else {
          // In the log too: the first `keep` of both, by contact.
          out.entries.append(contentsOf: (fromBucket + logAll[logStart..<min(li, logStart + keep)]).sorted().prefix(keep))
        }
        out.ranges[k] = at..<out.entries.count
        out.counts[k] = total
      }
      while i < sorted.count {
        let b = KeyPostings.bucket(sorted[i], bits: bits)
        var j = i
        while j < sorted.count && KeyPostings.bucket(sorted[j], bits: bits) == b { j += 1 }
        if let decoded = buckets[b] {
          for k in sorted[i..<j] { add(k, bucket: KeyPostings.range(of: k, in: decoded), raw: nil) }
        } else {
          read.bind(1, b)
          if try read.step() {
            read.withBytes(0) { raw in for k in sorted[i..<j] { add(k, bucket: nil, raw: raw) } }
          } else {
            for k in sorted[i..<j] { add(k, bucket: nil, raw: nil) }
          }
          read.reset()
        }
        i = j
      }
      return out
    }

    func remove(_ key: UInt64, contact: Int64) throws(StoreError) {
      let b = KeyPostings.bucket(key, bits: bits)
      var e = try entries(b)
      if KeyPostings.remove(key, contact: contact, from: &e) {
        buckets[b] = e
        dirty.insert(b)
        removedFromBuckets += 1
      }
      if KeyPostings.remove(key, contact: contact, from: &logAll) {
        for n in log.indices where KeyPostings.remove(key, contact: contact, from: &log[n].entries) { logDirty.insert(n) }
      }
    }

    func insert(_ entry: KeyPostings.Entry) {
      added.append(entry)
    }

    /// Writes the changed buckets and log rows back, and this run's
    /// entries as its log row; folds the log into the buckets when it has
    /// grown to ``compactionShare`` of them.
    func flush(run: Int64) throws(StoreError) {
      let write = try store.db.prepare("INSERT OR REPLACE INTO block_keys(bucket, entries) VALUES(?, ?)")
      let drop = try store.db.prepare("DELETE FROM block_keys WHERE bucket = ?")
      func writeBucket(_ b: Int64, _ e: [KeyPostings.Entry]) throws(StoreError) {
        if e.isEmpty {
          drop.bind(1, b)
          try drop.run()
        } else {
          write.bind(1, b)
          write.bind(2, bytes: KeyPostings.encode(e), blob: true)
          try write.run()
        }
      }
      for b in dirty.sorted() { try writeBucket(b, buckets[b] ?? []) }
      dirty.removeAll()
      var parts = logDirty.sorted().map { log[$0] }
      logDirty.removeAll()
      if !added.isEmpty {
        added.sortUnique()
        parts.append((run, added))
        logAll.append(contentsOf: added)
        added = []
      }
      try store.writeLogRows(parts, table: "block_key_log")
      // Fold the log into the buckets when it is large enough.
      // How many entries the buckets hold (`meta.key_entries`, counted
      // once for a store whose `meta` lacks it).
      var baseCount: Int
      if let text = try store.meta("key_entries"), let v = Int(text) {
        baseCount = max(0, v - removedFromBuckets)
      } else {
        baseCount = Int(try store.scalar("SELECT coalesce(sum(length(entries)), 0) FROM block_keys")) / KeyPostings.entrySize
      }
      removedFromBuckets = 0
      compacted = false
      if !logAll.isEmpty && logAll.count * Self.compactionShare > baseCount {
        logAll.sort()
        var i = 0
        while i < logAll.count {
          let b = KeyPostings.bucket(logAll[i].key, bits: bits)
          var j = i
          while j < logAll.count && KeyPostings.bucket(logAll[j].key, bits: bits) == b { j += 1 }
          let merged = (try entries(b) + logAll[i..<j]).sorted()
          try writeBucket(b, merged)
          buckets[b] = merged
          i = j
        }
        try store.db.execute("DELETE FROM block_key_log")
        baseCount += logAll.count
        log = []
        logAll = []
        compacted = true
      }
      try store.setMeta("key_entries", String(baseCount))
    }
  }
}

/// Stored contacts of many keys (``EntityStore/BucketCache/lookup(_:)``):
/// each key's entries, sorted by contact, as a range of one array.
struct Postings {
  var entries: [KeyPostings.Entry] = []
  var ranges: [UInt64: Range<Int>] = [:]
  /// Every key's number of members (more than ``members(_:)`` holds when
  /// it was limited).
  var counts: [UInt64: Int] = [:]

  func members(_ key: UInt64) -> ArraySlice<KeyPostings.Entry> {
    guard let r = ranges[key] else { return [] }
    return entries[r]
  }

  func count(_ key: UInt64) -> Int { counts[key] ?? 0 }
}

extension EntityStore {
  /// Writes log rows (`run`, `entries`) of `table` (`block_key_log`,
  /// `name_order_log`); a row without entries is deleted.
  func writeLogRows(_ parts: [(run: Int64, entries: [KeyPostings.Entry])], table: String) throws(StoreError) {
    let write = try db.prepare("INSERT OR REPLACE INTO \(table)(run, entries) VALUES(?, ?)")
    let drop = try db.prepare("DELETE FROM \(table) WHERE run = ?")
    for part in parts {
      if part.entries.isEmpty {
        drop.bind(1, part.run)
        try drop.run()
      } else {
        write.bind(1, part.run)
        write.bind(2, bytes: KeyPostings.encode(part.entries), blob: true)
        try write.run()
      }
    }
  }
}

extension Array where Element: Comparable {
  /// Sorts the array and keeps each value once.
  mutating func sortUnique() {
    sort()
    var w = 0
    for i in indices where i == 0 || self[i] != self[w - 1] {
      self[w] = self[i]
      w += 1
    }
    removeSubrange(w...)
  }
}
