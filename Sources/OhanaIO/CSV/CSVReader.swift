import OhanaCore

/// Reads CSV with a header row (see `CSVHeader` for the headers we map).
/// The first record is the header; every later record is one contact.
/// Blank records are skipped; a record with more cells than the header or
/// an unterminated quote is skipped with an error.
enum CSVReader {
  static func splitter(_ buf: UnsafeBufferPointer<UInt8>) -> Int? {
    CSVTokenizer.lastRecordStart(in: buf)
  }

  /// `cellCharset`: the charset of the cells that are not UTF-8 (declared,
  /// detected or the fallback: `ContactIO` decides; nil leaves them raw).
  /// How much of a table's beginning detection reads its samples from.
  static let sampleBytes = 64 << 10

  /// `head`: the input's first bytes (``sampleBytes``, or all of it when
  /// `headIsWhole`), where detection takes its sample records.
  static func read(
    source: ByteSource, head: [UInt8], headIsWhole: Bool = true, headRead: Int, total: Int?, options: ReadOptions,
    cellCharset: String?
  ) throws(ContactIOError) -> ReadResult {
    // The delimiter: given, else sniffed from the header line.
    let delimiter = options.delimiter ?? CSVTokenizer.sniffDelimiter(head)
    var reader = ChunkedReader(source: source, chunkSize: options.chunkSize) {
      CSVTokenizer.lastRecordStart(in: $0, delimiter: delimiter)
    }
    reader.prepend(head)
    reader.bytesRead = headRead
    guard let first = try reader.next() else {
      return ReadResult(table: ContactTable(), errors: [], bytesRead: headRead, recordsRead: 0, recordsSkipped: 0)
    }
    var tok = CSVTokenizer(first.bytes, range: 0..<first.bytes.count, firstLine: 1, delimiter: delimiter)
    var text: [UInt8] = []
    var cells: [Range<Int>] = []
    var line = 1
    guard tok.next(text: &text, cells: &cells, recordLine: &line) == .record else {
      throw ContactIOError(.invalidInput, "CSV header is not a complete record", line: 1)
    }
    let headerDecoded = decodeCells(&text, &cells, charset: cellCharset)
    let headerCells = cells.map { String(decoding: text[$0], as: UTF8.self) }
    // Up to 200 records of the input's first 64 KB, the complete ones:
    // the values detection confirms each column's role with (the same
    // records whatever the chunk size).
    var samples: [[String]] = []
    let complete = headIsWhole ? head.count : head.withUnsafeBufferPointer { CSVTokenizer.lastRecordStart(in: $0, delimiter: delimiter) } ?? 0
    var sampler = CSVTokenizer(head, range: 0..<complete, firstLine: 1, delimiter: delimiter)
    var sampleLine = 1
    var sampleText: [UInt8] = [], sampleCells: [Range<Int>] = []
    _ = sampler.next(text: &sampleText, cells: &sampleCells, recordLine: &sampleLine)  // the header
    while samples.count < 200, sampler.next(text: &sampleText, cells: &sampleCells, recordLine: &sampleLine) == .record {
      _ = decodeCells(&sampleText, &sampleCells, charset: cellCharset)
      samples.append(sampleCells.map { String(decoding: sampleText[$0], as: UTF8.self) })
    }
    var header = CSVHeader(
      cells: headerCells, samples: samples, mapping: options.columnMapping, dateOrder: options.dateOrder)
    header.delimiter = delimiter
    let parsedHeader = header
    let rest = InputChunk(bytes: Array(first.bytes[tok.i...]), firstLine: tok.line, index: 0)
    reader.pushFront(rest)
    let opts = options
    var result = try ParallelReader.run(reader, options: options, totalBytes: total) {
      parseChunk($0, header: parsedHeader, options: opts, cellCharset: cellCharset)
    }
    result.undeclaredValues += headerDecoded
    result.columns = header.columns
    result.tableDelimiter = delimiter
    return result
  }

