import OhanaCore
import OhanaDedupe
import OhanaIO

extension EntityStore {
  /// Stored contacts read back for a run: ids, clusters and comparison
  /// records (end to end), in the order read.
  struct Loaded {
    var ids: [Int64] = []
    var clusters: [Int64] = []
    var records = Cards()

    mutating func append(_ id: Int64, cluster: Int64, record q: SQLiteStatement, column: Int32) {
      ids.append(id)
      clusters.append(cluster)
      q.appendBytes(column, to: &records.bytes)
      records.ends.append(records.bytes.count)
    }

    /// The same contacts in id order, with room for `extra` more bytes of
    /// records after them.
    func sorted(reserving extra: Int = 0) -> Loaded {
      let order = ids.indices.sorted { ids[$0] < ids[$1] }
      var out = Loaded()
      out.ids.reserveCapacity(ids.count)
      out.clusters.reserveCapacity(ids.count)
      out.records.bytes.reserveCapacity(records.bytes.count + extra)
      out.records.ends.reserveCapacity(ids.count + extra / 64)
      for i in order {
        out.ids.append(ids[i])
        out.clusters.append(clusters[i])
        out.records.append(records.card(i))
      }
      return out
    }
  }

  /// Whether sorted `ids` hold `id` (a binary search).
  static func sortedContains(_ ids: [Int64], _ id: Int64) -> Bool {
    var lo = 0, hi = ids.count
    while lo < hi {
      let m = (lo + hi) / 2
      if ids[m] < id { lo = m + 1 } else { hi = m }
    }
    return lo < ids.count && ids[lo] == id
  }

  /// Reads contacts `ids` (their clusters and comparison records) into `out`.
  func load(_ ids: [Int64], into out: inout Loaded) throws(StoreError) {
    let q = try db.prepare("SELECT cluster, record FROM records WHERE id = ?")
    for id in ids.sorted() {
      q.bind(1, id)
      if try q.step() { out.append(id, cluster: q.int64(0), record: q, column: 1) }
      q.reset()
    }
  }
}

/// A batch linked into a store that holds contacts: every run after the
/// first. Its contacts are blocked and scored against the stored contacts
/// met through their keys and name order (with those contacts' whole
/// clusters) and against each other, never the stored contacts among
/// themselves; the components of the accepted pairs keep, merge or split
/// the stored clusters' ids, and only the changed clusters are merged again.
///
/// One method per stage, run in order by ``link(_:into:source:removing:decisions:)``;
/// each ends with its lap in ``StoreRun/timings`` under the stage's name
/// (`updates`, `lookup keys`, ... `store clusters`). What a stage leaves
/// for later ones is a stored property; what only the next one reads is
/// handed to it. Rows: the stored contacts read back (`0..<base`, in id
/// order), then the batch's new and changed contacts (`base..<n`).
struct IncrementalRun {
  typealias Cards = EntityStore.Cards
  typealias Loaded = EntityStore.Loaded
  typealias Accepted = (pair: UInt64, weight: Double, vector: ComparisonVector)

  private let store: EntityStore
  private let config: DedupeConfiguration
  private let model: FellegiSunterModel
  private let source: String
  /// The store's key entries and name order as this run reads and changes them.
  private let cache: EntityStore.BucketCache
  private let names: EntityStore.NameOrderLog
  /// A stored contact's uid, cluster, text and record, by id.
  private let byID: SQLiteStatement
  /// What the run did, and the time of each stage.
  private var run = StoreRun()
  private var stages = StageClock()

  // The batch (`updates`).
  /// The kept decisions: every one, and those new in this run.
  private var decided: (all: [DedupeDecision], new: [DedupeDecision]) = ([], [])
  /// The batch's new and changed contacts as they are stored (vCard 4.0,
  /// read back), their text end to end, their inputs and uids.
  private var batch = ContactTable()
  private var newBytes: [UInt8] = []
  private var newEnds: [Int] = []
  private var newSources: [String?] = []  // each new contact's input, in a read of several
  private var uids: [String?] = []
  private var newCount = 0
  /// Each new contact's stored version (an update), or nil.
  private var previous: [(id: Int64, cluster: Int64)?] = []
  private var updatedIDs = Set<Int64>()
  private var removedIDs: [(id: Int64, cluster: Int64, uid: String)] = []
  /// The stored clusters that lose a contact (an update or removal).
  private var affected = Set<Int64>()
  private var contactsDeleted = 0, clustersDeleted = 0

  // Decisions (`lookup clusters`).
  /// Stored clusters clustered again because a decision names their contacts.
  private var opened = Set<Int64>()
  /// The stored contacts the kept decisions name, by uid.
  private var namedStored: [String: (id: Int64, cluster: Int64)] = [:]

  // The rows (`lookup clusters`, `lookup load`, `keys`, `scoring`).
  /// The stored contacts read back, in the order read.
  private var loaded = Loaded()
  /// The batch's comparison records.
  private var newRecords = Cards()
  /// The stored contacts read back, in id order (their records moved out by `keys`).
  private var stored = Loaded()
  private var base = 0, n = 0
  /// Each row's stored cluster (0: none) and contact id.
  private var prevCluster: [Int64] = []
  private var age: [Int64] = []
  private var newIDs: [Int64] = []
  private var nextContact: Int64 = 0
  private var firstNewContact: Int64 = 0
  /// The rows the kept decisions name, and what they ask of them.
  private var rowUIDs: [Int: String] = [:]
  private var constraints = DecisionConstraints()

  // Components (`clustering`, `ids`).
  private var joined: [MatchedPair] = []
  /// Each row's component, named by its first row.
  private var rep: [Int32] = []
  /// Per component: size, and its cluster id (0 until given).
  private var size: [Int32] = []
  private var finalID: [Int64] = []
  private var nextCluster: Int64 = 1
  private var firstNewCluster: Int64 = 1
  /// The ids of the clusters made or changed.
  private var changed = Set<Int64>()
  /// Stored clusters merged into another: (gone, kept).
  private var absorbedInto: [(Int64, Int64)] = []
  /// The stored clusters that keep a contact.
  private var survivingClaims = Set<Int64>()
  /// Evidence is written out once the store's writes are under way
  /// (``EvidenceJob``), while the other core merges.
  private var evidenceJobs: [EvidenceJob] = []
  private var evidenceOf: [Int: [MatchedPair]] = [:]
  /// Names in evidence of the stored rows of the joined pairs.
  private var storedNames: [Int: [UInt8]] = [:]
  private var clustersInserted = 0

