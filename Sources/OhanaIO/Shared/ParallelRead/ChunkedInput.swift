#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A piece of input that holds whole records (cards, CSV records, JSON
/// lines), with the 1-based number of its first line.
struct InputChunk: Sendable {
  var bytes: [UInt8]
  var firstLine: Int
  var index: Int
  /// Lines are numbered from 1 in this chunk; the merge adds the lines of
  /// the chunks before it (see `ChunkedReader.countsLines`).
  var relativeLines = false
}

/// Where input bytes come from: a file descriptor read with `read(2)` in
/// big blocks, or an in-memory array.
struct ByteSource {
  enum Storage {
    case descriptor(Int32)
    case memory([UInt8], offset: Int)
  }
  var storage: Storage

  /// Appends up to `maxCount` bytes to `buffer`. Returns 0 at end of input.
  mutating func read(into buffer: inout [UInt8], maxCount: Int) throws(ContactIOError) -> Int {
    switch storage {
    case .descriptor(let fd):
      // Room enough already (a recycled chunk's buffer, see
      // `ChunkedReader.recycle`): read into it, whose pages are resident.
      if buffer.capacity - buffer.count >= maxCount {
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: maxCount))
        var got = 0
        var failure: Int32 = 0
        buffer.withUnsafeMutableBytes { raw in
          guard let base = raw.baseAddress else { return }
          (got, failure) = Self.readFully(fd, into: base + old, count: maxCount)
        }
        buffer.removeLast(maxCount - got)
        if failure != 0 { throw ContactIOError(.io, "read failed (errno \(failure))") }
        return got
      }
      // One allocation per call: the bytes already in `buffer` (a carried
      // partial record, usually small) are copied in front and the file is
      // read straight behind them, so a chunk is not read into a block and
      // then copied once more. When `buffer` is already larger than the read
      // (readAll's accumulation), appending keeps growth geometric instead.
      if buffer.count > maxCount { return try Self.readBlock(fd, appendingTo: &buffer, maxCount: maxCount) }
      var failure: Int32 = 0
      let old = buffer.count
      var got = 0
      let merged = buffer.withUnsafeBufferPointer { src in
        [UInt8](unsafeUninitializedCapacity: old + maxCount) { p, initialized in
          initialized = 0
          guard let base = p.baseAddress else { return }
          if let s = src.baseAddress, old > 0 {
            base.initialize(from: s, count: old)
          }
          (got, failure) = Self.readFully(fd, into: UnsafeMutableRawPointer(base + old), count: maxCount)
          initialized = old + got
        }
      }
      if failure != 0 { throw ContactIOError(.io, "read failed (errno \(failure))") }
      buffer = merged
      return got
    case .memory(let bytes, let offset):
      let n = min(maxCount, bytes.count - offset)
      if n <= 0 { return 0 }
      buffer.append(contentsOf: bytes[offset..<(offset + n)])
      storage = .memory(bytes, offset: offset + n)
      return n
    }
  }

  /// Reads from `fd` into `base` until `count` bytes are in or the input
  /// ends, retrying `EINTR`: the bytes read, and the `errno` of a read
  /// that failed (0 when none did).
  private static func readFully(_ fd: Int32, into base: UnsafeMutableRawPointer, count: Int) -> (got: Int, failure: Int32) {
    var got = 0
    while got < count {
      let n = Glibc.read(fd, base + got, count - got)
      if n < 0 {
        if errno == EINTR { continue }
        return (got, errno)
      }
      if n == 0 { break }
      got += n
    }
    return (got, 0)
  }

  /// Reads up to `maxCount` bytes into a new block and appends it.
  private static func readBlock(_ fd: Int32, appendingTo buffer: inout [UInt8], maxCount: Int) throws(ContactIOError) -> Int {
    var failure: Int32 = 0
    let block = [UInt8](unsafeUninitializedCapacity: maxCount) { p, initialized in
      initialized = 0
      guard let base = p.baseAddress else { return }
      (initialized, failure) = readFully(fd, into: UnsafeMutableRawPointer(base), count: maxCount)
    }
    if failure != 0 { throw ContactIOError(.io, "read failed (errno \(failure))") }
    buffer.append(contentsOf: block)
    return block.count
  }
}

