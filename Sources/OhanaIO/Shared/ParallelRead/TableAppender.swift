import OhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends partial tables to one table that it owns, in place: string ids of
/// each part are remapped into the owned pool, child offsets rebased.
///
/// Same result as `ContactTable.concatenate`, but incremental, so the
/// reader can merge finished chunks while the next ones are parsed. Parts
/// with derived columns or tags (NDJSON input) are left to
/// `ContactTable.concatenate` instead (see `finish()`).
struct TableAppender {
  private var result: ContactTable?
  /// Parts kept aside because some part has annotations.
  private var deferred: [ContactTable] = []
  private var remap: [StringID] = []

  /// Appends `part`. With `strings`, the part's ids are provisional ids of
  /// that batch: the batch is interned straight into the owned pool.
  mutating func append(_ part: ContactTable, strings: StringBatch? = nil) {
    if let strings {
      // Into the owned table when there is one to append to, else into a
      // table of its own (the first part, or one kept aside below). A part
      // with derived columns or tags goes into a table of its own that
      // keeps them (appendColumns copies no annotations), to be merged by
      // `ContactTable.concatenate` like any annotated part.
      if Self.isAnnotated(part) {
        var own = ContactTable()
        Self.append(part, to: &own, strings: strings, remap: &remap)
        if own.rowCount > 0 { own.setAnnotations(of: part, remap: remap) }
        append(own)
        return
      }
      if deferred.isEmpty, var r = result {
        result = nil
        Self.append(part, to: &r, strings: strings, remap: &remap)
        result = r
      } else {
        var own = ContactTable()
        Self.append(part, to: &own, strings: strings, remap: &remap)
        append(own)
      }
      return
    }
    if !deferred.isEmpty || Self.isAnnotated(part) {
      if let r = result {
        deferred.append(r)
        result = nil
      }
      deferred.append(part)
      return
    }
    guard var r = result else {
      result = part
      return
    }
    result = nil  // r is now the only owner: appends happen in place
    Self.append(part, to: &r, remap: &remap)
    result = r
  }

  /// Reserves room in the owned table for `scale` times what it holds now
  /// (see `ContactTable.reserveCapacity`): called once, after the first
  /// part that has rows, with the input's size over that part's. Returns
  /// whether it reserved (not when there is no owned table yet).
  @discardableResult
  mutating func reserve(scale: Double) -> Bool {
    guard deferred.isEmpty, var r = result, r.rowCount > 0, scale > 1, scale.isFinite else { return false }
    result = nil
    func grown(_ n: Int) -> Int { Int((Double(n) * scale).rounded(.up)) }
    r.reserveCapacity(
      rows: grown(r.rowCount), fields: grown(r.fields.count), addresses: grown(r.addresses.count),
      extras: grown(r.extras.count), strings: grown(r.pool.count), bytes: grown(r.pool.arenaByteCount))
    result = r
    return true
  }

  /// Input bytes of the parts merged so far.
  private var mergedBytes = 0
  /// `(input bytes merged, distinct strings)` after each merged part.
  private var growth: [(bytes: Int, strings: Int)] = []
  /// Whether `prepareTable` has sized the table for the input once already.
  private var sizedForInput = false

  /// Records that the part just merged came from `byteCount` input bytes.
  mutating func noteMerged(bytes byteCount: Int) {
    mergedBytes += byteCount
    if let r = result, deferred.isEmpty { growth.append((mergedBytes, r.pool.count)) }
  }

  /// Before a part of `incoming` strings is merged: when the owned pool's
  /// hash table would have to grow for it and a tenth of the input or more
  /// is merged, sizes the table once for the whole input instead of growing
  /// it by half. Growing late in a read held the old and the new table at
  /// once, at the peak, and left the final table anywhere between half and
  /// three quarters full.
  ///
  /// The distinct strings of the whole input are extrapolated with Heaps'
  /// law, `strings = k * bytes^a`: `a` from the counts at half the bytes
  /// merged and now (between 0.5 and 1), plus 5%. (The plain ratio of
  /// strings per byte so far overestimates: new strings grow slower than
  /// bytes, as names and labels repeat.)
  /// When a prediction falls short and the table fills again, the next one
  /// is at least a quarter bigger, so a run of short predictions still
  /// grows the table geometrically.
  mutating func prepareTable(incoming: Int, totalBytes: Int) {
    guard deferred.isEmpty, var r = result, mergedBytes > 0, mergedBytes * 10 >= totalBytes,
      totalBytes > mergedBytes, !r.pool.tableFits(r.pool.count + incoming)
    else { return }
    result = nil
    let now = Double(r.pool.count)
    var exponent = 1.0
    if let half = growth.first(where: { $0.bytes * 2 >= mergedBytes }), half.bytes < mergedBytes, half.strings > 0 {
      let a = log(now / Double(half.strings)) / log(Double(mergedBytes) / Double(half.bytes))
      if a.isFinite { exponent = min(1, max(0.5, a)) }
    }
    let predicted = now * pow(Double(totalBytes) / Double(mergedBytes), exponent) * 1.05
    let ids = predicted < Double(Int32.max) ? Int(predicted) : Int(Int32.max)
    let floor = sizedForInput ? r.pool.tableSlotCount * 3 / 4 * 5 / 4 : 0
    r.pool.reserveTable(for: max(ids, r.pool.count + incoming, floor))
    sizedForInput = true
    result = r
  }

