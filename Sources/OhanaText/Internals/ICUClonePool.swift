import Synchronization

/// Lends per-thread clones of one ICU object (a collator, a transliterator).
///
/// ICU collators and transliterators must not be used by two threads at
/// once. The pool keeps a prototype that is never lent out and a free list
/// of clones; ``withInstance(_:)`` takes a clone (cloning the prototype when
/// the list is empty), runs the body, and puts it back. The list grows to the
/// number of threads that used the object at the same time. If ICU cannot
/// clone, the body runs on the prototype under a lock.
///
/// - Complexity: one uncontended lock round trip per call; a clone only the
///   first time a thread count is reached.
final class ICUClonePool: Sendable {
  private let prototype: ICUHandle
  private let free = Mutex<[ICUHandle]>([])
  private let prototypeLock = Mutex<Void>(())
  private let clone: @Sendable (ICUHandle) -> ICUHandle?
  private let close: @Sendable (ICUHandle) -> Void

  /// Takes ownership of `prototype`.
  init(
    prototype: ICUHandle,
    clone: @escaping @Sendable (ICUHandle) -> ICUHandle?,
    close: @escaping @Sendable (ICUHandle) -> Void
  ) {
    self.prototype = prototype
    self.clone = clone
    self.close = close
  }

  deinit {
    let handles = free.withLock { list in
      let taken = list
      list = []
      return taken
    }
    for handle in handles { close(handle) }
    close(prototype)
  }

  /// Runs `body` with an instance no other thread uses meanwhile.
  func withInstance<R>(_ body: (ICUHandle) throws -> R) rethrows -> R {
    let taken = free.withLock { list in list.popLast() }
    let handle = taken ?? prototypeLock.withLock { _ in clone(prototype) }
    guard let handle else {
      return try prototypeLock.withLock { _ in try body(prototype) }
    }
    defer { free.withLock { list in list.append(handle) } }
    return try body(handle)
  }
}
