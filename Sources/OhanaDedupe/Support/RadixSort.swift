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

  /// `parts` laid end to end and sorted: equal to sorting their
  /// concatenation. On two workers, one pass moves every value straight
  /// from its part to its side of a sampled median (the lay-out and the
  /// partition at once; each worker takes about half of the values, whole
  /// parts, and frees each part once it is moved), then each side is sorted
  /// on its own. (Laid out first and then partitioned, the two copies ran
  /// on one core: at 1,000,000 contacts 0.07-0.1 s of the blocking keys'
  /// sort and 0.07 s of the pairs'.)
  static func sorted(_ parts: consuming [[UInt64]], threads: Int) -> [UInt64] {
    let n = parts.reduce(0) { $0 + $1.count }
    if n < 1 << 16 || parts.count < 2 || Parallel.workerCount(threads) < 2 {
      var all: [UInt64] = []
      all.reserveCapacity(n)
      for i in parts.indices {
        all.append(contentsOf: parts[i])
        parts[i] = []
      }
      sort(&all, threads: threads)
      return all
    }
    let split = sampledMedian(parts, total: n)
    let slots = PartSlots(parts)
    // Worker 0 moves parts [0, cut), worker 1 the rest: about half each.
    var cut = 0, before = 0
    while cut < slots.counts.count - 1 && before + slots.counts[cut] / 2 < n / 2 {
      before += slots.counts[cut]
      cut += 1
    }
    let ranges = [0..<cut, cut..<slots.counts.count]
    // Each part's values below the split, counted by its worker.
    DispatchQueue.concurrentPerform(iterations: 2) { w in slots.countBelow(split, parts: ranges[w]) }
    var lowStart = [Int](repeating: 0, count: slots.counts.count)
    var highStart = lowStart
    let mid = slots.below.reduce(0, +)
    var lo = 0, hi = mid
    for p in 0..<slots.counts.count {
      lowStart[p] = lo
      highStart[p] = hi
      lo += slots.below[p]
      hi += slots.counts[p] - slots.below[p]
    }
    return [UInt64](unsafeUninitializedCapacity: n) { buffer, initialized in
      // The scratch is faulted in by the worker of each side as it sorts.
      let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
      defer { scratch.deallocate() }
      let halves = SortHalves(values: buffer, scratch: scratch, mid: mid)
      let (lows, highs) = (lowStart, highStart)
      DispatchQueue.concurrentPerform(iterations: 2) { w in
        for p in ranges[w] { slots.move(p, split: split, into: halves.values, low: lows[p], high: highs[p]) }
      }
      DispatchQueue.concurrentPerform(iterations: 2) { half in halves.sort(half) }
      initialized = n
    }
  }

  /// The median of 1,024 values taken at even steps through `parts` laid
  /// end to end (`total` values, at least one).
  static func sampledMedian(_ parts: [[UInt64]], total: Int) -> UInt64 {
    let k = min(1024, total)
    var sample: [UInt64] = []
    sample.reserveCapacity(k)
    var part = 0, start = 0
    for s in 0..<k {
      let at = s * total / k
      while at >= start + parts[part].count {
        start += parts[part].count
        part += 1
      }
      sample.append(parts[part][at - start])
    }
    sample.sort()
    return sample[k / 2]
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

/// The parts of ``RadixSort/sorted(_:threads:)``, each taken by one
/// worker: counted, then moved to its places and freed.
private final class PartSlots: @unchecked Sendable {
  // Safe: worker w touches only the parts (and `below` entries) of its own
  // range, the two ranges are disjoint, and each concurrentPerform returns
  // only when both workers are done.
  private let parts: UnsafeMutableBufferPointer<[UInt64]>
  let counts: [Int]
  private let belowSlots: UnsafeMutableBufferPointer<Int>

  init(_ values: consuming [[UInt64]]) {
    counts = values.map(\.count)
    parts = .allocate(capacity: values.count)
    _ = parts.initialize(fromContentsOf: values)
    belowSlots = .allocate(capacity: values.count)
    belowSlots.initialize(repeating: 0)
  }

  deinit {
    parts.deinitialize()
    parts.deallocate()
    belowSlots.deallocate()
  }

  var below: [Int] { Array(belowSlots) }

  func countBelow(_ split: UInt64, parts range: Range<Int>) {
    for p in range {
      var k = 0
      for x in parts[p] where x < split { k += 1 }
      belowSlots[p] = k
    }
  }

  /// Moves part `p`'s values below `split` to `values[low...]` and the
  /// others to `values[high...]`, in order, then frees the part.
  func move(_ p: Int, split: UInt64, into values: UnsafeMutableBufferPointer<UInt64>, low: Int, high: Int) {
    var lo = low, hi = high
    parts[p].withUnsafeBufferPointer { src in
      for x in src {
        let below = x < split
        values[below ? lo : hi] = x
        lo &+= below ? 1 : 0
        hi &+= below ? 0 : 1
      }
    }
    parts[p] = []
  }
}
