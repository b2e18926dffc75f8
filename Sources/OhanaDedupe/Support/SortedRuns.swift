import OhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sorted `UInt64` values in runs laid end to end (run `r` is
/// `bounds[r]..<bounds[r + 1]`, every value of run `r` below every value of
/// run `r + 1`), in one anonymous mapping of their own, from which a run is
/// handed back to the system once it has been read (``release(_:)``). A
/// reader that goes run by run (blocking's pairs, the unique pairs) thus
/// holds the whole only at its start, while its own output grows.
///
/// Owns the mapping and the only unsafe pointers of the runs; made by
/// ``RadixSort/runs(_:threads:cutMask:)``.
final class SortedRuns: @unchecked Sendable {
  // Safe: `fill` writes the values before any reader has the runs; then a
  // run is read, and released, by one piece of work at a time (the
  // callers' pool jobs), and released pages are never read again.
  private let base: UnsafeMutablePointer<UInt64>?
  private let byteCount: Int
  /// Whether `base` is a mapping of its own (else malloc'd: release is a no-op).
  private let mapped: Bool
  private(set) var bounds: [Int] = [0, 0]
  /// The values' count.
  let count: Int

  init(capacity n: Int) {
    count = n
    byteCount = n * MemoryLayout<UInt64>.stride
    guard n > 0 else {
      base = nil
      mapped = false
      return
    }
    let p = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if let p, p != MAP_FAILED {
      base = p.bindMemory(to: UInt64.self, capacity: n)
      mapped = true
    } else {
      base = .allocate(capacity: n)
      mapped = false
    }
  }

  deinit {
    guard let base else { return }
    if mapped { munmap(UnsafeMutableRawPointer(base), byteCount) } else { base.deallocate() }
  }

  /// Fills the values: `body` writes all `count` of them and returns the
  /// runs' bounds (`0`, …, `count`).
  func fill(_ body: (UnsafeMutableBufferPointer<UInt64>) -> [Int]) {
    let b = body(UnsafeMutableBufferPointer(start: base, count: count))
    bounds = b.count >= 2 && b[0] == 0 && b[b.count - 1] == count ? b : [0, count]
  }

  var runCount: Int { bounds.count - 1 }

  /// Run `r`'s values (empty after ``release(_:)``, whose pages read as 0).
  func withRun<R>(_ r: Int, _ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
    body(UnsafeBufferPointer(start: base.map { $0 + bounds[r] }, count: bounds[r + 1] - bounds[r]))
  }

  /// Hands run `r`'s whole pages back to the system (the pages it shares
  /// with its neighbours stay). Its values must not be read again.
  func release(_ r: Int) {
    guard mapped, let base else { return }
    let page = Self.pageSize
    let start = UInt(bitPattern: base + bounds[r]), end = UInt(bitPattern: base + bounds[r + 1])
    let from = (start + page - 1) / page * page, to = end / page * page
    if to > from { _ = madvise(UnsafeMutableRawPointer(bitPattern: from), Int(to - from), Int32(MADV_DONTNEED)) }
  }

  private static let pageSize = UInt(max(4096, sysconf(Int32(_SC_PAGESIZE))))

  /// The values without repeats, in order, as one array; each run is
  /// released as soon as it is copied. Equal values are always in one run,
  /// so each run is made unique on its own (in place), then copied to its
  /// place.
  func uniqued(threads: Int) -> [UInt64] {
    let runs = runCount
    let uniques = Parallel.map(runs, workers: threads) { r -> Int in
      let lo = bounds[r], hi = bounds[r + 1]
      guard let base, hi > lo else { return 0 }
      var kept = lo + 1
      for i in (lo + 1)..<hi where base[i] != base[kept - 1] {
        base[kept] = base[i]
        kept += 1
      }
      return kept - lo
    }
    var starts = [Int](repeating: 0, count: runs + 1)
    for r in 0..<runs { starts[r + 1] = starts[r] + uniques[r] }
    let total = starts[runs]
    return [UInt64](unsafeUninitializedCapacity: total) { out, initialized in
      if let to = out.baseAddress, let from = base {
        Parallel.forEach(runs, workers: threads) { r in
          (to + starts[r]).initialize(from: from + bounds[r], count: uniques[r])
          release(r)
        }
      }
      initialized = total
    }
  }
}
