import COhanaCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The engine's threads: every stage's parallel work runs here (DESIGN.md
/// section 11), on the calling thread plus at most `Workers.count - 1`
/// threads of the pool's own, never on a pool sized to the hardware.
///
/// Work comes as *jobs* of numbered pieces (morsels). The pieces of a job
/// are handed out in order from one cursor: the caller takes pieces of its
/// own job, and each idle pool thread takes pieces of the oldest job that
/// still has some and room for another helper. So a stage cut into many
/// more pieces than workers keeps every worker busy to its end, and an
/// uneven piece holds up no one but its own worker.
///
/// Nesting is safe: a piece that starts a job of its own runs that job's
/// pieces itself while idle threads help, and it waits only for pieces
/// already running (which finish: their own nested jobs are run the same
/// way). A job never waits for a thread to become free.
///
/// One lock (a ``Monitor``) guards the jobs; a piece is claimed under it,
/// so pieces should be worth more than a few microseconds (every stage's
/// pieces are thousands of rows).
package final class WorkerPool: @unchecked Sendable {
  // Safe: every stored property but `monitor` is read and written only
  // holding `monitor`'s lock.

  /// The pool every stage uses.
  package static let shared = WorkerPool()

  private let monitor = Monitor()
  private var jobs: [Job] = []
  private var threads = 0
  /// Threads running a piece (any job, a nested one counted once).
  private var busy = 0
  /// The most threads ever running pieces at once.
  private var peak = 0
  /// With `OHANA_TRACE_PHASES`: seconds during which fewer than all
  /// workers ran pieces, and during which at most one did (the serial part).
  private let traced = PhaseTrace.enabled
  private var lastChange = 0.0
  private var underAll = 0.0
  private var single = 0.0

  /// A job: `count` pieces, the next to hand out, how many have finished.
  final class Job: @unchecked Sendable {
    // Safe: the counters are touched only under the pool's lock; `body` is
    // only called, never changed.
    let body: (Int) -> Void
    let count: Int
    let maxHelpers: Int
    var next = 0
    var finished = 0
    var helpers = 0
    init(count: Int, maxHelpers: Int, body: @escaping (Int) -> Void) {
      self.count = count
      self.maxHelpers = maxHelpers
      self.body = body
    }
    var complete: Bool { finished == count }
  }

  package init() {}

  /// Threads the pool has started (they wait for work when idle).
  package var threadCount: Int { monitor.withLock { threads } }

  /// The most threads that ever ran pieces at once (callers included).
  package var peakBusy: Int { monitor.withLock { peak } }

  /// With `OHANA_TRACE_PHASES` set: the seconds so far during which fewer
  /// than all workers ran pieces, and during which at most one did.
  package func utilization() -> (underAll: Double, single: Double) {
    monitor.withLock {
      account()
      return (underAll, single)
    }
  }

  /// Adds the time since the last change of `busy` to the counters
  /// (holding the lock).
  private func account() {
    guard traced else { return }
    let t = Self.monotonic()
    if lastChange > 0 {
      let dt = t - lastChange
      if busy < Workers.count { underAll += dt }
      if busy <= 1 { single += dt }
    }
    lastChange = t
  }

  private static func monotonic() -> Double {
    var w = timespec()
    clock_gettime(CLOCK_MONOTONIC, &w)
    return Double(w.tv_sec) + Double(w.tv_nsec) * 1e-9
  }

  /// Runs `body(0) ... body(count - 1)` on the calling thread and up to
  /// `workers - 1` of the pool's threads; returns when every piece has run.
  package func run(_ count: Int, workers: Int, _ body: (Int) -> Void) {
    if count <= 0 { return }
    let helpers = min(max(1, workers), count) - 1
    if helpers == 0 {
      // On this thread alone (still one busy thread for the trace).
      let outermost = enter()
      for i in 0..<count { body(i) }
      leave(outermost)
      return
    }
    withoutActuallyEscaping(body) { body in
      // The job does not outlive this call: it is waited for below.
      let job = Job(count: count, maxHelpers: helpers, body: body)
      monitor.lock()
      startThreads(helpers)
      jobs.append(job)
      monitor.broadcast()
      drain(job)
      while !job.complete { monitor.wait() }
      monitor.unlock()
    }
  }

  /// Starts `body(0) ... body(count - 1)` on up to `count` pool threads
  /// and returns at once; `wait()` on the handle runs the pieces no pool
  /// thread took yet on the waiting thread (so they run even when the
  /// pool has no thread to spare), then waits for the others.
  package func start(_ count: Int = 1, _ body: @escaping @Sendable (Int) -> Void) -> Started {
    let job = Job(count: max(0, count), maxHelpers: max(0, count), body: body)
    monitor.lock()
    if job.complete {
      monitor.unlock()
      return Started(pool: self, job: job)
    }
    startThreads(min(count, max(1, Workers.count - 1)))
    jobs.append(job)
    monitor.broadcast()
    monitor.unlock()
    return Started(pool: self, job: job)
  }

  /// A job started by ``start(_:_:)``.
  package struct Started: Sendable {
    fileprivate let pool: WorkerPool
    fileprivate let job: Job

    /// Waits for the job (running it here if no thread took it yet).
    package func wait() { pool.finish(job) }
  }

  fileprivate func finish(_ job: Job) {
    monitor.lock()
    drain(job)
    while !job.complete { monitor.wait() }
    monitor.unlock()
  }

  /// Runs the job's unclaimed pieces on this thread (holding the lock on
  /// entry and on return, not while a piece runs).
  private func drain(_ job: Job) {
    while job.next < job.count {
      let i = job.next
      job.next += 1
      let outermost = enterHoldingLock()
      monitor.unlock()
      job.body(i)
      monitor.lock()
      leaveHoldingLock(outermost)
      job.finished += 1
      if job.complete {
        jobs.removeAll { $0 === job }
        monitor.broadcast()
      }
    }
  }

  /// Runs `body` on this thread counted as a busy worker (for the trace):
  /// work a caller does between pieces, such as the writer's sink.
  package func working<R>(_ body: () throws -> R) rethrows -> R {
    let outermost = enter()
    defer { leave(outermost) }
    return try body()
  }

  /// Marks this thread busy (once, however deeply nested); true when it
  /// was not busy before.
  private func enter() -> Bool {
    monitor.lock()
    defer { monitor.unlock() }
    return enterHoldingLock()
  }

  private func leave(_ outermost: Bool) { monitor.withLock { leaveHoldingLock(outermost) } }

  private func enterHoldingLock() -> Bool {
    if ohana_pool_enter() != 0 { return false }
    account()
    busy += 1
    peak = max(peak, busy)
    return true
  }

  private func leaveHoldingLock(_ outermost: Bool) {
    ohana_pool_leave()
    guard outermost else { return }
    account()
    busy -= 1
  }

  /// A job with a piece left and room for one more helper (oldest first).
  private func jobWanting() -> Job? {
    for job in jobs where job.next < job.count && job.helpers < job.maxHelpers { return job }
    return nil
  }

  /// A pool thread's life: take pieces of jobs that want help, else wait.
  private func serve() {
    monitor.lock()
    while true {
      if let job = jobWanting() {
        job.helpers += 1
        drain(job)
        job.helpers -= 1
      } else {
        monitor.wait()
      }
    }
  }

  /// Grows the pool to `n` threads (holding the lock). A thread the system
  /// refuses is not counted: its work is done by the other threads and
  /// the callers.
  private func startThreads(_ n: Int) {
    while threads < n {
      guard ThreadStart.detached({ [self] in serve() }) else { return }
      threads += 1
    }
  }
}

/// Starts detached POSIX threads (4 MiB stacks), without Foundation.
package enum ThreadStart {
  private final class Start: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts a detached thread running `body`; false when none could be made.
  package static func detached(_ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return false }
    defer { pthread_attr_destroy(&attributes) }
    _ = pthread_attr_setstacksize(&attributes, 4 << 20)
    _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t? = nil
    #else
      var thread = pthread_t()
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { raw in
        guard let raw else { return nil }
        let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
        start.body()
        return nil
      }, context)
    if status != 0 {
      Unmanaged<Start>.fromOpaque(context).release()
      return false
    }
    return true
  }
}

