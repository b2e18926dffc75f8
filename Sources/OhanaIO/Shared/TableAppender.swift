import OhanaCore

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

  mutating func append(_ part: ContactTable) {
    if !deferred.isEmpty || !part.annotations.isEmpty || !part.fields.annotations.isEmpty
      || !part.addresses.annotations.isEmpty
    {
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

  mutating func finish() -> ContactTable {
    if !deferred.isEmpty { return ContactTable.concatenate(deferred) }
    return result ?? ContactTable()
  }

  private static func append(_ part: ContactTable, to r: inout ContactTable, remap: inout [StringID]) {
    if part.rowCount == 0 { return }
    // No reserve calls on the columns here: Array.reserveCapacity grows to
    // exactly what is asked, so reserving per part would copy the whole
    // table every time (StringPool.reserve, used by internAll, grows
    // geometrically). The part's stored hashes are reused, not recomputed.
    r.pool.internAll(of: part.pool, into: &remap)
    for i in 0..<r.attributes.count {
      let src = part.attributes[i]
      for id in src { r.attributes[i].append(remap[id.index]) }
    }
    for b in part.photo {
      if b.isNone {
        r.photo.append(.none)
      } else {
        let mt = remap[part.blobs.mediaType(b).index]
        r.photo.append(part.blobs.withData(b) { r.blobs.append($0, mediaType: mt) })
      }
    }
    r.sourceLine.append(contentsOf: part.sourceLine)
    let fBase = UInt32(r.fields.count)
    let aBase = UInt32(r.addresses.count)
    let xBase = UInt32(r.extras.count)
    for o in part.fieldOffsets.dropFirst() { r.fieldOffsets.append(o + fBase) }
    for o in part.addressOffsets.dropFirst() { r.addressOffsets.append(o + aBase) }
    for o in part.extraOffsets.dropFirst() { r.extraOffsets.append(o + xBase) }
    let f = part.fields
    for i in 0..<f.count {
      r.fields.append(
        kind: f.kind[i], label: remap[f.label[i].index], value: remap[f.value[i].index],
        group: remap[f.group[i].index], parameters: remap[f.parameters[i].index])
    }
    let a = part.addresses
    var row = [StringID](repeating: .absent, count: a.columns.count)
    for i in 0..<a.count {
      for c in 0..<a.columns.count { row[c] = remap[a.columns[c][i].index] }
      r.addresses.append(row)
    }
    let x = part.extras
    for i in 0..<x.count {
      r.extras.append(
        name: remap[x.name[i].index], group: remap[x.group[i].index], parameters: remap[x.parameters[i].index],
        value: remap[x.value[i].index])
    }
  }
}
