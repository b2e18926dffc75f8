#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One card, unfolded. A logical line that is one physical line is not
/// copied: its range points into the chunk being read. Lines that were
/// folded (or joined at quoted-printable soft breaks) are unfolded into
/// `bytes`, and their ranges are offset by ``copied`` to tell them apart;
/// see ``buffer(of:chunk:copy:)``.
struct VCardCard {
  var bytes: [UInt8] = []
  var lines: [Range<Int>] = []
  /// Offset of ranges into `bytes` (far above any chunk offset).
  static let copied = 1 << 48

  /// The buffer a line range points into and the range inside it.
  @inline(__always)
  static func buffer(
    of r: Range<Int>, chunk: UnsafeBufferPointer<UInt8>, copy: UnsafeBufferPointer<UInt8>
  ) -> (UnsafeBufferPointer<UInt8>, Range<Int>, isCopy: Bool) {
    if r.lowerBound >= copied { return (copy, (r.lowerBound - copied)..<(r.upperBound - copied), true) }
    return (chunk, r, false)
  }
  /// 1-based line number of the BEGIN:VCARD line.
  var startLine = 0
  /// Set when the card cannot be imported; the lexer still reads to its END.
  var failure: String?

  mutating func reset(startLine: Int) {
    bytes.removeAll(keepingCapacity: true)
    lines.removeAll(keepingCapacity: true)
    self.startLine = startLine
    failure = nil
  }
}

/// Splits vCard text into cards and unfolds their lines.
///
/// Rules (documented in the module README):
/// - Lines end with LF or CRLF. A line starting with a space or tab
///   continues the previous one (the first blank is dropped). Folding is
///   undone on bytes, so a fold inside a multi-byte character is harmless.
/// - In a quoted-printable property, a line ending in `=` is a soft break:
///   the `=` is dropped and the next line joined whole.
/// - Inside a card, an empty line is skipped, a line starting with `#` is a
///   comment, and a line without `:` continues the previous property (2.1
///   base64 data, broken writers).
/// - BEGIN:VCARD inside a card ends the previous card with "missing
///   END:VCARD"; text outside cards is reported once per run of lines.
/// - A logical line longer than `maxLineBytes` fails its card.
struct VCardLexer {
  var maxLineBytes: Int

  static let begin: [UInt8] = Array("BEGIN:VCARD".utf8)
  static let end: [UInt8] = Array("END:VCARD".utf8)
  static let qp: [UInt8] = Array("QUOTED-PRINTABLE".utf8)  // the plain form, for tests

  /// Is the line (without its line break) `marker`, in any case, with
  /// optional trailing blanks? (The plain form of ``isBegin(_:)`` and
  /// ``isEnd(_:)``, which tests check them against.)
  static func isMarker(_ line: UnsafeBufferPointer<UInt8>, _ marker: [UInt8]) -> Bool {
    if line.count < marker.count { return false }
    for k in 0..<marker.count where ASCII.upper(line[k]) != marker[k] { return false }
    var k = marker.count
    while k < line.count {
      if !ASCII.isSpace(line[k]) { return false }
      k += 1
    }
    return true
  }

  // A first-byte test ('B' / 'E' in either case: `b | 0x20`) rejects almost
  // every property line; then the marker is compared as upper-cased words
  // ("BEGIN:VC" + "ARD", "END:VCAR" + "D", little-endian), with no table.
  @inline(__always)
  static func isBegin(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.count >= 11, line[0] | 0x20 == 0x62, let p = line.baseAddress else { return false }
    let raw = UnsafeRawPointer(p)
    return ByteScan.upper(raw.loadUnaligned(as: UInt64.self)) == 0x4356_3A4E_4947_4542
      && ByteScan.upper(ByteScan.smallWord(raw + 8, 3)) == 0x44_5241 && blanks(line, from: 11)
  }
  @inline(__always)
  static func isEnd(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.count >= 9, line[0] | 0x20 == 0x65, let p = line.baseAddress else { return false }
    return ByteScan.upper(UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) == 0x5241_4356_3A44_4E45
      && ASCII.upper(line[8]) == 0x44 && blanks(line, from: 9)
  }
  @inline(__always)
  static func blanks(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    var k = start
    while k < line.count {
      if !ASCII.isSpace(line[k]) { return false }
      k += 1
    }
    return true
  }

