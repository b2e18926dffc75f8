import OhanaCore
import Testing

@testable import OhanaDedupe

/// The sorted runs that blocking reads and releases run by run, and the
/// parts freed as they are laid, against the standard library's sort, set
/// and joined arrays.
@Suite struct SortedRunsTests {
  /// Parts of pseudo-random values (a fixed linear congruential stream),
  /// many of them repeated when `distinct` is small.
  static func parts(_ n: Int, distinct: UInt64, seed: UInt64, pieces: Int = 7) -> [[UInt64]] {
    var x = seed
    var all: [UInt64] = []
    all.reserveCapacity(n)
    for _ in 0..<n {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      all.append((x >> 11) % distinct &* 0x9E37_79B9_7F4A_7C15)
    }
    return (0..<pieces).map { p in Array(all[(p * n / pieces)..<((p + 1) * n / pieces)]) }
  }

  static func values(_ runs: SortedRuns) -> [UInt64] {
    (0..<runs.runCount).flatMap { r in runs.withRun(r) { Array($0) } }
  }

  @Test(arguments: [(0, 1), (1, 2), (1000, 2), (70_000, 1), (300_000, 2), (300_000, 3), (1_200_000, 7)])
  func runsAreTheSortedValues(n: Int, threads: Int) {
    let input = Self.parts(n, distinct: UInt64(max(1, n / 3)), seed: UInt64(n) &+ 5)
    let expected = input.flatMap { $0 }.sorted()
    let runs = RadixSort.runs(input, threads: threads)
    #expect(runs.count == n)
    #expect(Self.values(runs) == expected)
    #expect(runs.bounds.first == 0 && runs.bounds.last == n)
    if n >= 1 << 16 { #expect(runs.runCount >= 2, "a large input is cut into runs") }
  }

  /// Values equal under the cut mask never straddle two runs (a block of
  /// blocking never spans two runs).
  @Test(arguments: [1, 2, 4])
  func cutMaskKeepsBlocksWhole(threads: Int) {
    let mask: UInt64 = ~0xFFFF  // key bits above, "row" bits below
    let input = Self.parts(400_000, distinct: 5_000, seed: 17).map { part in
      part.enumerated().map { i, v in (v & mask) | UInt64(i & 0xFFFF) }
    }
    let runs = RadixSort.runs(input, threads: threads, cutMask: mask)
    #expect(Self.values(runs) == input.flatMap { $0 }.sorted())
    for r in 1..<runs.runCount {
      let last = runs.withRun(r - 1) { $0.last }, first = runs.withRun(r) { $0.first }
      if let last, let first { #expect(last & mask != first & mask, "runs \(r - 1) and \(r) share a key") }
    }
  }

  /// Releasing a run hands back only its own whole pages: every other run
  /// reads as before, in any order of release.
  @Test func releaseLeavesTheOtherRunsIntact() {
    let input = Self.parts(900_000, distinct: 1 << 40, seed: 3)
    let expected = input.flatMap { $0 }.sorted()
    let runs = RadixSort.runs(input, threads: 2)
    #expect(runs.runCount >= 4)
    var kept = Set(0..<runs.runCount)
    for r in stride(from: 1, to: runs.runCount, by: 2) {
      runs.release(r)
      kept.remove(r)
    }
    for r in kept.sorted() {
      let range = runs.bounds[r]..<runs.bounds[r + 1]
      #expect(runs.withRun(r) { Array($0) } == Array(expected[range]), "run \(r) changed by its neighbours' release")
    }
  }

  @Test(arguments: [(0, 2), (5, 1), (200_000, 1), (200_000, 2), (1_100_000, 3)])
  func uniquedIsTheSortedSet(n: Int, threads: Int) {
    let input = Self.parts(n, distinct: UInt64(max(1, n / 4)), seed: 11)
    let expected = Set(input.flatMap { $0 }).sorted()
    #expect(RadixSort.runs(input, threads: threads).uniqued(threads: threads) == expected)
  }

  @Test func laidPartsAreJoined() {
    let input = Self.parts(100_000, distinct: 1 << 30, seed: 9, pieces: 13) + [[]]
    #expect(ParallelFill.laid(input, threads: 3) == input.flatMap { $0 })
    let fixed = ParallelFill.laid(input, threads: 2) { i, v in v = v &+ UInt64(i) }
    #expect(fixed == input.flatMap { $0 }.enumerated().map { $1 &+ UInt64($0) })
  }

  /// The sample sort with more buckets than before (one per 2^20 values)
  /// still sorts, with the per-bucket scratch.
  @Test func sortedWithPerBucketScratch() {
    let input = Self.parts(2_500_000, distinct: 1 << 50, seed: 21)
    #expect(RadixSort.sorted(input, threads: 2) == input.flatMap { $0 }.sorted())
  }
}
