import OhanaCore

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

  /// Sorts `values` on the workers: a sample sort (see
  /// ``sorted(_:threads:)``), the same result as ``sort(_:)``.
  static func sort(_ values: inout [UInt64], threads: Int) {
    let buckets = bucketCount(values.count, threads: threads)
    if buckets < 2 { sort(&values); return }
    let splitters = sampledSplitters([values], total: values.count, buckets: buckets)
    var scratch = [UInt64](repeating: 0, count: values.count)
    values.withUnsafeMutableBufferPointer { v in
      scratch.withUnsafeMutableBufferPointer { s in
        // Pieces of the input spread into the scratch by bucket, each
        // bucket sorted in its place with the input's span as its scratch,
        // then copied back.
        let input = SlicedInput(
          base: UnsafeBufferPointer(v), pieces: Parallel.pieces(v.count, workers: threads, perWorker: 4, minimumPiece: 1 << 14))
        let plan = BucketPlan(input, splitters: splitters, threads: threads)
        plan.scatter(input, into: s, threads: threads, free: nil)
        plan.sortBuckets(s, scratch: v, threads: threads, copyBack: true)
      }
    }
  }

  /// `parts` laid end to end and sorted: equal to sorting their
  /// concatenation. A sample sort on every worker: splitters from an even
  /// sample cut the values into many more buckets than workers; each part
  /// is counted by bucket, then moved straight to its buckets' places in
  /// the output (and freed), then each bucket is sorted on its own (LSD
  /// radix). Every step is cut into pieces taken by whichever worker is
  /// free, so an uneven part or bucket holds up only its own worker.
  static func sorted(_ parts: consuming [[UInt64]], threads: Int) -> [UInt64] {
    let n = parts.reduce(0) { $0 + $1.count }
    let buckets = bucketCount(n, threads: threads)
    if buckets < 2 {
      var all: [UInt64] = []
      all.reserveCapacity(n)
      for i in parts.indices {
        all.append(contentsOf: parts[i])
        parts[i] = []
      }
      sort(&all)
      return all
    }
    let splitters = sampledSplitters(parts, total: n, buckets: buckets)
    let owned = OwnedParts(parts)
    return [UInt64](unsafeUninitializedCapacity: n) { buffer, initialized in
      let plan = BucketPlan(owned, splitters: splitters, threads: threads)
      plan.scatter(owned, into: buffer, threads: threads, free: owned)
      plan.sortBuckets(buffer, threads: threads)
      initialized = n
    }
  }

  /// `parts` sorted as by ``sorted(_:threads:)``, into ``SortedRuns``:
  /// runs cut where `value & cutMask` changes (values equal under the mask
  /// share a run), each of which the reader can hand back to the system
  /// once read. With one worker the values are cut into runs too, so that
  /// they can still be released run by run.
  static func runs(_ parts: consuming [[UInt64]], threads: Int, cutMask: UInt64 = .max) -> SortedRuns {
    let n = parts.reduce(0) { $0 + $1.count }
    let workers = Parallel.workerCount(threads)
    let buckets = n < 1 << 16 ? 1 : min(max(workers * 4, n >> 20), n >> 15)
    let splitters = buckets < 2 ? [] : sampledSplitters(parts, total: n, buckets: buckets).map { $0 & cutMask }
    let owned = OwnedParts(parts)
    let runs = SortedRuns(capacity: n)
    runs.fill { buffer in
      let plan = BucketPlan(owned, splitters: splitters, threads: threads)
      plan.scatter(owned, into: buffer, threads: threads, free: owned)
      plan.sortBuckets(buffer, threads: threads)
      return plan.bounds
    }
    return runs
  }

  /// Buckets for a parallel sort of `n` values: at least four a worker,
  /// none under 2^15 values (each bucket's LSD sort clears a 65,536-entry
  /// histogram a pass); below 2, sort on one thread.
  static func bucketCount(_ n: Int, threads: Int) -> Int {
    let workers = Parallel.workerCount(threads)
    if workers < 2 || n < 1 << 16 { return 1 }
    // At least four a worker; more for large inputs, so that the buckets
    // being sorted at once (each with a scratch of its own size) hold a
    // small share of the values: about 2^20 a bucket.
    return min(max(workers * 4, n >> 20), n >> 15)
  }

  /// `buckets - 1` ascending splitters: the quantiles of an even sample of
  /// `parts` laid end to end (`total` values, at least one). Bucket `b`
  /// holds the values `v` with `splitters[b - 1] <= v < splitters[b]`.
  static func sampledSplitters(_ parts: [[UInt64]], total: Int, buckets: Int) -> [UInt64] {
    let k = min(total, buckets * 64)
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
    return (1..<buckets).map { sample[$0 * k / buckets] }
  }

  /// The median of 1,024 values taken at even steps through `values`
  /// (not empty).
  static func sampledMedian(_ values: [UInt64]) -> UInt64 {
    sampledSplitters([values], total: values.count, buckets: 2)[0]
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

/// The bucket of every value and the place of every part's share of each
/// bucket: counted in parallel by part, laid out by bucket then part.
private final class BucketPlan: @unchecked Sendable {
  // Safe: `counts` rows are written by one piece each (its part) before
  // the pool returns; afterwards only read. The scatter writes disjoint
  // ranges of the output (part p's share of bucket b), and each bucket's
  // sort touches only its own range.
  let splitters: [UInt64]
  let buckets: Int
  /// counts[p * buckets + b]: values of part p in bucket b; then, after
  /// `layout`, the place of part p's first value of bucket b.
  private var starts: [Int]
  /// Bucket b's range of the output: bounds[b]..<bounds[b + 1].
  private(set) var bounds: [Int]

  init(_ parts: some SortInput, splitters: [UInt64], threads: Int) {
    self.splitters = splitters
    buckets = splitters.count + 1
    let b = buckets
    let rows = Parallel.map(parts.count, workers: threads) { p -> [Int] in
      var c = [Int](repeating: 0, count: b)
      parts.withPart(p) { for x in $0 { c[Self.bucket(x, splitters)] += 1 } }
      return c
    }
    // Laid out bucket by bucket, each bucket's shares in part order.
    starts = [Int](repeating: 0, count: parts.count * b)
    bounds = [Int](repeating: 0, count: b + 1)
    var at = 0
    for bucket in 0..<b {
      bounds[bucket] = at
      for p in 0..<parts.count {
        starts[p * b + bucket] = at
        at += rows[p][bucket]
      }
    }
    bounds[b] = at
  }

  /// The bucket of `x`: how many splitters are at most `x` (binary search).
  @inline(__always)
  static func bucket(_ x: UInt64, _ splitters: [UInt64]) -> Int {
    var lo = 0, hi = splitters.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if splitters[mid] <= x { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Moves every part's values to their bucket's places in `output`, in
  /// parallel by part; `free` releases each part once moved.
  func scatter(
    _ parts: some SortInput, into output: UnsafeMutableBufferPointer<UInt64>, threads: Int,
    free: OwnedParts<UInt64>?
  ) {
    let b = buckets
    Parallel.forEach(parts.count, workers: threads) { p in
      var place = Array(starts[(p * b)..<((p + 1) * b)])
      parts.withPart(p) {
        for x in $0 {
          let k = Self.bucket(x, splitters)
          output[place[k]] = x
          place[k] &+= 1
        }
      }
      free?.release(p)
    }
  }

  /// Sorts each bucket of `values` in place with the same range of
  /// `scratch`, largest buckets first; with `copyBack`, the sorted values
  /// end in `scratch` instead.
  func sortBuckets(
    _ values: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<UInt64>, threads: Int,
    copyBack: Bool
  ) {
    let order = largestFirst
    Parallel.forEach(buckets, workers: threads) { i in
      let range = bucketRange(order[i])
      let v = UnsafeMutableBufferPointer(rebasing: values[range])
      let s = UnsafeMutableBufferPointer(rebasing: scratch[range])
      RadixSort.sort(v, scratch: s)
      if copyBack { _ = s.update(fromContentsOf: v) }
    }
  }

  /// Sorts each bucket of `values` in place, largest first, each with a
  /// scratch of its own size taken while it is sorted (so the scratch in
  /// use at once is a few buckets, not the whole).
  func sortBuckets(_ values: UnsafeMutableBufferPointer<UInt64>, threads: Int) {
    let order = largestFirst
    Parallel.forEach(buckets, workers: threads) { i in
      let range = bucketRange(order[i])
      if range.count < 2 { return }
      let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: range.count)
      defer { scratch.deallocate() }
      RadixSort.sort(UnsafeMutableBufferPointer(rebasing: values[range]), scratch: scratch)
    }
  }

  private func bucketRange(_ b: Int) -> Range<Int> { bounds[b]..<bounds[b + 1] }

  /// The buckets, largest first (so that a large one does not start last).
  private var largestFirst: [Int] {
    (0..<buckets).sorted { x, y in
      let sx = bounds[x + 1] - bounds[x], sy = bounds[y + 1] - bounds[y]
      return sx != sy ? sx > sy : x < y
    }
  }
}

/// What a sample sort reads: numbered parts of values.
private protocol SortInput: Sendable {
  var count: Int { get }
  func withPart<R>(_ p: Int, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R
}

/// A buffer read in `pieces` contiguous pieces.
private struct SlicedInput: SortInput, @unchecked Sendable {
  // Safe: only read, within the caller's buffer scope.
  let base: UnsafeBufferPointer<UInt64>
  let pieces: Int
  var count: Int { pieces }
  func withPart<R>(_ p: Int, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
    body(UnsafeBufferPointer(rebasing: base[Parallel.piece(p, of: pieces, count: base.count)]))
  }
}

extension OwnedParts: SortInput where Element == UInt64 {
  func withPart<R>(_ p: Int, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R { part(p).withUnsafeBufferPointer(body) }
}