  /// Reads every card in `buf`. `firstLine` is the 1-based number of the
  /// first line of `buf`. Complete cards go to `onCard`; cards that cannot be
  /// read and stray text go to `onError(line, reason)`.
  /// Returns the number of lines read.
  @discardableResult
  func run(
    _ buf: UnsafeBufferPointer<UInt8>, firstLine: Int, card: inout VCardCard,
    onCard: (inout VCardCard) -> Void, onError: (Int, String) -> Void
  ) -> Int {
    guard let base = buf.baseAddress else { return 0 }
    var pos = 0
    var lineNo = firstLine - 1
    var inCard = false
    var inGarbage = false
    var curStart = -1  // start of the current logical line in card.bytes, when copied
    var curInChunk = -1..<(-1)  // the current logical line in `buf`, when not copied
    var curIsQP: Bool? = nil
    var qpSoft = false

    func closeLogical(_ card: inout VCardCard) {
      if curInChunk.lowerBound >= 0 {
        card.lines.append(curInChunk)
      } else if curStart >= 0 {
        card.lines.append((VCardCard.copied + curStart)..<(VCardCard.copied + card.bytes.count))
      }
      curStart = -1
      curInChunk = -1..<(-1)
      curIsQP = nil
      qpSoft = false
    }

    /// Copies the current logical line into `card.bytes` (before something
    /// is appended to it).
    func materialize(_ card: inout VCardCard) {
      guard curInChunk.lowerBound >= 0 else { return }
      curStart = card.bytes.count
      card.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[curInChunk]))
      curInChunk = -1..<(-1)
    }

    // After appending to the current logical line: length check and QP soft break.
    func afterAppend(_ card: inout VCardCard) {
      if card.bytes.count - curStart > maxLineBytes && card.failure == nil {
        card.failure = "line longer than \(maxLineBytes) bytes"
      }
      guard card.bytes.last == ASCII.equals else {
        qpSoft = false
        return
      }
      if curIsQP == nil {
        let start = curStart
        curIsQP = card.bytes.withUnsafeBufferPointer { b in
          guard start >= 0, start <= b.count else { return false }
          return Self.namesQuotedPrintable(UnsafeBufferPointer(rebasing: b[start...]))
        }
      }
      if curIsQP == true {
        card.bytes.removeLast()
        qpSoft = true
      } else {
        qpSoft = false
      }
    }

    while pos < buf.count {
      lineNo += 1
      let remaining = buf.count - pos
      let nl: Int
      if let p = memchr(base + pos, 0x0A, remaining) {
        nl = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
      } else {
        nl = buf.count
      }
      var lineEnd = nl
      while lineEnd > pos && buf[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
      let lineStart = pos
      let line = UnsafeBufferPointer(rebasing: buf[lineStart..<lineEnd])
      pos = nl + 1

      if !inCard {
        if Self.isBegin(line) {
          inCard = true
          inGarbage = false
          card.reset(startLine: lineNo)
          closeLogical(&card)
        } else if line.allSatisfy({ ASCII.isSpace($0) }) {
          continue
        } else if !inGarbage {
          inGarbage = true
          onError(lineNo, "unexpected text outside a card")
        }
        continue
      }

      let isEnd = Self.isEnd(line)
      let isBegin = !isEnd && Self.isBegin(line)

      if qpSoft && !isEnd && !isBegin {
        materialize(&card)
        card.bytes.append(contentsOf: line)
        afterAppend(&card)
        continue
      }
      if isEnd {
        closeLogical(&card)
        inCard = false
        if let failure = card.failure {
          onError(card.startLine, failure)
        } else {
          onCard(&card)
        }
        continue
      }
      if isBegin {
        closeLogical(&card)
        onError(card.startLine, "missing END:VCARD")
        card.reset(startLine: lineNo)
        continue
      }
      guard let first = line.first else { continue }  // empty line
      if ASCII.isSpace(first) {
        if curStart >= 0 || curInChunk.lowerBound >= 0 {
          materialize(&card)
          card.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[1...]))
          afterAppend(&card)
        } else if !line.allSatisfy({ ASCII.isSpace($0) }) && card.failure == nil {
          card.failure = "continuation line without a property (line \(lineNo - card.startLine + 1) of the card)"
        }
        continue
      }
      if first == ASCII.hash { continue }
      // Word at a time: the colon is usually within the first 16 bytes.
      let hasColon = ByteScan.contains(line, ASCII.colon)
      if !hasColon {
        if curStart >= 0 || curInChunk.lowerBound >= 0 {
          materialize(&card)
          card.bytes.append(contentsOf: line)
          afterAppend(&card)
        } else if card.failure == nil {
          card.failure = "line without a property name (line \(lineNo - card.startLine + 1) of the card)"
        }
        continue
      }
      closeLogical(&card)
      // Most lines neither end in `=` nor run long: they stay where they
      // are (a fold on the next line copies them then).
      if line[line.count - 1] != ASCII.equals && line.count <= maxLineBytes {
        curInChunk = lineStart..<lineEnd
        qpSoft = false
      } else {
        curStart = card.bytes.count
        card.bytes.append(contentsOf: line)
        afterAppend(&card)
      }
    }
    if inCard {
      onError(card.startLine, "missing END:VCARD at end of input")
    }
    return lineNo - (firstLine - 1)
  }

  /// Does the part of a property line before its first `:` contain
  /// `QUOTED-PRINTABLE` (in any case)? Candidates are found by their first
  /// byte and compared as two upper-cased words.
  static func namesQuotedPrintable(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let p = line.baseAddress else { return false }
    let raw = UnsafeRawPointer(p)
    var end = 0
    while end < line.count && line[end] != ASCII.colon { end += 1 }
    var s = 0
    while s + 16 <= end {
      if line[s] | 0x20 == 0x71,  // 'q'
        ByteScan.upper(raw.loadUnaligned(fromByteOffset: s, as: UInt64.self)) == 0x502D_4445_544F_5551,  // "QUOTED-P"
        ByteScan.upper(raw.loadUnaligned(fromByteOffset: s + 8, as: UInt64.self)) == 0x454C_4241_544E_4952  // "RINTABLE"
      {
        return true
      }
      s += 1
    }
    return false
  }

  /// The offset of the start of the last line that begins with BEGIN:VCARD
  /// in `buf`, other than at offset 0; nil if there is none. Used to cut
  /// input into chunks at card boundaries.
  static func lastCardStart(in buf: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = buf.count - 1
    let n = begin.count
    while i > 0 {
      // Find the previous '\n'.
      if buf[i - 1] == ASCII.lf && buf.count - i >= n && (buf[i] == 0x42 || buf[i] == 0x62) {
        var match = true
        for k in 0..<n where ASCII.upper(buf[i + k]) != begin[k] {
          match = false
          break
        }
        if match { return i }
      }
      i -= 1
    }
    return nil
  }
}

