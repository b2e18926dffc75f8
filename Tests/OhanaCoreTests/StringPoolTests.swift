import Testing
@testable import OhanaCore
import _OhanaTestSupport

@Suite struct StringPoolTests {
  @Test func internsEqualBytesToOneID() {
    var pool = StringPool()
    let a = pool.intern("Homer")
    let b = pool.intern("Marge")
    let c = pool.intern("Homer")
    #expect(a == c)
    #expect(a != b)
    #expect(pool.string(a) == "Homer")
    #expect(pool.string(b) == "Marge")
    #expect(pool.count == 3)  // absent + 2
  }

  @Test func emptyAndNilAreAbsent() {
    var pool = StringPool()
    #expect(pool.intern("") == .absent)
    #expect(pool.intern(nil as String?) == .absent)
    #expect(pool.string(.absent) == nil)
    #expect(pool.length(of: .absent) == 0)
  }

  @Test func lookupDoesNotIntern() {
    var pool = StringPool()
    let id = pool.intern("Wednesday")
    #expect(pool.lookup("Wednesday") == id)
    #expect(pool.lookup("Pugsley") == nil)
    #expect(pool.count == 2)
  }

  @Test func growsAndKeepsEveryID() {
    var pool = StringPool()
    var ids: [StringID] = []
    for i in 0..<50_000 { ids.append(pool.intern("name-\(i)")) }
    for i in stride(from: 0, to: 50_000, by: 997) {
      #expect(pool.string(ids[i]) == "name-\(i)")
      #expect(pool.intern("name-\(i)") == ids[i])
    }
    #expect(Set(ids).count == 50_000)
    pool.checkInvariants()
  }

  @Test func internAllRemapsWithStoredHashes() {
    var a = StringPool()
    let homer = a.intern("Homer")
    _ = a.intern("Marge")
    var b = StringPool()
    var bIDs: [StringID] = []
    for i in 0..<5_000 { bIDs.append(b.intern("n\(i % 3_000)")) }
    let bHomer = b.intern("Homer")
    var remap: [StringID] = [StringID(rawValue: 77)]
    a.internAll(of: b, into: &remap)
    #expect(remap.count == b.count)
    #expect(remap[0] == .absent)
    #expect(remap[bHomer.index] == homer)  // equal strings keep one id
    for (i, id) in bIDs.enumerated() where i % 97 == 0 {
      #expect(a.string(remap[id.index]) == "n\(i % 3_000)")
      #expect(a.lookup("n\(i % 3_000)") == remap[id.index])
    }
    #expect(a.count == 3 + 3_000)
    a.checkInvariants()
    // Interning into an empty pool gives the same ids.
    var c = StringPool()
    c.internAll(of: b, into: &remap)
    #expect(remap.enumerated().allSatisfy { $0.element.index == $0.offset })
  }

  /// The hash with a byte-by-byte tail, as first written: the overlapping
  /// loads must give the same values.
  private static func referenceHash(_ bytes: [UInt8]) -> UInt32 {
    let n = bytes.count
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
    var i = 0
    while i + 8 <= n {
      var w: UInt64 = 0
      for k in 0..<8 { w |= UInt64(bytes[i + k]) << UInt64(8 * k) }
      h = (h ^ (w &* 0xBF58_476D_1CE4_E5B9)) &* 0x94D0_49BB_1331_11EB
      h = (h << 29) | (h >> 35)
      i += 8
    }
    if i < n {
      var w: UInt64 = 0
      var shift: UInt64 = 0
      while i < n {
        w |= UInt64(bytes[i]) << shift
        shift += 8
        i += 1
      }
      h = (h ^ (w &* 0xBF58_476D_1CE4_E5B9)) &* 0x94D0_49BB_1331_11EB
    }
    h ^= h >> 31
    h = h &* 0xD6E8_FEB8_6659_FD93
    h ^= h >> 32
    return UInt32(truncatingIfNeeded: h)
  }

