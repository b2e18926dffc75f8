import Dispatch
import Foundation

/// Threads of our own for the readers' and writers' pipelines.
///
/// Their stages wait for one another (a parse task for room to read ahead,
/// the writer for the next block in order). Waiting inside the shared
/// Dispatch pool could hold up the very tasks it waits for when the pool
/// is busy (for example when a read is started from many Swift tasks at
/// once), so the stages run on threads started here instead, plus the
/// calling thread; nothing else is queued behind them.
struct WorkerThreads {
  private let finished: DispatchSemaphore
  private let count: Int

  /// Starts `count` threads running `body(1) ... body(count)`.
  static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> WorkerThreads {
    let finished = DispatchSemaphore(value: 0)
    for i in 0..<max(0, count) {
      let thread = Thread {
        body(i + 1)
        finished.signal()
      }
      thread.stackSize = 4 << 20
      thread.start()
    }
    return WorkerThreads(finished: finished, count: max(0, count))
  }

  /// Waits until every started thread has returned from its body.
  func join() {
    for _ in 0..<count { finished.wait() }
  }
}
