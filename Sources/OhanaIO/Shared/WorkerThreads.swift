import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Threads of our own for the readers' and writers' pipelines.
///
/// Their stages wait for one another (a parse task for room to read ahead,
/// the writer for the next block in order). Waiting inside the shared
/// Dispatch pool could hold up the very tasks it waits for when the pool
/// is busy (for example when a read is started from many Swift tasks at
/// once), so the stages run on threads started here instead, plus the
/// calling thread; nothing else is queued behind them.
///
/// The threads are POSIX threads (4 MiB stacks, detached), started without
/// Foundation's `Thread` so that OhanaIO does not link Foundation.
struct WorkerThreads {
  private let finished: DispatchSemaphore
  private let count: Int

  /// What a started thread runs; handed to it retained, released by it.
  private final class Start: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `count` threads running `body(1) ... body(count)`. A thread
  /// the system refuses to start runs its body on a Dispatch queue instead,
  /// so every body runs and ``join()`` returns.
  static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> WorkerThreads {
    let finished = DispatchSemaphore(value: 0)
    for i in 0..<max(0, count) {
      let run: @Sendable () -> Void = {
        body(i + 1)
        finished.signal()
      }
      if !spawn(run) { DispatchQueue.global().async(execute: run) }
    }
    return WorkerThreads(finished: finished, count: max(0, count))
  }

  /// Starts a detached thread running `run`; false when none could be made.
  private static func spawn(_ run: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return false }
    defer { pthread_attr_destroy(&attributes) }
    _ = pthread_attr_setstacksize(&attributes, 4 << 20)
    _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Start(run)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, &attributes, { raw in
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

  /// Waits until every started thread has returned from its body.
  func join() {
    for _ in 0..<count { finished.wait() }
  }
}