  /// The changed clusters, as `store contacts` hands them to `store merge`:
  /// each one's merged row, id and size, its members, and their merged
  /// contacts being made on the other core.
  private struct ChangedClusters {
    var wanted: [(row: Int, id: Int64, size: Int)]
    var members: MemberLists
    var merged: BackgroundTask<Result<Cards, StoreError>>
  }

  /// Links `input` into `store` (in the caller's transaction): every stage, in order.
  static func link(
    _ input: ContactTable, into store: EntityStore, source: String, removing: [String], decisions: [DedupeDecision]
  ) throws(StoreError) -> StoreRun {
    var r = try IncrementalRun(store: store, input: input, source: source, removing: removing, decisions: decisions)
    let (newKeys, candidates) = try r.lookupKeys()
    let more = try r.lookupClusters(candidates)
    try r.lookupLoad(more, newKeys: newKeys)
    let (keys, all) = try r.comparisonKeys()
    var pairs = r.blocking(keys)
    let (scorer, accepted) = try r.scoring(keys, records: all, pairs: &pairs)
    r.clustering(scorer, accepted)
    try r.giveIDs()
    let changedClusters = try r.storeContacts(keys)
    try r.storeKeys()
    try r.storeAliases()
    try r.storeMerge(changedClusters)
    try r.storeClusters()
    return r.run
  }

  /// Adds the time since the last lap to stage `name`.
  private mutating func lap(_ name: String) { stages.lap(name, &run.timings) }

  /// Begins the run: its row in `runs`, then stage `updates`.
  ///
  /// The batch as it will be stored: vCard 4.0, read back, so that its
  /// comparison records, its merged contacts and what a rebuild of the
  /// store computes from the stored text all come from the same contacts.
  /// Encoded and read back on the other core while this one reads the key
  /// logs and looks up the batch's uids (a row left out as unchanged is
  /// then dropped from both).
  private init(
    store: EntityStore, input: ContactTable, source: String, removing: [String], decisions: [DedupeDecision]
  ) throws(StoreError) {
    self.store = store
    config = store.configuration
    model = store.model
    self.source = source
    run.id = try store.beginRun(source: source)
    let (keep, repeated) = EntityStore.lastOfEachUID(input)
    run.repeatedInInput = repeated
    let kept = repeated == 0 ? input : input.gathering(rows: keep.map { UInt32($0) })
    let prepared = BackgroundTask { () -> Result<(Cards, ContactTable), StoreError> in
      let encoded = EntityStore.encode(kept, rows: Array(0..<kept.rowCount), threads: 1)
      do throws(StoreError) {
        return .success((encoded, try EntityStore.table(of: [], extra: encoded.bytes, extraCount: kept.rowCount)))
      } catch {
        return .failure(error)
      }
    }
    cache = try EntityStore.BucketCache(store)
    names = try EntityStore.NameOrderLog(store)
    byID = try store.db.prepare(
      "SELECT c.uid, c.cluster, c.vcard, r.record FROM contacts c JOIN records r ON r.id = c.id WHERE c.id = ?")
    try updates(kept, encoding: prepared, removing: removing, decisions: decisions)
  }

  /// The stored contact with uid `uid`, if any. Updates (a stored uid) and
  /// removals: a uid's postings (from `batch`, the batch's uids looked up
  /// at once, else from the cache) name the contacts that may hold it;
  /// their own uid decides.
  private func storedContact(
    _ uid: String, in batch: Postings? = nil
  ) throws(StoreError) -> (id: Int64, cluster: Int64, card: [UInt8], record: [UInt8])? {
    let want = Array(uid.utf8)
    let posting = EntityStore.uidPosting(uid)
    let holders: ArraySlice<KeyPostings.Entry>
    if let batch { holders = batch.members(posting) } else { holders = try cache.members(posting)[...] }
    for m in holders {
      byID.bind(1, m.contact)
      defer { byID.reset() }
      if try byID.step(), byID.bytes(0) == want { return (m.contact, byID.int64(1), byID.bytes(2), byID.bytes(3)) }
    }
    return nil
  }

