import OhanaCore

extension Deduplicator {
  /// The derived column with every source uid of a merged contact, joined by `,`.
  public static let sourceUIDsColumn = "dedupe.sourceUIDs"
  /// The derived column saying why contacts were merged (absent for a contact alone).
  public static let reasonColumn = "dedupe.reason"
  /// The derived column naming the sources (inputs) of a merged contact's
  /// members, each once, in row order, joined by `,` (set when the input's
  /// contacts have sources: a read of several inputs).
  public static let sourcesColumn = "dedupe.sources"
  /// The derived column with the number of contacts merged into one.
  public static let mergedCountColumn = "dedupe.mergedCount"

  /// One contact per cluster of `result`, in the order of each cluster's first row.
  ///
  /// - the name comes from the member with the most complete name (most name
  ///   parts present, then the longest full name, then the first row); other
  ///   attributes from the most complete member, else the first member that
  ///   has them; ``DedupeConfiguration/survivorship`` sets other rules
  ///   (``Survivorship``);
  /// - fields are the union of the members' fields, a value whose normalized
  ///   form (phone key, e-mail address) was already taken being dropped: the
  ///   first raw form is kept;
  /// - addresses likewise (postcode + street, else all columns), and extra
  ///   properties by name and value;
  /// - ``sourceUIDsColumn`` lists every member's uid, ``reasonColumn`` the
  ///   evidence (shared keys, agreeing comparisons, the weakest link's weight),
  ///   ``sourcesColumn`` the members' sources (inputs) when they have them;
  ///   each field keeps its source (``FieldTable/sourceColumn``), and
  ///   each field and address of a cluster's contact names the member it
  ///   came from (``ValueOrigins``).
  ///
  /// The string pool and the blob store (photos) are shared with the input;
  /// derived columns of the input are not carried over. The clusters are
  /// planned in parallel (``MergePlan``) and the table is then gathered
  /// column by column.
  ///
  /// - Complexity: O(rows + fields + addresses + pairs).
  public func merge(_ table: ContactTable, _ result: DedupeResult) -> ContactTable {
    let keys = ContactKeys(table: table, configuration: configuration)
    return merge(table, result, keys: MergeKeys(keys))
  }

  /// ``merge(_:_:)`` with the keys already computed; without `provenance`,
  /// none of the derived columns (see ``deduplicate(_:provenance:)``).
  func merge(_ table: ContactTable, _ result: DedupeResult, keys: MergeKeys, provenance withProvenance: Bool = true)
    -> ContactTable
  {
    let clusterOf = result.clusterOf
    let (members, counts, representatives) = ClusterMembers.lists(clusterOf, threads: configuration.threads)
    PhaseTrace.mark("merge.members")

    // What each merged contact takes from which member, planned in
    // parallel over ranges of clusters, then laid end to end and gathered
    // column by column, while the provenance strings go into a copy of the
    // pool (the longer single task: the plans' side takes its laying out
    // and gathering into that time).
    let memberList = members, memberStarts = counts, reps = representatives
    let threads = configuration.threads
    // With provenance, each value of a merged contact says which member
    // it came from (ValueOrigins): the members' fields and addresses are
    // annotated first, and the merge carries the annotation along.
    let table = withProvenance ? ValueOrigins.annotated(table, clusterOf: clusterOf) : table
    let planAndGather: @Sendable () -> ContactTable = {
      let parts = Parallel.map(count: reps.count, threads: threads, minimumChunk: 8192) { range in
        MergePlan(table, keys: keys, representatives: reps[range], members: memberList, memberStarts: memberStarts)
      }
      PhaseTrace.mark("merge.planned")
      return Self.gather(table, parts, count: reps.count, threads: threads)
    }
    guard withProvenance else {
      var merged = planAndGather()
      merged.checkInvariants()
      if !configuration.survivorship.isDefault {
        configuration.survivorship.apply(to: &merged, input: table, result: result, provenance: false, threads: threads)
      }
      return merged
    }
    var (merged, provenance) = Parallel.both(threads: threads, planAndGather) {
      Provenance(table, result, representatives: reps, members: memberList, memberStarts: memberStarts)
    }
    PhaseTrace.mark("merge.plans")
    merged.pool = provenance.pool
    merged.checkInvariants()
    merged.setColumn(Self.sourceUIDsColumn, .string(provenance.sourceUIDs))
    merged.setColumn(Self.reasonColumn, .string(provenance.reasons))
    if let sources = provenance.sources { merged.setColumn(Self.sourcesColumn, .string(sources)) }
    merged.setColumn(
      Self.mergedCountColumn,
      .int(provenance.mergedCounts, valid: Bitmap(count: provenance.mergedCounts.count, allSet: true)))
    if !configuration.survivorship.isDefault {
      configuration.survivorship.apply(to: &merged, input: table, result: result, provenance: true, threads: threads)
    }
    return merged
  }

