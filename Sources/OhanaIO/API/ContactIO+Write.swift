import Synchronization
import OhanaCore

#if canImport(Glibc)
  import Glibc
#endif

/// Write progress: (rows written, rows to write).
public typealias WriteProgress = @Sendable (_ done: Int, _ total: Int) -> Void

extension ContactIO {
  // MARK: Writing

  /// Writes the visible rows of `frame`, in order, to `path`, opened as an
  /// ``OutputTarget``: a regular file (or a new one) is written to a
  /// temporary file in the same directory and renamed into place at the end,
  /// so an interrupted run never leaves a half-written file, and an existing
  /// file keeps its permission bits; a symbolic link is followed and its
  /// target replaced; a device, FIFO or socket is written to directly. `-` is
  /// standard output.
  ///
  /// `progress` is called after each block of rows with (rows written, rows
  /// in the frame), on the calling thread.
  public static func write(
    _ frame: Frame, format: ContactFormat, to path: String, progress: WriteProgress? = nil
  ) throws(ContactIOError) {
    guard format.canWrite else { throw ContactIOError(.unsupportedFormat, "cannot write \(format)") }
    let target = try OutputTarget(path: path)
    try write(frame, format: format, to: target, progress: progress)
    try target.commit()
  }

  /// Writes the visible rows of `frame`, in order, to `target` without
  /// committing it: the caller calls ``OutputTarget/commit()`` (say, once
  /// every output of a run is written, so that a failure leaves all of them
  /// as they were, and a file's flush to disk overlaps the next one's
  /// writing) or lets it go to discard it.
  public static func write(
    _ frame: Frame, format: ContactFormat, to target: OutputTarget, progress: WriteProgress? = nil
  ) throws(ContactIOError) {
    var failure: ContactIOError?
    try encode(frame, format: format, progress: progress) { bytes in
      guard failure == nil else { return }
      bytes.withUnsafeBytes { raw in
        do throws(ContactIOError) { try target.write(raw) } catch { failure = error }
      }
    }
    if let failure { throw failure }
  }

  /// Writes the visible rows of `frame` to standard output.
  public static func writeStandardOutput(
    _ frame: Frame, format: ContactFormat, progress: WriteProgress? = nil
  ) throws(ContactIOError) {
    try write(frame, format: format, toFileDescriptor: 1, progress: progress)
  }

  /// Writes the visible rows of `frame` to an open file descriptor (not closed).
  public static func write(
    _ frame: Frame, format: ContactFormat, toFileDescriptor fd: Int32, progress: WriteProgress? = nil
  ) throws(ContactIOError) {
    var failure: ContactIOError?
    try encode(frame, format: format, progress: progress) { bytes in
      guard failure == nil else { return }
      bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var off = 0
        while off < raw.count {
          let n = Glibc.write(fd, base + off, raw.count - off)
          if n < 0 {
            if errno == EINTR { continue }
            failure = ContactIOError(.io, "write failed (errno \(errno))")
            return
          }
          off += n
        }
      }
    }
    if let failure { throw failure }
  }

  /// Appends the visible rows of `frame` to `out`.
  public static func write(
    _ frame: Frame, format: ContactFormat, to out: inout [UInt8], progress: WriteProgress? = nil
  ) throws(ContactIOError) {
    try encode(frame, format: format, progress: progress) { out.append(contentsOf: $0) }
  }

  /// Writes every row of `table`.
  public static func write(_ table: ContactTable, format: ContactFormat, to path: String) throws(ContactIOError) {
    try write(Frame(table: table), format: format, to: path)
  }

  /// Appends every row of `table` to `out`.
  public static func write(_ table: ContactTable, format: ContactFormat, to out: inout [UInt8]) throws(ContactIOError) {
    try write(Frame(table: table), format: format, to: &out)
  }

  /// Rows per encoding task; tasks run on all cores, output stays in order.
  static let rowsPerTask = 4096

  /// Encodes the frame in blocks of rows, in parallel, handing each block's
  /// bytes to `sink` in row order on the calling thread. Encoding runs
  /// ahead on the worker pool (at most `workers + 2` blocks not yet
  /// sunk), so the sink
  /// (a `write(2)` or a copy) overlaps the encoding of later blocks instead
  /// of waiting for a whole batch; block buffers are reused, so their pages
  /// are faulted in once.
  static func encode(
    _ frame: Frame, format: ContactFormat, progress: WriteProgress? = nil, sink: (borrowing [UInt8]) -> Void
  ) throws(ContactIOError) {
    guard format.canWrite else { throw ContactIOError(.unsupportedFormat, "cannot write \(format)") }
    let rows = frame.rows
    let table = frame.table
    var layout: CSVLayout? = nil
    if format == .csv {
      let l = CSVLayout(table: table, rows: rows)
      var header: [UInt8] = []
      CSVWriter.writeHeader(layout: l, into: &header)
      sink(header)
      layout = l
    }
    let blockCount = (rows.count + rowsPerTask - 1) / rowsPerTask
    if blockCount == 0 { return }
    let csvLayout = layout
    let spare = SpareBuffers()
    // Pool threads encode ahead; this thread sinks the blocks in order
    // (and encodes one itself when the next is not ready).
    Parallel.ordered(blockCount) { block in
      let range = (block * rowsPerTask)..<min(rows.count, (block + 1) * rowsPerTask)
      var out = spare.take()
      // Room for cards a quarter longer than the generated ones' 400
      // bytes: a block that outgrows its buffer moves to a new one, whose
      // pages fault in afresh.
      out.reserveCapacity(range.count * 512)
      encodeRows(table, rows: rows[range], format: format, layout: csvLayout, into: &out)
      return out
    } consume: { b, bytes in
      sink(bytes)
      // Moved out, not copied: a buffer still referenced here would be
      // emptied into a new allocation (copy on write), not kept.
      var done: [UInt8] = []
      swap(&done, &bytes)
      spare.recycle(consume done)
      progress?(min(rows.count, (b + 1) * rowsPerTask), rows.count)
    }
  }

  static func encodeRows(
    _ table: ContactTable, rows: ArraySlice<UInt32>, format: ContactFormat, layout: CSVLayout?,
    into out: inout [UInt8]
  ) {
    table.withPoolBytes { bytes in
      table.withStringReaders { readers in
        switch format {
        case .vcard3, .vcard4, .vcard21:
          var w = VCardWriter(table: table, bytes: bytes, readers: readers, version4: format != .vcard3)
          let ahead = VCardWriter.prefetchDistance
          for k in rows.indices {
            if k + ahead < rows.endIndex { w.prefetch(row: Int(rows[k + ahead])) }
            w.write(row: Int(rows[k]), into: &out)
          }
        case .csv:
          var w = CSVWriter(
            table: table, bytes: bytes, readers: readers, layout: layout ?? CSVLayout(table: table, rows: Array(rows)))
          for r in rows { w.write(row: Int(r), into: &out) }
        case .ndjson:
          var w = NDJSONWriter(table: table, bytes: bytes, readers: readers)
          for r in rows { w.write(row: Int(r), into: &out) }
        }
      }
    }
  }
}