  /// Stage `updates`: the batch's contacts against the stored ones (new,
  /// changed or unchanged), the removals, and the old versions' and
  /// removed contacts' keys and rows taken out.
  private mutating func updates(
    _ kept: ContactTable, encoding prepared: BackgroundTask<Result<(Cards, ContactTable), StoreError>>,
    removing: [String], decisions: [DedupeDecision]
  ) throws(StoreError) {
    // The batch's uids looked up in one ordered pass over the buckets.
    var inputUIDs = [String?](repeating: nil, count: kept.rowCount)
    for r in 0..<kept.rowCount where kept.hasUID(at: r) { inputUIDs[r] = kept.uid(at: r) }
    let uidPostings = try cache.lookup(inputUIDs.compactMap { $0.map { EntityStore.uidPosting($0) } })
    let batchUIDs = Set(inputUIDs.compactMap { $0 })
    decided = try store.keepDecisions(decisions, run: &run) { batchUIDs.contains($0) }
    // A contact stored with the very same text is unchanged: it is left
    // out of the run (a daily full export links only what changed).
    var previous: [(id: Int64, cluster: Int64)?] = []
    var unchangedIDs = Set<Int64>()
    var oldRecords: [Int64: (record: [UInt8], uid: String)] = [:]  // of updated and removed contacts
    var newBytes: [UInt8] = []
    var newEnds: [Int] = []
    var newSources: [String?] = []
    var keptRows: [UInt32] = []  // rows of `kept` stored in this run
    let (encoded, readBack) = try prepared.wait().get()
    for r in 0..<kept.rowCount {
      let card = encoded.card(r)
      var before: (id: Int64, cluster: Int64)? = nil
      if let u = inputUIDs[r], let s = try storedContact(u, in: uidPostings) {
        if s.card.elementsEqual(card) {
          run.unchanged += 1
          unchangedIDs.insert(s.id)
          continue
        }
        before = (s.id, s.cluster)
        oldRecords[s.id] = (s.record, u)
      }
      previous.append(before)
      keptRows.append(UInt32(r))
      newSources.append(kept.string(.sourceProvider, at: r))
      newBytes.append(contentsOf: card)
      newEnds.append(newBytes.count)
    }
    let newCount = newEnds.count
    let batch = newCount == kept.rowCount ? readBack : readBack.gathering(rows: keptRows)
    uids = (0..<newCount).map { batch.uid(at: $0) }
    (self.previous, self.newBytes, self.newEnds, self.newSources) = (previous, newBytes, newEnds, newSources)
    (self.newCount, self.batch) = (newCount, batch)
    var removedIDs: [(id: Int64, cluster: Int64, uid: String)] = []
    var removingSet = Set<String>()
    for u in removing where !removingSet.contains(u) {
      removingSet.insert(u)
      if let s = try storedContact(u) {
        removedIDs.append((s.id, s.cluster, u))
        oldRecords[s.id] = (s.record, u)
      } else {
        run.removeNotFound += 1
      }
    }
    // A uid both removed and in the batch: the batch's version wins (an
    // update, or nothing when it is unchanged).
    let updatedIDs = Set(previous.compactMap { $0?.id })
    removedIDs.removeAll { updatedIDs.contains($0.id) || unchangedIDs.contains($0.id) }
    for p in previous { if let p { affected.insert(p.cluster) } }
    for r in removedIDs { affected.insert(r.cluster) }
    (self.updatedIDs, self.removedIDs) = (updatedIDs, removedIDs)

    // Old versions and removed contacts leave the key tables: the keys
    // their records give are the keys that were stored.
    let goneIDs = Array(updatedIDs) + removedIDs.map(\.id)
    if !goneIDs.isEmpty {
      var gone = Cards()
      for id in goneIDs { gone.append(oldRecords[id]?.record ?? []) }
      try store.deleteKeys(
        try store.keys(ofRecords: gone), ids: goneIDs, uids: goneIDs.map { oldRecords[$0]?.uid }, cache: cache, names: names)
      let del = try store.db.prepare("DELETE FROM contacts WHERE id = ?")
      let delRecord = try store.db.prepare("DELETE FROM records WHERE id = ?")
      for r in removedIDs {
        del.bind(1, r.id)
        try del.run()
        contactsDeleted += store.db.changes
        delRecord.bind(1, r.id)
        try delRecord.run()
      }
    }
    lap("updates")
  }

  /// Stage `lookup keys`: the stored contacts (ids, sorted) that share a
  /// block with a new one (the full run's cap: a block larger than it
  /// pairs only on the neighbourhood key), or are near one in name order;
  /// and the batch's keys.
  ///
  /// A stored contact met through a block is read back only if the pair
  /// can reach the threshold as far as phones and e-mails go: whether it
  /// shares one is known from the phone and e-mail blocks themselves,
  /// whether it has any from its class (the scorer's own early exit,
  /// taken before the read).
  private mutating func lookupKeys() throws(StoreError) -> (newKeys: LinkKeys, candidates: [Int64]) {
    let cap = max(2, config.maxBlockSize)
    let unfolded = try store.recallFolds(batch)
    let newKeys = LinkKeys(table: batch, configuration: config)
    try store.keepFolds(unfolded)
    let skip = LinkRuleSkip(model: model, threshold: config.threshold(for: model))
    let exact = config.blockOnPhones && config.blockOnEmails
    var keysOf = [[(key: UInt64, kind: BlockingKey)]](repeating: [], count: newCount)
    var newInBlock: [UInt64: Int] = [:]
    newKeys.forEachBlockingKey(0..<newCount) { r, k, kind in
      if keysOf[r].last?.key != k { keysOf[r].append((k, kind)) }
    }
    for r in 0..<newCount { for k in Set(keysOf[r].map(\.key)) { newInBlock[k, default: 0] += 1 } }
    var candidates: [Int64] = []
    // A stored contact met by a row: its class, what met it (a phone or
    // e-mail block, a block that is not a typo-tolerant rule's, a capped
    // block's neighbourhood) and the order met in (the first meeting gives
    // the class).
    struct Met {
      var contact: Int64
      var order: Int32
      var cls: UInt8
      var how: UInt8
      static let phone: UInt8 = 1, email: UInt8 = 2, notRule: UInt8 = 4, always: UInt8 = 8
    }
    // The stored members of every block key of the batch in one pass over
    // the buckets; then the neighbourhood keys of rows met in a capped block.
    // A block with `cap` stored members is past the cap whatever the batch adds.
    let postings = try cache.lookup(keysOf.flatMap { $0.map(\.key) }, all: cap - 1)
    var capped: [UInt64] = []
    var neighbourhood = [UInt64](repeating: 0, count: newCount)
    for r in 0..<newCount {
      for (key, _) in keysOf[r] {
        let count = postings.count(key)
        if count > 0 && count + (newInBlock[key] ?? 1) > cap {
          let nb = newKeys.neighbourhoodKey(r)
          if nb != 0 {
            neighbourhood[r] = EntityStore.neighbourhoodPosting(nb)
            capped.append(neighbourhood[r])
          }
          break
        }
      }
    }
    let nearby = try cache.lookup(capped, all: LinkKeys.cappedNeighbours, first: LinkKeys.cappedNeighbours)
    // Rows in name order, so that the name-order reads go through the
    // table in order. A row's meetings are listed, then sorted by contact
    // and folded (one array reused for every row: no hashing).
    let nameKeys = (0..<newCount).map { newKeys.sortedNameKey($0) }
    let byName = (0..<newCount).sorted { (nameKeys[$0] ?? 0, $0) < (nameKeys[$1] ?? 0, $1) }
    var met: [Met] = []
    for r in byName {
      met.removeAll(keepingCapacity: true)
      for (key, kind) in keysOf[r] {
        let count = postings.count(key)
        if count == 0 || count + (newInBlock[key] ?? 1) > cap { continue }
        var how: UInt8 = key & 1 == 0 ? Met.notRule : 0
        if kind == .phone { how |= Met.phone }
        if kind == .email { how |= Met.email }
        for m in postings.members(key) { met.append(Met(contact: m.contact, order: Int32(met.count), cls: m.cls, how: how)) }
      }
      if neighbourhood[r] != 0 {
        for m in nearby.members(neighbourhood[r]).prefix(LinkKeys.cappedNeighbours) {
          met.append(Met(contact: m.contact, order: Int32(met.count), cls: m.cls, how: Met.always))
        }
      }
      if let k = nameKeys[r] {
        for (id, cls) in try names.neighbours(of: k, count: LinkKeys.sortedNameNeighbours) {
          met.append(Met(contact: id, order: Int32(met.count), cls: cls, how: 0))
        }
      }
      met.sort { ($0.contact, $0.order) < ($1.contact, $1.order) }
      let mine = newKeys.contactClass(r)
      var i = 0
      while i < met.count {
        let id = met[i].contact, cls = met[i].cls
        var how: UInt8 = 0
        while i < met.count && met[i].contact == id {
          how |= met[i].how
          i += 1
        }
        if how & Met.always != 0 || !exact {
          candidates.append(id)
          continue
        }
        let p = mine & 1 == 0 || cls & 1 == 0 ? 0 : (how & Met.phone != 0 ? 1 : 2)
        // Not met on an address: none shared, or only a mailbox (the
        // bound's level 2 counts both).
        let e = mine & 2 == 0 || cls & 2 == 0 ? 0 : (how & Met.email != 0 ? 1 : 2)
        if skip.cannotReach(phone: p, email: e) { continue }
        if how & Met.notRule == 0 && skip.skips(mine, Int(cls)) { continue }
        candidates.append(id)
      }
    }
    candidates.sortUnique()
    lap("lookup keys")
    return (newKeys, candidates)
  }