  /// The merged table of `parts` (plans of consecutive ranges of
  /// clusters, `count` in all) laid end to end: every column but the
  /// derived ones, with `table`'s pool (the caller sets the pool that holds
  /// the provenance strings) and blobs.
  private static func gather(_ table: ContactTable, _ planned: consuming [MergePlan], count: Int, threads: Int)
    -> ContactTable
  {
    // Every column laid out by a job of its own, on all workers: each
    // attribute column, the photos, the source lines, the UUIDs (laid,
    // then gathered), and the child tables (laid, then gathered column by
    // column, themselves on the workers). Each job owns its part of the
    // plans and frees it once laid out (peak memory: the plans' attribute
    // lists are 4 bytes a cell of every column).
    var plans = planned
    let attributeCount = ContactAttribute.allCases.count
    var columnParts: [Handoff<[[StringID]]>] = []
    for a in 0..<attributeCount {
      var parts: [[StringID]] = []
      parts.reserveCapacity(plans.count)
      for i in plans.indices {
        parts.append(plans[i].attributes[a])
        plans[i].attributes[a] = []
      }
      columnParts.append(Handoff(parts))
    }
    let photoParts = Handoff(plans.map(\.photo)), lineParts = Handoff(plans.map(\.sourceLine))
    let uidParts = Handoff(plans.map(\.uidRows))
    let childParts = Handoff(
      plans.map {
        (
          fieldRows: $0.fieldRows, fieldEnds: $0.fieldEnds, addressRows: $0.addressRows, addressEnds: $0.addressEnds,
          extraRows: $0.extraRows, extraEnds: $0.extraEnds
        )
      })
    plans = []
    @Sendable func laid<T>(_ handoff: Handoff<[[T]]>) -> [T] {
      var parts = handoff.take()
      var all: [T] = []
      all.reserveCapacity(count)
      for i in parts.indices {
        all.append(contentsOf: parts[i])
        parts[i] = []
      }
      return all
    }
    let attributes = ResultSlots<StringColumn>(count: attributeCount)
    let photo = ResultSlots<[BlobID]>(count: 1), sourceLine = ResultSlots<[UInt32]>(count: 1)
    let uuids = ResultSlots<UUIDColumn>(count: 1)
    let childTables = ResultSlots<ChildTables>(count: 1)
    // The longest jobs first.
    Parallel.forEach(4 + attributeCount, workers: threads) { job in
      switch job {
      case 0: childTables.set(0, Self.gatherChildren(table, childParts.take(), count: count))
      case 1: uuids.set(0, table.uuids.isEmpty ? UUIDColumn() : table.uuids.gathering(rows: laid(uidParts)))
      case 2: photo.set(0, laid(photoParts))
      case 3: sourceLine.set(0, laid(lineParts))
      default: attributes.set(job - 4, StringColumn(laid(columnParts[job - 4])))
      }
    }
    let own = (attributes: attributes.values(), photo: photo.take(0), sourceLine: sourceLine.take(0), uuids: uuids.take(0))
    let children = childTables.take(0)
    PhaseTrace.mark("merge.gathered")
    var merged = ContactTable(pool: table.pool)
    merged.blobs = table.blobs
    merged.attributes = own.attributes
    merged.photo = own.photo
    merged.uuids = own.uuids
    merged.sourceLine = own.sourceLine
    merged.replaceFields(with: children.fields, offsets: children.fieldOffsets)
    merged.addressOffsets = children.addressOffsets
    merged.addresses = children.addresses
    merged.extraOffsets = children.extraOffsets
    merged.extras = children.extras
    return merged
  }

