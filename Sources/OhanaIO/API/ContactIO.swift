import OhanaCore
import OhanaText

#if canImport(Glibc)
  import Glibc
#endif

/// Reading and writing contact files: vCard 2.1 / 3.0 / 4.0, CSV, NDJSON.
///
/// Reading streams: input is read in chunks (``ReadOptions/chunkSize``) cut
/// at record boundaries, chunks are parsed on all cores into partial tables
/// that are concatenated at the end, so memory grows with the store and not
/// with the file. A bad line costs that line, never the record: it is kept
/// verbatim where the format allows and reported in ``ReadResult/errors``
/// (a warning, with its 1-based line); what cannot be a record at all is
/// skipped and reported; ``ReadOptions/strict`` turns the first problem into
/// a thrown ``ContactIOError``.
///
/// ```swift
/// let result = try ContactIO.read(path: "contacts.vcf")
/// try ContactIO.write(Frame(table: result.table), format: .vcard4, to: "out.vcf")
/// ```
public enum ContactIO {
  // MARK: Reading

  /// Reads a file (`-` is standard input). `format` nil: from the
  /// extension, else from the content.
  public static func read(
    path: String, format: ContactFormat? = nil, options: ReadOptions = ReadOptions()
  ) throws(ContactIOError) -> ReadResult {
    if path == "-" { return try readStandardInput(format: format, options: options) }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ContactIOError(.io, "cannot open \(path) (errno \(errno))") }
    defer { close(fd) }
    var options = options
    if options.sourceName == nil { options.sourceName = path }
    return try read(fileDescriptor: fd, format: format ?? ContactFormat(path: path), options: options)
  }

  /// Reads from an open file descriptor until end of input (it is not closed).
  public static func read(
    fileDescriptor fd: Int32, format: ContactFormat? = nil, options: ReadOptions = ReadOptions()
  ) throws(ContactIOError) -> ReadResult {
    var st = stat()
    var total: Int? = nil
    if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG { total = Int(st.st_size) }
    return try read(source: ByteSource(storage: .descriptor(fd)), total: total, format: format, options: options)
  }

  /// Reads standard input.
  public static func readStandardInput(
    format: ContactFormat? = nil, options: ReadOptions = ReadOptions()
  ) throws(ContactIOError) -> ReadResult {
    var options = options
    if options.sourceName == nil { options.sourceName = "-" }
    return try read(fileDescriptor: 0, format: format, options: options)
  }

  /// Reads bytes held in memory.
  public static func read(
    bytes: [UInt8], format: ContactFormat? = nil, options: ReadOptions = ReadOptions()
  ) throws(ContactIOError) -> ReadResult {
    try read(source: ByteSource(storage: .memory(bytes, offset: 0)), total: bytes.count, format: format, options: options)
  }

  static func read(
    source: ByteSource, total: Int?, format: ContactFormat?, options: ReadOptions
  ) throws(ContactIOError) -> ReadResult {
    try UndeclaredCharsets.validate(options)
    // Detection may want to read the input again with the charset it found.
    let again = options.declaredCharset == nil ? UndeclaredCharsets.restart(for: source) : nil
    var source = source
    var head: [UInt8] = []
    var headRead = 0
    while head.count < 4096 {
      let n = try source.read(into: &head, maxCount: 4096 - head.count)
      headRead += n
      if n == 0 { break }
    }
    // Byte order marks: UTF-8 is dropped, UTF-16 / UTF-32 input is converted whole.
    if head.starts(with: [0xEF, 0xBB, 0xBF]) {
      head.removeFirst(3)
    } else if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
      var all = head
      while try source.read(into: &all, maxCount: 1 << 20) > 0 {}
      var utf8: [UInt8] = []
      do {
        try Charset.toUTF8(all, charset: Array("UTF-16".utf8), into: &utf8)
      } catch {
        throw ContactIOError(.charset, "input has a UTF-16 byte order mark but is not valid UTF-16")
      }
      if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8.removeFirst(3) }
      var result = try read(
        source: ByteSource(storage: .memory(utf8, offset: 0)), total: utf8.count, format: format, options: options)
      result.bytesRead = all.count
      return result
    }
    // Old Mac line ends (CR only): rare and small; converted whole to LF.
    if head.contains(ASCII.cr) && !head.contains(ASCII.lf) {
      var all = head
      while try source.read(into: &all, maxCount: 1 << 20) > 0 {}
      let total = all.count + (headRead - head.count)
      for i in all.indices where all[i] == ASCII.cr { all[i] = ASCII.lf }
      var result = try read(
        source: ByteSource(storage: .memory(all, offset: 0)), total: all.count, format: format, options: options)
      result.bytesRead = total
      return result
    }
    let format = format ?? ContactFormat.sniff(head[...])
    var reader: ChunkedReader
    switch format {
    case .vcard21, .vcard3, .vcard4:
      var options = options
      var probe: CharsetDetector.Match? = nil
      if again == nil && options.declaredCharset == nil && options.minimumDetectionConfidence <= 100 {
        // A pipe cannot be read twice: detect on its first chunk instead.
        while head.count < options.chunkSize {
          let n = try source.read(into: &head, maxCount: options.chunkSize - head.count)
          headRead += n
          if n == 0 { break }
        }
        probe = UndeclaredCharsets.probe(head, options)
        if let probe { options.declaredCharset = probe.name }
      }
      reader = ChunkedReader(source: source, chunkSize: options.chunkSize, splitter: VCardReader.splitter)
      reader.countsLines = false  // the lexer counts them
      reader.prepend(head)
      reader.bytesRead = headRead
      let opts = options
      var result = try ParallelReader.run(reader, options: options, totalBytes: total) {
        VCardReader.parseChunk($0, options: opts)
      }
      if let probe, result.undeclaredValues > 0 {
        result.undeclaredCharset = UndeclaredCharset(
          name: probe.name, source: .detected, values: result.undeclaredValues, detection: probe,
          firstChunkOnly: true)
        return result
      }
      return try UndeclaredCharsets.settle(result, again: again, options) { (source, options) throws(ContactIOError) in
        try read(source: source, total: total, format: format, options: options)
      }
    case .csv:
      // Spreadsheet and Outlook exports are often in the system's 8-bit
      // charset (Outlook in Western Europe: windows-1252), declared
      // nowhere. A cell that is not UTF-8 is decoded, wherever it is in the
      // file (UTF-8 cells stay as they are, as vCard values do): in the
      // declared charset, else the one ICU's detector names over the lines
      // of the first 4 KB that are not UTF-8 (a German Outlook header
      // already has some: `Straße privat`), else the fallback (windows-1252).
      var charset = options.declaredCharset.flatMap { Charset.isUTF8Label(Array($0.utf8)) ? nil : $0 }
      var how = UndeclaredCharset.Source.declared
      var detection: CharsetDetector.Match? = nil
      if charset == nil {
        let first4K = Array(head.prefix(4096))
        let undeclared = first4K.withUnsafeBytes { Self.nonUTF8Lines($0[..<Self.completeUTF8Prefix($0)]) }
        let v = UndeclaredCharsets.verdict(
          text: undeclared, fallback: options.fallbackCharset, threshold: options.minimumDetectionConfidence)
        detection = v.best
        charset = v.use ?? options.fallbackCharset
        how = v.use == nil ? .fallback : .detected
      }
      let name = charset ?? options.fallbackCharset
      // The first 64 KB (or the whole table): the records whose values
      // confirm each column's role, the same whatever the chunk size.
      var headIsWhole = false
      while head.count < CSVReader.sampleBytes {
        let n = try source.read(into: &head, maxCount: CSVReader.sampleBytes - head.count)
        headRead += n
        if n == 0 {
          headIsWhole = true
          break
        }
      }
      var result = try CSVReader.read(
        source: source, head: head, headIsWhole: headIsWhole, headRead: headRead, total: total, options: options,
        cellCharset: name)
      if result.undeclaredValues > 0 {
        result.undeclaredCharset = UndeclaredCharset(
          name: name, source: how, values: result.undeclaredValues, detection: detection)
      }
      return result
    case .ndjson:
      reader = ChunkedReader(source: source, chunkSize: options.chunkSize, splitter: NDJSONReader.splitter)
      reader.prepend(head)
      reader.bytesRead = headRead
      let opts = options
      return try ParallelReader.run(reader, options: options, totalBytes: total) {
        NDJSONReader.parseChunk($0, options: opts)
      }
    }
  }
}

extension ContactIO {
  /// The LF-ended lines of `bytes` that are not UTF-8, end to end.
  static func nonUTF8Lines(_ bytes: Slice<UnsafeRawBufferPointer>) -> [UInt8] {
    var out: [UInt8] = []
    var start = bytes.startIndex
    while start < bytes.endIndex {
      var end = start
      while end < bytes.endIndex && bytes[end] != ASCII.lf { end += 1 }
      if end < bytes.endIndex { end += 1 }
      if !ByteScan.isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) {
        out.append(contentsOf: bytes[start..<end])
      }
      start = end
    }
    return out
  }

  /// The length of `bytes` without a UTF-8 sequence cut off at its end (a
  /// read of the first 4 KB can stop inside a character).
  static func completeUTF8Prefix(_ bytes: UnsafeRawBufferPointer) -> Int {
    var i = bytes.count
    var back = 0
    while i > 0 && back < 4 {
      let b = bytes[i - 1]
      if b & 0xC0 != 0x80 {
        // A lead byte: is its sequence whole?
        let need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
        return back + 1 >= need ? bytes.count : i - 1
      }
      i -= 1
      back += 1
    }
    return bytes.count
  }
}
