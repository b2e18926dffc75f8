extension ContactTable {
  /// A new table holding contacts `rows` of this one, in that order, with
  /// their fields, addresses, extra properties, derived columns and tags.
  /// The string pool and blob store are shared (no strings are copied).
  ///
  /// - Complexity: O(rows + their child rows).
  public func gathering(rows: [UInt32]) -> ContactTable {
    gathering(rows: rows, includeFields: true)
  }

  /// ``gathering(rows:)``, optionally without the fields (for a caller that
  /// puts its own fields in with ``replaceFields(with:offsets:)``). Every
  /// column is gathered by one job; the jobs run on all cores.
  package func gathering(rows: [UInt32], includeFields: Bool) -> ContactTable {
    let source = self
    let fieldRows = ResultSlots<(offsets: [UInt32], rows: [UInt32])>(count: 1)
    let addressRows = ResultSlots<(offsets: [UInt32], rows: [UInt32])>(count: 1)
    let extraRows = ResultSlots<(offsets: [UInt32], rows: [UInt32])>(count: 1)
    ColumnOps.run([
      { if includeFields { fieldRows.set(0, ColumnOps.childRows(source.fieldOffsets, rows)) } },
      { addressRows.set(0, ColumnOps.childRows(source.addressOffsets, rows)) },
      { extraRows.set(0, ColumnOps.childRows(source.extraOffsets, rows)) },
    ])
    let f = fieldRows.value(0) ?? (Array(repeating: 0, count: rows.count + 1), [])
    let a = addressRows.value(0) ?? (Array(repeating: 0, count: rows.count + 1), [])
    let x = extraRows.value(0) ?? (Array(repeating: 0, count: rows.count + 1), [])

    let attributes = (0..<source.attributes.count).map { _ in ResultSlots<StringColumn>(count: 1) }
    let photo = ResultSlots<[BlobID]>(count: 1), sourceLine = ResultSlots<[UInt32]>(count: 1), kinds = ResultSlots<[UInt8]>(count: 1)
    let uuids = ResultSlots<UUIDColumn>(count: 1)
    let annotations = ResultSlots<Annotations>(count: 1)
    let fields = ResultSlots<FieldTable>(count: 1), addresses = ResultSlots<AddressTable>(count: 1), extras = ResultSlots<ExtraTable>(count: 1)
    var jobs: [@Sendable () -> Void] = attributes.indices.map { i in
      { attributes[i].set(0, source.attributes[i].gathering(rows)) }
    }
    jobs += [
      { photo.set(0, ColumnOps.gather(source.photo, rows)) },
      { uuids.set(0, source.uuids.gathering(rows)) },
      { sourceLine.set(0, ColumnOps.gather(source.sourceLine, rows)) },
      { if includeFields { kinds.set(0, ColumnOps.gather(source.fieldKinds, rows)) } },
      { annotations.set(0, source.annotations.gathering(rows)) },
      { if includeFields { fields.set(0, source.fields.gathering(f.rows, parallel: false)) } },
      { addresses.set(0, source.addresses.gathering(a.rows, parallel: false)) },
      { extras.set(0, source.extras.gathering(x.rows, parallel: false)) },
    ]
    ColumnOps.run(jobs)

    var t = ContactTable(pool: pool)
    t.blobs = blobs
    t.attributes = attributes.map { $0.value(0) ?? StringColumn() }
    t.uuids = uuids.value(0) ?? UUIDColumn()
    t.photo = photo.value(0) ?? []
    t.sourceLine = sourceLine.value(0) ?? []
    t.annotations = annotations.value(0) ?? Annotations()
    t.addressOffsets = a.offsets
    t.addresses = addresses.value(0) ?? AddressTable()
    t.extraOffsets = x.offsets
    t.extras = extras.value(0) ?? ExtraTable()
    if includeFields {
      t.fieldOffsets = f.offsets
      t.fields = fields.value(0) ?? FieldTable()
      t.fieldKinds = kinds.value(0) ?? []
    } else {
      t.fieldOffsets = Array(repeating: 0, count: rows.count + 1)
      t.fieldKinds = Array(repeating: 0, count: rows.count)
    }
    t.checkInvariants()
    return t
  }

  /// One table holding the rows of every part in order, with one string
  /// pool (ids remapped) and one blob store. Derived columns and tags that
  /// only some parts have are kept, with no value on the other parts' rows;
  /// a column whose type differs between parts becomes text (integers in
  /// decimal, booleans `true` / `false`), so no value is dropped.
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
      result.uuids.append(part.uuids, otherRows: part.rowCount, after: base)
      for i in 0..<result.attributes.count {
        result.attributes[i].append(contentsOf: part.attributes[i], mappedBy: { remap[$0.index] })
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
      result.fieldKinds.append(contentsOf: part.fieldKinds)
      result.addressOffsets.append(contentsOf: part.addressOffsets.dropFirst().map { $0 + aBase })
      result.extraOffsets.append(contentsOf: part.extraOffsets.dropFirst().map { $0 + xBase })

      // Child string columns mapped straight into the result (a coded
      // column maps each of its values once).
      let m = { (id: StringID) in remap[id.index] }
      let pf = part.fields
      let fieldAnn = result.fields.annotations.appending(
        pf.annotations, count: result.fields.count, otherCount: pf.count, remap: remap, pool: &result.pool)
      result.fields.kind += pf.kind
      result.fields.label.append(contentsOf: pf.label, mappedBy: m)
      result.fields.value.append(contentsOf: pf.value, mappedBy: m)
      result.fields.group.append(contentsOf: pf.group, mappedBy: m)
      result.fields.parameters.append(contentsOf: pf.parameters, mappedBy: m)
      result.fields.annotations = fieldAnn

      let pa = part.addresses
      let addrAnn = result.addresses.annotations.appending(
        pa.annotations, count: result.addresses.count, otherCount: pa.count, remap: remap, pool: &result.pool)
      for i in 0..<result.addresses.columns.count { result.addresses.columns[i].append(contentsOf: pa.columns[i], mappedBy: m) }
      result.addresses.annotations = addrAnn

      let px = part.extras
      result.extras.name.append(contentsOf: px.name, mappedBy: m)
      result.extras.group.append(contentsOf: px.group, mappedBy: m)
      result.extras.parameters.append(contentsOf: px.parameters, mappedBy: m)
      result.extras.value.append(contentsOf: px.value, mappedBy: m)

      result.annotations = result.annotations.appending(
        part.annotations, count: base, otherCount: part.rowCount, remap: remap, pool: &result.pool)
    }
    result.checkInvariants()
    return result
  }
}
