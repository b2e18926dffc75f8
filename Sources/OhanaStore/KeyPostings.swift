/// The stored blocking keys: which contacts share each block key.
///
/// A million contacts have about nine million (key, contact) entries; as
/// one SQLite row each they took 16 s to insert and 20 bytes apiece. They
/// are kept instead in buckets by the key's top ``bucketBits`` bits, one
/// row per bucket (`block_keys(bucket, entries)`), each bucket a blob of
/// entries sorted by key then contact, 14 bytes an entry:
///
/// ```
/// key       8 bytes, little-endian (the block hash, rule blocks odd)
/// contact   6 bytes, little-endian: contact id << 2 | class
///           (class: 1 has phones, 2 has e-mails; the rules' skip)
/// ```
///
/// A lookup reads one bucket and binary-searches it; a run rewrites only
/// the buckets its contacts touch.
enum KeyPostings {
  static let bucketBits = 20
  static let entrySize = 14

  struct Entry: Hashable, Comparable {
    var key: UInt64
    var contact: Int64
    var cls: UInt8

    static func < (a: Entry, b: Entry) -> Bool { a.key != b.key ? a.key < b.key : a.contact < b.contact }
  }

  static func bucket(_ key: UInt64) -> Int64 { Int64(key >> UInt64(64 - bucketBits)) }

  static func encode(_ entries: [Entry]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(entries.count * entrySize)
    for e in entries {
      var k = e.key
      for _ in 0..<8 {
        out.append(UInt8(truncatingIfNeeded: k))
        k >>= 8
      }
      var c = UInt64(e.contact) << 2 | UInt64(e.cls & 3)
      for _ in 0..<6 {
        out.append(UInt8(truncatingIfNeeded: c))
        c >>= 8
      }
    }
    return out
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
  /// Buckets of stored key entries read (and changed) during one run.
  final class BucketCache {
    let store: EntityStore
    var buckets: [Int64: [KeyPostings.Entry]] = [:]
    var dirty = Set<Int64>()
    private let read: SQLiteStatement

    init(_ store: EntityStore) throws(StoreError) {
      self.store = store
      read = try store.db.prepare("SELECT entries FROM block_keys WHERE bucket = ?")
    }

    func entries(_ bucket: Int64) throws(StoreError) -> [KeyPostings.Entry] {
      if let b = buckets[bucket] { return b }
      read.bind(1, bucket)
      let e = try read.step() ? KeyPostings.decode(read.bytes(0)) : []
      read.reset()
      buckets[bucket] = e
      return e
    }

    /// The stored contacts of block `key`.
    func members(_ key: UInt64) throws(StoreError) -> ArraySlice<KeyPostings.Entry> {
      KeyPostings.range(of: key, in: try entries(KeyPostings.bucket(key)))
    }

    func remove(_ key: UInt64, contact: Int64) throws(StoreError) {
      let b = KeyPostings.bucket(key)
      var e = try entries(b)
      let r = KeyPostings.range(of: key, in: e)
      if let i = r.firstIndex(where: { $0.contact == contact }) {
        e.remove(at: i)
        buckets[b] = e
        dirty.insert(b)
      }
    }

    func insert(_ entry: KeyPostings.Entry) throws(StoreError) {
      let b = KeyPostings.bucket(entry.key)
      var e = try entries(b)
      var lo = 0, hi = e.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if e[mid] < entry { lo = mid + 1 } else { hi = mid }
      }
      if lo < e.count && e[lo] == entry { return }
      e.insert(entry, at: lo)
      buckets[b] = e
      dirty.insert(b)
    }

    /// Writes the changed buckets back.
    func flush() throws(StoreError) {
      let write = try store.db.prepare("INSERT OR REPLACE INTO block_keys(bucket, entries) VALUES(?, ?)")
      let drop = try store.db.prepare("DELETE FROM block_keys WHERE bucket = ?")
      for b in dirty.sorted() {
        let e = buckets[b] ?? []
        if e.isEmpty {
          drop.bind(1, b)
          try drop.run()
        } else {
          write.bind(1, b)
          write.bind(2, bytes: KeyPostings.encode(e), blob: true)
          try write.run()
        }
      }
      dirty.removeAll()
    }
  }
}
