import Dispatch
import Foundation
import OhanaCore

/// What one chunk parsed into.
struct PartialResult: Sendable {
  var table: ContactTable
  var errors: [InputError]
  var recordsRead: Int
  var recordsSkipped: Int
}

/// Result slots written by parallel tasks, one slot per task.
private final class Slots: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [PartialResult?]
  init(count: Int) { items = Array(repeating: nil, count: count) }
  func set(_ i: Int, _ value: PartialResult) {
    lock.lock()
    items[i] = value
    lock.unlock()
  }
  func take() -> [PartialResult] {
    lock.lock()
    defer { lock.unlock() }
    return items.compactMap { $0 }
  }
}

/// The merged table, touched by one task at a time.
private final class Merger: @unchecked Sendable {
  var appender = TableAppender()
  var pending: [PartialResult] = []
  var errors: [InputError] = []
  var read = 0
  var skipped = 0

  /// Moves the pending parts into the table (runs beside the next batch).
  func mergePending() {
    let parts = pending
    pending = []
    for p in parts {
      appender.append(p.table)
      errors.append(contentsOf: p.errors)
      read += p.recordsRead
      skipped += p.recordsSkipped
    }
  }
}

/// Reads chunks in batches of `workers` and parses each batch in parallel,
/// one ``ContactTableBuilder`` per chunk. While a batch is parsed, the parts
/// of the previous batch are merged into the result table by one more task,
/// so merging overlaps parsing. Memory: one batch of input plus the store.
enum ParallelReader {
  static func run(
    _ reader: inout ChunkedReader, options: ReadOptions, totalBytes: Int?,
    parse: @escaping @Sendable (InputChunk) -> PartialResult
  ) throws(ContactIOError) -> ReadResult {
    let merger = Merger()
    let workers = max(1, options.workers)
    while true {
      var batch: [InputChunk] = []
      while batch.count < workers, let chunk = try reader.next() {
        batch.append(chunk)
      }
      if batch.isEmpty { break }
      let slots = Slots(count: batch.count)
      let work = batch
      let merging = !merger.pending.isEmpty
      DispatchQueue.concurrentPerform(iterations: work.count + (merging ? 1 : 0)) { i in
        if i == work.count {
          merger.mergePending()
        } else {
          slots.set(i, parse(work[i]))
        }
      }
      let parts = slots.take()
      merger.pending.append(contentsOf: parts)
      if options.strict, let first = parts.lazy.flatMap(\.errors).first ?? merger.errors.first {
        throw ContactIOError(.invalidInput, first.reason, line: first.line)
      }
      options.progress?(reader.bytesRead, totalBytes)
      if batch.count < workers { break }
    }
    merger.mergePending()
    var errors = merger.errors
    for i in errors.indices { errors[i].source = options.sourceName }
    return ReadResult(
      table: merger.appender.finish(), errors: errors, bytesRead: reader.bytesRead, recordsRead: merger.read,
      recordsSkipped: merger.skipped)
  }
}