/// The parallel map every stage uses, over ``WorkerPool/shared``.
package enum Parallel {
  /// The workers a stage uses: `threads` when positive, else `Workers.count`.
  package static func workerCount(_ threads: Int = 0) -> Int { threads > 0 ? threads : Workers.count }

  /// Runs `body(0) ... body(count - 1)`, each piece once, on up to
  /// `workers` threads (the caller's included).
  package static func forEach(_ count: Int, workers: Int = 0, _ body: (Int) -> Void) {
    WorkerPool.shared.run(count, workers: workerCount(workers), body)
  }

  /// ``forEach(_:workers:_:)`` with a body that throws: after the first
  /// error no piece starts; the error of the lowest-numbered piece that
  /// failed is rethrown once all running pieces have ended.
  package static func tryForEach(_ count: Int, workers: Int = 0, _ body: (Int) throws -> Void) throws {
    let failures = ResultSlots<any Error>(count: max(0, count))
    let failed = FailureFlag()
    forEach(count, workers: workers) { i in
      if failed.isSet { return }
      do { try body(i) } catch {
        failures.set(i, error)
        failed.set()
      }
    }
    if failed.isSet, let first = failures.values().first { throw first }
  }

  /// `body(i)` for every `i` in `0..<count`, in order.
  package static func map<R>(_ count: Int, workers: Int = 0, _ body: (Int) -> R) -> [R] {
    let slots = ResultSlots<R>(count: max(0, count))
    forEach(count, workers: workers) { slots.set($0, body($0)) }
    return slots.values()
  }

  /// The `i`th of `pieces` contiguous, nearly equal parts of `0..<count`.
  package static func piece(_ i: Int, of pieces: Int, count: Int) -> Range<Int> {
    (count * i / pieces)..<(count * (i + 1) / pieces)
  }

  /// How many pieces to cut `count` items into: `perWorker` a worker (so
  /// that uneven pieces even out), none smaller than `minimumPiece` items.
  package static func pieces(_ count: Int, workers: Int = 0, perWorker: Int = 8, minimumPiece: Int = 4096) -> Int {
    max(1, min(workerCount(workers) * perWorker, (count + minimumPiece - 1) / max(1, minimumPiece)))
  }

  /// Cuts `0..<count` into contiguous pieces and maps them on the pool;
  /// the results in piece order, so callers merge without locks.
  package static func map<R>(
    count: Int, threads: Int = 0, minimumChunk: Int = 4096, _ body: (Range<Int>) -> R
  ) -> [R] {
    let n = pieces(count, workers: threads, minimumPiece: minimumChunk)
    if n == 1 { return [body(0..<count)] }
    return map(n, workers: threads) { body(piece($0, of: n, count: count)) }
  }

  /// ``map(count:threads:minimumChunk:_:)`` with `beside` run as one more
  /// piece, the first handed out (so that it starts at once): a job that
  /// is mostly serial overlaps the pieces instead of running before them
  /// with the other workers idle.
  package static func map<A, R>(
    count: Int, threads: Int = 0, minimumChunk: Int = 4096, beside: () -> A, _ body: (Range<Int>) -> R
  ) -> (A, [R]) {
    let n = pieces(count, workers: threads, minimumPiece: minimumChunk)
    let first = ResultSlots<A>(count: 1)
    let results = ResultSlots<R>(count: n)
    forEach(n + 1, workers: threads) { i in
      if i == 0 {
        first.set(0, beside())
      } else {
        results.set(i - 1, body(piece(i - 1, of: n, count: count)))
      }
    }
    return (first.take(0), results.values())
  }

  /// Runs `first` and `second` at the same time (one after the other with
  /// a single worker) and returns both results.
  package static func both<A, B>(threads: Int = 0, _ first: () -> A, _ second: () -> B) -> (A, B) {
    let a = ResultSlots<A>(count: 1), b = ResultSlots<B>(count: 1)
    forEach(2, workers: threads) { i in
      if i == 0 { a.set(0, first()) } else { b.set(0, second()) }
    }
    return (a.take(0), b.take(0))
  }
}