/// Splits one logical line into group, name, parameters and value.
struct VCardPropertyLine {
  var group: Range<Int>
  var name: Range<Int>
  var params: Range<Int>
  var value: Range<Int>

  /// nil when the line has no name or no value colon.
  static func split(_ array: [UInt8], _ r: Range<Int>) -> VCardPropertyLine? {
    guard r.lowerBound >= 0 && r.upperBound <= array.count else { return nil }
    return array.withUnsafeBufferPointer { split(borrowing: $0, r) }
  }

  /// `split` over borrowed bytes (`r` lies inside `bytes`). The name and
  /// the parameters are crossed a word at a time (`ByteScan.firstIndex`):
  /// only the bytes that end them are looked at one by one.
  @inline(__always)
  static func split(borrowing bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> VCardPropertyLine? {
    let end = r.upperBound
    guard let base = bytes.baseAddress, r.lowerBound >= 0, end <= bytes.count else { return nil }
    // Offsets below are into `line`, which starts at r.lowerBound.
    let from = r.lowerBound
    let line = UnsafeRawBufferPointer(start: base + from, count: end - from)
    let n = line.count
    let i = ByteScan.firstIndex(line, ASCII.semicolon, or: ASCII.colon, from: 0)
    if i >= n { return nil }
    var nameStart = 0
    while nameStart < i && ASCII.isSpace(line[nameStart]) { nameStart += 1 }
    // The group ends at the first dot of the name (`item1.TEL`).
    var dot = -1
    var k = nameStart
    while k < i {
      if line[k] == ASCII.dot {
        dot = k
        break
      }
      k += 1
    }
    var group = (from + nameStart)..<(from + nameStart)
    if dot >= 0 {
      group = (from + nameStart)..<(from + dot)
      nameStart = dot + 1
    }
    var nameEnd = i
    while nameEnd > nameStart && ASCII.isSpace(line[nameEnd - 1]) { nameEnd -= 1 }
    if nameEnd == nameStart { return nil }
    let name = (from + nameStart)..<(from + nameEnd)
    if line[i] == ASCII.colon {
      return VCardPropertyLine(group: group, name: name, params: (from + i)..<(from + i), value: (from + i + 1)..<end)
    }
    // Parameters: up to the first ':' outside double quotes.
    var j = ByteScan.firstIndex(line, ASCII.colon, or: ASCII.quote, from: i)
    var colon = -1
    if j < n && line[j] == ASCII.quote {
      // Quoted parameter values: walk quote by quote; remember the first
      // colon in case the quotes never balance.
      let firstColon = ByteScan.firstIndex(line, ASCII.colon, or: ASCII.colon, from: i)
      var inQuotes = false
      while j < n {
        let b = line[j]
        if b == ASCII.colon && !inQuotes {
          colon = j
          break
        }
        if b == ASCII.quote { inQuotes.toggle() }
        j = ByteScan.firstIndex(line, ASCII.colon, or: ASCII.quote, from: j + 1)
      }
      if colon < 0 && firstColon < n { colon = firstColon }  // unbalanced quotes
    } else if j < n {
      colon = j
    }
    if colon < 0 { return nil }
    return VCardPropertyLine(
      group: group, name: name, params: (from + i)..<(from + colon), value: (from + colon + 1)..<end)
  }
}