  /// Stage `lookup clusters`: the candidates' records read, and the stored
  /// clusters to read whole; returns the ids of their other members.
  ///
  /// Whole clusters: those of the candidates and the affected ones (whose
  /// other members are compared again: an update or removal can split them).
  /// The candidates' records in id order, then their clusters' members in
  /// cluster id order (both passes go through their table in order, where
  /// one join of the two would go through `clusters` at random).
  private mutating func lookupClusters(_ candidates: [Int64]) throws(StoreError) -> [Int64] {
    run.storedCandidates = candidates.count
    let recordOf = try store.db.prepare("SELECT cluster, record FROM records WHERE id = ?")
    var loaded = Loaded()
    // Room for 128 bytes a record (more is grown into).
    loaded.records.bytes.reserveCapacity(candidates.count * 128)
    var clustersMet = affected
    for id in candidates where !updatedIDs.contains(id) {
      recordOf.bind(1, id)
      if try recordOf.step() {
        let c = recordOf.int64(0)
        loaded.append(id, cluster: c, record: recordOf, column: 1)
        clustersMet.insert(c)
      }
      recordOf.reset()
    }
    self.loaded = loaded
    // A reviewer's decisions. The stored clusters that hold contacts a
    // `different` decision names, met by this batch or named by a new
    // decision, are clustered again (their rows not united beforehand,
    // their pairs found by blocking), with every stored cluster that a
    // `different` decision links to them, so that the cut falls where a
    // full run puts it: joins strongest first, refused where a decision
    // keeps two contacts apart. A new `same` decision's clusters are met,
    // and united by it.
    var opened = Set<Int64>()
    var decisionClusters = Set<Int64>()  // read whole, even a contact alone
    var namedStored: [String: (id: Int64, cluster: Int64)] = [:]
    if !decided.all.isEmpty {
      var named = Set<String>()
      for d in decided.all {
        named.formUnion(d.uids)
        named.formUnion(d.from)
      }
      for u in named.sorted() { if let s = try storedContact(u) { namedStored[u] = (s.id, s.cluster) } }
      var linkedBy: [Int64: [Int]] = [:]  // a cluster: the `different` decisions naming a contact of it
      for (i, d) in decided.all.enumerated() where d.kind == .different {
        for u in Set(d.uids + d.from) { if let c = namedStored[u]?.cluster { linkedBy[c, default: []].append(i) } }
      }
      var seeds = Set(decided.new.flatMap { $0.uids + $0.from }.compactMap { namedStored[$0]?.cluster })
      clustersMet.formUnion(seeds)
      seeds.formUnion(clustersMet.filter { linkedBy[$0] != nil })
      var queue = seeds.filter { linkedBy[$0] != nil }.sorted()
      opened = Set(queue)
      while let c = queue.popLast() {
        for i in linkedBy[c] ?? [] {
          for u in decided.all[i].uids + decided.all[i].from {
            if let other = namedStored[u]?.cluster, !opened.contains(other) {
              opened.insert(other)
              queue.append(other)
            }
          }
        }
      }
      clustersMet.formUnion(opened)
      decisionClusters = seeds.union(opened)
      run.clustersReopened = opened.count
    }
    (self.opened, self.namedStored) = (opened, namedStored)
    // A cluster's row from the log when it has one there (the log's ids
    // read once: a 16th of the clusters at most), else from the base,
    // rather than through the view's join (a probe of the log's index per
    // cluster).
    let logged = try store.loggedClusterIDs()
    let baseMembers = try store.db.prepare("SELECT size, members FROM cluster_base WHERE id = ?")
    let logMembers = try store.db.prepare("SELECT size, members FROM cluster_log WHERE id = ?")
    var memberIDs: [Int64] = []
    for c in clustersMet.sorted() {
      let membersOf = EntityStore.sortedContains(logged, c) ? logMembers : baseMembers
      membersOf.bind(1, c)
      if try membersOf.step(), membersOf.int64(0) > 1 || affected.contains(c) || decisionClusters.contains(c) {
        let ok = membersOf.withBytes(1) { EntityStore.parseMembers($0, into: &memberIDs) }
        guard ok else { throw StoreError("a cluster's members cannot be read: the store is damaged") }
      }
      membersOf.reset()
    }
    var more: [Int64] = []
    for id in memberIDs where !updatedIDs.contains(id) && !EntityStore.sortedContains(candidates, id) { more.append(id) }
    lap("lookup clusters")
    return more
  }

