#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with separate `lock()` and `unlock()`, and a condition to wait
/// on under it, for the readers' and writers' shared state whose critical
/// sections are not one closure (the reader's merger drops the lock in the
/// middle of its loop; the writer waits for blocks in order).
///
/// OhanaIO does not link Foundation (about 9 MB of resident memory in every
/// process that loads it), so this wraps `pthread_mutex_t` and
/// `pthread_cond_t` directly; both live in memory this class owns, at
/// addresses that never move.
final class PThreadLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
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

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }

  /// Waits for a ``broadcast()``; call it holding the lock (it is released
  /// while waiting and held again on return). Wake-ups can be spurious:
  /// wait in a loop on the awaited state.
  func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every thread waiting in ``wait()``.
  func broadcast() { pthread_cond_broadcast(condition) }

  /// Runs `body` holding the lock.
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
