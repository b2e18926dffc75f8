extension ContactTable {
  /// A new table holding contacts `rows` of this one, in that order, with
  /// their fields, addresses, extra properties, derived columns and tags.
  /// The string pool and blob store are shared (no strings are copied).
  ///
  /// - Complexity: O(rows + their child rows).
  public func gathering(rows: [UInt32]) -> ContactTable {
    var t = ContactTable(pool: pool)
    t.blobs = blobs
    t.attributes = attributes.map { c in rows.map { c[Int($0)] } }
    t.photo = rows.map { photo[Int($0)] }
    t.sourceLine = rows.map { sourceLine[Int($0)] }
    t.annotations = annotations.gathering(rows)
    func child(_ offsets: [UInt32]) -> (offsets: [UInt32], rows: [UInt32]) {
      var o: [UInt32] = [0]
      o.reserveCapacity(rows.count + 1)
      var r: [UInt32] = []
      for row in rows {
        let s = offsets[Int(row)], e = offsets[Int(row) + 1]
        if s < e { r.append(contentsOf: s..<e) }
        o.append(UInt32(truncatingIfNeeded: r.count))
      }
      return (o, r)
    }
    let f = child(fieldOffsets)
    t.fieldOffsets = f.offsets
    t.fields = fields.gathering(f.rows)
    let a = child(addressOffsets)
    t.addressOffsets = a.offsets
    t.addresses = addresses.gathering(a.rows)
    let x = child(extraOffsets)
    t.extraOffsets = x.offsets
    t.extras = extras.gathering(x.rows)
    t.checkInvariants()
    return t
  }

  /// One table holding the rows of every part in order, with one string
  /// pool (ids remapped) and one blob store. Derived columns and tags that
  /// only some parts have are kept, with no value on the other parts' rows.
  ///
  /// - Complexity: O(total rows + total distinct strings per part).
  public static func concatenate(_ parts: [ContactTable]) -> ContactTable {
    guard var result = parts.first else { return ContactTable() }
    if parts.count == 1 { return result }
    result.rowsIdentity = newIdentity()
    for part in parts.dropFirst() {
      // Remap this part's string ids into the result's pool.
      var remap: [StringID] = []
      result.pool.internAll(of: part.pool, into: &remap)
      let base = result.rowCount
      for i in 0..<result.attributes.count {
        result.attributes[i].append(contentsOf: part.attributes[i].map { remap[$0.index] })
      }
      // Blobs: append part's blobs, remap photo ids.
      var blobMap = [BlobID](repeating: .none, count: part.blobs.count)
      for b in 1..<max(1, part.blobs.count) {
        let id = BlobID(rawValue: UInt32(b))
        let mt = remap[part.blobs.mediaType(id).index]
        blobMap[b] = part.blobs.withData(id) { result.blobs.append($0, mediaType: mt) }
      }
      result.photo.append(contentsOf: part.photo.map { blobMap[Int($0.rawValue)] })
      result.sourceLine.append(contentsOf: part.sourceLine)
      let fBase = UInt32(result.fields.count), aBase = UInt32(result.addresses.count), xBase = UInt32(result.extras.count)
      result.fieldOffsets.append(contentsOf: part.fieldOffsets.dropFirst().map { $0 + fBase })
      result.addressOffsets.append(contentsOf: part.addressOffsets.dropFirst().map { $0 + aBase })
      result.extraOffsets.append(contentsOf: part.extraOffsets.dropFirst().map { $0 + xBase })

      let pf = part.fields.remapped(remap)
      let fieldAnn = result.fields.annotations.appending(part.fields.annotations, count: result.fields.count, otherCount: pf.count, remap: remap)
      result.fields.kind += pf.kind; result.fields.label += pf.label; result.fields.value += pf.value
      result.fields.group += pf.group; result.fields.parameters += pf.parameters
      result.fields.annotations = fieldAnn

      let pa = part.addresses.remapped(remap)
      let addrAnn = result.addresses.annotations.appending(part.addresses.annotations, count: result.addresses.count, otherCount: pa.count, remap: remap)
      for i in 0..<result.addresses.columns.count { result.addresses.columns[i] += pa.columns[i] }
      result.addresses.annotations = addrAnn

      let px = part.extras.remapped(remap)
      result.extras.name += px.name; result.extras.group += px.group
      result.extras.parameters += px.parameters; result.extras.value += px.value

      result.annotations = result.annotations.appending(part.annotations, count: base, otherCount: part.rowCount, remap: remap)
    }
    result.checkInvariants()
    return result
  }
}