  /// Decodes the cells of one record that are not UTF-8 from `charset`
  /// (the read's `cellCharset`);
  /// `text` and `cells` are rebuilt only when some cell is not UTF-8.
  /// Returns how many cells were decoded. A cell that cannot be decoded
  /// stays as it is.
  static func decodeCells(_ text: inout [UInt8], _ cells: inout [Range<Int>], charset: String?) -> Int {
    guard let charset, !cellsAreUTF8(text, cells) else { return 0 }
    var out: [UInt8] = []
    out.reserveCapacity(text.count + text.count / 2)
    var decoded = 0
    let label = Array(charset.utf8)
    for (i, r) in cells.enumerated() {
      let start = out.count
      let valid = text.withUnsafeBytes { ByteScan.isValidUTF8(UnsafeRawBufferPointer(rebasing: $0[r])) }
      if !valid, (try? Charset.toUTF8(text[r], charset: label, into: &out)) != nil {
        decoded += 1
      } else {
        out.removeSubrange(start...)
        out.append(contentsOf: text[r])
      }
      cells[i] = start..<out.count
    }
    text = out
    return decoded
  }

  /// Whether every cell of a record is UTF-8. The cells lie end to end
  /// in `text` with nothing between them, so `text` being UTF-8 is not
  /// enough: a cell ending in a lead byte (`CE`) followed by one starting
  /// with a continuation byte (`B1`) reads as one character (`α`) across
  /// the boundary. The whole text is checked once (the common case, one
  /// pass), then each cell's two ends: in valid UTF-8 a boundary that is
  /// not a continuation byte starts a character, so every cell then is
  /// whole characters.
  static func cellsAreUTF8(_ text: [UInt8], _ cells: [Range<Int>]) -> Bool {
    guard text.withUnsafeBytes({ ByteScan.isValidUTF8($0) }) else { return false }
    @inline(__always) func startsCharacter(_ i: Int) -> Bool { i >= text.count || text[i] & 0xC0 != 0x80 }
    for r in cells where !startsCharacter(r.lowerBound) || !startsCharacter(r.upperBound) { return false }
    return true
  }

  private static let separator: [UInt8] = Array(" ::: ".utf8)
  private static let extraName: [UInt8] = Array("X-CSV".utf8)

  /// A mapped column's missing value (``ColumnDetection/isMissing(_:)``).
  static func isMissingWord(_ bytes: ArraySlice<UInt8>) -> Bool {
    // On bytes, without a String: at most 6 letters after blanks are trimmed.
    var lo = bytes.startIndex, hi = bytes.endIndex
    while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
    while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
    let n = hi - lo
    if n == 0 { return true }
    guard n <= 6 else { return false }
    var word: UInt64 = 0
    for i in lo..<hi { word = word << 8 | UInt64(ASCII.lower(bytes[i])) }
    for w in missingWords where w == word { return true }
    return false
  }

  /// ``ColumnDetection/missingWords`` packed as the test above packs them
  /// (a handful: compared in turn, cheaper than hashing a word per cell).
  static let missingWords: [UInt64] =
    ColumnDetection.missingWords.map { w in w.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }.sorted()

