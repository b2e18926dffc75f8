import OhanaCore
import OhanaDedupe

extension EntityStore {
  /// Makes the store's index again from its contacts' text (in the
  /// caller's transaction): every contact's comparison record, the key
  /// buckets with the uid postings, and the name order (the key log
  /// emptied). Brings a store of schema version 2 (no records; uids through
  /// an SQL index) or made with keys or records of another version to this
  /// ohana's, once.
  func rebuildIndex() throws(StoreError) {
    try db.execute("DROP INDEX IF EXISTS contacts_uid; CREATE TABLE IF NOT EXISTS \(Self.recordTable); DELETE FROM records")

    var ids: [Int64] = []
    var uids: [String?] = []
    var clusters: [Int64] = []
    var cards: [[UInt8]] = []
    let all = try db.prepare("SELECT id, uid, cluster, vcard FROM contacts ORDER BY id")
    while try all.step() {
      ids.append(all.int64(0))
      uids.append(all.text(1))
      clusters.append(all.int64(2))
      cards.append(all.bytes(3))
    }
    let n = ids.count
    let table = try Self.table(of: cards)
    cards = []
    let keys = LinkKeys(table: table, configuration: configuration)
    let records = keys.comparisonRecords(0..<n)
    try insertRecords(ids: ids, clusters: clusters, records: Cards(bytes: records.bytes, ends: records.ends).card)

    try db.execute(
      "DELETE FROM block_keys; DELETE FROM block_key_log; DELETE FROM name_order; "
        + "CREATE TABLE IF NOT EXISTS \(Self.nameLogTable); DELETE FROM name_order_log")
    let addBucket = try db.prepare("INSERT INTO block_keys(bucket, entries) VALUES(?, ?)")
    var entryCount = 0
    for (b, blob) in Self.bucketBlobs(keys, rows: 0..<n, ids: ids, uids: Self.uidPostings(uids), bits: bucketBits) {
      addBucket.bind(1, b)
      addBucket.bind(2, bytes: blob, blob: true)
      try addBucket.run()
      entryCount += blob.count / KeyPostings.entrySize
    }
    try insertNameOrder(Self.nameOrderEntries(keys, rows: 0..<n, ids: ids))
    try db.execute("CREATE TABLE IF NOT EXISTS \(Self.foldTable); DELETE FROM name_folds")
    try keepFolds(LinkKeys.nonASCIINameTexts(table))
    try setMeta("key_entries", String(entryCount))
    try setMeta("keys_version", String(LinkKeys.version))
    try setMeta("record_version", String(LinkKeys.recordVersion))
  }
}
