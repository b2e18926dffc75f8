/// Contact ids grouped by cluster (a counting sort): group `g`'s ids,
/// ascending, are `self[g]`. What `clusters.members` lists.
struct MemberLists {
  private var ids: [Int64]
  private var starts: [Int]

  /// `ids[i]` belongs to group `group[i]` (in `0..<groups`).
  init(groups: Int, group: [Int], ids unsorted: [Int64]) {
    starts = [Int](repeating: 0, count: groups + 1)
    for g in group { starts[g + 1] += 1 }
    for g in 0..<groups { starts[g + 1] += starts[g] }
    var fill = starts
    ids = [Int64](repeating: 0, count: unsorted.count)
    for (i, g) in group.enumerated() {
      ids[fill[g]] = unsorted[i]
      fill[g] += 1
    }
    for g in 0..<groups where starts[g + 1] - starts[g] > 1 { ids[starts[g]..<starts[g + 1]].sort() }
  }

  subscript(_ g: Int) -> ArraySlice<Int64> { ids[starts[g]..<starts[g + 1]] }
}

extension EntityStore {
  /// A cluster's members as `clusters.members` keeps them: the contact ids
  /// as a JSON array in ascending order (`[12,40,977]`), so that SQL reads
  /// them with `json_each` (README "Entity store").
  package static func membersText(_ sortedIDs: some Collection<Int64>) -> [UInt8] {
    var out: [UInt8] = [0x5B]
    out.reserveCapacity(sortedIDs.count * 8 + 2)
    var first = true
    for id in sortedIDs {
      if !first { out.append(0x2C) }
      first = false
      out.append(contentsOf: String(id).utf8)
    }
    out.append(0x5D)
    return out
  }

  /// Appends the ids of a `members` text to `out`; false (nothing appended)
  /// when it is not a JSON array of non-negative integers (spaces allowed,
  /// as a hand-made `UPDATE` may write them).
  package static func parseMembers(_ text: UnsafeRawBufferPointer, into out: inout [Int64]) -> Bool {
    let start = out.count
    var value: Int64 = 0
    var digits = 0
    var opened = false, closed = false, needValue = false
    for b in text {
      if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
        if digits > 0 {  // a value ends at a space; only , or ] may follow
          out.append(value)
          value = 0
          digits = 0
        }
        continue
      }
      if closed { return fail() }
      if !opened {
        guard b == 0x5B else { return fail() }
        opened = true
      } else if b >= 0x30 && b <= 0x39 {
        // A digit right after a value that a space ended is two values.
        guard digits < 18, digits > 0 || out.count == start || needValue else { return fail() }
        value = value * 10 + Int64(b - 0x30)
        digits += 1
        needValue = false
      } else if b == 0x2C {
        if digits > 0 {
          out.append(value)
          value = 0
          digits = 0
        } else if out.count == start || needValue {
          return fail()
        }
        needValue = true
      } else if b == 0x5D {
        if digits > 0 {
          out.append(value)
          digits = 0
        } else if needValue {
          return fail()
        }
        closed = true
      } else {
        return fail()
      }
    }
    return closed ? true : fail()

    func fail() -> Bool {
      out.removeSubrange(start...)
      return false
    }
  }

  /// Lists every cluster's members in `clusters.members` from the contacts'
  /// `cluster` column, and drops the index on it: brings a store of schema
  /// 2 or 3 to 4 (in the caller's transaction).
  func listMembers() throws(StoreError) {
    let columns = try db.prepare("SELECT name FROM pragma_table_info('clusters')")
    var hasMembers = false
    while try columns.step() { if columns.text(0) == "members" { hasMembers = true } }
    columns.reset()
    if !hasMembers { try db.execute("ALTER TABLE clusters ADD COLUMN members TEXT NOT NULL DEFAULT '[]'") }
    let all = try db.prepare("SELECT cluster, id FROM contacts ORDER BY cluster, id")
    let set = try db.prepare("UPDATE clusters SET members = ? WHERE id = ?")
    var cluster: Int64 = 0
    var ids: [Int64] = []
    func flush() throws(StoreError) {
      guard !ids.isEmpty else { return }
      set.bind(1, bytes: Self.membersText(ids))
      set.bind(2, cluster)
      try set.run()
      ids.removeAll(keepingCapacity: true)
    }
    while try all.step() {
      let c = all.int64(0)
      if c != cluster { try flush() }
      cluster = c
      ids.append(all.int64(1))
    }
    try flush()
    try db.execute("DROP INDEX IF EXISTS contacts_cluster")
  }
}