  /// What the mapped columns of a record become: a birthday read into ISO
  /// (`26/03/1964` → `1964-03-26`, in the column's order of day and
  /// month; kept as written when it is no date), and a full name split
  /// into its parts when no column gives given or family names
  /// (``NameParts``: `Smith, John` and `John Smith` alike; the full name
  /// of `Smith, John` then `John Smith`).
  ///
  /// `builder` and `strings` are a chunk's (ids are the batch's
  /// provisional ids); `dates` caches a birthday's ISO form per provisional
  /// id.
  static func normalizeMapped(
    _ builder: ChunkBuilder, strings: inout StringBatch, header: CSVHeader, dates: inout [StringID: StringID]
  ) {
    let bday = builder.value(.birthday)
    if bday.isPresent {
      // Once per distinct date of the chunk; ISO already (`1964-03-26`,
      // which `DateText.parse` gives back as it is or refuses) on bytes.
      if let known = dates[bday] {
        builder.set(.birthday, known)
      } else {
        // The ISO form when it differs from the text, else empty.
        let iso = strings.withBytes(of: bday) { bytes -> [UInt8] in
          if isISODate(bytes) { return [] }
          // Bytes that are no UTF-8 are read as `String(decoding:)` reads them.
          if !ByteScan.isASCII(bytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            return DateText.parse(text, order: header.dateOrder).map { $0 == text ? [] : Array($0.utf8) } ?? []
          }
          guard let iso = DateText.parse(utf8: bytes, order: header.dateOrder), !iso.elementsEqual(bytes) else { return [] }
          return iso
        }
        var id = bday
        if !iso.isEmpty {
          id = strings.add(bytes: iso)
          builder.set(.birthday, id)
        }
        dates[bday] = id
      }
    }
    let full = builder.value(.fullName)
    if full.isPresent && builder.value(.givenName).isAbsent && builder.value(.familyName).isAbsent {
      let text = strings.withBytes(of: full) { String(decoding: $0, as: UTF8.self) }
      guard let name = NameParts(text) else { return }
      func id(_ s: String) -> StringID { strings.add(s) }
      builder.set(.familyName, id(name.family))
      if !name.given.isEmpty { builder.set(.givenName, id(name.given)) }
      if !name.middle.isEmpty && builder.value(.middleName).isAbsent { builder.set(.middleName, id(name.middle)) }
      if !name.prefix.isEmpty && builder.value(.prefix).isAbsent { builder.set(.prefix, id(name.prefix)) }
      if name.inverted { builder.set(.fullName, id(name.displayed)) }
    }
  }

