import Testing
import _OhanaTestSupport

@testable import OhanaCore

/// `StringColumn` against a plain `[StringID]`: every operation gives the
/// same ids whatever encoding the column picked, and the encoding is the
/// small one its values allow.
@Suite struct StringColumnTests {
  /// Ids drawn from `distinct` values spread over ids below `limit` (about
  /// one in five absent).
  static func ids(_ n: Int, distinct: Int, limit: UInt32, seed: UInt64) -> [StringID] {
    var rng = SeededRandom(seed: seed)
    let step = max(1, limit / UInt32(max(1, distinct)))
    return (0..<n).map { _ in
      if rng.next() % 5 == 0 { return .absent }
      return StringID(rawValue: 1 + UInt32(rng.next() % UInt64(distinct)) * step % max(1, limit - 1))
    }
  }

  static func check(_ c: StringColumn, _ ref: [StringID], _ note: Comment? = nil) {
    c.checkInvariants()
    #expect(c.count == ref.count, note)
    #expect(Array(c) == ref, note)  // (no column in a failure message: they are long)
    c.withUnsafeReader { r in
      #expect(r.count == ref.count)
      #expect((0..<ref.count).allSatisfy { r[$0] == ref[$0] }, note)
    }
  }

  @Test func encodingFollowsTheValues() {
    #expect(StringColumn(repeating: .absent, count: 1000).bytesPerCell == 0)
    let few = Self.ids(5000, distinct: 40, limit: 3_000_000, seed: 1)
    let cFew = StringColumn(few)
    #expect(cFew.isDictionaryCoded && cFew.bytesPerCell == 1)
    Self.check(cFew, few)
    let some = Self.ids(20_000, distinct: 1000, limit: 3_000_000, seed: 2)
    let cSome = StringColumn(some)
    #expect(cSome.isDictionaryCoded && cSome.bytesPerCell == 2)
    Self.check(cSome, some)
    let many = (1...100_000).map { StringID(rawValue: UInt32($0) * 7) }
    let cMany = StringColumn(many)
    #expect(!cMany.isDictionaryCoded && cMany.bytesPerCell == 3)
    Self.check(cMany, many)
    // Small ids: plain is as small as coded, and needs no lookup.
    let small = (0..<500).map { StringID(rawValue: UInt32($0 % 200)) }
    let cSmall = StringColumn(small)
    #expect(!cSmall.isDictionaryCoded && cSmall.bytesPerCell == 1)
    Self.check(cSmall, small)
  }

  /// Appending one id at a time crosses every threshold: 0 -> 1 -> 2 byte
  /// codes, codes -> plain 3 bytes, 3 -> 4 bytes.
  @Test func appendsWidenTheEncoding() {
    var c = StringColumn()
    var ref: [StringID] = []
    func add(_ id: StringID) {
      c.append(id)
      ref.append(id)
    }
    for _ in 0..<10 { add(.absent) }
    #expect(c.bytesPerCell == 0)
    add(StringID(rawValue: 5_000_000))
    #expect(c.isDictionaryCoded && c.bytesPerCell == 1)
    for i in 0..<300 { add(StringID(rawValue: 1_000_000 + UInt32(i % 300))) }
    #expect(c.isDictionaryCoded && c.bytesPerCell == 2)
    Self.check(c, ref, "after two-byte codes")
    for i in 0..<70_000 { add(StringID(rawValue: 2_000_000 + UInt32(i))) }
    #expect(!c.isDictionaryCoded && c.bytesPerCell == 3)
    Self.check(c, ref, "after plain")
    add(StringID(rawValue: 1 << 24))
    #expect(c.bytesPerCell == 4)
    add(StringID(rawValue: .max))
    Self.check(c, ref, "after four bytes")
    // Truncate, then append again.
    c.truncate(to: 400)
    ref.removeSubrange(400...)
    c.truncate(to: 1000)  // past the end: no change
    add(StringID(rawValue: 9))
    Self.check(c, ref, "after truncate")
  }

  @Test(arguments: [(40, UInt32(1000)), (1000, 3_000_000), (80_000, 200_000)])
  func gatherAndMapMatchArrays(distinct: Int, limit: UInt32) {
    let ref = Self.ids(30_000, distinct: distinct, limit: limit, seed: UInt64(distinct))
    let c = StringColumn(ref)
    var rng = SeededRandom(seed: 9)
    let rows = (0..<5000).map { _ in UInt32(rng.next() % UInt64(ref.count)) }
    Self.check(c.gathering(rows), rows.map { ref[Int($0)] }, "gather")
    Self.check(c.gathering([]), [], "empty gather")
    // An injective map (a remap between pools), and one that is not.
    let map = (0..<Int(limit)).map { StringID(rawValue: UInt32($0) &* 3 &+ 1) }
    let m = { (id: StringID) in id.index < map.count ? map[id.index] : StringID.absent }
    let ref2 = ref.map { $0.isAbsent ? .absent : m($0) }
    var injective = map
    injective[0] = .absent
    Self.check(mapped(c, injective), ref2, "injective map")
    let folding = (0..<Int(limit)).map { StringID(rawValue: UInt32($0 % 7)) }
    Self.check(mapped(c, folding), ref.map { folding[$0.index] }, "folding map")
    Self.check(mapped(c, []), ref.map { _ in .absent }, "empty map")
  }

