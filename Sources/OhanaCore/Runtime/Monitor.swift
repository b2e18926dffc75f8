#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with separate `lock()` and `unlock()`, and a condition to wait
/// on under it: the state of the worker pool and of the readers' and
/// writers' pipelines, whose critical sections are not one closure (a
/// worker drops the lock while it runs a piece of work; the writer waits
/// for blocks in order). Everything else locks with the standard `Mutex`.
///
/// It wraps `pthread_mutex_t` and `pthread_cond_t` directly (the engine
/// does not link Foundation); both live in memory this class owns, at
/// addresses that never move.
package final class Monitor: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  package func lock() { pthread_mutex_lock(mutex) }
  package func unlock() { pthread_mutex_unlock(mutex) }

  /// Waits for a ``broadcast()``; call it holding the lock (it is released
  /// while waiting and held again on return). Wake-ups can be spurious:
  /// wait in a loop on the awaited state.
  package func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every thread waiting in ``wait()``.
  package func broadcast() { pthread_cond_broadcast(condition) }

  /// Runs `body` holding the lock.
  package func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
