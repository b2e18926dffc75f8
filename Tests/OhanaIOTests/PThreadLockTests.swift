import Testing

@testable import OhanaIO

/// The reader's and writer's own lock, condition and threads (OhanaIO does
/// not link Foundation).
@Suite struct PThreadLockTests {
  final class Counter: @unchecked Sendable {
    let lock = PThreadLock()
    var value = 0
    var ready: [Int] = []
  }

  /// Eight threads add 20,000 each under the lock: no update is lost, and
  /// every thread's body ran before `join` returned.
  @Test func lockSerializesUpdatesAndJoinWaitsForAll() {
    let counter = Counter()
    let threads = WorkerThreads.start(8) { i in
      for _ in 0..<20_000 {
        counter.lock.lock()
        counter.value += 1
        counter.lock.unlock()
      }
      counter.lock.withLock { counter.ready.append(i) }
    }
    threads.join()
    #expect(counter.value == 8 * 20_000)
    #expect(counter.ready.sorted() == Array(1...8))
  }

  /// A consumer waits on the condition for values handed over one by one.
  @Test func waitReturnsAfterBroadcast() {
    let box = Counter()
    let consumer = WorkerThreads.start(1) { _ in
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
    consumer.join()
    #expect(box.value == 5050)
  }
}
