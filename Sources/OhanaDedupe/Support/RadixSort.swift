import Dispatch

/// In-place LSD radix sort of `UInt64` values, 16 bits a pass, skipping
/// passes where every value has the same digit. Owns its scratch buffer and
/// the only unsafe pointers of the sort.
///
/// - Complexity: O(n) per pass, at most four passes.
enum RadixSort {
  static func sort(_ values: inout [UInt64]) {
    let n = values.count
    if n < 2 { return }
    if n < 256 { values.sort(); return }
    var scratch = [UInt64](repeating: 0, count: n)
    values.withUnsafeMutableBufferPointer { v in
      scratch.withUnsafeMutableBufferPointer { s in sort(v, scratch: s) }
    }
  }

  /// Sorts `values` on two workers, partitioned around the median of an
  /// evenly spaced sample of them (see ``sort(_:split:threads:)``), so that
  /// the two sides are about equal whatever the values' spread. (Candidate
  /// pairs, `low row << 32 | high row`, crowd the low rows: split at the
  /// middle of their range, one side held three quarters of them and the
  /// sort ran at 1.3 cores of 2.)
  static func sort(_ values: inout [UInt64], threads: Int) {
    let n = values.count
    if n < 1 << 16 || Parallel.workerCount(threads) < 2 { sort(&values); return }
    sort(&values, split: sampledMedian(values), threads: threads)
  }

  /// The median of 1,024 values taken at even steps through `values`
  /// (not empty).
  static func sampledMedian(_ values: [UInt64]) -> UInt64 {
    let k = min(1024, values.count)
    var sample = (0..<k).map { values[$0 * values.count / k] }
    sample.sort()
    return sample[k / 2]
  }

  /// Sorts `values` on two workers: the values are first partitioned
  /// around `split` (those below it first), then each side is sorted on
  /// its own. The result is the same as ``sort(_:)``'s; `split` only
  /// balances the work (for values spread evenly, the middle of their range).
  static func sort(_ values: inout [UInt64], split: UInt64, threads: Int) {
    let n = values.count
    if n < 1 << 16 || Parallel.workerCount(threads) < 2 { sort(&values); return }
    var scratch = [UInt64](repeating: 0, count: n)
    values.withUnsafeMutableBufferPointer { v in
      scratch.withUnsafeMutableBufferPointer { s in
        // Hoare partition: [0, mid) < split <= [mid, n).
        var i = 0, j = n - 1
        while true {
          while i <= j && v[i] < split { i += 1 }
          while i <= j && v[j] >= split { j -= 1 }
          if i >= j { break }
          v.swapAt(i, j)
          i += 1
          j -= 1
        }
        let halves = SortHalves(values: v, scratch: s, mid: i)
        DispatchQueue.concurrentPerform(iterations: 2) { half in halves.sort(half) }
      }
    }
  }

  /// Sorts `v` using `scratch` (at least as long) as the other buffer.
  static func sort(_ v: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<UInt64>) {
    let n = v.count
    if n < 2 { return }
    if n < 256 {
      var w = v
      w.sort()
      return
    }
    var counts = [Int](repeating: 0, count: 65536)
    var inScratch = false
    counts.withUnsafeMutableBufferPointer { c in
      for pass in 0..<4 {
        let shift = UInt64(pass * 16)
        for i in 0..<65536 { c[i] = 0 }
        let src = inScratch ? UnsafeMutableBufferPointer(rebasing: scratch[0..<n]) : v
        let dst = inScratch ? v : UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
        // Histogram.
        for x in src { c[Int((x >> shift) & 0xFFFF)] += 1 }
        // All in one bucket: this digit is the same everywhere, skip the pass.
        if c[Int((src[0] >> shift) & 0xFFFF)] == n { continue }
        var sum = 0
        for i in 0..<65536 { let k = c[i]; c[i] = sum; sum += k }
        for x in src { let b = Int((x >> shift) & 0xFFFF); dst[c[b]] = x; c[b] += 1 }
        inScratch.toggle()
      }
    }
    if inScratch {
      for i in 0..<n { v[i] = scratch[i] }
    }
  }
}

/// The two sides of a partitioned buffer, each sorted by one worker.
private final class SortHalves: @unchecked Sendable {
  // Safe: the two halves (and their scratch) are disjoint, each is touched
  // by exactly one iteration, and concurrentPerform returns only when both
  // are done, inside the callers' buffer scopes.
  let values: UnsafeMutableBufferPointer<UInt64>
  let scratch: UnsafeMutableBufferPointer<UInt64>
  let mid: Int

  init(values: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<UInt64>, mid: Int) {
    self.values = values
    self.scratch = scratch
    self.mid = mid
  }

  func sort(_ half: Int) {
    let range = half == 0 ? 0..<mid : mid..<values.count
    RadixSort.sort(
      UnsafeMutableBufferPointer(rebasing: values[range]), scratch: UnsafeMutableBufferPointer(rebasing: scratch[range]))
  }
}
