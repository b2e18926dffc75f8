import Dispatch
import OhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds of CPU used so far by every thread of the process.
enum ProcessCPU {
  static func seconds() -> Double {
    var t = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 else { return 0 }
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
  }
}

/// Splits `0..<count` into contiguous chunks and runs `body` on them on all
/// cores (or `threads`). Each chunk's result is returned in chunk order, so
/// callers merge without locks.
enum Parallel {
  static func workerCount(_ threads: Int) -> Int {
    if threads > 0 { return threads }
    return Workers.count
  }

  static func map<R: Sendable>(
    count: Int, threads: Int, minimumChunk: Int = 4096,
    _ body: @Sendable (Range<Int>) -> R
  ) -> [R] {
    let workers = workerCount(threads)
    let chunks = max(1, min(workers * 4, (count + minimumChunk - 1) / minimumChunk))
    if chunks == 1 { return [body(0..<count)] }
    let results = ResultSlots<R>(count: chunks)
    DispatchQueue.concurrentPerform(iterations: chunks) { c in
      let lo = count * c / chunks, hi = count * (c + 1) / chunks
      results.set(c, body(lo..<hi))
    }
    return results.values()
  }

  /// `map(count:threads:minimumChunk:_:)` with `beside` run as one more
  /// task among the chunks (the first taken, so that it starts at once):
  /// a job that is mostly serial overlaps the chunks instead of running
  /// before them with a core idle. Chunks are finer than `map`'s, so that
  /// the worker that ran `beside` and the others end together. (`both`
  /// with a `map` inside would not do: Dispatch runs a nested
  /// concurrentPerform's iterations on its calling thread alone when the
  /// outer one already holds every core.)
  static func map<A: Sendable, R: Sendable>(
    count: Int, threads: Int, minimumChunk: Int = 4096, beside: @Sendable () -> A,
    _ body: @Sendable (Range<Int>) -> R
  ) -> (A, [R]) {
    let workers = workerCount(threads)
    if workers < 2 { return (beside(), map(count: count, threads: threads, minimumChunk: minimumChunk, body)) }
    let chunks = max(1, min(workers * 8, (count + minimumChunk - 1) / minimumChunk))
    let first = ResultSlots<A>(count: 1)
    let results = ResultSlots<R>(count: chunks)
    DispatchQueue.concurrentPerform(iterations: chunks + 1) { i in
      if i == 0 {
        first.set(0, beside())
        return
      }
      let lo = count * (i - 1) / chunks, hi = count * i / chunks
      results.set(i - 1, body(lo..<hi))
    }
    // Set once concurrentPerform has returned.
    return (first.value(0) ?? beside(), results.values())
  }

  /// Runs `first` and `second` at the same time (one after the other with
  /// a single worker) and returns both results.
  static func both<A: Sendable, B: Sendable>(
    threads: Int, _ first: @Sendable () -> A, _ second: @Sendable () -> B
  ) -> (A, B) {
    if workerCount(threads) < 2 { return (first(), second()) }
    let a = ResultSlots<A>(count: 1), b = ResultSlots<B>(count: 1)
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      if i == 0 { a.set(0, first()) } else { b.set(0, second()) }
    }
    // Both are set once concurrentPerform has returned.
    guard let x = a.value(0), let y = b.value(0) else { return (first(), second()) }
    return (x, y)
  }
}

/// One slot per chunk, written once each by a different thread.
final class ResultSlots<R: Sendable>: @unchecked Sendable {
  // Safe: each index is written by exactly one chunk, and read only after
  // concurrentPerform has returned (which orders the writes before the reads).
  private let slots: UnsafeMutableBufferPointer<R?>
  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }
  deinit {
    slots.deinitialize()
    slots.deallocate()
  }
  func set(_ i: Int, _ value: R) { slots[i] = value }
  func values() -> [R] { slots.compactMap { $0 } }
  func value(_ i: Int) -> R? { slots[i] }
}
