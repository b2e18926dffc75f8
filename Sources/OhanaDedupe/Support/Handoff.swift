/// A collection handed from the thread that made it to the one worker that
/// takes it, so that the worker owns it alone and can free it as it goes:
/// captured by a closure, it would live until the closure ends.
final class Handoff<T: RangeReplaceableCollection>: @unchecked Sendable {
  // Safe: `take()` is called by one worker, after `init` on the thread
  // that starts the workers (which orders the two).
  private var value: T
  init(_ value: T) { self.value = value }

  /// The collection (empty after the first call).
  func take() -> T {
    var v = T()
    swap(&v, &value)
    return v
  }
}