  @Test func hashAndEqualityTailsMatchByteLoops() {
    for n in 0..<40 {
      let a = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xA1) }
      // Hash from an unaligned start inside a larger buffer.
      let padded = [0x55] + a + [0x66, 0x77]
      let h = padded.withUnsafeBytes { StringPool.hash(UnsafeRawBufferPointer(rebasing: $0[1..<(1 + n)])) }
      #expect(h == Self.referenceHash(a), "length \(n)")
      var pool = StringPool()
      let id = pool.intern(bytes: a)
      #expect(pool.intern(bytes: a) == id)
      for k in 0..<n {
        var b = a
        b[k] ^= 0x01
        #expect(pool.intern(bytes: b) != id, "length \(n), byte \(k)")
      }
      #expect(pool.bytes(of: id) == a)
    }
  }

  @Test func unicodeAndBinaryBytes() {
    var pool = StringPool()
    let strings = ["Müller", "Mu\u{308}ller", "佐藤", "🙂", "a\u{0}b", "abcdefgh", "abcdefghi", "abcdefgh\u{1}"]
    let ids = strings.map { pool.intern($0) }
    #expect(Set(ids).count == strings.count)  // NFC and NFD differ as bytes
    for (s, id) in zip(strings, ids) { #expect(pool.string(id) == s) }
  }

  @Test func bulkInternFromBuffer() {
    var pool = StringPool()
    let text = Array("Homer\nMarge\nHomer\n\nBart".utf8)
    var ids: [StringID] = []
    text.withUnsafeBytes { pool.intern(separatedBy: UInt8(ascii: "\n"), in: $0, into: &ids) }
    #expect(ids.count == 5)
    #expect(ids[0] == ids[2])
    #expect(ids[3] == .absent)
    #expect(pool.string(ids[4]) == "Bart")

    var ids2: [StringID] = []
    let offsets = [0, 5, 6, 11, 999]  // the last range is out of bounds: absent, no crash
    text.withUnsafeBytes { buf in offsets.withUnsafeBufferPointer { pool.intern(contentsOf: buf, offsets: $0, into: &ids2) } }
    #expect(ids2.count == 4)
    #expect(ids2[0] == ids[0] && ids2[2] == ids[1] && ids2[3] == .absent)
    #expect(pool.string(ids2[1]) == "\n")
  }

  /// Batches over the bulk threshold take the hash-ordered path: the ids must
  /// name the same strings as one-at-a-time interning would, repeats must
  /// share an id, strings already in the pool keep theirs, and bad ranges
  /// give absent, also while the table grows in the middle of the batch.
  @Test(arguments: [StringPool.bulkThreshold, 50_000])
  func largeBatchesMatchOneAtATime(count: Int) {
    var rng = SeededRandom(seed: UInt64(count))
    var text: [UInt8] = []
    var offsets: [Int] = [0]
    var expected: [String?] = []
    for i in 0..<count {
      let s: String
      switch i % 97 {
      case 0: s = ""
      case 1: s = "Zoë \(i % 5)"
      case 2: s = String(repeating: "long ", count: 60 + i % 3)  // 300+ bytes: the 5-byte length prefix
      default: s = "n\(UInt64.random(in: 0..<UInt64(count / 2), using: &rng))"
      }
      text.append(contentsOf: s.utf8)
      offsets.append(text.count)
      expected.append(s.isEmpty ? nil : s)
    }
    offsets[count / 3 + 1] = text.count + 5  // an out-of-bounds range: absent
    expected[count / 3] = nil
    expected[count / 3 + 1] = nil  // starts out of bounds too

    var pool = StringPool()
    let before = pool.intern("n7")  // already in the pool: keeps its id
    var ids: [StringID] = []
    text.withUnsafeBytes { b in offsets.withUnsafeBufferPointer { pool.intern(contentsOf: b, offsets: $0, into: &ids) } }
    #expect(ids.count == count)
    var firstID: [String: StringID] = [:]
    var mismatches = 0
    for (id, s) in zip(ids, expected) {
      if pool.string(id) != s { mismatches += 1 }
      if let s {
        if let f = firstID[s], f != id { mismatches += 1 }
        firstID[s] = id
      }
    }
    #expect(mismatches == 0)
    if let seen = firstID["n7"] { #expect(seen == before) }
    #expect(pool.count == Set(expected.compactMap { $0 } + ["n7"]).count + 1)
    pool.checkInvariants()
    // One-at-a-time lookups find every batch string.
    for (id, s) in zip(ids, expected) where s != nil { #expect(pool.lookup(s!) == id) }

    // Newline-separated bulk path over the same strings.
    var lines: [UInt8] = []
    for s in expected { lines.append(contentsOf: (s ?? "").utf8); lines.append(10) }
    var ids2: [StringID] = []
    lines.withUnsafeBytes { pool.intern(separatedBy: 10, in: $0, into: &ids2) }
    #expect(ids2 == ids)
  }

  @Test func layoutStaysSmall() {
    #expect(MemoryLayout<StringID>.size == 4)
    #expect(MemoryLayout<BlobID>.size == 4)
    #expect(MemoryLayout<FieldKind>.size == 1)
  }
}

@Suite struct BitmapTests {
  @Test func setAlgebra() {
    let a = Bitmap(count: 130, setting: [0, 1, 64, 129])
    let b = Bitmap(count: 130, setting: [1, 64, 100])
    #expect(a.intersection(b).setRows == [1, 64])
    #expect(a.union(b).setRows == [0, 1, 64, 100, 129])
    #expect(a.symmetricDifference(b).setRows == [0, 100, 129])
    #expect(a.subtracting(b).setRows == [0, 129])
    #expect(a.inverted().popCount == 126)
    #expect(Bitmap(count: 130, allSet: true).popCount == 130)
    a.inverted().checkInvariants()
  }

  @Test func predicateAndGather() {
    let m = Bitmap(count: 200) { $0 % 3 == 0 }
    #expect(m.popCount == 67)
    #expect(m.contains(198) && !m.contains(199) && !m.contains(-1) && !m.contains(500))
    let g = Bitmap.gathering(m, rows: [3, 4, 6])
    #expect(g.setRows == [0, 2])
    #expect(m.appending(Bitmap(count: 2, allSet: true)).setRows.suffix(2) == [200, 201])
  }
}

@Suite struct PoolCapacityTests {
  @Test func presizedPoolGrowsPastItsCapacity() {
    var pool = StringPool(capacity: 100)
    var ids: [StringID] = []
    for i in 0..<1000 { ids.append(pool.intern("s\(i)")) }
    for i in 0..<1000 { #expect(pool.lookup("s\(i)") == ids[i]) }
    pool.checkInvariants()
  }
}

@Suite struct StringBatchTests {
  /// Random strings with many repeats (more distinct ones than the batch's
  /// repeat cache has slots, so it both folds and misses repeats), interned
  /// into a pool that already holds some of them.
  @Test(arguments: [0, 50, 40_000])
  func internedBatchMatchesInterningOneByOne(strings count: Int) {
    var rng = SeededRandom(seed: 42)
    var values: [String] = []
    for _ in 0..<count {
      let pick = Int(rng.next() % 9_000)
      // lengths 0...40, with common short ones
      values.append(pick % 97 == 0 ? "" : String(repeating: "x", count: pick % 23) + "v\(pick)")
    }
    var pool = StringPool()
    for v in values.prefix(500) where Int(rng.next() % 2) == 0 { _ = pool.intern(v) }
    var batch = StringBatch()
    var provisional: [StringID] = []
    for v in values { provisional.append(batch.add(v)) }
    // At most one provisional id per value; with many repeats, fewer.
    #expect(batch.count - 1 <= values.filter { !$0.isEmpty }.count)
    if count > 10_000 { #expect(batch.count - 1 < count * 3 / 4) }
    var remap: [StringID] = [StringID(rawValue: 99)]
    pool.intern(batch, into: &remap)
    #expect(remap.count == batch.count)
    #expect(remap.first == .absent)
    var reference = StringPool()
    for (i, v) in values.enumerated() {
      let id = remap[provisional[i].index]
      #expect(pool.string(id) == (v.isEmpty ? nil : v))
      #expect(String(decoding: batch.bytes(of: provisional[i]), as: UTF8.self) == v)
      _ = reference.intern(v)
    }
    // Every distinct value once in the pool, and nothing else added.
    #expect(pool.count <= reference.count + 500)
    for v in Set(values) where !v.isEmpty { #expect(pool.lookup(v) != nil) }
    pool.checkInvariants()
  }

  /// Ends are kept in 32 bits; past 4 GiB of distinct bytes they wrap and
  /// `wraps` adds the high part. A pool that wraps every 256 bytes takes
  /// every path (one at a time, bulk, batch, merge of pools, strings longer
  /// than a wrap) and must give every string back byte for byte.
  @Test func endsWrapPastTheirWidth() {
    var pool = StringPool(endShift: 8)
    var rng = SeededRandom(seed: 8)
    func value(_ i: Int) -> String {
      switch rng.next() % 50 {
      case 0: return String(repeating: "long \(i) ", count: 70)  // longer than two wraps
      case 1: return "repeat \(i % 7)"
      default: return "v\(i)-" + String(repeating: "é", count: Int(rng.next() % 20))
      }
    }
    var all: [(StringID, String)] = []
    var plain = StringPool()
    for i in 0..<3000 {
      let v = value(i)
      let id = pool.intern(v)
      #expect(id == plain.intern(v), "one at a time: the same ids as a pool that does not wrap")
      all.append((id, v))
    }
    #expect(!pool.wraps.isEmpty)
    // Bulk (past the threshold: falls back to one at a time once wrapped).
    var text: [UInt8] = []
    var offsets = [0]
    var bulk: [String] = []
    for i in 0..<(StringPool.bulkThreshold + 500) {
      let v = value(i + 10_000)
      bulk.append(v)
      text += Array(v.utf8)
      offsets.append(text.count)
    }
    var ids: [StringID] = []
    text.withUnsafeBytes { buf in offsets.withUnsafeBufferPointer { pool.intern(contentsOf: buf, offsets: $0, into: &ids) } }
    all += zip(ids, bulk).map { ($0, $1) }
    // A batch, and another pool merged in.
    var batch = StringBatch()
    var provisional: [StringID] = []
    var batched: [String] = []
    for i in 0..<3000 {
      let v = value(i + 20_000)
      batched.append(v)
      provisional.append(batch.add(v))
    }
    var remap: [StringID] = []
    pool.intern(batch, into: &remap)
    all += zip(provisional, batched).map { (remap[$0.index], $1) }
    var other = StringPool(endShift: 8)
    let otherValues = (0..<2000).map { value($0 + 30_000) }
    let otherIDs = otherValues.map { other.intern($0) }
    pool.internAll(of: other, into: &remap)
    all += zip(otherIDs, otherValues).map { (remap[$0.index], $1) }
    pool.checkInvariants()
    #expect(pool.wraps.count > 100)
    for (id, v) in all {
      #expect(pool.string(id) == v)
      #expect(pool.length(of: id) == v.utf8.count)
      #expect(pool.lookup(v) == id)
    }
    pool.withStorage { arena, ends in
      #expect(ends.count == pool.count && ends.last == arena.count)
      for (id, v) in all.prefix(2000) {
        #expect(Array(arena[ends[id.index - 1]..<ends[id.index]]) == Array(v.utf8))
      }
    }
  }

  /// Strings of every length the copy handles differently (1...3, 4...7,
  /// 8...16, longer) come back byte for byte, also after the buffers grew
  /// well past a tiny initial capacity.
  @Test func bytesRoundTripThroughGrowth() {
    var batch = StringBatch(capacity: 1, bytes: 1)
    var expected: [[UInt8]] = [[]]
    for i in 0..<3_000 {
      let length = 1 + (i * 7) % 41
      let value = (0..<length).map { UInt8(truncatingIfNeeded: i &* 31 &+ $0 &* 17) }
      let id = batch.add(bytes: value)
      if id.index == expected.count { expected.append(value) }
      #expect(batch.bytes(of: id) == value)
    }
    #expect(batch.count == expected.count)
    #expect(batch.byteCount == expected.reduce(0) { $0 + $1.count })
    for k in 1..<expected.count { #expect(batch.bytes(of: StringID(rawValue: UInt32(k))) == expected[k]) }
    #expect(batch.bytes(of: .absent) == [])
    #expect(batch.bytes(of: StringID(rawValue: UInt32(expected.count))) == [])
  }

  /// A copy is a separate value: adding to or emptying one leaves the other
  /// as it was (the shared storage is copied on write), and both intern to
  /// their own strings.
  @Test func copiesAreIndependentValues() {
    var a = StringBatch()
    let home = a.add("HOME")
    _ = a.add("WORK")
    var b = a
    #expect(b.add("HOME") == home)  // a repeat: no write, still shared
    let cell = b.add("CELL")
    #expect(cell.rawValue == 3)
    #expect(a.count == 3 && b.count == 4)
    #expect(a.bytes(of: cell) == [])
    #expect(a.add("FAX").rawValue == 3)
    #expect(String(decoding: a.bytes(of: StringID(rawValue: 3)), as: UTF8.self) == "FAX")
    #expect(String(decoding: b.bytes(of: StringID(rawValue: 3)), as: UTF8.self) == "CELL")
    // The repeat cache was copied too: b still folds what a added before the copy.
    #expect(b.add("WORK").rawValue == 2)

    var c = b
    c.removeAll()
    #expect(c.count == 1 && c.byteCount == 0)
    #expect(b.count == 4 && b.byteCount == 12)
    #expect(c.add("CELL").rawValue == 1)
    #expect(String(decoding: b.bytes(of: cell), as: UTF8.self) == "CELL")

    var pool = StringPool()
    var remapA: [StringID] = []
    var remapB: [StringID] = []
    pool.intern(a, into: &remapA)
    pool.intern(b, into: &remapB)
    #expect(pool.string(remapA[3]) == "FAX")
    #expect(pool.string(remapB[3]) == "CELL")
    #expect(remapA[1] == remapB[1] && remapA[2] == remapB[2])
  }

  /// Copies handed to other tasks (as the parallel readers do) while the
  /// original keeps growing.
  @Test func copiesCrossTasks() async {
    var batch = StringBatch()
    for i in 0..<100 { _ = batch.add("v\(i)") }
    let snapshot = batch
    let counted = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var own = snapshot
          for i in 0..<1_000 { _ = own.add("w\(i)") }
          return own.count
        }
      }
      var total = 0
      for await c in group { total += c }
      return total
    }
    for i in 0..<1_000 { _ = batch.add("x\(i)") }
    #expect(counted == 4 * 1_101)
    #expect(snapshot.count == 101)
    #expect(batch.count == 1_101)
    #expect(String(decoding: snapshot.bytes(of: StringID(rawValue: 100)), as: UTF8.self) == "v99")
  }

  @Test func repeatsFoldWhileTheyStayInTheCache() {
    var batch = StringBatch()
    let a = batch.add("HOME")
    let b = batch.add("CELL")
    #expect(batch.add("HOME") == a)
    #expect(batch.add("CELL") == b)
    #expect(batch.add("") == .absent)
    #expect(batch.count == 3)
    #expect(batch.byteCount == 8)
    batch.removeAll()
    #expect(batch.count == 1 && batch.byteCount == 0)
    #expect(batch.add("CELL").rawValue == 1)
  }
}

/// Narrow (32-bit) slots and the switch between narrow and wide ones (see
/// `StringPool.SlotWidths`), with the narrow/wide threshold lowered so that
/// a few thousand strings cross it. Ids never depend on the slot width, so
/// every path is checked against a pool with the standard widths.
@Suite struct NarrowSlotTests {
  /// Narrow from the smallest table up to tables of `limit` ids.
  static func widths(_ limit: Int = 1 << 24) -> StringPool.SlotWidths {
    StringPool.SlotWidths(wideUpTo: 0, narrowIDLimit: limit)
  }

  static func hash(_ s: String) -> UInt32 {
    var s = s
    return s.withUTF8 { StringPool.hash(UnsafeRawBufferPointer($0)) }
  }

  /// The first `count` strings "t0", "t1", ... whose hash has `tag` as its
  /// low byte: in narrow slots they all have the same tag.
  static func sameTag(_ count: Int, tag: UInt32) -> [String] {
    var out: [String] = []
    var i = 0
    while out.count < count {
      let s = "t\(i)"
      if hash(s) & 0xFF == tag { out.append(s) }
      i += 1
    }
    return out
  }

  static func values(_ range: Range<Int>, _ prefix: String = "v") -> [String] { range.map { "\(prefix)\($0)" } }

  /// `values` interned as one bulk batch; returns the ids.
  static func bulk(_ pool: inout StringPool, _ values: [String]) -> [StringID] {
    var text: [UInt8] = []
    var offsets = [0]
    for v in values {
      text += Array(v.utf8)
      offsets.append(text.count)
    }
    var ids: [StringID] = []
    text.withUnsafeBytes { b in offsets.withUnsafeBufferPointer { pool.intern(contentsOf: b, offsets: $0, into: &ids) } }
    return ids
  }

  /// Strings whose tags are all equal are told apart by their bytes: each
  /// gets its own id, and one that was never interned is not found.
  @Test func stringsWithOneTagStayApart() {
    let same = Self.sameTag(700, tag: 0x5A)
    var pool = StringPool(slotWidths: Self.widths())
    let ids = same.prefix(600).map { pool.intern($0) }
    #expect(pool.slots.isNarrow)
    #expect(Set(ids).count == 600 && pool.count == 601)
    for (s, id) in zip(same, ids) {
      #expect(pool.lookup(s) == id)
      #expect(pool.intern(s) == id)
      #expect(pool.string(id) == s)
    }
    for s in same.suffix(100) { #expect(pool.lookup(s) == nil) }
    #expect(pool.count == 601)
    pool.checkInvariants()
  }

  /// One string at a time from an empty narrow table: every growth
  /// rehashes from the arena, and at least doubles the table; the ids are
  /// the standard pool's.
  @Test func growsWhileNarrow() {
    var pool = StringPool(slotWidths: Self.widths())
    var reference = StringPool()
    var sizes = [pool.tableSlotCount]
    let values = Self.values(0..<30_000)
    for (i, v) in values.enumerated() {
      #expect(pool.intern(v) == reference.intern(v))
      #expect(pool.slots.isNarrow)
      if let last = sizes.last, pool.tableSlotCount != last {
        #expect(pool.tableSlotCount >= 2 * last)
        sizes.append(pool.tableSlotCount)
      }
      if i % 7_919 == 0 { pool.checkInvariants() }
    }
    #expect(sizes.count > 8)  // it grew, many times
    for v in values { #expect(pool.lookup(v) == reference.lookup(v)) }
    for v in Self.values(0..<1_000, "w") { #expect(pool.lookup(v) == nil) }
    pool.checkInvariants()
  }

  /// One string at a time past the narrow limit: the table turns wide when
  /// it grows past the ids narrow slots hold, and every id stays found.
  @Test func turnsWidePastTheLimit() {
    let limit = 3_000
    var pool = StringPool(slotWidths: Self.widths(limit))
    var reference = StringPool()
    var narrowUpTo = 0
    let values = Self.values(0..<10_000)
    for v in values {
      #expect(pool.intern(v) == reference.intern(v))
      if pool.slots.isNarrow { narrowUpTo = pool.count }
      #expect(pool.slots.isNarrow == (pool.tableSlotCount * 3 / 4 < limit))
    }
    #expect(narrowUpTo > limit / 2 && narrowUpTo < limit)
    #expect(!pool.slots.isNarrow)
    for v in values { #expect(pool.lookup(v) == reference.lookup(v)) }
    #expect(pool.lookup("v10000") == nil)
    pool.checkInvariants()
  }

  /// A bulk batch on a narrow pool of 1,000 strings adding 11,000, at
  /// limits where the table stays narrow; where the one sized for the
  /// sweep (40,744 slots, for 30,558 ids) is wide and the trimmed one after
  /// it (23,244 slots) narrow again; where both are wide; and where the
  /// pool is wide from the start.
  @Test(arguments: [1 << 24, 30_000, 2_000, 500])
  func bulkBatchAcrossTheLimit(limit: Int) {
    var pool = StringPool(slotWidths: Self.widths(limit))
    var reference = StringPool()
    for v in Self.values(0..<1_000) { #expect(pool.intern(v) == reference.intern(v)) }
    let before = pool.slots.isNarrow
    var rng = SeededRandom(seed: 3)
    let batch = (0..<24_000).map { _ in "v\(rng.next() % 14_000)" }
    let ids = Self.bulk(&pool, batch)
    let expected = Self.bulk(&reference, batch)
    #expect(ids == expected)
    #expect(pool.count == reference.count)
    switch limit {
    case 1 << 24: #expect(before && pool.slots.isNarrow)
    case 500: #expect(!before && !pool.slots.isNarrow)
    case 30_000: #expect(before && pool.slots.isNarrow && pool.tableSlotCount < 30_000)
    default: #expect(before && !pool.slots.isNarrow)
    }
    for (v, id) in zip(batch, ids) { #expect(pool.lookup(v) == id) }
    // And one at a time after the batch.
    for v in Self.values(14_000..<15_000) { #expect(pool.intern(v) == reference.intern(v)) }
    pool.checkInvariants()
  }

  /// A `StringBatch` (hashes given) that takes a narrow pool past the
  /// limit: the table is sized for it, wide, before the first probe.
  @Test func stringBatchAcrossTheLimit() {
    var pool = StringPool(slotWidths: Self.widths(5_000))
    var reference = StringPool()
    for v in Self.values(0..<3_000) { #expect(pool.intern(v) == reference.intern(v)) }
    #expect(pool.slots.isNarrow)
    var batch = StringBatch()
    var provisional: [StringID] = []
    let values = Self.values(1_500..<7_500)
    for v in values { provisional.append(batch.add(v)) }
    var remap: [StringID] = []
    var expected: [StringID] = []
    pool.intern(batch, into: &remap)
    reference.intern(batch, into: &expected)
    #expect(remap == expected)
    #expect(!pool.slots.isNarrow)
    for (v, p) in zip(values, provisional) {
      #expect(pool.string(remap[p.index]) == v)
      #expect(pool.lookup(v) == remap[p.index])
    }
    pool.checkInvariants()
  }

  /// Merging pools: a narrow pool's hashes are computed from its arena, a
  /// wide one's read from its slots; either way a narrow target that
  /// passes the limit turns wide and gives the standard pool's ids.
  @Test(arguments: [false, true]) func internAllAcrossTheLimit(narrowOther: Bool) {
    var other = narrowOther ? StringPool(slotWidths: Self.widths()) : StringPool()
    for v in Self.values(2_000..<8_000) + Self.values(0..<50, "o") { _ = other.intern(v) }
    #expect(other.slots.isNarrow == narrowOther)
    #expect(other.hashes() == [0] + (1..<other.count).map { Self.hash(other.string(StringID(rawValue: UInt32($0))) ?? "") })
    var pool = StringPool(slotWidths: Self.widths(6_000))
    var reference = StringPool()
    for v in Self.values(0..<3_000) { #expect(pool.intern(v) == reference.intern(v)) }
    #expect(pool.slots.isNarrow)
    var remap: [StringID] = []
    var expected: [StringID] = []
    pool.internAll(of: other, into: &remap)
    reference.internAll(of: other, into: &expected)
    #expect(remap == expected && remap.count == other.count)
    #expect(!pool.slots.isNarrow)
    for k in 1..<other.count {
      let v = other.string(StringID(rawValue: UInt32(k)))
      #expect(v != nil && pool.string(remap[k]) == v)
    }
    // A narrow target that stays narrow.
    var small = StringPool(slotWidths: Self.widths())
    small.internAll(of: other, into: &remap)
    #expect(small.slots.isNarrow)
    #expect(remap.enumerated().allSatisfy { $0.element.index == $0.offset })
    pool.checkInvariants()
    small.checkInvariants()
  }

  /// Copies share a narrow table until one writes: a write to a slot, a
  /// growth and a switch to wide slots each leave the others as they were.
  @Test func copiesStayIndependent() {
    var p = StringPool(slotWidths: Self.widths(4_000))
    for v in Self.values(0..<2_000) { _ = p.intern(v) }
    #expect(p.slots.isNarrow)
    var q = p
    var r = p
    let added = q.intern("only in q")  // one slot written, no growth
    #expect(q.tableSlotCount == p.tableSlotCount)
    for v in Self.values(2_000..<6_000) { _ = r.intern(v) }  // grows, turns wide
    #expect(!r.slots.isNarrow && p.slots.isNarrow && q.slots.isNarrow)
    #expect(p.lookup("only in q") == nil && r.lookup("only in q") == nil && q.lookup("only in q") == added)
    #expect(p.lookup("v2000") == nil && q.lookup("v2000") == nil && r.lookup("v5999") != nil)
    #expect(p.count == 2_001 && q.count == 2_002 && r.count == 6_001)
    for v in Self.values(0..<2_000) {
      let id = p.lookup(v)
      #expect(id != nil && q.lookup(v) == id && r.lookup(v) == id)
    }
    p.checkInvariants()
    q.checkInvariants()
    r.checkInvariants()
  }

  /// Narrow slots take 4 bytes, wide ones 8; the standard widths keep
  /// small tables wide and make big ones narrow.
  @Test func footprintAndStandardWidths() {
    var narrow = StringPool(slotWidths: Self.widths())
    var wide = StringPool(slotWidths: StringPool.SlotWidths(wideUpTo: Int.max, narrowIDLimit: 1 << 24))
    for v in Self.values(0..<5_000) {
      _ = narrow.intern(v)
      _ = wide.intern(v)
    }
    #expect(narrow.slots.isNarrow && !wide.slots.isNarrow)
    func slotBytes(_ p: StringPool) -> Int {
      p.memoryFootprint - p.arena.capacity - p.ends.capacity * 4 - p.wraps.capacity * 4
    }
    #expect(slotBytes(narrow) == narrow.tableSlotCount * 4)
    #expect(slotBytes(wide) == wide.tableSlotCount * 8)
    #expect(narrow.slots.byteCount == narrow.tableSlotCount * 4)
    var standard = StringPool()
    for v in Self.values(0..<1_000) { _ = standard.intern(v) }
    #expect(!standard.slots.isNarrow)
    for v in Self.values(1_000..<100_000) { _ = standard.intern(v) }
    #expect(standard.slots.isNarrow && standard.tableSlotCount > 1 << 16)
    #expect(StringPool.SlotWidths.standard.isNarrow(slots: 1 << 16 + 8))
    #expect(!StringPool.SlotWidths.standard.isNarrow(slots: 1 << 16))
    #expect(StringPool.SlotWidths.standard.isNarrow(slots: (1 << 24) / 3 * 4))
    #expect(!StringPool.SlotWidths.standard.isNarrow(slots: (1 << 24) / 3 * 4 + 8))
    standard.checkInvariants()
  }
}
