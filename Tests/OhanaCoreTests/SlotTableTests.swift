import Testing

@testable import OhanaCore

/// The string pool's hash-table memory: zeroed, copy on write, both below
/// and above the size that gets a huge-page mapping.
@Suite struct SlotTableTests {
  @Test(arguments: [2, 16, 1000, 600_000], [false, true]) func zeroedAndCopiedOnWrite(count: Int, narrow: Bool) {
    var a = SlotTable(count: count, narrow: narrow)
    #expect(a.count == count)
    #expect(a.isNarrow == narrow)
    #expect(a.byteCount == count * (narrow ? 4 : 8))
    #expect(a.occupiedCount() == 0)
    a[0] = 7
    a[count - 1] = 9
    var b = a  // shares the buffer
    b[0] = 1
    #expect(a[0] == 7 && b[0] == 1)
    #expect(a[count - 1] == 9 && b[count - 1] == 9)
    #expect(b.isNarrow == narrow)
    func fill<S: FixedWidthInteger & UnsignedInteger>(_ t: inout SlotTable, _: S.Type) {
      t.withUnsafeMutableBufferPointer(as: S.self) { s in
        for i in s.indices { s[i] = S(truncatingIfNeeded: i) + 1 }
      }
    }
    if narrow { fill(&b, UInt32.self) } else { fill(&b, UInt64.self) }
    #expect(b.occupiedCount() == count)
    #expect(a.occupiedCount() == 2)
    let sum = narrow
      ? a.withUnsafeBufferPointer(as: UInt32.self) { UInt64($0.reduce(0, &+)) }
      : a.withUnsafeBufferPointer(as: UInt64.self) { $0.reduce(0, &+) }
    #expect(sum == 16)
    #expect(b[count - 1] == UInt64(count))
  }

  /// Narrow slots keep the id above an 8-bit tag of the hash's low bits;
  /// wide ones the whole hash above the id. A slot matches only its own
  /// key, and no occupied slot is 0.
  @Test func slotLayouts() {
    let h: UInt32 = 0xDEAD_BEEF
    let n = NarrowSlot.slot(0xAB_CDEF, key: NarrowSlot.key(h))
    #expect(n == 0xABCD_EFEF)
    #expect(NarrowSlot.id(n) == 0xAB_CDEF)
    #expect(NarrowSlot.matches(n, NarrowSlot.key(0x1234_56EF)))  // same low byte
    #expect(!NarrowSlot.matches(n, NarrowSlot.key(0xDEAD_BEEE)))
    #expect(NarrowSlot.slot(1, key: NarrowSlot.key(0)) != 0)
    let w = WideSlot.slot(0xAB_CDEF, key: WideSlot.key(h))
    #expect(w == 0xDEAD_BEEF_00AB_CDEF)
    #expect(WideSlot.id(w) == 0xAB_CDEF)
    #expect(WideSlot.matches(w, WideSlot.key(h)) && !WideSlot.matches(w, WideSlot.key(h ^ 1 << 31)))
    #expect(WideSlot.hash(w) == h)
    #expect(WideSlot.slot(1, key: WideSlot.key(0)) != 0)
  }

  /// Pools that share a table (copies) stay independent through growth.
  @Test func copiedPoolsStayIndependent() {
    var p = StringPool()
    for i in 0..<1000 { _ = p.intern("s\(i)") }
    var q = p
    for i in 1000..<300_000 { _ = q.intern("s\(i)") }
    #expect(p.count == 1001)
    #expect(p.lookup("s999") != nil && p.lookup("s1000") == nil)
    #expect(q.lookup("s299999") != nil && q.lookup("s5")?.rawValue == p.lookup("s5")?.rawValue)
    p.checkInvariants()
    q.checkInvariants()
  }

  /// Huge-page advice on an array's reserved room leaves the array as it
  /// was, and is a no-op for nil, empty and sub-2 MiB ranges.
  @Test func hugePageAdviceKeepsArrays() {
    HugePages.advise(nil, byteCount: 1 << 22)
    var small: [UInt8] = [1, 2, 3]
    small.withUnsafeMutableBytes { HugePages.advise($0.baseAddress, byteCount: 0) }
    small.withUnsafeMutableBytes { HugePages.advise($0.baseAddress, byteCount: 3) }
    #expect(small == [1, 2, 3])
    var big: [Int] = [7]
    big.reserveCapacity(3 << 20)
    let capacity = big.capacity
    big.withUnsafeMutableBufferPointer { HugePages.advise(UnsafeMutableRawPointer($0.baseAddress), byteCount: capacity * 8) }
    for i in 1..<(3 << 20) { big.append(i) }
    #expect(big.count == 3 << 20 && big[0] == 7 && big[12345] == 12345 && big.last == (3 << 20) - 1)
  }
}
