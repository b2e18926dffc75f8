import Testing
@testable import OhanaCore

@Suite struct ColumnOpsTests {
  @Test func gatherFollowsTheRowList() {
    let column: [UInt32] = [10, 11, 12, 13]
    #expect(ColumnOps.gather(column, [3, 0, 0, 2]) == [13, 10, 10, 12])
    #expect(ColumnOps.gather(column, []).isEmpty)
    #expect(ColumnOps.gather([UInt32](), []).isEmpty)
  }

  @Test func childRowsOfACSRTable() {
    // Contact 0 owns children 0..<2, contact 1 none, contact 2 owns 2..<5.
    let offsets: [UInt32] = [0, 2, 2, 5]
    let (o, r) = ColumnOps.childRows(offsets, [2, 1, 0, 2])
    #expect(o == [0, 3, 3, 5, 8])
    #expect(r == [2, 3, 4, 0, 1, 2, 3, 4])
  }

  @Test func jobsAllRunAndKeepTheirOwnResults() {
    let results = (0..<40).map { _ in ResultSlots<Int>(count: 1) }
    ColumnOps.run(results.indices.map { i in { results[i].set(0, i * i) } })
    #expect(results.map { $0.value(0) ?? -1 } == (0..<40).map { $0 * $0 })
  }

  /// Small buffers come from the allocator, big ones (2 MiB and up) from a
  /// huge-page mapping on Linux: both must be writable end to end, zeroed or
  /// not, and released once.
  @Test(arguments: [0, 1, 4096, 3 << 20])
  func scratchMemoryIsWritableEndToEnd(byteCount: Int) {
    let scratch = ScratchMemory(byteCount: byteCount)
    defer { scratch.release() }
    #expect(scratch.bytes.count >= max(byteCount, 1))
    let words = scratch.bytes.count / 8
    let p = scratch.bytes.bindMemory(to: UInt64.self)
    for i in 0..<words { p[i] = UInt64(i) &* 0x9E37_79B9 }
    var ok = true
    for i in 0..<words where p[i] != UInt64(i) &* 0x9E37_79B9 { ok = false }
    #expect(ok)
  }
}