  /// Stage `lookup load`: the clusters' other members read (`more`), every
  /// stored contact read back sorted by id (``stored``; ``loaded`` let go),
  /// and the batch's comparison records.
  private mutating func lookupLoad(_ more: [Int64], newKeys: LinkKeys) throws(StoreError) {
    try store.load(more, into: &loaded)
    // The batch's records are made now so that room is kept for them.
    let made = newKeys.comparisonRecords(0..<newCount)
    newRecords = Cards(bytes: made.bytes, ends: made.ends)
    stored = loaded.sorted(reserving: newRecords.bytes.count)
    loaded = Loaded()
    run.storedLoaded = stored.ids.count
    lap("lookup load")
  }

  /// Stage `keys`: the keys of the stored contacts (from their records),
  /// then the batch's (from the records it is stored with), in one buffer
  /// (the stored records moved into it, not copied), returned with them.
  private mutating func comparisonKeys() throws(StoreError) -> (keys: LinkKeys, records: Cards) {
    var all = Cards()
    swap(&all, &stored.records)
    all.append(contentsOf: newRecords)
    let keys = try store.keys(ofRecords: all)
    base = stored.ids.count
    n = keys.count
    lap("keys")
    return (keys, all)
  }

  /// Stage `blocking`: the candidate pairs that involve a row of the batch.
  private mutating func blocking(_ keys: LinkKeys) -> [UInt64] {
    let pairs = keys.candidatePairs(model: model, involvingRowsFrom: base)
    lap("blocking")
    return pairs
  }

