import Dispatch
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
  /// Bytes of input the chunk held (0: unknown).
  var byteCount = 0
  /// Set when the chunk's lines were numbered from 1 (`InputChunk.relativeLines`):
  /// how many it had, so the merge can number the next chunk's.
  var lineCount: Int? = nil
  /// vCard values that were not UTF-8 and named no charset, and their raw
  /// bytes (capped) for charset detection.
  var undeclaredValues = 0
  var undeclaredText: [UInt8] = []
}

/// The merged table and the parts waiting for their turn, shared by the
/// parse tasks. Parts are merged strictly in input order, by whichever task
/// finishes the part that is next: it merges that one and every following
/// part that is ready, outside the lock, while the other tasks go on parsing.
private final class Merger: @unchecked Sendable {
  private let lock = Monitor()
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
  private(set) var undeclaredValues = 0
  private(set) var undeclaredText: [UInt8] = []
  /// Undeclared 8-bit text kept for detection over the whole input.
  static let undeclaredTextLimit = 256 << 10
  /// Lines of the chunks merged so far (for chunks numbered from 1).
  private var linesBefore = 0
  /// Set (under the lock) when a strict read met its first bad record.
  private var stop = false

  private let totalBytes: Int?
  private var reserved = false

  init(released: DispatchSemaphore, strict: Bool, totalBytes: Int?) {
    self.released = released
    self.strict = strict
    self.totalBytes = totalBytes
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
        var table = p.table
        var partErrors = p.errors
        if let lines = p.lineCount {
          if linesBefore > 0 {
            table.offsetSourceLines(by: linesBefore)
            for i in partErrors.indices { partErrors[i].line += linesBefore }
          }
          linesBefore += lines
        }
        if let total = totalBytes {
          // The strings the part brings: its batch's, or its own pool's.
          appender.prepareTable(incoming: p.strings?.count ?? table.pool.count, totalBytes: total)
        }
        appender.append(table, strings: p.strings)
        appender.noteMerged(bytes: p.byteCount)
        if !reserved, p.byteCount > 0, let total = totalBytes {
          // After the first part with rows: room for the whole input at its
          // ratio of rows (and strings) per byte, plus a tenth.
          reserved = appender.reserve(scale: Double(total) / Double(p.byteCount) * 1.1)
        }
        errors.append(contentsOf: partErrors)
        read += p.recordsRead
        skipped += p.recordsSkipped
        undeclaredValues += p.undeclaredValues
        if !p.undeclaredText.isEmpty && undeclaredText.count < Self.undeclaredTextLimit {
          // Whole values (lines) only, as far as they fit.
          let room = Self.undeclaredTextLimit - undeclaredText.count
          let end =
            p.undeclaredText.count <= room
            ? p.undeclaredText.count
            : (p.undeclaredText[..<room].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
          undeclaredText.append(contentsOf: p.undeclaredText[..<end])
        }
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

/// The input, read by one worker at a time.
private final class SharedInput: @unchecked Sendable {
  private let lock = Monitor()
  private var reader: ChunkedReader
  private var sequence = 0
  private var done = false
  private(set) var failure: ContactIOError?
  private let progress: (@Sendable (Int, Int?) -> Void)?
  private let total: Int?

  init(_ reader: ChunkedReader, progress: (@Sendable (Int, Int?) -> Void)?, total: Int?) {
    self.reader = reader
    self.progress = progress
    self.total = total
  }

  var bytesRead: Int {
    lock.lock()
    defer { lock.unlock() }
    return reader.bytesRead
  }

  /// Takes back a parsed chunk's bytes (see `ChunkedReader.recycle`).
  func recycle(_ bytes: consuming [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    reader.recycle(bytes)
  }

  /// The next chunk and its number in input order, or nil at the end.
  func next() -> (Int, InputChunk)? {
    lock.lock()
    defer { lock.unlock() }
    if done { return nil }
    do {
      guard let chunk = try reader.next() else {
        done = true
        return nil
      }
      sequence += 1
      progress?(reader.bytesRead, total)
      return (sequence - 1, chunk)
    } catch {
      failure = error
      done = true
      return nil
    }
  }
}

/// Parses the input on `workers` threads of the worker pool (the calling
/// one included), one ``ContactTableBuilder`` per chunk. Each
/// worker reads the next chunk (one at a time), parses it and hands the part
/// to the `Merger`, which merges parts in input order on the worker that
/// finished the one that was next; so reading, parsing and merging overlap
/// and no worker waits for a whole batch. At most `workers + 2` chunks are
/// read and not yet merged: a worker that runs ahead waits for room.
enum ParallelReader {
  static func run(
    _ reader: ChunkedReader, options: ReadOptions, totalBytes: Int?,
    parse: @escaping @Sendable (InputChunk) -> PartialResult
  ) throws(ContactIOError) -> ReadResult {
    let workers = max(1, options.workers)
    let room = DispatchSemaphore(value: workers + 2)
    let merger = Merger(released: room, strict: options.strict, totalBytes: totalBytes)
    let input = SharedInput(reader, progress: options.progress, total: totalBytes)
    let work: @Sendable (Int) -> Void = { _ in
      while !merger.stopped {
        room.wait()
        guard let (number, chunk) = input.next() else {
          room.signal()
          return
        }
        let part = parse(chunk)
        input.recycle((consume chunk).bytes)
        merger.finished(number, part)
      }
    }
    // One reading loop per worker on the pool (the calling thread's too).
    Parallel.forEach(workers, workers: workers, work)
    PhaseTrace.mark("read.parsed")
    if let failure = input.failure { throw failure }
    if options.strict, let first = merger.errors.first {
      throw ContactIOError(.invalidInput, first.reason, line: first.line)
    }
    var errors = merger.errors
    for i in errors.indices { errors[i].source = options.sourceName }
    var result = ReadResult(
      table: merger.finish(), errors: errors, bytesRead: input.bytesRead, recordsRead: merger.read,
      recordsSkipped: merger.skipped)
    result.undeclaredValues = merger.undeclaredValues
    result.undeclaredText = merger.undeclaredText
    return result
  }
}