/// Cuts a byte stream into chunks that end on record boundaries.
///
/// `splitter(buffer)` returns the offset of the start of the last record
/// that may be incomplete (everything before it is whole), or nil when
/// there is no boundary yet; then the chunk grows until there is one.
struct ChunkedReader {
  var source: ByteSource
  var chunkSize: Int
  var splitter: (UnsafeBufferPointer<UInt8>) -> Int?
  private var carry: [UInt8] = []
  /// Buffers of chunks already parsed, to read the next ones into: a fresh
  /// 2 MiB chunk is a fresh mapping (glibc's threshold is fixed at 1 MiB
  /// by the tool), whose pages fault in afresh.
  private var spares: [[UInt8]] = []
  private var pending: InputChunk?
  private var nextLine = 1
  private var nextIndex = 0
  private var atEnd = false
  /// Bytes taken from the source so far (including a peeked head).
  var bytesRead = 0
  /// Count each chunk's lines here, so chunks carry their absolute first
  /// line. When false, chunks are numbered from 1 and their parser reports
  /// how many lines it read; the merge, which sees the chunks in order,
  /// adds the lines before each (one pass over the bytes fewer).
  var countsLines = true

  init(source: ByteSource, chunkSize: Int, splitter: @escaping (UnsafeBufferPointer<UInt8>) -> Int?) {
    self.source = source
    self.chunkSize = max(1, chunkSize)
    self.splitter = splitter
  }

  /// Bytes handed out ahead of the records (a peeked prefix).
  mutating func prepend(_ bytes: [UInt8]) {
    carry = bytes + carry
  }

  /// Reads everything that is left into one array (used for UTF-16 input).
  mutating func readAll() throws(ContactIOError) -> [UInt8] {
    var all = carry
    carry = []
    while true {
      let n = try source.read(into: &all, maxCount: max(chunkSize, 1 << 20))
      bytesRead += n
      if n == 0 { break }
    }
    atEnd = true
    return all
  }

  /// Hands `chunk` out before anything else (its lines are already counted).
  mutating func pushFront(_ chunk: InputChunk) {
    pending = chunk
    nextIndex = chunk.index + 1
  }

  /// Hands back the bytes of a chunk once parsed, for a later chunk to
  /// be read into (a few are kept).
  mutating func recycle(_ bytes: consuming [UInt8]) {
    if spares.count < 4 && bytes.capacity >= chunkSize { spares.append(bytes) }
  }

  mutating func next() throws(ContactIOError) -> InputChunk? {
    if let p = pending {
      pending = nil
      return p
    }
    if atEnd && carry.isEmpty { return nil }
    var buffer = carry
    carry = []
    if !atEnd && buffer.count < chunkSize, var spare = spares.popLast() {
      spare.removeAll(keepingCapacity: true)
      spare.append(contentsOf: buffer)
      buffer = spare
    }
    var searchable = 0
    while true {
      if !atEnd {
        // A record longer than a chunk doubles the buffer, so the splitter's
        // scans stay linear in the record's size.
        let want = buffer.count >= chunkSize ? buffer.count : max(chunkSize - buffer.count, 1)
        let n = try source.read(into: &buffer, maxCount: want)
        bytesRead += n
        if n == 0 {
          atEnd = true
        } else if buffer.count < chunkSize {
          // A short read (a pipe, or the rest after a peeked head) is not
          // the end of the input: fill the chunk before cutting it, so a
          // small input is one chunk however it arrives.
          continue
        }
      }
      if atEnd {
        if buffer.isEmpty { return nil }
        return emit(buffer)
      }
      if buffer.count <= searchable { continue }
      let cut = buffer.withUnsafeBufferPointer { splitter($0) }
      searchable = buffer.count
      if let cut, cut > 0 {
        carry = Array(buffer[cut...])
        buffer.removeLast(buffer.count - cut)
        return emit(buffer)
      }
    }
  }

  private mutating func emit(_ bytes: [UInt8]) -> InputChunk {
    nextIndex += 1
    guard countsLines else { return InputChunk(bytes: bytes, firstLine: 1, index: nextIndex - 1, relativeLines: true) }
    let chunk = InputChunk(bytes: bytes, firstLine: nextLine, index: nextIndex - 1)
    nextLine += Self.countLines(bytes)
    return chunk
  }

  static func countLines(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { p in
      guard let base = p.baseAddress else { return 0 }
      var n = 0
      var i = 0
      // memchr is vectorized by libc; lines are tens of bytes long.
      while i < p.count, let hit = memchr(base + i, 0x0A, p.count - i) {
        n &+= 1
        i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
      }
      return n
    }
  }
}
