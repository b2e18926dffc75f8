import Testing

@testable import OhanaCore

/// The pool's, readers' and writers' lock and condition, with work started
/// on the pool.
@Suite struct MonitorTests {
  final class Counter: @unchecked Sendable {
    let lock = Monitor()
    var value = 0
    var ready: [Int] = []
  }

  /// Eight threads add 20,000 each under the lock: no update is lost, and
  /// every piece ran before `wait` returned.
  @Test func lockSerializesUpdatesAndJoinWaitsForAll() {
    let counter = Counter()
    let threads = WorkerPool.shared.start(8) { i in
      for _ in 0..<20_000 {
        counter.lock.lock()
        counter.value += 1
        counter.lock.unlock()
      }
      counter.lock.withLock { counter.ready.append(i + 1) }
    }
    threads.wait()
    #expect(counter.value == 8 * 20_000)
    #expect(counter.ready.sorted() == Array(1...8))
  }

  /// A consumer waits on the condition for values handed over one by one.
  @Test func waitReturnsAfterBroadcast() {
    let box = Counter()
    let consumer = WorkerPool.shared.start(1) { _ in
      var seen = 0
      box.lock.lock()
      while seen < 100 {
        while box.ready.isEmpty { box.lock.wait() }
        seen += box.ready.count
        box.value += box.ready.reduce(0, +)
        box.ready.removeAll()
      }
      box.lock.unlock()
    }
    for i in 1...100 {
      box.lock.lock()
      box.ready.append(i)
      box.lock.broadcast()
      box.lock.unlock()
    }
    consumer.wait()
    #expect(box.value == 5050)
  }
}