/// Buffers of blocks already sunk, reused for new ones (their pages are
/// faulted in once).
private final class SpareBuffers: Sendable {
  private let spare = Mutex<[[UInt8]]>([])

  func take() -> [UInt8] { spare.withLock { $0.popLast() } ?? [] }

  func recycle(_ buffer: consuming [UInt8]) {
    var kept = consume buffer
    kept.removeAll(keepingCapacity: true)
    spare.withLock { $0.append(kept) }
  }
}

extension ContactIO {
  /// Encodes `rows` of `table` as vCard 4.0, one card each, laid end to
  /// end: card `i` is `bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]]`. For
  /// stores that keep each contact as its own text (the entity store).
  /// Single-threaded; callers split the rows.
  public static func encodeVCards(_ table: ContactTable, rows: some Collection<Int>) -> (bytes: [UInt8], ends: [Int]) {
    encode(table, rows: rows) { poolBytes, readers, rows, bytes, ends in
      var w = VCardWriter(table: table, bytes: poolBytes, readers: readers, version4: true)
      for r in rows {
        w.write(row: r, into: &bytes)
        ends.append(bytes.count)
      }
    }
  }

  /// Encodes `rows` of `table` as NDJSON, one line each (with its line
  /// end), laid end to end as ``encodeVCards(_:rows:)`` lays cards: each
  /// contact as a record that reads back to the same contact (the
  /// distributed job ships contacts between tasks this way).
  public static func encodeNDJSON(_ table: ContactTable, rows: some Collection<Int>) -> (bytes: [UInt8], ends: [Int]) {
    encode(table, rows: rows) { poolBytes, readers, rows, bytes, ends in
      var w = NDJSONWriter(table: table, bytes: poolBytes, readers: readers)
      for r in rows {
        w.write(row: r, into: &bytes)
        ends.append(bytes.count)
      }
    }
  }

  private static func encode<Rows: Collection<Int>>(
    _ table: ContactTable, rows: Rows,
    _ body: (PoolBytes, StringColumnReaders, Rows, inout [UInt8], inout [Int]) -> Void
  ) -> (bytes: [UInt8], ends: [Int]) {
    var bytes: [UInt8] = []
    var ends: [Int] = []
    ends.reserveCapacity(rows.count)
    bytes.reserveCapacity(rows.count * 400)
    table.withPoolBytes { poolBytes in
      table.withStringReaders { readers in body(poolBytes, readers, rows, &bytes, &ends) }
    }
    return (bytes, ends)
  }
}