  private static func isAnnotated(_ part: ContactTable) -> Bool {
    !part.annotations.isEmpty || !part.fields.annotations.isEmpty || !part.addresses.annotations.isEmpty
  }

  mutating func finish() -> ContactTable {
    if !deferred.isEmpty { return ContactTable.concatenate(deferred) }
    var table = result ?? ContactTable()
    result = nil
    table.dropAppendIndexes()
    table.checkInvariants()
    return table
  }

  private static func append(_ part: ContactTable, to r: inout ContactTable, remap: inout [StringID]) {
    if part.rowCount == 0 { return }
    // The part's stored hashes are reused, not recomputed.
    r.pool.internAll(of: part.pool, into: &remap)
    appendColumns(part, to: &r, remap: remap)
  }

  private static func append(
    _ part: ContactTable, to r: inout ContactTable, strings: StringBatch, remap: inout [StringID]
  ) {
    if part.rowCount == 0 { return }
    r.pool.intern(strings, into: &remap)
    appendColumns(part, to: &r, remap: remap)
  }

  /// Appends `part`'s rows with every string id `i` replaced by `remap[i]`.
  private static func appendColumns(_ part: ContactTable, to r: inout ContactTable, remap: [StringID]) {
    // No reserve calls on the columns here: Array.reserveCapacity grows to
    // exactly what is asked, so reserving per part would copy the whole
    // table every time (StringPool.reserve grows geometrically).
    r.appendUUIDs(of: part)
    remap.withUnsafeBufferPointer { m in
      for i in 0..<r.attributes.count {
        Self.appendMapped(part.attributes[i], to: &r.attributes[i], m)
      }
      for b in part.photo {
        if b.isNone {
          r.photo.append(.none)
        } else {
          let t = part.blobs.mediaType(b).index
          let mt = t < m.count ? m[t] : .absent
          r.photo.append(part.blobs.withData(b) { r.blobs.append($0, mediaType: mt) })
        }
      }
      r.sourceLine.append(contentsOf: part.sourceLine)
      let fBase = UInt32(r.fields.count)
      let aBase = UInt32(r.addresses.count)
      let xBase = UInt32(r.extras.count)
      r.fieldOffsets.append(contentsOf: part.fieldOffsets.dropFirst().lazy.map { $0 + fBase })
      r.fieldKinds.append(contentsOf: part.fieldKinds)
      r.addressOffsets.append(contentsOf: part.addressOffsets.dropFirst().lazy.map { $0 + aBase })
      r.extraOffsets.append(contentsOf: part.extraOffsets.dropFirst().lazy.map { $0 + xBase })
      // Child tables column by column (no call per row).
      let f = part.fields
      r.fields.kind.append(contentsOf: f.kind)
      Self.appendMapped(f.label, to: &r.fields.label, m)
      Self.appendMapped(f.value, to: &r.fields.value, m)
      Self.appendMapped(f.group, to: &r.fields.group, m)
      Self.appendMapped(f.parameters, to: &r.fields.parameters, m)
      let a = part.addresses
      for c in 0..<min(a.columns.count, r.addresses.columns.count) {
        Self.appendMapped(a.columns[c], to: &r.addresses.columns[c], m)
      }
      let x = part.extras
      Self.appendMapped(x.name, to: &r.extras.name, m)
      Self.appendMapped(x.group, to: &r.extras.group, m)
      Self.appendMapped(x.parameters, to: &r.extras.parameters, m)
      Self.appendMapped(x.value, to: &r.extras.value, m)
    }
  }

  /// Appends `remap[id]` for every id of `src` to `dst` (each distinct
  /// value of a coded `src` is mapped once).
  private static func appendMapped(_ src: StringColumn, to dst: inout StringColumn, _ remap: UnsafeBufferPointer<StringID>) {
    dst.append(contentsOf: src) { id in id.index < remap.count ? remap[id.index] : .absent }
  }
}
