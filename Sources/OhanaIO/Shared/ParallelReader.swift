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

/// Reads chunks in batches of `workers` and parses each batch in parallel,
/// one ``ContactTableBuilder`` per chunk; then concatenates the partial
/// tables in input order. Memory: one batch of input plus the store.
enum ParallelReader {
  static func run(
    _ reader: inout ChunkedReader, options: ReadOptions, totalBytes: Int?,
    parse: @escaping @Sendable (InputChunk) -> PartialResult
  ) throws(ContactIOError) -> ReadResult {
    var parts: [PartialResult] = []
    let workers = max(1, options.workers)
    while true {
      var batch: [InputChunk] = []
      while batch.count < workers, let chunk = try reader.next() {
        batch.append(chunk)
      }
      if batch.isEmpty { break }
      if batch.count == 1 {
        parts.append(parse(batch[0]))
      } else {
        let slots = Slots(count: batch.count)
        let work = batch
        DispatchQueue.concurrentPerform(iterations: work.count) { i in
          slots.set(i, parse(work[i]))
        }
        parts.append(contentsOf: slots.take())
      }
      if options.strict, let first = parts.lazy.flatMap(\.errors).first {
        throw ContactIOError(.invalidInput, first.reason, line: first.line)
      }
      options.progress?(reader.bytesRead, totalBytes)
      if batch.count < workers { break }
    }
    var errors: [InputError] = []
    var read = 0
    var skipped = 0
    for p in parts {
      for var e in p.errors {
        e.source = options.sourceName
        errors.append(e)
      }
      read += p.recordsRead
      skipped += p.recordsSkipped
    }
    let table = ContactTable.concatenate(parts.map(\.table))
    return ReadResult(table: table, errors: errors, bytesRead: reader.bytesRead, recordsRead: read, recordsSkipped: skipped)
  }
}