  /// The merged table's child tables and their offsets.
  struct ChildTables: Sendable {
    var fields: FieldTable, fieldOffsets: [UInt32]
    var addresses: AddressTable, addressOffsets: [UInt32]
    var extras: ExtraTable, extraOffsets: [UInt32]
  }

  /// The child rows of `parts` laid end to end, then gathered (each table
  /// column by column on the workers).
  private static func gatherChildren(
    _ table: ContactTable,
    _ parts: consuming [(
      fieldRows: [UInt32], fieldEnds: [UInt32], addressRows: [UInt32], addressEnds: [UInt32], extraRows: [UInt32],
      extraEnds: [UInt32]
    )],
    count: Int
  ) -> ChildTables {
    var fieldRows: [UInt32] = [], addressRows: [UInt32] = [], extraRows: [UInt32] = []
    var fieldOffsets: [UInt32] = [0], addressOffsets: [UInt32] = [0], extraOffsets: [UInt32] = [0]
    fieldOffsets.reserveCapacity(count + 1)
    addressOffsets.reserveCapacity(count + 1)
    extraOffsets.reserveCapacity(count + 1)
    fieldRows.reserveCapacity(table.fields.count)
    addressRows.reserveCapacity(table.addresses.count)
    extraRows.reserveCapacity(table.extras.count)
    for p in parts {
      let fBase = UInt32(truncatingIfNeeded: fieldRows.count)
      let aBase = UInt32(truncatingIfNeeded: addressRows.count)
      let xBase = UInt32(truncatingIfNeeded: extraRows.count)
      fieldRows.append(contentsOf: p.fieldRows)
      addressRows.append(contentsOf: p.addressRows)
      extraRows.append(contentsOf: p.extraRows)
      for e in p.fieldEnds { fieldOffsets.append(fBase &+ e) }
      for e in p.addressEnds { addressOffsets.append(aBase &+ e) }
      for e in p.extraEnds { extraOffsets.append(xBase &+ e) }
    }
    parts = []  // Laid end to end: free them before gathering.
    var fields = table.fields.gathering(fieldRows)
    // Derived field columns are not carried over, but for each field's
    // source and each value's origin (ValueOrigins).
    let kept = [FieldTable.sourceColumn, ValueOrigins.column]
    let gathered = fields.annotations
    fields.annotations = Annotations()
    for name in kept { if let c = gathered[column: name] { fields.annotations.setColumn(name, c) } }
    var addresses = table.addresses.gathering(addressRows)
    let origins = addresses.annotations[column: ValueOrigins.column]
    addresses.annotations = Annotations()
    if let origins { addresses.annotations.setColumn(ValueOrigins.column, origins) }
    return ChildTables(
      fields: fields, fieldOffsets: fieldOffsets, addresses: addresses, addressOffsets: addressOffsets,
      extras: table.extras.gathering(extraRows), extraOffsets: extraOffsets)
  }