extension Parallel {
  /// Produces `produce(0) ... produce(count - 1)` on the workers and hands
  /// each to `consume` on the calling thread, in order: an encoder and its
  /// writer (the output of `convert`, the generator's cards).
  ///
  /// With two workers or more, `workers` threads produce (the pool's, and one
  /// started for the call, as the calling thread would be in a parallel map),
  /// at most `window` pieces past the last one consumed, while the calling
  /// thread consumes: its `write(2)` may sleep while the kernel flushes dirty
  /// pages, and as one of the producers it would leave a worker's share undone
  /// meanwhile. The calling thread produces only while no other thread does
  /// (one worker, or every producer not yet started), so it never waits for
  /// nothing. `consume` owns each piece (it may move it out). An error from
  /// `consume` stops the producers at their next piece and is rethrown.
  package static func ordered<T>(
    _ count: Int, workers: Int = 0, window: Int? = nil, produce: @escaping @Sendable (Int) -> T,
    consume: (Int, inout T) throws -> Void
  ) rethrows {
    if count <= 0 { return }
    let w = workerCount(workers)
    let pieces = OrderedPieces<T>(count: count, window: window ?? max(16, 8 * w))
    let loop: @Sendable () -> Void = { pieces.producing { i in pieces.set(i, produce(i)) } }
    let helpers = WorkerPool.shared.start(w >= 2 ? min(w - 1, count) : 0) { _ in loop() }
    // The thread started for the call counts as a busy worker only while
    // it produces a piece (a pool thread counts for its whole loop), and
    // never produces while the calling thread does (see `claim`): with
    // `--threads N`, at most N threads run pieces at once.
    if w >= 2 {
      _ = ThreadStart.detached {
        pieces.producing { i in WorkerPool.shared.working { pieces.set(i, produce(i)) } }
      }
    }
    defer {
      pieces.stop()
      helpers.wait()
      pieces.waitForProducers()
    }
    for i in 0..<count {
      var piece = pieces.take(i) { k in WorkerPool.shared.working { produce(k) } }
      try consume(i, &piece)
    }
  }
}