  /// Whether `bytes` are exactly `dddd-dd-dd`: a date `DateText.parse`
  /// either returns unchanged or refuses (kept as written either way).
  static func isISODate(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return false }
    for i in [0, 1, 2, 3, 5, 6, 8, 9] where !(0x30...0x39).contains(bytes[i]) { return false }
    return true
  }

  static func count(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int {
    var n = 0
    for b in bytes where b == byte { n += 1 }
    return n
  }

  /// `0/0/00`, `0.0.00`: Outlook's empty date.
  static func isOutlookNoDate(_ bytes: ArraySlice<UInt8>) -> Bool {
    var zeros = 0
    for b in bytes {
      if b == 0x30 { zeros += 1 } else if b != 0x2F && b != 0x2E { return false }
    }
    return zeros >= 3 && bytes.count <= 10
  }

  static func parseChunk(_ chunk: InputChunk, header: CSVHeader, options: ReadOptions, cellCharset: String?) -> PartialResult {
    // Strings go into a batch of provisional ids, hashed here on the
    // worker; the merge interns them into the table's pool (as the vCard
    // reader does), and rows into raw columns encoded once per chunk.
    let estimate = chunk.bytes.count / 100 + 16
    var strings = StringBatch(capacity: estimate * 4, bytes: chunk.bytes.count / 2)
    var builder = ChunkBuilder(contacts: estimate, fields: estimate * 2, addresses: estimate)
    var errors: [InputError] = []
    var read = 0
    var skipped = 0
    var undeclared = 0
    var tok = CSVTokenizer(chunk.bytes, range: 0..<chunk.bytes.count, firstLine: chunk.firstLine, delimiter: header.delimiter)
    var text: [UInt8] = []
    var cells: [Range<Int>] = []
    var line = chunk.firstLine
    var scratch: [UInt8] = []
    // Per slot: label cell and value cell (ranges into text), address parts.
    var slotLabel = [Range<Int>?](repeating: nil, count: header.slots.count)
    var slotValue = [Range<Int>?](repeating: nil, count: header.slots.count)
    var slotParts = [[Range<Int>?]](
      repeating: Array(repeating: nil, count: AddressAttribute.allCases.count), count: header.slots.count)
    // Extra-property parameter text per column.
    var extraParams: [StringID] = []
    let anyMapped = header.mapped.contains(true)
    let mappedColumns = header.mapped, targets = header.targets
    var dates: [StringID: StringID] = [:]

    func intern<C: Collection>(_ b: C) -> StringID where C.Element == UInt8 {
      // In place when the bytes are contiguous (a cell of `text`): no copy.
      if let id = b.withContiguousStorageIfAvailable({ strings.add(UnsafeRawBufferPointer($0)) }) { return id }
      return Array(b).withUnsafeBytes { strings.add($0) }
    }
    for name in header.names {
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: Array("HEADER=".utf8))
      VCardEscaping.writeParameterValue(Array(name.utf8), into: &scratch)
      extraParams.append(intern(scratch))
    }

    loop: while true {
      switch tok.next(text: &text, cells: &cells, recordLine: &line) {
      case .end:
        break loop
      case .unterminatedQuote:
        errors.append(InputError(line: line, reason: "unterminated quoted cell"))
        skipped += 1
        break loop
      case .record:
        break
      }
      if cells.allSatisfy(\.isEmpty) { continue }
      undeclared += decodeCells(&text, &cells, charset: cellCharset)
      if text.count > options.maxLineBytes {
        errors.append(InputError(line: line, reason: "record longer than \(options.maxLineBytes) bytes"))
        skipped += 1
        continue
      }
      if cells.count > header.targets.count {
        errors.append(
          InputError(line: line, reason: "record has \(cells.count) cells, header has \(header.targets.count)"))
        skipped += 1
        continue
      }
      for s in 0..<header.slots.count {
        slotLabel[s] = nil
        slotValue[s] = nil
        for p in 0..<slotParts[s].count { slotParts[s][p] = nil }
      }
      builder.beginContact(sourceLine: line)
      var extras: [(Int, Range<Int>)] = []
      for (c, r) in cells.enumerated() where !r.isEmpty {
        let mapped = mappedColumns[c]
        let target = targets[c]
        // A mapped column's `NULL`, `N/A`, `nan`... are missing values.
        if mapped && target != .extra && Self.isMissingWord(text[r]) { continue }
        switch target {
        case .attribute(let a):
          // Outlook writes "no date" as `0/0/00` (`0.0.00` in German).
          if a == .birthday && Self.isOutlookNoDate(text[r]) { continue }
          if builder.value(a).isAbsent {
            builder.set(a, intern(text[r]))
          } else if mapped {
            // Several columns of one role: joined (`Straße` and
            // `Hausnummer`; a birthday's year, month and day).
            scratch.removeAll(keepingCapacity: true)
            strings.withBytes(of: builder.value(a)) { scratch.append(contentsOf: $0) }
            scratch.append(a == .birthday ? UInt8(ascii: "-") : 0x20)
            scratch.append(contentsOf: text[r])
            builder.set(a, intern(scratch))
          }
        case .fieldValue(let s): slotValue[s] = r
        case .fieldLabel(let s): slotLabel[s] = r
        case .address(let s, let a):
          if slotParts[s][a.rawValue] == nil {
            slotParts[s][a.rawValue] = r
          } else if mapped, let prior = slotParts[s][a.rawValue] {
            // Joined in `text` after its cells: `prior`, a space, this one.
            let start = text.count
            text.append(contentsOf: text[prior])
            text.append(0x20)
            text.append(contentsOf: text[r])
            slotParts[s][a.rawValue] = start..<text.count
          }
        case .extra: extras.append((c, r))
        case .ignored: break
        }
      }
      if anyMapped { normalizeMapped(builder, strings: &strings, header: header, dates: &dates) }
      for (s, slot) in header.slots.enumerated() {
        if slot.isAddress {
          let parts = slotParts[s]
          guard parts.contains(where: { $0 != nil }) else { continue }
          var ids = parts.map { $0.map { intern(text[$0]) } ?? .absent }
          if ids[AddressAttribute.label.rawValue].isAbsent, let l = slot.fixedLabel { ids[0] = strings.add(l) }
          builder.appendAddress(ids)
          continue
        }
        guard let v = slotValue[s] else { continue }
        var label = StringID.absent
        if let l = slotLabel[s] {
          label = intern(text[l])
        } else if let l = slot.fixedLabel {
          label = strings.add(l)
        }
        // Several e-mail addresses in one cell (`a@x.org, b@y.org`): a field each.
        if slot.kind == .email, Self.count(UInt8(ascii: "@"), in: text[v]) > 1,
          case let cell = String(decoding: text[v], as: UTF8.self), ColumnDetection.isEmail(cell)
        {
          for part in ColumnDetection.emails(in: cell) where !part.isEmpty {
            builder.appendField(kind: slot.kind, label: label, value: intern(Array(part.utf8)), group: .absent, parameters: .absent)
          }
          continue
        }
        // The user's separator (`--multi-separator`) in a phone or e-mail cell.
        if let sep = options.multiSeparator, !sep.isEmpty, slot.kind == .phone || slot.kind == .email {
          var start = v.lowerBound
          var k = v.lowerBound
          func add(_ part: Range<Int>) {
            var lo = part.lowerBound, hi = part.upperBound
            while lo < hi && (text[lo] == 0x20 || text[lo] == 0x09) { lo += 1 }
            while hi > lo && (text[hi - 1] == 0x20 || text[hi - 1] == 0x09) { hi -= 1 }
            if lo < hi {
              builder.appendField(kind: slot.kind, label: label, value: intern(text[lo..<hi]), group: .absent, parameters: .absent)
            }
          }
          while k + sep.count <= v.upperBound {
            if text[k..<(k + sep.count)].elementsEqual(sep) {
              add(start..<k)
              k += sep.count
              start = k
            } else {
              k += 1
            }
          }
          add(start..<v.upperBound)
          continue
        }
        // Google packs several values into one cell with " ::: ".
        var start = v.lowerBound
        var k = v.lowerBound
        while k + separator.count <= v.upperBound {
          if text[k..<(k + separator.count)].elementsEqual(separator) {
            builder.appendField(kind: slot.kind, label: label, value: intern(text[start..<k]), group: .absent, parameters: .absent)
            k += separator.count
            start = k
          } else {
            k += 1
          }
        }
        builder.appendField(
          kind: slot.kind, label: label, value: intern(text[start..<v.upperBound]), group: .absent, parameters: .absent)
      }
      // Google's and Outlook's exports have no full-name column: the name
      // is composed from its parts (prefix, given, middle, family, suffix),
      // as both show it, so that every contact has one (vCard's FN).
      if builder.value(.fullName).isAbsent {
        scratch.removeAll(keepingCapacity: true)
        for a in [ContactAttribute.prefix, .givenName, .middleName, .familyName, .suffix] {
          let id = builder.value(a)
          guard id.isPresent else { continue }
          if !scratch.isEmpty { scratch.append(0x20) }
          strings.withBytes(of: id) { scratch.append(contentsOf: $0) }
        }
        if !scratch.isEmpty { builder.set(.fullName, intern(scratch)) }
      }
      for (c, r) in extras {
        scratch.removeAll(keepingCapacity: true)
        VCardEscaping.escapeText(text[r], commas: true, into: &scratch)
        if let named = header.extraNames[c] {
          // A mapped column with a vCard property of its own (GENDER).
          if Self.isMissingWord(text[r]) { continue }
          let value = intern(scratch)
          builder.appendExtra(name: intern(Array(named.utf8)), group: .absent, parameters: .absent, value: value)
          continue
        }
        builder.appendExtra(name: intern(extraName), group: .absent, parameters: extraParams[c], value: intern(scratch))
      }
      builder.endContact()
      read += 1
    }
    var partial = PartialResult(
      table: builder.buildDeferred(idLimit: strings.count), strings: strings, errors: errors, recordsRead: read, recordsSkipped: skipped, byteCount: chunk.bytes.count)
    partial.undeclaredValues = undeclared
    return partial
  }
}