  /// Appending whole columns, mapped, into coded and plain columns.
  @Test func appendColumnsMapped() {
    var rng = SeededRandom(seed: 3)
    var c = StringColumn()
    var ref: [StringID] = []
    let shift = { (id: StringID) in id.isAbsent ? id : StringID(rawValue: id.rawValue &+ 11) }
    for round in 0..<12 {
      let distinct = [3, 200, 5000, 30_000][Int(rng.next() % 4)]
      let part = Self.ids(4000 + round * 1000, distinct: distinct, limit: 60_000_000, seed: UInt64(round))
      let src = round % 2 == 0 ? StringColumn(part) : StringColumn(Self.ids(0, distinct: 1, limit: 2, seed: 0)) + part
      c.append(contentsOf: src, mappedBy: shift)
      ref += part.map(shift)
      Self.check(c, ref, "round \(round)")
    }
    let distinct = Set(ref.filter(\.isPresent)).count
    #expect(c.isDictionaryCoded == (distinct <= 65_535))
  }

  /// The chunk builder's encoder (a direct map instead of hashing) gives
  /// the same ids and leaves its scratch map zero.
  @Test(arguments: [5, 300, 70_000]) func scratchEncoderMatches(distinct: Int) {
    let ref = Self.ids(100_000, distinct: distinct, limit: 90_000, seed: 4)
    var scratch: [UInt32] = []
    let raw = ref.map(\.rawValue)
    let c = raw.withUnsafeBufferPointer { r in
      StringColumn(count: r.count, ids: r.baseAddress!, idLimit: 90_000, scratch: &scratch)
    }
    // Every other id, through the stride.
    let odd = raw.withUnsafeBufferPointer { r in
      StringColumn(count: r.count / 2, ids: r.baseAddress! + 1, stride: 2, idLimit: 90_000, scratch: &scratch)
    }
    Self.check(odd, stride(from: 1, to: ref.count, by: 2).map { ref[$0] }, "strided")
    Self.check(c, ref)
    #expect(scratch.count == 90_000 && scratch.allSatisfy { $0 == 0 })
    // Ids up to 90,000 need 3 bytes plain, so fewer than 65,536 values code.
    let present = Set(ref.filter(\.isPresent)).count
    #expect(ref.contains { $0.rawValue > 65_535 })
    #expect(c.isDictionaryCoded == (present <= 65_535))
    #expect(c.bytesPerCell == (present <= 255 ? 1 : present <= 65_535 ? 2 : 3))
    var more = c
    more.append(StringID(rawValue: 12_345))
    Self.check(more, ref + [StringID(rawValue: 12_345)], "append after the scratch encoder")
  }

  /// The table's readers give every column's ids, column for column.
  @Test func tableReadersMatchColumns() {
    let t = RandomContacts.table(count: 2000, seed: 5)
    t.withStringReaders { r in
      func same(_ reader: StringColumn.UnsafeReader, _ column: StringColumn, _ what: String) {
        #expect(reader.count == column.count, "\(what)")
        #expect((0..<column.count).allSatisfy { reader[$0] == column[$0] }, "\(what)")
      }
      #expect(r.attributes.count == t.attributes.count && r.addresses.count == t.addresses.columns.count)
      for (k, c) in t.attributes.enumerated() { same(r.attributes[k], c, "attribute \(k)") }
      for (k, c) in t.addresses.columns.enumerated() { same(r.addresses[k], c, "address \(k)") }
      same(r.fields.label, t.fields.label, "label")
      same(r.fields.value, t.fields.value, "value")
      same(r.fields.group, t.fields.group, "group")
      same(r.fields.parameters, t.fields.parameters, "parameters")
      same(r.extras.name, t.extras.name, "extra name")
      same(r.extras.group, t.extras.group, "extra group")
      same(r.extras.parameters, t.extras.parameters, "extra parameters")
      same(r.extras.value, t.extras.value, "extra value")
    }
    #expect(t.fields.count > 1000 && t.addresses.count > 100)
  }

  @Test func equalityIgnoresTheEncoding() {
    let ids = (0..<300).map { StringID(rawValue: UInt32($0 % 3)) }
    var appended = StringColumn()
    for id in ids { appended.append(id) }
    let built = StringColumn(ids)
    #expect(appended == built)
    #expect(StringColumn(ids.map { StringID(rawValue: $0.rawValue * 1000) }) != built)
    #expect([StringID(rawValue: 1)] as StringColumn == StringColumn([StringID(rawValue: 1)]))
  }
}

/// `column` with every id `i` replaced by `map[i]` (absent past `map`),
/// through the mapped append the table's concatenation uses.
private func mapped(_ column: StringColumn, _ map: [StringID]) -> StringColumn {
  var out = StringColumn()
  out.append(contentsOf: column) { $0.index < map.count ? map[$0.index] : .absent }
  return out
}

extension StringColumn {
  /// `lhs` then `rhs`, appended one id at a time.
  fileprivate static func + (lhs: StringColumn, rhs: [StringID]) -> StringColumn {
    var c = lhs
    c.append(contentsOf: rhs)
    return c
  }
}
