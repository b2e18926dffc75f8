extension ContactTable {
  /// Checks that every column has the right length, offsets are monotone and
  /// in range, and every id is below the pool's count. Compiled in with
  /// OHANA_INTERNAL_CHECKS (debug builds); a no-op otherwise.
  public func checkInvariants() {
    #if OHANA_INTERNAL_CHECKS
    let n = rowCount
    pool.checkInvariants()
    for c in attributes { precondition(c.count == n, "attribute column length") }
    precondition(sourceLine.count == n, "sourceLine length")
    uuids.checkInvariants(rows: n)
    let uidColumn = attributes[ContactAttribute.uid.rawValue]
    for r in 0..<uuids.rowCount where uuids.form(at: r) != .none {
      precondition(uidColumn[r].isAbsent, "uid both in uuids and in the string column")
    }
    precondition(fieldOffsets.count == n + 1 && addressOffsets.count == n + 1 && extraOffsets.count == n + 1, "offsets length")
    func monotone(_ o: [UInt32], _ total: Int, _ what: String) {
      precondition(o.first == 0 && Int(o.last ?? 0) == total, "\(what) offsets ends")
      for i in 1..<o.count { precondition(o[i - 1] <= o[i], "\(what) offsets not monotone") }
    }
    monotone(fieldOffsets, fields.count, "field")
    precondition(fieldKinds == Self.kindMasks(offsets: fieldOffsets, kinds: fields.kind), "fieldKinds out of date")
    monotone(addressOffsets, addresses.count, "address")
    monotone(extraOffsets, extras.count, "extra")
    let limit = UInt32(pool.count)
    func ids(_ c: StringColumn, _ what: String) {
      c.checkInvariants()
      for id in c { precondition(id.rawValue < limit, "\(what): id out of pool") }
    }
    for c in attributes { ids(c, "attribute") }
    ids(fields.label, "label"); ids(fields.value, "value"); ids(fields.group, "group"); ids(fields.parameters, "parameters")
    for c in addresses.columns { precondition(c.count == addresses.count, "address column length"); ids(c, "address") }
    ids(extras.name, "extra"); ids(extras.value, "extra")
    for p in photo { precondition(Int(p.rawValue) < blobs.count, "photo out of blob store") }
    for (_, c) in annotations.columns { precondition(c.count == n, "derived column length") }
    for (_, c) in fields.annotations.columns { precondition(c.count == fields.count, "field column length") }
    for (_, t) in annotations.tags { precondition(t.count == n, "tag length") }
    #endif
  }
}