/// The pieces of ``Parallel/ordered(_:workers:window:produce:consume:)``:
/// produced ones waiting for their turn, and the next to hand out.
private final class OrderedPieces<T>: @unchecked Sendable {
  // Safe: every property is touched only under `monitor`.
  private let monitor = Monitor()
  private var items: [T?]
  private var next = 0
  private var consumed = 0
  private var stopped = false
  /// Pool threads in their producing loop now.
  private var producers = 0
  /// The consumer produces a piece itself now (no other thread starts one
  /// meanwhile: it would run beside the consumer's piece, one thread more
  /// than the workers asked for).
  private var consumerProducing = false
  private let window: Int

  init(count: Int, window: Int) {
    items = Array(repeating: nil, count: count)
    self.window = max(1, window)
  }

  /// A pool thread's loop: claims and produces pieces until none is left.
  func producing(_ body: (Int) -> Void) {
    monitor.withLock { producers += 1 }
    defer {
      monitor.withLock { producers -= 1 }
      monitor.broadcast()
    }
    while let i = claim() { body(i) }
  }

  /// The next piece to produce, waiting while the window is full; nil when
  /// every piece is handed out or the consumer stopped.
  func claim() -> Int? {
    monitor.lock()
    defer { monitor.unlock() }
    while !stopped && next < items.count && (next >= consumed + window || consumerProducing) { monitor.wait() }
    if stopped || next >= items.count { return nil }
    next += 1
    return next - 1
  }

