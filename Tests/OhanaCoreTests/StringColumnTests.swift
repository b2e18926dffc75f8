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

  /// `c` holds the ids of `ref`, read every way: the subscript, a reader
  /// (ids, presence, stored values: 0 exactly for absent, one per id) and
  /// ``StringColumn/copyStored(_:into:)`` over ranges that start and end
  /// inside and at the ends of 64-row blocks.
  static func check(_ c: StringColumn, _ ref: [StringID], _ note: Comment? = nil) {
    c.checkInvariants()
    #expect(c.count == ref.count, note)
    #expect(c.presentCount == ref.count(where: \.isPresent), note)
    #expect(Array(c) == ref, note)  // (no column in a failure message: they are long)
    c.withUnsafeReader { r in
      #expect(r.count == ref.count)
      #expect((0..<ref.count).allSatisfy { r[$0] == ref[$0] }, note)
      var storedByID: [StringID: UInt32] = [:], idByStored: [UInt32: StringID] = [:]
      var consistent = true
      for i in 0..<ref.count {
        let s = r.stored(i)
        if (s == 0) != ref[i].isAbsent || r.isPresent(i) != ref[i].isPresent { consistent = false }
        if let other = storedByID.updateValue(s, forKey: ref[i]), other != s { consistent = false }
        if let other = idByStored.updateValue(ref[i], forKey: s), other != ref[i] { consistent = false }
      }
      #expect(consistent, "stored values, \(note?.description ?? "")")
      let n = ref.count
      for range in [0..<n, min(1, n)..<n, min(63, n)..<min(65, n), (n / 3)..<(n / 3 + min(200, n - n / 3)), n..<n] {
        let out = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, range.count))
        defer { out.deallocate() }
        c.copyStored(range, into: out)
        #expect(range.indices.allSatisfy { out[$0 - range.lowerBound] == r.stored($0) }, "copyStored \(range)")
      }
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
        #expect((0..<column.count).allSatisfy { reader.isPresent($0) == column[$0].isPresent }, "\(what)")
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
    // Both forms are read (mostly empty columns are sparse).
    let columns = t.attributes + t.addresses.columns + [t.fields.group, t.extras.group]
    #expect(columns.contains(where: \.isSparse) && columns.contains { !$0.isSparse && $0.bytesPerCell > 0 })
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

  // MARK: Sparse columns

  /// Ids of which about `permille` in a thousand are present, drawn from
  /// `distinct` values spread over ids below `limit`.
  static func sparseIDs(_ n: Int, permille: UInt64, distinct: Int, limit: UInt32, seed: UInt64) -> [StringID] {
    var rng = SeededRandom(seed: seed)
    let step = max(1, limit / UInt32(max(1, distinct)))
    return (0..<n).map { _ in
      guard rng.next() % 1000 < permille else { return .absent }
      return StringID(rawValue: 1 + UInt32(rng.next() % UInt64(distinct)) * step % max(1, limit - 1))
    }
  }

  /// `column` rewritten in the given form (same encoding), whatever the
  /// rule would pick.
  static func forced(_ column: StringColumn, sparse: Bool) -> StringColumn {
    var c = column
    c.rebuild(coded: c.isDictionaryCoded, width: c.bytesPerCell, sparse: sparse)
    #expect(c.isSparse == sparse)
    return c
  }

  /// The form is picked by size: sparse when that takes at most 7/8 of
  /// dense (for 1-byte cells up to 68.75% present), never for a column
  /// whose cells take no bytes.
  @Test(arguments: [
    (0, 10, UInt32(1000), false), (10, 40, 3_000_000, true), (45, 40, 3_000_000, true),
    (300, 1000, 3_000_000, true), (600, 40, 3_000_000, true), (750, 40, 3_000_000, false),
    (900, 40, 3_000_000, false), (50, 100_000, 20_000_000, true), (1000, 40, 3_000_000, false),
  ])
  func sparseRoundTrips(permille: UInt64, distinct: Int, limit: UInt32, sparse: Bool) {
    let ref = Self.sparseIDs(50_000, permille: permille, distinct: distinct, limit: limit, seed: permille)
    let c = StringColumn(ref)
    #expect(c.isSparse == sparse)
    Self.check(c, ref)
    let present = ref.filter(\.isPresent).count
    #expect(c.presentCount == present)
    if sparse {
      // 12 bytes a block of 64 rows, and the present cells.
      let directory = (50_000 + 63) / 64 * 12, cells = present * c.bytesPerCell
      let values = c.dictionary.capacity * 4 + c.codes.memoryFootprint
      #expect(c.memoryFootprint <= directory + cells + values + 64)
      #expect(c.memoryFootprint < Self.forced(c, sparse: false).memoryFootprint)
    }
  }

  /// 1.5 bits a row plus the present cells: 100,000 rows, 2% set, take
  /// about 21 KB instead of 100 KB.
  @Test func sparseCostsOneAndAHalfBitsARow() {
    let ref = Self.sparseIDs(100_000, permille: 20, distinct: 30, limit: 3_000_000, seed: 11)
    let c = StringColumn(ref)
    #expect(c.isSparse && c.isDictionaryCoded && c.bytesPerCell == 1)
    #expect(c.memoryFootprint < 100_000 * 3 / 16 + 2_300 + 1_000)
    #expect(Self.forced(c, sparse: false).memoryFootprint > 100_000)
  }

  /// Appending one id at a time turns a column sparse and dense again as
  /// its share of present rows crosses the thresholds, and not back and
  /// forth in between (hysteresis).
  @Test func appendsSwitchTheForm() {
    var c = StringColumn()
    var ref: [StringID] = []
    var changes = 0
    func add(_ id: StringID) {
      let was = c.isSparse
      c.append(id)
      ref.append(id)
      if c.isSparse != was { changes += 1 }
    }
    func value(_ i: Int) -> StringID { StringID(rawValue: 1000 + UInt32(i % 20)) }
    for i in 0..<5000 { add(i % 32 == 0 ? value(i) : .absent) }
    #expect(c.isSparse && c.bytesPerCell == 1)
    Self.check(c, ref, "3% present")
    for i in 0..<20_000 { add(value(i)) }
    #expect(!c.isSparse)
    Self.check(c, ref, "81% present")
    for _ in 0..<10_000 { add(.absent) }
    #expect(c.isSparse)
    Self.check(c, ref, "58% present")
    // 72% present, between the thresholds: a sparse column stays sparse
    // on its way up from 58% (past 68.75%), a dense one stays dense.
    changes = 0
    for i in 0..<200_000 { add(i % 25 < 18 ? value(i) : .absent) }
    #expect(c.isSparse && changes == 0)
    Self.check(c, ref, "72% present, sparse")
    let dense72 = (0..<10_000).map { $0 % 25 < 18 ? value($0) : .absent }
    c = StringColumn(dense72)
    ref = dense72
    #expect(!c.isSparse)
    for i in 0..<100_000 { add(i % 25 < 18 ? value(i) : .absent) }
    #expect(!c.isSparse && changes == 0)
    Self.check(c, ref, "72% present, dense")
  }

  /// A sparse column widens its cells like a dense one (1 -> 2 byte codes
  /// -> plain 3 -> 4 bytes) and stays sparse.
  @Test func sparseColumnsWiden() {
    var c = StringColumn(repeating: .absent, count: 3000)
    var ref = [StringID](repeating: .absent, count: 3000)
    func add(_ id: StringID) {
      c.append(id)
      ref.append(id)
    }
    var next: UInt32 = 1
    func run(_ rows: Int, distinct: UInt32, every: Int = 16) {
      for i in 0..<rows {
        if i % every == 0 {
          add(StringID(rawValue: 2_000_000 + next % distinct))
          next += 1
        } else {
          add(.absent)
        }
      }
    }
    run(1000, distinct: 100)
    #expect(c.isSparse && c.isDictionaryCoded && c.bytesPerCell == 1)
    Self.check(c, ref, "1-byte codes")
    run(16 * 400, distinct: 1000)
    #expect(c.isSparse && c.isDictionaryCoded && c.bytesPerCell == 2)
    Self.check(c, ref, "2-byte codes")
    run(4 * 70_000, distinct: 1_000_000, every: 4)
    #expect(c.isSparse && !c.isDictionaryCoded && c.bytesPerCell == 3)
    Self.check(c, ref, "plain")
    add(StringID(rawValue: .max))
    run(16 * 64, distinct: 1_000_000)
    #expect(c.isSparse && c.bytesPerCell == 4)
    Self.check(c, ref, "4 bytes")
  }

  /// Sparse parts appended, mapped, to a sparse column at every offset in
  /// a block (the masks are shifted into place), coded and plain, and
  /// parts of every length around a block.
  @Test(arguments: [0, 1, 31, 32, 63, 64, 65, 127])
  func sparseMappedAppendsAtUnalignedOffsets(offset: Int) {
    let shift = { (id: StringID) in id.isAbsent ? id : StringID(rawValue: id.rawValue &+ 11) }
    let base = Self.sparseIDs(6400 + offset, permille: 30, distinct: 20, limit: 3_000_000, seed: UInt64(offset))
    var c = StringColumn(base)
    var ref = base
    #expect(c.isSparse)
    for (k, length) in [1, 17, 63, 64, 65, 129, 4000, 2, 640].enumerated() {
      let part = Self.sparseIDs(length, permille: 30, distinct: 20, limit: 3_000_000, seed: UInt64(100 * offset + k))
      var source = Self.forced(StringColumn(part), sparse: true)
      // Every third part plain (3-byte ids, each one encoded on its own).
      if k % 3 == 2 { source.rebuild(coded: false, width: 3, sparse: true) }
      c.append(contentsOf: source, mappedBy: shift)
      ref += part.map(shift)
      #expect(c.isSparse)
      Self.check(c, ref, "offset \(offset), part \(k) of \(length) rows")
    }
    #expect(c.isDictionaryCoded && c.bytesPerCell == 1)
  }

  /// Sparse onto dense, dense onto sparse, sparse onto empty, and maps
  /// that turn present cells absent or absent cells present.
  @Test func mappedAppendsMixForms() {
    let shift = { (id: StringID) in id.isAbsent ? id : StringID(rawValue: id.rawValue &+ 11) }
    let sparsePart = Self.sparseIDs(1000, permille: 40, distinct: 30, limit: 3_000_000, seed: 21)
    let densePart = Self.sparseIDs(1000, permille: 950, distinct: 30, limit: 3_000_000, seed: 22)
    let s = StringColumn(sparsePart), d = StringColumn(densePart)
    #expect(s.isSparse && !d.isSparse)
    // Onto an empty column: the part's form.
    var e = StringColumn()
    e.append(contentsOf: s, mappedBy: shift)
    #expect(e.isSparse)
    Self.check(e, sparsePart.map(shift), "sparse onto empty")
    // Sparse onto dense, at an unaligned offset: 95% and 4% of as many
    // rows is under 68.75%: sparse.
    var onDense = StringColumn(Array(densePart[0..<999]))
    #expect(!onDense.isSparse)
    onDense.append(contentsOf: s, mappedBy: shift)
    #expect(onDense.isSparse)
    Self.check(onDense, Array(densePart[0..<999]) + sparsePart.map(shift), "sparse onto dense")
    // Dense onto sparse: 4% then 95% of as many rows, under 68.75%: sparse.
    var onSparse = StringColumn(Array(sparsePart[0..<997]))
    onSparse.append(contentsOf: d, mappedBy: shift)
    #expect(onSparse.isSparse)
    Self.check(onSparse, Array(sparsePart[0..<997]) + densePart.map(shift), "dense onto sparse")
    // Many dense parts: past 75% present it turns dense.
    for _ in 0..<4 { onSparse.append(contentsOf: d, mappedBy: shift) }
    #expect(!onSparse.isSparse)
    Self.check(onSparse, Array(sparsePart[0..<997]) + Array(repeating: densePart.map(shift), count: 5).joined(), "dense parts")
    // A map that drops some values (present -> absent), from a sparse
    // column onto a sparse one, coded and plain.
    let drop = { (id: StringID) in id.rawValue % 3 == 0 ? StringID.absent : id }
    var c1 = StringColumn(Array(sparsePart[0..<700]))
    c1.append(contentsOf: s, mappedBy: drop)
    Self.check(c1, Array(sparsePart[0..<700]) + sparsePart.map(drop), "dropping map")
    var plainSource = s
    plainSource.rebuild(coded: false, width: 3, sparse: true)
    var c2 = StringColumn(Array(sparsePart[0..<700]))
    c2.append(contentsOf: plainSource, mappedBy: drop)
    Self.check(c2, Array(sparsePart[0..<700]) + sparsePart.map(drop), "dropping map, plain source")
    // A map that gives absent cells a value.
    let fill = { (id: StringID) in id.isAbsent ? StringID(rawValue: 77) : id }
    for source in [s, plainSource] {
      var c = StringColumn(Array(sparsePart[0..<700]))
      c.append(contentsOf: source, mappedBy: fill)
      Self.check(c, Array(sparsePart[0..<700]) + sparsePart.map(fill), "filling map")
    }
  }

  /// Gathering a sparse column gives the gathered ids, sparse or dense by
  /// the share of present rows it picked.
  @Test func gatheringSparse() {
    let ref = Self.sparseIDs(30_000, permille: 40, distinct: 50, limit: 3_000_000, seed: 31)
    let c = StringColumn(ref)
    #expect(c.isSparse)
    var rng = SeededRandom(seed: 32)
    let rows = (0..<20_000).map { _ in UInt32(rng.next() % UInt64(ref.count)) }
    let g = c.gathering(rows)
    #expect(g.isSparse)
    Self.check(g, rows.map { ref[Int($0)] }, "random rows")
    let reversed = (0..<UInt32(ref.count)).reversed().map { $0 }
    Self.check(c.gathering(Array(reversed)), Array(ref.reversed()), "reversed")
    let presentRows = ref.indices.filter { ref[$0].isPresent }.map(UInt32.init)
    let p = c.gathering(presentRows)
    #expect(!p.isSparse && p.presentCount == p.count)
    Self.check(p, presentRows.map { ref[Int($0)] }, "present rows")
    let absentRows = ref.indices.filter { ref[$0].isAbsent }.prefix(5000).map(UInt32.init)
    let a = c.gathering(Array(absentRows))
    #expect(a.presentCount == 0)
    Self.check(a, Array(repeating: .absent, count: absentRows.count), "absent rows")
    Self.check(c.gathering([]), [], "no rows")
    // A few rows: dense (a block of masks would outweigh them).
    let few = [absentRows[0], presentRows[0], absentRows[1]]
    let f = c.gathering(few)
    #expect(!f.isSparse)
    Self.check(f, few.map { ref[Int($0)] }, "few rows")
    let none = c.gathering([absentRows[0], absentRows[1]])
    #expect(!none.isSparse)
    Self.check(none, [.absent, .absent], "two absent rows")
    // A dense column, mostly absent rows picked: sparse.
    let denseRef = Self.sparseIDs(30_000, permille: 900, distinct: 50, limit: 3_000_000, seed: 33)
    let d = StringColumn(denseRef)
    #expect(!d.isSparse)
    let mostlyAbsent = denseRef.indices.filter { denseRef[$0].isAbsent || $0 % 50 == 0 }.map(UInt32.init)
    let dg = d.gathering(mostlyAbsent)
    #expect(dg.isSparse)
    Self.check(dg, mostlyAbsent.map { denseRef[Int($0)] }, "dense source, mostly absent rows")
  }

  /// The chunk encoder picks the sparse form for a mostly empty chunk, and
  /// chunks merged by mapped appends (as the reader does) stay sparse.
  @Test(arguments: [5, 300, 70_000]) func chunkEncoderSparse(distinct: Int) {
    var scratch: [UInt32] = []
    var merged = StringColumn()
    var ref: [StringID] = []
    let remap = { (id: StringID) in id.isAbsent ? id : StringID(rawValue: id.rawValue &* 3 &+ 1) }
    for chunk in 0..<5 {
      let ids = Self.sparseIDs(20_000 + chunk * 37, permille: 25, distinct: distinct, limit: 90_000, seed: UInt64(chunk))
      let raw = ids.map(\.rawValue)
      let c = raw.withUnsafeBufferPointer { r in
        StringColumn(count: r.count, ids: r.baseAddress!, idLimit: 90_000, scratch: &scratch)
      }
      #expect(c.isSparse)
      Self.check(c, ids, "chunk \(chunk)")
      let odd = raw.withUnsafeBufferPointer { r in
        StringColumn(count: r.count / 2, ids: r.baseAddress! + 1, stride: 2, idLimit: 90_000, scratch: &scratch)
      }
      Self.check(odd, stride(from: 1, to: ids.count, by: 2).map { ids[$0] }, "strided")
      #expect(scratch.allSatisfy { $0 == 0 })
      merged.append(contentsOf: c, mappedBy: remap)
      ref += ids.map(remap)
      #expect(merged.isSparse)
    }
    Self.check(merged, ref, "merged")
  }

  /// Equal ids are equal columns, sparse or dense, coded or plain; the
  /// stored values of coded columns with one dictionary agree.
  @Test func equalityAcrossForms() {
    let ids = Self.sparseIDs(5000, permille: 50, distinct: 30, limit: 3_000_000, seed: 41)
    let sparse = StringColumn(ids)
    let dense = Self.forced(sparse, sparse: false)
    var plain = sparse
    plain.rebuild(coded: false, width: 3, sparse: true)
    #expect(sparse.isSparse && !plain.isDictionaryCoded)
    #expect(sparse == dense && dense == plain && plain == StringColumn(ids))
    #expect(dense.memoryFootprint > sparse.memoryFootprint)
    sparse.withUnsafeReader { s in
      dense.withUnsafeReader { d in
        #expect((0..<ids.count).allSatisfy { s.stored($0) == d.stored($0) && s.isPresent($0) == d.isPresent($0) })
      }
    }
    var other = ids
    let i = other.firstIndex(where: \.isPresent) ?? 0
    other[i] = StringID(rawValue: 5)
    #expect(StringColumn(other) != sparse && StringColumn(other) != dense)
    other = ids
    other[other.firstIndex(where: \.isAbsent) ?? 0] = StringID(rawValue: 5)
    #expect(StringColumn(other) != sparse)
    #expect(StringColumn(Array(ids.dropLast())) != sparse)
  }

  /// Empty columns, and columns with rows but no value, in both forms.
  @Test func emptyAndAllAbsent() {
    let empty = StringColumn()
    #expect(!empty.isSparse && empty.count == 0 && empty.presentCount == 0)
    Self.check(empty, [])
    Self.check(StringColumn([StringID]()), [])
    let none = StringColumn(repeating: .absent, count: 1000)
    #expect(!none.isSparse && none.bytesPerCell == 0 && none.memoryFootprint < 64)
    Self.check(none, Array(repeating: .absent, count: 1000))
    // A sparse plain column, then only its absent rows: 3-byte cells, none
    // stored.
    var plain = StringColumn(Self.sparseIDs(3000, permille: 20, distinct: 2000, limit: 20_000_000, seed: 51))
    plain.rebuild(coded: false, width: 3, sparse: true)
    let absentRows = (0..<UInt32(plain.count)).filter { plain[Int($0)].isAbsent }
    var noCells = plain.gathering(absentRows)
    #expect(noCells.isSparse && noCells.presentCount == 0 && noCells.bytesPerCell == 3)
    Self.check(noCells, Array(repeating: .absent, count: absentRows.count), "no cells")
    noCells.append(StringID(rawValue: 9))
    Self.check(noCells, Array(repeating: .absent, count: absentRows.count) + [StringID(rawValue: 9)], "first cell")
    // A sparse column of no rows.
    var zero = Self.forced(StringColumn(), sparse: true)
    Self.check(zero, [], "sparse, no rows")
    zero.append(.absent)
    zero.append(StringID(rawValue: 4))
    Self.check(zero, [.absent, StringID(rawValue: 4)], "sparse, two rows")
  }

  /// Truncating a sparse column at and between block boundaries, then
  /// appending again.
  @Test func truncateSparse() {
    var ref = Self.sparseIDs(10_000, permille: 60, distinct: 40, limit: 3_000_000, seed: 61)
    var c = StringColumn(ref)
    #expect(c.isSparse)
    for n in [9_999, 6_400, 6_399, 6_337, 100, 64, 1, 0] {
      c.truncate(to: n)
      ref.removeSubrange(n...)
      #expect(c.isSparse)
      Self.check(c, ref, "truncated to \(n)")
      for i in 0..<70 { c.append(i % 9 == 0 ? StringID(rawValue: 3 + UInt32(i)) : .absent) }
      ref += (0..<70).map { $0 % 9 == 0 ? StringID(rawValue: 3 + UInt32($0)) : .absent }
      Self.check(c, ref, "appended after \(n)")
    }
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