  /// Stage `scoring`: the rows' stored clusters and contact ids, the pairs
  /// the decisions and the affected clusters add to `pairs`, and the pairs
  /// that reach the threshold, strongest first.
  private mutating func scoring(
    _ keys: LinkKeys, records all: Cards, pairs: inout [UInt64]
  ) throws(StoreError) -> (scorer: LinkScorer, accepted: [Accepted]) {
    try numberRows()
    try addDecisionPairs(records: all, to: &pairs)
    addAffectedPairs(to: &pairs)
    pairs.sortUnique()
    run.pairsCompared = pairs.count

    let scorer = LinkScorer(keys: keys, model: model)
    let threshold = config.threshold(for: model)
    var accepted: [Accepted] = []
    for p in pairs {
      guard let s = scorer.score(Int(p >> 32), Int(p & 0xFFFF_FFFF)), s.weight >= threshold else { continue }
      accepted.append((p, s.weight, s.vector))
    }
    run.pairsAccepted = accepted.count
    accepted.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.pair < $1.pair }
    lap("scoring")
    return (scorer, accepted)
  }

  /// Each row's stored cluster and contact id: a stored contact's own; an
  /// updated contact keeps its id, a new one gets the next.
  private mutating func numberRows() throws(StoreError) {
    var prevCluster = [Int64](repeating: 0, count: n)
    var age = [Int64](repeating: 0, count: n)
    for i in 0..<base {
      prevCluster[i] = stored.clusters[i]
      age[i] = stored.ids[i]
    }
    var nextContact: Int64
    if let text = try store.meta("next_contact"), let v = Int64(text) { nextContact = v } else {
      nextContact = try store.scalar("SELECT max(id) FROM contacts") + 1
    }
    firstNewContact = nextContact
    var newIDs = [Int64](repeating: 0, count: newCount)
    for r in 0..<newCount {
      if let p = previous[r] {
        newIDs[r] = p.id
        prevCluster[base + r] = p.cluster
      } else {
        newIDs[r] = nextContact
        nextContact += 1
      }
      age[base + r] = newIDs[r]
    }
    (self.prevCluster, self.age, self.newIDs, self.nextContact) = (prevCluster, age, newIDs, nextContact)
  }

  /// The decisions over this run's rows (a decision's contacts that are
  /// not among them are left out of it here), and the pairs that blocking
  /// finds among the rows of the reopened clusters.
  private mutating func addDecisionPairs(records all: Cards, to pairs: inout [UInt64]) throws(StoreError) {
    guard !decided.all.isEmpty else { return }
    var rowUIDs: [Int: String] = [:]
    var uidOfID: [Int64: String] = [:]
    for (u, s) in namedStored { uidOfID[s.id] = u }
    let named = Set(decided.all.flatMap { $0.uids + $0.from })
    for r in 0..<n {
      if r < base {
        if let u = uidOfID[age[r]] { rowUIDs[r] = u }
      } else if let u = uids[r - base], named.contains(u) {
        rowUIDs[r] = u
      }
    }
    constraints = DecisionConstraints(decided.all, rowCount: n, partial: true) { rowUIDs[$0] }
    self.rowUIDs = rowUIDs
    let openedRows = (0..<n).filter { prevCluster[$0] != 0 && opened.contains(prevCluster[$0]) }
    if openedRows.count > 1 {
      var sub = Cards()
      for r in openedRows { sub.append(all.card(r)) }
      let subKeys = try store.keys(ofRecords: sub)
      for p in subKeys.candidatePairs(model: model, involvingRowsFrom: 0) {
        pairs.append(UInt64(openedRows[Int(p >> 32)]) << 32 | UInt64(openedRows[Int(p & 0xFFFF_FFFF)]))
      }
    }
  }

  /// Rows of affected clusters (survivors and new versions) are compared
  /// among themselves again.
  private func addAffectedPairs(to pairs: inout [UInt64]) {
    var affectedRows: [Int64: [Int]] = [:]
    for r in 0..<n where prevCluster[r] != 0 && affected.contains(prevCluster[r]) {
      affectedRows[prevCluster[r], default: []].append(r)
    }
    for rows in affectedRows.values where rows.count > 1 {
      for i in 0..<(rows.count - 1) {
        for j in (i + 1)..<rows.count { pairs.append(UInt64(rows[i]) << 32 | UInt64(rows[j])) }
      }
    }
  }

  /// Stage `clustering`: the stored clusters that nothing reopens or
  /// affects united as they are, the `same` decisions' rows united, then
  /// the accepted pairs joined strongest first (where the guard and the
  /// decisions allow); each row's component.
  private mutating func clustering(_ scorer: LinkScorer, _ accepted: [Accepted]) {
    var clustering = LinkClustering(count: n, configuration: config)
    var firstOfCluster: [Int64: Int] = [:]
    for r in 0..<base where !affected.contains(prevCluster[r]) && !opened.contains(prevCluster[r]) {
      if let f = firstOfCluster[prevCluster[r]] { clustering.unite(f, r) } else { firstOfCluster[prevCluster[r]] = r }
    }
    for (a, b) in constraints.unions { clustering.unite(a, b) }
    var joined: [MatchedPair] = []
    for e in accepted {
      let a = Int(e.pair >> 32), b = Int(e.pair & 0xFFFF_FFFF)
      var byDecision = false
      let ok =
        constraints.isEmpty
        ? clustering.join(a, b, scorer: scorer)
        : clustering.join(a, b, scorer: scorer, decisions: constraints, refusedByDecision: &byDecision)
      if ok {
        joined.append(scorer.matchedPair(a, b, weight: e.weight, vector: e.vector))
      } else if byDecision {
        run.pairsRefusedByDecision += 1
      } else {
        run.pairsRefusedByGuard += 1
      }
    }
    self.joined = joined
    rep = clustering.clusterIDs()
    lap("clustering")
  }

  /// Stage `ids`: each component's cluster id, and the changes.
  ///
  /// A component holding the oldest remaining contact of a stored cluster
  /// claims that cluster's id; of several claims the oldest id stays (ids
  /// grow with time, so the smallest) and the others become its aliases; a
  /// component without a claim gets a new id.
  private mutating func giveIDs() throws(StoreError) {
    try readEvidenceNames()
    let (storedClusters, claim, moreClaims) = claims()
    let touched = componentSizes()
    let decisionsOfRow = try numberComponents(claim: claim, moreClaims: moreClaims, touched: touched)
    listChanges(storedClusters: storedClusters, decisionsOfRow: decisionsOfRow)
    lap("ids")
  }

  /// Names in evidence: uids (`contact-N` without one); stored contacts'
  /// read for the rows of the pairs that joined.
  private mutating func readEvidenceNames() throws(StoreError) {
    var storedNames: [Int: [UInt8]] = [:]
    let uidOf = try store.db.prepare("SELECT uid FROM contacts WHERE id = ?")
    for p in joined {
      for r in [p.first, p.second] where r < base && storedNames[r] == nil {
        uidOf.bind(1, age[r])
        storedNames[r] = try uidOf.step() && !uidOf.isNull(0) ? uidOf.bytes(0) : Array("contact-\(age[r])".utf8)
        uidOf.reset()
      }
    }
    self.storedNames = storedNames
  }

  /// The stored clusters met (densely numbered), and per component (by
  /// its first row) the stored cluster it claims (0: none) and any further
  /// claims (a bridge).
  private func claims() -> (storedClusters: [Int64], claim: [Int64], moreClaims: [Int: [Int64]]) {
    // The row of each stored cluster's oldest remaining contact.
    var slotOfCluster: [Int64: Int] = [:]
    slotOfCluster.reserveCapacity(base + newCount)
    var storedClusters: [Int64] = []
    var oldest: [Int] = []
    for r in 0..<n where prevCluster[r] != 0 {
      if let s = slotOfCluster[prevCluster[r]] {
        if age[r] < age[oldest[s]] { oldest[s] = r }
      } else {
        slotOfCluster[prevCluster[r]] = storedClusters.count
        storedClusters.append(prevCluster[r])
        oldest.append(r)
      }
    }
    var claim = [Int64](repeating: 0, count: n)
    var moreClaims: [Int: [Int64]] = [:]
    for (s, r) in oldest.enumerated() {
      let c = Int(rep[r])
      if claim[c] == 0 { claim[c] = storedClusters[s] } else { moreClaims[c, default: []].append(storedClusters[s]) }
    }
    return (storedClusters, claim, moreClaims)
  }

  /// Per component (indexed by its first row): its size, and whether it
  /// holds a new row or a row of an affected or reopened cluster (returned).
  private mutating func componentSizes() -> [Bool] {
    var size = [Int32](repeating: 0, count: n)
    var touchedC = [Bool](repeating: false, count: n)
    for r in 0..<n {
      let c = Int(rep[r])
      size[c] += 1
      if r >= base || (!affected.isEmpty && affected.contains(prevCluster[r]))
        || (!opened.isEmpty && opened.contains(prevCluster[r]))
      {
        touchedC[c] = true
      }
    }
    self.size = size
    return touchedC
  }

  /// Each component's cluster id, with the merges, splits and new
  /// clusters among the changes; returns the kept decisions naming each row.
  private mutating func numberComponents(
    claim: [Int64], moreClaims: [Int: [Int64]], touched touchedC: [Bool]
  ) throws(StoreError) -> [Int: [Int64]] {
    var nextCluster: Int64 = 1
    if let text = try store.meta("next_cluster"), let v = Int64(text) { nextCluster = v }
    firstNewCluster = nextCluster
    var finalID = [Int64](repeating: 0, count: n)  // by component; 0 until given
    var evidenceOf: [Int: [MatchedPair]] = [:]
    for p in joined { evidenceOf[Int(rep[p.first]), default: []].append(p) }
    // Rows of the components that claim no stored cluster (new or split
    // off): only they need their rows' earlier clusters.
    var unclaimedRows: [Int: [Int]] = [:]
    for r in 0..<n where claim[Int(rep[r])] == 0 { unclaimedRows[Int(rep[r]), default: []].append(r) }
    let decisionsOfRow = EntityStore.decisionsOfRows(decided.all, rows: rowUIDs)
    var decisionsOf: [Int: Set<Int64>] = [:]  // by component
    for (r, ids) in decisionsOfRow { decisionsOf[Int(rep[r]), default: []].formUnion(ids) }
    var changed = Set<Int64>()
    var absorbedInto: [(Int64, Int64)] = []
    var evidenceJobs: [EvidenceJob] = []
    for c in 0..<n where Int(rep[c]) == c {
      // A stored cluster that nothing touched keeps its id, unchanged.
      if !touchedC[c] && claim[c] != 0 && moreClaims[c] == nil {
        finalID[c] = claim[c]
        continue
      }
      let claimed = claim[c] == 0 ? [] : ([claim[c]] + (moreClaims[c] ?? [])).sorted()
      let id: Int64
      if let keepID = claimed.first {
        id = keepID
        for other in claimed.dropFirst() {
          absorbedInto.append((other, keepID))
          evidenceJobs.append(EvidenceJob(change: run.changes.count, component: c))
          run.changes.append(
            StoreChange(kind: .merged, cluster: keepID, other: other, decisions: (decisionsOf[c] ?? []).sorted()))
          run.clustersMerged += 1
        }
      } else {
        id = nextCluster
        nextCluster += 1
        let rows = unclaimedRows[c] ?? []
        let from = Set(rows.compactMap { prevCluster[$0] != 0 ? prevCluster[$0] : nil }).sorted()
        if let parent = from.first {
          evidenceJobs.append(EvidenceJob(change: run.changes.count, component: c))
          run.changes.append(
            StoreChange(kind: .split, cluster: parent, other: id, decisions: (decisionsOf[c] ?? []).sorted()))
          run.clustersSplit += 1
        } else if size[c] > 1 {
          evidenceJobs.append(EvidenceJob(change: run.changes.count, component: c))
          run.changes.append(StoreChange(kind: .created, cluster: id, decisions: (decisionsOf[c] ?? []).sorted()))
          run.clustersCreated += 1
        }
      }
      finalID[c] = id
      changed.insert(id)
    }
    (self.nextCluster, self.finalID, self.evidenceOf) = (nextCluster, finalID, evidenceOf)
    (self.changed, self.absorbedInto, self.evidenceJobs) = (changed, absorbedInto, evidenceJobs)
    return decisionsOfRow
  }

  /// The clusters whose every contact left, the removed contacts, then the
  /// batch's contacts (added or updated), among the changes.
  private mutating func listChanges(storedClusters: [Int64], decisionsOfRow: [Int: [Int64]]) {
    survivingClaims = Set(storedClusters)
    // In ascending cluster id: a set's order changes from process to
    // process (Swift seeds its hashing per process), the changes file's
    // must not.
    for c in affected.sorted() where !survivingClaims.contains(c) {
      run.changes.append(StoreChange(kind: .deleted, cluster: c))
      run.clustersDeleted += 1
    }
    for r in removedIDs {
      run.changes.append(StoreChange(kind: .removed, cluster: r.cluster, uid: r.uid))
    }
    run.removed = removedIDs.count
    for r in 0..<newCount {
      let row = base + r
      let c = Int(rep[row])
      let kind: StoreChange.Kind = previous[r] == nil ? .added : .updated
      if kind == .added { run.added += 1 } else { run.updated += 1 }
      if evidenceOf[c] != nil { evidenceJobs.append(EvidenceJob(change: run.changes.count, component: c, row: row)) }
      run.changes.append(StoreChange(kind: kind, cluster: finalID[c], uid: uids[r], decisions: decisionsOfRow[row] ?? []))
    }
  }

  /// Stage `store contacts`: stored contacts whose cluster changed, then
  /// the batch's contacts with their records and keys; the changed
  /// clusters' merge started on the other core.
  ///
  /// Merged contacts of the changed clusters: their rows gathered (whole
  /// components, in row order) and merged alone, not the whole table.
  private mutating func storeContacts(_ keys: LinkKeys) throws(StoreError) -> ChangedClusters {
    var changedRows: [UInt32] = []
    var wanted: [(row: Int, id: Int64, size: Int)] = []
    var subRow = [Int32](repeating: -1, count: n)
    var wantedOf = [Int32](repeating: -1, count: n)  // by component
    for r in 0..<n {
      let id = finalID[Int(rep[r])]
      guard id != 0, changed.contains(id) else { continue }
      subRow[r] = Int32(changedRows.count)
      // Merged rows follow the components' first rows in row order.
      if Int(rep[r]) == r {
        wantedOf[r] = Int32(wanted.count)
        wanted.append((wanted.count, id, Int(size[r])))
      }
      changedRows.append(UInt32(r))
    }
    // Each changed cluster's contact ids (`members`).
    let members = MemberLists(
      groups: wanted.count, group: changedRows.map { Int(wantedOf[Int(rep[Int($0)])]) }, ids: changedRows.map { age[Int($0)] })
    // Their stored contacts read back from their text, then the batch's
    // rows among them.
    let cardOf = try store.db.prepare("SELECT vcard, source FROM contacts WHERE id = ?")
    var subCards: [[UInt8]] = []
    var subSources: [String?] = []
    var subNew: [UInt32] = []
    for r in changedRows.map({ Int($0) }) {
      if r < base {
        cardOf.bind(1, age[r])
        guard try cardOf.step() else { throw StoreError("stored contact \(age[r]) is missing: the store is damaged") }
        subCards.append(cardOf.bytes(0))
        subSources.append(cardOf.text(1))
        cardOf.reset()
      } else {
        subNew.append(UInt32(r - base))
      }
    }
    let subClusterOf = changedRows.map { subRow[Int(rep[Int($0)])] }
    let subPairs = joined.compactMap { p -> MatchedPair? in
      guard subRow[p.first] >= 0 else { return nil }
      var q = p
      q.first = Int(subRow[p.first])
      q.second = Int(subRow[p.second])
      return q
    }
    // Merged, and encoded, on the other core while this one writes the
    // batch's rows and keys (one thread: this core is SQLite's).
    let result = DedupeResult.linked(clusterOf: subClusterOf, pairs: subPairs, model: model)
    var oneThread = config
    oneThread.threads = 1
    let mergeAlone = Deduplicator(configuration: oneThread, model: model)
    let wantedRows = wanted.map(\.row)
    let (storedCards, newRows, mergeConfig, batch) = (subCards, subNew, oneThread, self.batch)
    let (storedSources, label) = (subSources, source)
    let mergedLater = BackgroundTask { () -> Result<Cards, StoreError> in
      do throws(StoreError) {
        var sub = ContactTable.concatenate([try EntityStore.table(of: storedCards), batch.gathering(rows: newRows)])
        if mergeConfig.survivorship.readsSources {
          EntityStore.setSources(&sub, stored: storedSources, label: label)
        }
        let merged = mergeAlone.merge(sub, result, linkKeys: LinkKeys(table: sub, configuration: mergeConfig))
        return .success(EntityStore.encode(merged, rows: wantedRows, threads: 1))
      } catch {
        return .failure(error)
      }
    }
    let setCluster = try store.db.prepare("UPDATE contacts SET cluster = ? WHERE id = ?")
    let setRecordCluster = try store.db.prepare("UPDATE records SET cluster = ? WHERE id = ?")
    for r in 0..<base {
      let id = finalID[Int(rep[r])] != 0 ? finalID[Int(rep[r])] : prevCluster[r]
      if id != prevCluster[r] {
        for q in [setCluster, setRecordCluster] {
          q.bind(1, id)
          q.bind(2, age[r])
          try q.run()
        }
      }
    }
    try store.insertContacts(
      keys: keys, rows: base..<n, ids: newIDs, clusters: (0..<newCount).map { finalID[Int(rep[base + $0])] },
      cards: { [base = self.base, newBytes = self.newBytes, newEnds = self.newEnds] r in
        newBytes[(r == base ? 0 : newEnds[r - base - 1])..<newEnds[r - base]]
      },
      records: newRecords, uids: uids, sources: newSources, source: source, run: run.id, cache: cache, names: names,
      timings: &run.timings)
    lap("store contacts")
    return ChangedClusters(wanted: wanted, members: members, merged: mergedLater)
  }

  /// Stage `store keys`: the key buckets and log, and the name order.
  private mutating func storeKeys() throws(StoreError) {
    try cache.flush(run: run.id)
    try names.flush(run: run.id, fold: cache.compacted)
    run.keyLogCompacted = cache.compacted
    run.keyLogEntries = cache.logEntryCount
    lap("store keys")
  }

  /// Stage `store aliases`: a merged cluster's id becomes an alias of the
  /// id kept (its aliases with it), and its row goes, as do the rows of the
  /// clusters whose every contact left.
  private mutating func storeAliases() throws(StoreError) {
    let moveAliases = try store.db.prepare("UPDATE aliases SET cluster = ? WHERE cluster = ?")
    let addAlias = try store.db.prepare("INSERT OR REPLACE INTO aliases(alias, cluster, run) VALUES(?, ?, ?)")
    let dropCluster = try store.db.prepare("DELETE FROM cluster_base WHERE id = ?")
    let dropLogged = try store.db.prepare("DELETE FROM cluster_log WHERE id = ?")
    for (gone, keepID) in absorbedInto {
      moveAliases.bind(1, keepID)
      moveAliases.bind(2, gone)
      try moveAliases.run()
      addAlias.bind(1, gone)
      addAlias.bind(2, keepID)
      addAlias.bind(3, run.id)
      try addAlias.run()
      clustersDeleted += try store.deleteCluster(gone, base: dropCluster, log: dropLogged)
    }
    for c in affected where !survivingClaims.contains(c) {
      clustersDeleted += try store.deleteCluster(c, base: dropCluster, log: dropLogged)
    }
    lap("store aliases")
  }

  /// Stage `store merge`: the changes' evidence written while the other
  /// core finishes the merge, then the changed clusters' rows with their
  /// merged contacts (``StoreRun/changedVCards`` too).
  private mutating func storeMerge(_ changedClusters: ChangedClusters) throws(StoreError) {
    let (wanted, members) = (changedClusters.wanted, changedClusters.members)
    let evidence = EvidenceJob.texts(evidenceJobs, pairs: evidenceOf) { r in
      if r >= base { return uids[r - base].map { Array($0.utf8) } ?? Array("contact-\(age[r])".utf8) }
      return storedNames[r] ?? Array("contact-\(age[r])".utf8)
    }
    for (job, text) in zip(evidenceJobs, evidence) { run.changes[job.change].evidence = text }
    let mergedCards = try changedClusters.merged.wait().get()
    clustersInserted = try store.storeClusters(
      wanted.indices.map { (wanted[$0].id, wanted[$0].size, members[$0]) },
      cards: mergedCards, run: run.id, firstNew: firstNewCluster)
    var changedVCards: [UInt8] = []
    changedVCards.reserveCapacity(mergedCards.bytes.count)
    for k in wanted.indices.sorted(by: { wanted[$0].id < wanted[$1].id }) {
      changedVCards.append(contentsOf: mergedCards.card(k))
    }
    run.changedVCards = changedVCards
    lap("store merge")
  }

  /// Stage `store clusters`: the next ids and the counts in `meta`, the
  /// cluster log folded when due, and the run's row finished.
  private mutating func storeClusters() throws(StoreError) {
    try store.setMeta("next_cluster", String(nextCluster))
    try store.setMeta("next_contact", String(nextContact))
    try store.updateCounts(
      contacts: Int(nextContact - firstNewContact) - contactsDeleted, clusters: clustersInserted - clustersDeleted)
    // Folded with the key log (that run rewrites the buckets anyway: one
    // slow day rather than two), else past a 16th of the clusters.
    (run.clusterLogFolded, run.clusterLogRows) = try store.foldClusterLog(
      limit: store.clusterLogLimit ?? (run.keyLogCompacted ? 0 : nil))
    run.changedClusters = changed.sorted()
    try store.finishRun(run)
    lap("store clusters")
  }
}

/// A change's evidence, written as JSON apart from working out the changes:
/// the accepted pairs of component `component`, or only those of its row
/// `row` (a contact's own change).
struct EvidenceJob: Sendable {
  var change: Int
  var component: Int
  var row = -1

  /// The evidence of each job, in order (a component's written once).
  static func texts(_ jobs: [EvidenceJob], pairs: [Int: [MatchedPair]], name: (Int) -> [UInt8]) -> [String] {
    var whole: [Int: String] = [:]
    return jobs.map { job in
      let all = pairs[job.component] ?? []
      if job.row < 0 {
        if let text = whole[job.component] { return text }
        let text = EntityStore.evidenceJSON(all, name: name, source: nil)
        whole[job.component] = text
        return text
      }
      return EntityStore.evidenceJSON(all.filter { $0.first == job.row || $0.second == job.row }, name: name, source: nil)
    }
  }
}
