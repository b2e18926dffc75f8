import Synchronization

/// A signal announces values to observers (Ohana's UBSignal).
///
/// Observers are closures; one tied to an `owner` object is held weakly
/// through it: when the owner goes away, the observer is dropped. Values can
/// also be consumed as an `AsyncStream` (``values``). Observers are called
/// on the thread that fires, outside the signal's lock, so an observer may
/// add or remove observers.
public final class Signal<Value: Sendable>: Sendable {
  /// Names one observer, for ``removeObserver(_:)``.
  public struct Token: Hashable, Sendable { let id: UInt64 }

  // Safe: the weak owner is only read (nil check, identity) under the lock.
  private struct Observer: @unchecked Sendable {
    weak var owner: AnyObject?
    let owned: Bool
    let callback: @Sendable (Value) -> Void
  }

  private struct State {
    var nextID: UInt64 = 1
    var observers: [(id: UInt64, observer: Observer)] = []
    var streams: [UInt64: AsyncStream<Value>.Continuation] = [:]
  }

  private let state = Mutex(State())

  public init() {}

  /// Adds an observer. With an `owner`, the observer lives as long as the
  /// owner does (held weakly).
  @discardableResult
  public func addObserver(_ owner: AnyObject? = nil, _ callback: @escaping @Sendable (Value) -> Void) -> Token {
    let o = Observer(owner: owner, owned: owner != nil, callback: callback)
    return state.withLock { s in
      let id = s.nextID
      s.nextID += 1
      s.observers.append((id, o))
      return Token(id: id)
    }
  }

  public func removeObserver(_ token: Token) {
    state.withLock { s in s.observers.removeAll { $0.id == token.id } }
  }

  /// Removes every observer tied to `owner`.
  public func removeObservers(owner: AnyObject) {
    state.withLock { s in s.observers.removeAll { $0.observer.owner === owner } }
  }

  /// The number of live observers (streams included).
  public var observerCount: Int {
    state.withLock { s in
      s.observers.removeAll { $0.observer.owned && $0.observer.owner == nil }
      return s.observers.count + s.streams.count
    }
  }

  /// Calls every live observer with `value`, in the order they were added,
  /// and yields it to every stream.
  public func fire(_ value: Value) {
    let (callbacks, streams) = state.withLock { s -> ([@Sendable (Value) -> Void], [AsyncStream<Value>.Continuation]) in
      s.observers.removeAll { $0.observer.owned && $0.observer.owner == nil }
      return (s.observers.map(\.observer.callback), Array(s.streams.values))
    }
    for c in callbacks { c(value) }
    for s in streams { s.yield(value) }
  }

  /// A new stream of the values fired from now on (buffers every value).
  public var values: AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    let id = state.withLock { s in
      let id = s.nextID
      s.nextID += 1
      s.streams[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { s in s.streams[id] = nil }
    }
    return stream
  }

  /// Ends every stream from ``values``.
  public func finish() {
    let streams = state.withLock { s in defer { s.streams = [:] }; return Array(s.streams.values) }
    for s in streams { s.finish() }
  }
}
