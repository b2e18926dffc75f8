import Dispatch
import Foundation
import OhanaCore

/// What one chunk parsed into.
struct PartialResult: Sendable {
  /// The chunk's rows. With `strings`, its string ids are provisional ids
  /// of that batch (not of `table.pool`) until the merge interns them.
  var table: ContactTable
  var strings: StringBatch? = nil
  var errors: [InputError]
  var recordsRead: Int
  var recordsSkipped: Int
}

/// The merged table and the parts waiting for their turn, shared by the
/// parse tasks. Parts are merged strictly in input order, by whichever task
/// finishes the part that is next: it merges that one and every following
/// part that is ready, outside the lock, while the other tasks go on parsing.
private final class Merger: @unchecked Sendable {
  private let lock = NSLock()
  private var ready: [Int: PartialResult] = [:]
  private var next = 0
  private var merging = false
  private let released: DispatchSemaphore
  private let strict: Bool
  // Touched only by the task that holds `merging`, read after all tasks end.
  private var appender = TableAppender()
  private(set) var errors: [InputError] = []
  private(set) var read = 0
  private(set) var skipped = 0
  /// Set (under the lock) when a strict read met its first bad record.
  private var stop = false

  init(released: DispatchSemaphore, strict: Bool) {
    self.released = released
    self.strict = strict
  }

  var stopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stop
  }

  /// Hands in part number `sequence`; merges what is ready in order.
  func finished(_ sequence: Int, _ part: PartialResult) {
    lock.lock()
    ready[sequence] = part
    if merging {
      lock.unlock()
      return
    }
    merging = true
    while let p = ready.removeValue(forKey: next) {
      next += 1
      let skip = stop
      lock.unlock()
      if !skip {
        appender.append(p.table, strings: p.strings)
        errors.append(contentsOf: p.errors)
        read += p.recordsRead
        skipped += p.recordsSkipped
      }
      released.signal()
      lock.lock()
      if strict && !errors.isEmpty { stop = true }
    }
    merging = false
    lock.unlock()
  }

  func finish() -> ContactTable { appender.finish() }
}

/// Reads chunks on the calling thread and parses them on up to `workers`
/// tasks at once, one ``ContactTableBuilder`` per chunk; each finished part
/// is merged into the result table in input order by the task that
/// finished it (see `Merger`), so reading, parsing and merging overlap and
/// no task waits for a whole batch. Memory: at most `workers + 2` chunks of
/// input and their parts besides the store.
enum ParallelReader {
  static func run(
    _ reader: inout ChunkedReader, options: ReadOptions, totalBytes: Int?,
    parse: @escaping @Sendable (InputChunk) -> PartialResult
  ) throws(ContactIOError) -> ReadResult {
    let workers = max(1, options.workers)
    let inFlight = DispatchSemaphore(value: workers + 2)  // read, not yet merged
    let parsing = DispatchSemaphore(value: workers)  // parse tasks running
    let merger = Merger(released: inFlight, strict: options.strict)
    let group = DispatchGroup()
    let queue = DispatchQueue.global(qos: .userInitiated)
    var failure: ContactIOError?
    var sequence = 0
    while !merger.stopped {
      inFlight.wait()
      let chunk: InputChunk?
      do {
        chunk = try reader.next()
      } catch {
        failure = error
        chunk = nil
      }
      guard let chunk else {
        inFlight.signal()
        break
      }
      parsing.wait()
      let number = sequence
      sequence += 1
      group.enter()
      queue.async {
        let part = parse(chunk)
        parsing.signal()
        merger.finished(number, part)
        group.leave()
      }
      options.progress?(reader.bytesRead, totalBytes)
    }
    group.wait()
    if let failure { throw failure }
    if options.strict, let first = merger.errors.first {
      throw ContactIOError(.invalidInput, first.reason, line: first.line)
    }
    var errors = merger.errors
    for i in errors.indices { errors[i].source = options.sourceName }
    return ReadResult(
      table: merger.finish(), errors: errors, bytesRead: reader.bytesRead, recordsRead: merger.read,
      recordsSkipped: merger.skipped)
  }
}
