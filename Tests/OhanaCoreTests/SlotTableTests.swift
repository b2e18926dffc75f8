import Testing

@testable import OhanaCore

/// The string pool's hash-table memory: zeroed, copy on write, both below
/// and above the size that gets a huge-page mapping.
@Suite struct SlotTableTests {
  @Test(arguments: [2, 16, 1000, 600_000]) func zeroedAndCopiedOnWrite(count: Int) {
    var a = SlotTable(count: count)
    #expect(a.count == count)
    #expect(a.occupiedCount() == 0)
    a[0] = 7
    a[count - 1] = 9
    var b = a  // shares the buffer
    b[0] = 1
    #expect(a[0] == 7 && b[0] == 1)
    #expect(a[count - 1] == 9 && b[count - 1] == 9)
    b.withUnsafeMutableBufferPointer { s in
      for i in s.indices { s[i] = UInt64(i) + 1 }
    }
    #expect(b.occupiedCount() == count)
    #expect(a.occupiedCount() == 2)
    let sum = a.withUnsafeBufferPointer { $0.reduce(0, &+) }
    #expect(sum == 16)
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