  /// `keys=phone,email; agree=given,family,phone; weight=7.42` (weight of
  /// the weakest accepted link in the cluster).
  static func reasonText(keys: UInt32, agree: UInt8, weight: Float, links: Int) -> String {
    var bytes = Array(reasonPrefix(keys: keys, agree: agree).utf8)
    appendWeight(weight, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The reason up to its weight: `keys=phone,email; agree=given,family,phone; weight=`.
  static func reasonPrefix(keys: UInt32, agree: UInt8) -> String {
    let k = BlockingKey.Set(rawValue: keys).description
    let a = Comparison.allCases.filter { agree & (1 << UInt8($0.rawValue)) != 0 }.map(\.description)
      .joined(separator: ",")
    return "keys=\(k.isEmpty ? "none" : k); agree=\(a.isEmpty ? "none" : a); weight="
  }

  /// Appends ``formatWeight(_:)``'s text of `weight` (`?` when not finite).
  static func appendWeight(_ weight: Float, to out: inout [UInt8]) {
    guard weight.isFinite else {
      out.append(0x3F)
      return
    }
    let scaled = (Double(weight) * 100).rounded()
    if scaled < 0 { out.append(0x2D) }
    let v = Int(abs(scaled))
    var whole = v / 100
    var digits: [UInt8] = []
    repeat {
      digits.append(0x30 + UInt8(whole % 10))
      whole /= 10
    } while whole > 0
    out.append(contentsOf: digits.reversed())
    out.append(0x2E)
    let frac = v % 100
    out.append(0x30 + UInt8(frac / 10))
    out.append(0x30 + UInt8(frac % 10))
  }

  /// A weight with two decimals (`7.42`, `-3.10`), for reasons and explanations.
  public static func formatWeight(_ w: Double) -> String {
    let scaled = (w * 100).rounded()
    let sign = scaled < 0 ? "-" : ""
    let v = Int(abs(scaled))
    let frac = v % 100
    return "\(sign)\(v / 100).\(frac < 10 ? "0" : "")\(frac)"
  }
}

/// The normalized keys already taken for one merged contact: a short array
/// scanned linearly (clusters are small), turning into a hash set past 32
/// keys so that a contact with thousands of fields stays linear.
struct SeenKeys {
  private var small: [UInt64] = []
  private var large: Set<UInt64> = []
  private var usesSet = false

  /// Inserts `key`; false when it was already there.
  mutating func insert(_ key: UInt64) -> Bool {
    if usesSet { return large.insert(key).inserted }
    if small.contains(key) { return false }
    small.append(key)
    if small.count > 32 {
      large = Set(small)
      usesSet = true
    }
    return true
  }

  func contains(_ key: UInt64) -> Bool {
    usesSet ? large.contains(key) : small.contains(key)
  }

  /// Inserts the phone key `k` (``KeyFunctions/phoneKey(_:region:regionKnown:)``)
  /// unless a phone taken before is the same number
  /// (``KeyFunctions/samePhone(_:_:)``): one with the same suffix when
  /// `k`'s calling code is unknown, else one with the same suffix and the
  /// same or an unknown calling code. False when one was.
  mutating func insertPhone(_ k: UInt64) -> Bool {
    let suffix = KeyFunctions.phoneSuffix(k)
    let any = Hash64.combine(suffix, 1 << 48)
    let unknown = Hash64.combine(suffix, 2 << 48)
    let exact = Hash64.combine(k, 3 << 48)
    let known = KeyFunctions.phoneCountry(k) != 0
    if known ? contains(exact) || contains(unknown) : contains(any) { return false }
    _ = insert(any)
    _ = insert(exact)
    if !known { _ = insert(unknown) }
    return true
  }

  mutating func removeAll() {
    small.removeAll(keepingCapacity: true)
    if usesSet {
      large.removeAll()
      usesSet = false
    }
  }
}

/// The provenance of every merged contact: its source uids, the reason of
/// a cluster, the number of contacts merged, with the new strings interned
/// into a copy of the input's pool (the merged table's pool).
struct Provenance: Sendable {
  var pool: StringPool
  var sourceUIDs: [StringID]
  var reasons: [StringID]
  var mergedCounts: [Int64]
  /// The members' sources per merged contact (nil when no contact has one).
  var sources: [StringID]?

  init(
    _ table: ContactTable, _ result: DedupeResult, representatives reps: [Int32], members: [Int32],
    memberStarts counts: [Int32]
  ) {
    let n = table.rowCount
    let clusterOf = result.clusterOf
    pool = table.pool
    // Evidence per cluster.
    var reasonKeys = [UInt32](repeating: 0, count: n)
    var agree = [UInt8](repeating: 0, count: n)
    var minWeight = [Float](repeating: .infinity, count: n)
    for p in result.pairs {
      let c = Int(clusterOf[p.first])
      reasonKeys[c] |= p.sharedKeys.rawValue
      var a: UInt8 = 0
      for comp in Comparison.allCases where p.vector[comp] == 1 { a |= 1 << UInt8(comp.rawValue) }
      agree[c] |= a
      minWeight[c] = min(minWeight[c], Float(p.weight))
    }
    // Provenance and reasons: a contact alone keeps its own uid (already
    // in the pool); a cluster gets its members' uids and the evidence.
    let uidColumn = table[.uid], uuids = table.uuids
    sourceUIDs = [StringID](repeating: .absent, count: reps.count)
    reasons = [StringID](repeating: .absent, count: reps.count)
    mergedCounts = [Int64](repeating: 1, count: reps.count)
    var uidBytes: [UInt8] = [], reasonBytes: [UInt8] = []
    // Contacts alone whose uid is a UUID: the texts end to end.
    var soloBytes: [UInt8] = [], soloOffsets: [Int] = [0], soloRows: [Int32] = []
    // The text before the weight, once per (keys, agree).
    var reasonPrefixes: [Int: [UInt8]] = [:]
    for (k, c32) in reps.enumerated() {
      let c = Int(c32)
      let group = members[Int(counts[c])..<Int(counts[c + 1])]
      mergedCounts[k] = Int64(group.count)
      if group.count == 1 {
        // A UUID uid is not in the pool (see ContactTable.uuids): its text
        // is interned below, with the others, in one bulk pass.
        if uuids.withText(at: c, { soloBytes.append(contentsOf: $0) }) != nil {
          soloOffsets.append(soloBytes.count)
          soloRows.append(Int32(k))
        } else {
          sourceUIDs[k] = uidColumn[c]
        }
        continue
      }
      uidBytes.removeAll(keepingCapacity: true)
      for m in group where table.hasUID(at: Int(m)) {
        if !uidBytes.isEmpty { uidBytes.append(0x2C) }
        table.withUID(at: Int(m)) { uidBytes.append(contentsOf: $0) }
      }
      sourceUIDs[k] = uidBytes.withUnsafeBytes { pool.intern($0) }
      let prefix = Int(reasonKeys[c]) << 8 | Int(agree[c])
      if reasonPrefixes[prefix] == nil {
        reasonPrefixes[prefix] = Array(Deduplicator.reasonPrefix(keys: reasonKeys[c], agree: agree[c]).utf8)
      }
      reasonBytes.removeAll(keepingCapacity: true)
      reasonBytes.append(contentsOf: reasonPrefixes[prefix] ?? [])
      Deduplicator.appendWeight(minWeight[c], to: &reasonBytes)
      reasons[k] = reasonBytes.withUnsafeBytes { pool.intern($0) }
    }
    // Sources: a contact alone keeps its own; a cluster lists its members'
    // distinct sources in row order.
    let sourceColumn = table[.sourceProvider]
    if (0..<n).contains(where: { sourceColumn[$0].isPresent }) {
      var out = [StringID](repeating: .absent, count: reps.count)
      var text: [UInt8] = []
      for (k, c32) in reps.enumerated() {
        let c = Int(c32)
        let group = members[Int(counts[c])..<Int(counts[c + 1])]
        var seen: [StringID] = []
        for m in group {
          let s = sourceColumn[Int(m)]
          if s.isPresent && !seen.contains(s) { seen.append(s) }
        }
        if seen.count <= 1 {
          out[k] = seen.first ?? .absent
        } else {
          text.removeAll(keepingCapacity: true)
          for (i, s) in seen.enumerated() {
            if i > 0 { text.append(0x2C) }
            pool.withBytes(of: s) { text.append(contentsOf: $0) }
          }
          out[k] = text.withUnsafeBytes { pool.intern($0) }
        }
        // The reason says which sources the cluster joins: `...; sources=google,apple`.
        if group.count > 1 && out[k].isPresent {
          text = pool.bytes(of: reasons[k]) + Array("; sources=".utf8) + pool.bytes(of: out[k])
          reasons[k] = text.withUnsafeBytes { pool.intern($0) }
        }
      }
      sources = out
    }
    if !soloRows.isEmpty {
      var ids: [StringID] = []
      soloBytes.withUnsafeBytes { buffer in
        soloOffsets.withUnsafeBufferPointer { pool.intern(contentsOf: buffer, offsets: $0, into: &ids) }
      }
      for (j, k) in soloRows.enumerated() { sourceUIDs[Int(k)] = ids[j] }
    }
  }
}

/// The keys the merge reads (the rest of ``ContactKeys`` can be freed first).
struct MergeKeys: Sendable {
  /// Per field row: its phone or e-mail key (0 = none).
  var fieldKeys: [UInt64]
  /// Per address row: postcode+street (or all columns) hash.
  var addressKeys: [UInt64]

  init(_ keys: ContactKeys) {
    fieldKeys = keys.fieldKeys
    addressKeys = keys.addressKeys
  }
}

/// The merge of a range of clusters (see ``Deduplicator/merge(_:_:)``):
/// per merged contact its attributes, photo and source line, and the rows
/// of the input's child tables it keeps (ends relative to this range).
struct MergePlan: Sendable {
  var attributes: [[StringID]]
  /// Per merged contact, the member whose uid it takes (its UUID, when
  /// the uid is one, is gathered from ``ContactTable/uuids`` by this row).
  var uidRows: [Int32] = []
  var photo: [BlobID] = []
  var sourceLine: [UInt32] = []
  var fieldRows: [UInt32] = []
  var fieldEnds: [UInt32] = []
  var addressRows: [UInt32] = []
  var addressEnds: [UInt32] = []
  var extraRows: [UInt32] = []
  var extraEnds: [UInt32] = []

  init(
    _ table: ContactTable, keys: MergeKeys, representatives: ArraySlice<Int32>, members: [Int32],
    memberStarts: [Int32]
  ) {
    let count = representatives.count
    attributes = table.attributes.map { _ in
      var c: [StringID] = []
      c.reserveCapacity(count)
      return c
    }
    photo.reserveCapacity(count)
    sourceLine.reserveCapacity(count)
    uidRows.reserveCapacity(count)
    fieldEnds.reserveCapacity(count)
    addressEnds.reserveCapacity(count)
    extraEnds.reserveCapacity(count)
    // The string columns through readers: a cell is a load, with no
    // reference counting (this loop reads a dozen cells per member).
    table.withStringReaders { r in plan(table, r, keys: keys, representatives: representatives, members: members, memberStarts: memberStarts) }
  }

  private mutating func plan(
    _ table: ContactTable, _ r: StringColumnReaders, keys: MergeKeys, representatives: ArraySlice<Int32>,
    members: [Int32], memberStarts: [Int32]
  ) {
    let columns = r.attributes
    var isNameAttr = [Bool](repeating: false, count: columns.count)
    for a in [ContactAttribute.fullName, .givenName, .familyName, .middleName, .prefix, .suffix] where a.rawValue < columns.count {
      isNameAttr[a.rawValue] = true
    }
    let fullName = ContactAttribute.fullName.rawValue
    let uid = ContactAttribute.uid.rawValue
    let uuids = table.uuids
    let fieldKinds = table.fields.kind, fieldValues = r.fields.value
    var seen = SeenKeys()
    var order: [Int32] = []
    for c32 in representatives {
      let c = Int(c32)
      let group = members[Int(memberStarts[c])..<Int(memberStarts[c + 1])]
      var best = c
      if group.count <= 1 {
        // A contact alone: its own attributes (its child rows below).
        for a in 0..<columns.count { attributes[a].append(columns[a][c]) }
        uidRows.append(Int32(c))
        photo.append(table.photo[c])
        sourceLine.append(table.sourceLine[c])
      } else {
        // The most complete member, and the most complete name.
        var nameBest = c
        var bestScore = -1, nameScore = (-1, -1)
        for m32 in group {
          let m = Int(m32)
          var s = table.fieldRange(of: m).count + table.addressRange(of: m).count
          var parts = 0
          if uuids.form(at: m) != .none { s += 1 }
          for a in 0..<columns.count where columns[a][m].isPresent {
            s += 1
            if isNameAttr[a] { parts += 1 }
          }
          if s > bestScore { best = m; bestScore = s }
          let ns = (parts, table.pool.length(of: columns[fullName][m]))
          if ns > nameScore { nameBest = m; nameScore = ns }
        }
        // The uid: the most complete member's, else the first member's that
        // has one, wherever it is stored (a UUID or a string).
        var uidRow = best
        if !(uuids.form(at: best) != .none || columns[uid][best].isPresent) {
          for m in group where uuids.form(at: Int(m)) != .none || columns[uid][Int(m)].isPresent {
            uidRow = Int(m)
            break
          }
        }
        uidRows.append(Int32(uidRow))
        for a in 0..<columns.count {
          if a == uid {
            attributes[a].append(columns[a][uidRow])
            continue
          }
          let isName = isNameAttr[a]
          var v = columns[a][isName ? nameBest : best]
          if v.isAbsent && !isName {
            for m in group where columns[a][Int(m)].isPresent { v = columns[a][Int(m)]; break }
          }
          attributes[a].append(v)
        }
        // Photo: the most complete member's, else the first.
        var p = table.photo[best]
        if p.isNone {
          for m in group where !table.photo[Int(m)].isNone { p = table.photo[Int(m)]; break }
        }
        photo.append(p)
        sourceLine.append(table.sourceLine[best])
      }
      // Fields, the most complete member first, then the others in row
      // order; a normalized value (phone key, e-mail) or raw value already
      // taken is dropped.
      order.removeAll(keepingCapacity: true)
      order.append(Int32(best))
      for m in group where Int(m) != best { order.append(m) }
      seen.removeAll()
      for m in order {
        for f in table.fieldRange(of: Int(m)) {
          let kind = fieldKinds[f]
          let k = keys.fieldKeys[f]
          if kind == .phone && k != 0 {
            if seen.insertPhone(k) { fieldRows.append(UInt32(truncatingIfNeeded: f)) }
            continue
          }
          let key = k != 0
            ? Hash64.combine(k, UInt64(kind.rawValue))
            : Hash64.combine(UInt64(fieldValues[f].rawValue) | 1 << 40, UInt64(kind.rawValue))
          if seen.insert(key) { fieldRows.append(UInt32(truncatingIfNeeded: f)) }
        }
      }
      seen.removeAll()
      for m in order {
        for a in table.addressRange(of: Int(m)) where seen.insert(keys.addressKeys[a]) {
          addressRows.append(UInt32(truncatingIfNeeded: a))
        }
      }
      seen.removeAll()
      for m in order {
        for x in table.extraRange(of: Int(m)) {
          let key = Hash64.combine(UInt64(r.extras.name[x].rawValue), UInt64(r.extras.value[x].rawValue))
          if seen.insert(key) { extraRows.append(UInt32(truncatingIfNeeded: x)) }
        }
      }
      fieldEnds.append(UInt32(truncatingIfNeeded: fieldRows.count))
      addressEnds.append(UInt32(truncatingIfNeeded: addressRows.count))
      extraEnds.append(UInt32(truncatingIfNeeded: extraRows.count))
    }
  }
}