  func set(_ i: Int, _ value: T) {
    monitor.lock()
    items[i] = value
    monitor.broadcast()
    monitor.unlock()
  }

  /// Piece `i` (the next to consume) once produced, producing the next
  /// unclaimed pieces here meanwhile while no pool thread produces;
  /// taking it opens the window by one.
  func take(_ i: Int, producingMeanwhile produce: (Int) -> T) -> T {
    monitor.lock()
    while items[i] == nil {
      if producers == 0 && next < items.count && next < consumed + window {
        let k = next
        next += 1
        consumerProducing = true
        monitor.unlock()
        let v = produce(k)
        monitor.lock()
        consumerProducing = false
        items[k] = v
        monitor.broadcast()
      } else {
        monitor.wait()
      }
    }
    let v = items[i].take()
    consumed = i + 1
    monitor.broadcast()
    monitor.unlock()
    guard let v else { fatalError("OrderedPieces.take: piece \(i) vanished") }
    return v
  }

  /// Waits until no thread is in its producing loop.
  func waitForProducers() {
    monitor.lock()
    while producers > 0 { monitor.wait() }
    monitor.unlock()
  }

  /// No piece is handed out after this (the consumer is done or failed).
  func stop() {
    monitor.lock()
    stopped = true
    monitor.broadcast()
    monitor.unlock()
  }
}

/// Set once by any thread, read by all (a failed piece stops the rest).
private final class FailureFlag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}

/// One slot per piece of a parallel job, each written at most once, by the
/// piece of that number; read after the job has ended (the pool's lock
/// orders the writes before the reads). The one result type of the
/// runtime: `Parallel.map` collects into it.
package final class ResultSlots<R>: @unchecked Sendable {
  // Safe: slot `i` is written only by piece `i`, and read only once the
  // job has returned.
  private let slots: UnsafeMutableBufferPointer<R?>

  package init(count: Int) {
    slots = .allocate(capacity: max(0, count))
    slots.initialize(repeating: nil)
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  package var count: Int { slots.count }
  package func set(_ i: Int, _ value: R) { slots[i] = value }
  package func value(_ i: Int) -> R? { slots[i] }

  /// The value of a slot that was certainly written (a piece that ran).
  package func take(_ i: Int) -> R {
    guard let v = slots[i] else { fatalError("ResultSlots.take(\(i)): the piece never ran") }
    slots[i] = nil
    return v
  }

  /// The written slots' values in order.
  package func values() -> [R] { slots.compactMap { $0 } }
}

/// Work on a pool thread while the caller goes on (a store's SQLite writes
/// overlap with preparing what they write next; a second output is encoded
/// beside the first). With one worker it runs when waited for.
package final class BackgroundTask<T>: @unchecked Sendable {
  // Safe: `value` is written by the job before it finishes, and read only
  // after `wait()` has seen it finish (ordered by the pool's lock).
  private var value: T?
  private var started: WorkerPool.Started?

  package init(_ work: @escaping @Sendable () -> T) {
    if Workers.count < 2 {
      value = work()
      return
    }
    // Weak: a task dropped unwaited (its owner failed) is freed; its work
    // still runs to its end and its result is dropped.
    started = WorkerPool.shared.start { [weak self] _ in
      let v = work()
      self?.value = v
    }
  }

  /// The work's result (waits for it; call once).
  package func wait() -> T {
    started?.wait()
    started = nil
    guard let v = value else { fatalError("BackgroundTask.wait: the work ended without a value") }
    return v
  }
}
