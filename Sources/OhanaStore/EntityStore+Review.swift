import OhanaCore
import OhanaDedupe
import OhanaIO

/// The clusters of a store as the review page shows them (`ohana review
/// --store`).
public struct StoreReview: Sendable {
  /// The contacts of every cluster of two or more (or of those the last
  /// run changed), cluster after cluster, each cluster's in id (age) order.
  public var table: ContactTable
  /// For every row of ``table``, its cluster's id.
  public var clusterIDs: [Int64]
  /// The pairs within each cluster that score at or above the store's
  /// threshold, with their evidence (rows of ``table``). The store keeps
  /// no pairs: they are scored again from the comparison records, with
  /// the store's model, as a later run scores them. A cluster held
  /// together by a reviewer's `same` decision may have none.
  public var pairs: [MatchedPair]
  public var model: FellegiSunterModel
  /// The clusters the last run made or changed; nil when the last run was
  /// the first (it made them all).
  public var changedByLastRun: Set<Int64>?
}

extension EntityStore {
  /// The key under which a run leaves the clusters it made or changed.
  static let lastRunChangedKey = "last_run_changed"

  /// The clusters the last run made or changed (nil: the first run, all).
  public func lastRunChanged() throws(StoreError) -> Set<Int64>? {
    guard let text = try meta(Self.lastRunChangedKey), text != "all" else { return nil }
    return Set(text.split(separator: ",").compactMap { Int64($0) })
  }

  /// The store's clusters of two or more for the review page, or with
  /// `changedOnly` those the last run made or changed.
  public func review(changedOnly: Bool = false) throws(StoreError) -> StoreReview {
    let changed = try lastRunChanged()
    let q = try db.prepare("SELECT id, members FROM clusters WHERE size > 1 ORDER BY id")
    var clusterOfRow: [Int64] = []
    var ids: [Int64] = []
    var members: [Int64] = []
    while try q.step() {
      let id = q.int64(0)
      if changedOnly, let changed, !changed.contains(id) { continue }
      members.removeAll(keepingCapacity: true)
      let ok = q.withBytes(1) { Self.parseMembers($0, into: &members) }
      guard ok else { throw StoreError("a cluster's members cannot be read: the store is damaged") }
      for m in members.sorted() {
        ids.append(m)
        clusterOfRow.append(id)
      }
    }
    let read = try db.prepare("SELECT c.vcard, r.record FROM contacts c JOIN records r ON r.id = c.id WHERE c.id = ?")
    var cards: [[UInt8]] = []
    var records = Cards()
    for id in ids {
      read.bind(1, id)
      guard try read.step() else { throw StoreError("stored contact \(id) is missing: the store is damaged") }
      cards.append(read.bytes(0))
      records.append(read.bytes(1))
      read.reset()
    }
    let table = try Self.table(of: cards)
    let scorer = LinkScorer(keys: try keys(ofRecords: records), model: model)
    var pairs: [MatchedPair] = []
    var start = 0
    while start < ids.count {
      var end = start
      while end < ids.count && clusterOfRow[end] == clusterOfRow[start] { end += 1 }
      for a in start..<end {
        for b in (a + 1)..<end {
          // nil: its phones and e-mails alone keep it below the threshold.
          if let s = scorer.score(a, b), s.weight >= configuration.threshold(for: model) {
            pairs.append(scorer.matchedPair(a, b, weight: s.weight, vector: s.vector))
          }
        }
      }
      start = end
    }
    return StoreReview(table: table, clusterIDs: clusterOfRow, pairs: pairs, model: model, changedByLastRun: changed)
  }
}
