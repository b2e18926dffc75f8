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
  /// The logical lines: where their bytes are, and the 1-based input line
  /// each starts on (one array, one append a line).
  var lines: [(range: Range<Int>, number: Int)] = []
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
  /// What the lexer had to work around in this card (a line too long, a
  /// missing END:VCARD): the card is still imported, and these become
  /// warnings with their line.
  var warnings: [(line: Int, reason: String)] = []

  mutating func reset(startLine: Int) {
    bytes.removeAll(keepingCapacity: true)
    lines.removeAll(keepingCapacity: true)
    if !warnings.isEmpty { warnings.removeAll(keepingCapacity: true) }
    self.startLine = startLine
  }
}

/// Splits vCard text into cards and unfolds their lines.
///
/// Rules (documented in the README, "Reading real exports"):
/// - Lines end with LF or CRLF. A line starting with a space or tab
///   continues the previous one (the first blank is dropped). Folding is
///   undone on bytes, so a fold inside a multi-byte character, a parameter
///   value, a property name or an escape is harmless. With nothing to
///   continue (right after BEGIN:VCARD or a nested card's END:VCARD) it is
///   a line of its own, without its leading blanks.
/// - A line that is BEGIN:VCARD or END:VCARD (any case, trailing blanks) is
///   a card marker, and so is a shorter line that is one once unfolded with
///   all the fold lines after it (`BEGIN:VCAR` + `\tD`), an empty line too
///   (an empty line + `\tBEGIN:VCARD` starts a card at the empty line).
/// - In a quoted-printable property, a line ending in `=` is a soft break:
///   the `=` is dropped and the next line joined whole. When an empty line
///   follows the `=`, the line after it is joined only if it cannot start a
///   property (Android and Evolution end values with `=` and an empty line;
///   other writers double every line end).
/// - Inside a card, an empty line is skipped and a line starting with `#`
///   is a comment. A line with no `:` (even after its folds) continues the
///   previous property only where that is a known exporter habit, and only
///   in a 2.1 card: the previous line ends in an odd number of backslashes
///   (line continuation) or carries base64 data (base64 lines without a
///   leading blank). Any other line starts a property of its own; one that
///   has no property name becomes a warning and is kept verbatim by the
///   parser, never glued onto its neighbour.
/// - BEGIN:VCARD inside a vCard 2.1 card (its first VERSION line is `2.1`,
///   blanks around it allowed; see ``isVersion21(_:chunk:)``) starts a
///   nested card (2.1's AGENT habit): the outer card goes on after the inner
///   one's END:VCARD. Cards come out in the order of their BEGIN:VCARD
///   lines (an outer card before its inner ones: inner cards wait until
///   their outermost card is done), so the order is the same however the
///   input is cut into chunks. Inside any other card (3.0 / 4.0, where
///   nesting does not exist, or one with no such VERSION line) BEGIN:VCARD
///   means the card before was cut off: it is imported with a warning.
/// - A card still open at the end of the input is imported with a warning.
/// - A logical line longer than `maxLineBytes` is dropped with a warning.
struct VCardLexer {
  var maxLineBytes: Int
  /// The warning for a card cut off by the next BEGIN:VCARD or by the end
  /// of the input (one reason for both: chunks are cut at BEGIN:VCARD lines,
  /// so the two cannot be told apart at a chunk's end).
  static let cutOff = "missing END:VCARD; the card is imported as far as it goes"
  /// Nested 2.1 cards deeper than this are read as cut-off cards.
  static let maxNesting = 8

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
  /// first line of `buf`. Cards go to `onCard` (with what the lexer worked
  /// around in `warnings`); stray text outside cards goes to
  /// `onError(line, reason)`. Returns the number of lines read.
  @discardableResult
  func run(
    _ buf: UnsafeBufferPointer<UInt8>, firstLine: Int, card: inout VCardCard,
    onCard: (inout VCardCard) -> Void, onError: (Int, String) -> Void
  ) -> Int {
    guard let base = buf.baseAddress else { return 0 }
    var pass = Pass(base, count: buf.count, firstLine: firstLine, maxLineBytes: maxLineBytes)
    // The pass works on the caller's card (and its buffers) and hands it back.
    swap(&pass.card, &card)
    while pass.pos < buf.count {
      pass.read(pass.nextLine(), onCard: onCard, onError: onError)
    }
    pass.endOfInput(onCard: onCard)
    swap(&pass.card, &card)
    return pass.lineNo - (firstLine - 1)
  }

  /// The warning for a dropped line (out of line: the lexer's per-line
  /// helpers stay small enough to inline).
  @inline(never)
  static func tooLong(_ limit: Int) -> String { "line longer than \(limit) bytes; dropped" }

  /// Does a logical line accept a following line that has no `:` as its
  /// continuation? When it ends in an odd number of backslashes (2.1's line
  /// continuation: an escaped line break) or its parameters name base64
  /// (`ENCODING=B`, `ENCODING=BASE64`, 2.1's bare `BASE64`).
  static func acceptsContinuation(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var k = line.count
    while k > 0 && line[k - 1] == ASCII.backslash { k -= 1 }
    if (line.count - k) % 2 == 1 { return true }
    var colon = 0
    while colon < line.count && line[colon] != ASCII.colon { colon += 1 }
    // Parameter words, split at `;`, `=` and `,`.
    var w = 0
    var previousIsEncoding = false
    while w < colon {
      var e = w
      while e < colon && line[e] != ASCII.semicolon && line[e] != ASCII.equals && line[e] != ASCII.comma { e += 1 }
      let word = UnsafeBufferPointer(rebasing: line[w..<e])
      if word.asciiEqualsUppercase(base64Word) || (previousIsEncoding && word.asciiEqualsUppercase(bWord)) {
        return true
      }
      previousIsEncoding = word.asciiEqualsUppercase(encodingWord) && e < colon && line[e] == ASCII.equals
      w = e + 1
    }
    return false
  }
  private static let base64Word: [UInt8] = Array("BASE64".utf8)
  private static let bWord: [UInt8] = Array("B".utf8)
  private static let encodingWord: [UInt8] = Array("ENCODING".utf8)

  enum Marker { case begin, end }

  /// Is `line` with the fold lines that follow it (from `from`) a
  /// BEGIN:VCARD or END:VCARD? Then also where the line after its folds
  /// starts and how many fold lines there were.
  ///
  /// The line is unfolded with *all* its fold lines, as RFC 6350 3.2 reads
  /// it: `BEGIN:VCA` + ` RD` + `  ` is the marker (blanks may follow it),
  /// `BEGIN:VCA` + ` RD  ` + ` X` is not (it is `BEGIN:VCARD  X`), however
  /// long the blanks run. Only the first bytes are kept; past the marker's
  /// length a fold may bring blanks only, and the first other byte ends
  /// the search (so a long run of fold lines is read once).
  ///
  /// An empty line is a line like any other here (decision of the fuzz
  /// coverage finding crash-b88b7603): an empty line, then `\tBEGIN:VCARD`,
  /// unfolds to `BEGIN:VCARD`, a card that starts at the empty line (as a
  /// folded line is numbered by its first line), and an empty line, then
  /// ` END:VCARD`, ends the card. The first byte that the folds bring then
  /// tells which marker it can be, as RFC 6350 3.2 reads the lines. A
  /// blank line (` `) is no head: it is itself a fold.
  /// The chunk splitter cuts only at plain `BEGIN:VCARD` lines, never
  /// before a fold line, so an empty line and its folds are always in one
  /// chunk and this reading does not depend on the cuts.
  static func foldedMarker(
    _ line: UnsafeBufferPointer<UInt8>, _ buf: UnsafeBufferPointer<UInt8>, from: Int
  ) -> (marker: Marker, next: Int, lines: Int)? {
    /// The length of the marker a line starting with `f` can be ('b' / 'e').
    func markerSize(_ f: UInt8) -> Int? {
      f | 0x20 == 0x62 ? begin.count : f | 0x20 == 0x65 ? end.count : nil
    }
    var size = 0
    if let f = line.first {
      guard let s = markerSize(f) else { return nil }
      size = s
    }
    var text = Array(line)
    var p = from
    var lines = 0
    while p < buf.count && ASCII.isSpace(buf[p]) {
      var e = p
      while e < buf.count && buf[e] != ASCII.lf { e += 1 }
      var stop = e
      while stop > p && buf[stop - 1] == ASCII.cr { stop -= 1 }
      var k = p + 1
      while k < stop {
        if text.isEmpty {
          // An empty line: the folds' first byte tells which marker.
          guard let s = markerSize(buf[k]) else { return nil }
          size = s
          text.append(buf[k])
        } else if text.count < size {
          text.append(buf[k])
        } else if !ASCII.isSpace(buf[k]) {
          return nil  // a byte after the marker's length: no marker line
        }
        k += 1
      }
      lines += 1
      p = e + 1
    }
    return text.withUnsafeBufferPointer { t in
      if isMarker(t, begin) { return (.begin, p, lines) }
      if isMarker(t, end) { return (.end, p, lines) }
      return nil
    }
  }

  /// Can `line` start a property: a name (letters, digits, `-`, `_`, a
  /// group's `.`) up to a `;` or `:`, and a `:` somewhere?
  static func startsProperty(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var k = 0
    while k < line.count {
      let b = line[k]
      if b == ASCII.colon || b == ASCII.semicolon { break }
      let isName = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
        || b == 0x5F || b == ASCII.dot
      if !isName { return false }
      k += 1
    }
    guard k > 0, k < line.count else { return false }
    return line[k] == ASCII.colon || ByteScan.contains(UnsafeBufferPointer(rebasing: line[k...]), ASCII.colon)
  }

  /// Do the fold lines that start at `from` (lines beginning with a blank)
  /// contain a `:`? Then the line before them is a property of its own.
  static func foldsBringColon(_ buf: UnsafeBufferPointer<UInt8>, from: Int) -> Bool {
    var p = from
    while p < buf.count && ASCII.isSpace(buf[p]) {
      while p < buf.count && buf[p] != ASCII.lf {
        if buf[p] == ASCII.colon { return true }
        p += 1
      }
      p += 1
    }
    return false
  }

  /// Does the card say `VERSION:2.1`? (Read only when a BEGIN:VCARD turns
  /// up inside it, or a line without `:` might continue a 2.1 property.)
  ///
  /// The card's first VERSION line decides, and its value must be `2.1`
  /// with nothing but blanks around it, as the parser reads it (decision of
  /// the fuzz coverage finding crash-c789f22e). A value that only starts
  /// with `2.1` (`2.10`, `2.1x`, `2.1` + a lone CR + more text in a file
  /// whose lines end in LF) is not 2.1: a BEGIN:VCARD inside such a card
  /// cuts it off (imported, with a warning), as in any card that is not 2.1
  /// (README, "Reading files we did not write"), rather than nesting a card
  /// the parser would not read as 2.1, which would send the lines after the
  /// inner card to the wrong cards.
  static func isVersion21(_ card: VCardCard, chunk: UnsafeBufferPointer<UInt8>) -> Bool {
    card.bytes.withUnsafeBufferPointer { copy in
      for l in card.lines {
        let (b, range, _) = VCardCard.buffer(of: l.range, chunk: chunk, copy: copy)
        let line = UnsafeBufferPointer(rebasing: b[range])
        guard line.count >= 8, line.asciiHasPrefixUppercase(versionWord) else { continue }
        var k = 8
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        guard line.count - k >= 3 && line[k] == 0x32 && line[k + 1] == 0x2E && line[k + 2] == 0x31 else {
          return false
        }
        return blanks(line, from: k + 3)
      }
      return false
    }
  }
  private static let versionWord: [UInt8] = Array("VERSION:".utf8)

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
        ByteScan.upper(raw.loadUnaligned(fromByteOffset: s + 8, as: UInt64.self)) == 0x454C_4241_544E_4952,  // "RINTABLE"
        isEncodingValue(line, s, end: end)
      {
        return true
      }
      s += 1
    }
    return false
  }

  /// Is the `QUOTED-PRINTABLE` at `s` an encoding, as the parser reads
  /// parameters: the value of `ENCODING=` or a bare 2.1 parameter (after a
  /// `;`), ending the parameter? (`X-NOTE=QUOTED-PRINTABLE` is no encoding.)
  static func isEncodingValue(_ line: UnsafeBufferPointer<UInt8>, _ s: Int, end: Int) -> Bool {
    var after = s + 16
    if after < end && line[after] == ASCII.quote { after += 1 }
    guard after == end || line[after] == ASCII.semicolon || ASCII.isSpace(line[after]) else { return false }
    var b = s
    if b > 0 && line[b - 1] == ASCII.quote { b -= 1 }
    while b > 0 && ASCII.isSpace(line[b - 1]) { b -= 1 }
    if b > 0 && line[b - 1] == ASCII.semicolon { return true }
    guard b > 0 && line[b - 1] == ASCII.equals else { return false }
    var e = b - 1
    while e > 0 && ASCII.isSpace(line[e - 1]) { e -= 1 }
    guard e >= 8, UnsafeBufferPointer(rebasing: line[(e - 8)..<e]).asciiEqualsUppercase(encodingWord) else {
      return false
    }
    var n = e - 8
    while n > 0 && ASCII.isSpace(line[n - 1]) { n -= 1 }
    return n > 0 && line[n - 1] == ASCII.semicolon
  }

  /// The offset of the start of the last line that begins with BEGIN:VCARD
  /// in `buf`, other than at offset 0; nil if there is none. Used to cut
  /// input into chunks at card boundaries. A folded marker (`BEGIN:VCAR` +
  /// `\tD`, an empty line + `\tBEGIN:VCARD`, see ``foldedMarker``) is no
  /// cut: the lexer reads it inside the chunk. A cut is never before a
  /// line that starts with a blank, so a marker and its folds stay together
  /// and no plain `BEGIN:VCARD` line is a fold of the line before it.
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
        // The whole line must be the marker as the lexer reads it: blanks
        // may follow, then line-end CRs (`BEGIN:VCARDX` starts no card).
        if match {
          var e = i + n
          while e < buf.count && buf[e] != ASCII.lf { e += 1 }
          // A line not ended inside the buffer may go on past it
          // (`BEGIN:VCARD` + `SET...` in the next read): not a card start yet.
          if e == buf.count { match = false }
          while e > i + n && buf[e - 1] == ASCII.cr { e -= 1 }
          for k in (i + n)..<e where !ASCII.isSpace(buf[k]) { match = false }
        }
        if match { return i }
      }
      i -= 1
    }
    return nil
  }
}

extension VCardLexer {
  /// The state of one `run` over a chunk, and its steps: `nextLine()`
  /// finds a physical line, `read(_:onCard:onError:)` sends it to the step
  /// for where the lexer is (outside a card, after a quoted-printable soft
  /// break, at a card marker, or at a line of the card).
  ///
  /// The current logical line is either a range of the chunk
  /// (`currentInChunk`: a line that is one physical line, not copied) or
  /// bytes at the end of `card.bytes` (from `currentStart`: it was folded,
  /// joined or ends in `=`), or neither (none open, or one that ran too
  /// long and is being dropped). The steps every line takes are inlined
  /// into `run`'s loop; the rare ones (a card inside a card, a card handed
  /// on, the end of the chunk, a line that may continue a 2.1 property)
  /// are not, so that the loop keeps its registers for the common path.
  /// None allocates, except to grow the card's arrays.
  private struct Pass {
    /// The chunk: `count` bytes at `base`.
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxLineBytes: Int
    /// The card being read.
    var card = VCardCard()
    /// Where the next physical line starts.
    var pos = 0
    /// The 1-based input line number of the last physical line read.
    var lineNo: Int
    var inCard = false
    /// Stray text outside cards has been reported (once per stretch).
    var inGarbage = false
    /// Cards that hold a nested card being read (2.1), innermost last.
    var outer: [VCardCard] = []
    /// Cards done while an outer card is open, handed on (in BEGIN order)
    /// when the outermost one is done.
    var pending: [VCardCard] = []
    /// The card's VERSION is 2.1 (looked up when needed).
    var card21: Bool? = nil

    // The current logical line.
    /// Its start in `card.bytes`, when copied; else -1.
    var currentStart = -1
    /// Its range in the chunk, when not copied; else -1..<(-1).
    var currentInChunk = -1..<(-1)
    /// The input line it starts on.
    var currentLine = 0
    /// Whether its parameters name quoted-printable (nil: not known yet).
    var currentIsQP: Bool? = nil
    /// It ended in a quoted-printable soft break (`=`).
    var qpSoft = false
    /// A soft break, then an empty line.
    var qpAfterEmpty = false
    /// Over `maxLineBytes`: its bytes are dropped as they come.
    var currentTooLong = false

    init(_ base: UnsafePointer<UInt8>, count: Int, firstLine: Int, maxLineBytes: Int) {
      self.base = base
      self.count = count
      self.lineNo = firstLine - 1
      self.maxLineBytes = maxLineBytes
    }

    /// The whole chunk.
    @inline(__always)
    var buf: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes `r` of the chunk.
    @inline(__always)
    func bytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(start: base + r.lowerBound, count: r.count)
    }

    // MARK: Physical lines

    /// The next physical line of the chunk (`pos` is short of its end),
    /// without its line end (LF, CRLF, or any run of CRs before the LF).
    @inline(__always)
    mutating func nextLine() -> Range<Int> {
      lineNo += 1
      let nl: Int
      if let p = memchr(base + pos, 0x0A, count - pos) {
        nl = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
      } else {
        nl = count
      }
      var lineEnd = nl
      while lineEnd > pos && base[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
      let lineStart = pos
      pos = nl + 1
      return lineStart..<lineEnd
    }

    /// Reads the physical line at `r`.
    @inline(__always)
    mutating func read(_ r: Range<Int>, onCard: (inout VCardCard) -> Void, onError: (Int, String) -> Void) {
      let line = bytes(r)
      // A folded marker is numbered by its first line.
      let markerLine = lineNo
      let marker = self.marker(line)
      if !inCard {
        readOutsideCard(line, marker: marker, markerLine: markerLine, onError: onError)
        return
      }
      if qpSoft && marker == nil && joinedAfterSoftBreak(r) { return }
      switch marker {
      case .end: endCard(onCard: onCard)
      case .begin: beginInsideCard(markerLine: markerLine, onCard: onCard)
      case nil: readCardLine(r)
      }
    }

    /// Is `line` BEGIN:VCARD or END:VCARD? A marker folded like any other
    /// line (RFC 6350 allows it) is read with its folds, which are then
    /// skipped. (Tested last and rarely: a short line followed by a fold.)
    @inline(__always)
    mutating func marker(_ line: UnsafeBufferPointer<UInt8>) -> Marker? {
      if VCardLexer.isEnd(line) { return .end }
      if VCardLexer.isBegin(line) { return .begin }
      if line.count < 11 && pos < count && ASCII.isSpace(base[pos]),
        let m = VCardLexer.foldedMarker(line, buf, from: pos)
      {
        lineNo += m.lines
        pos = m.next
        return m.marker
      }
      return nil
    }

    // MARK: Outside a card, card markers, the end of the input

    /// Outside a card: BEGIN:VCARD starts one; blank lines are skipped;
    /// anything else is stray text, reported once per stretch.
    @inline(__always)
    mutating func readOutsideCard(
      _ line: UnsafeBufferPointer<UInt8>, marker: Marker?, markerLine: Int, onError: (Int, String) -> Void
    ) {
      if marker == .begin {
        inCard = true
        inGarbage = false
        card.reset(startLine: markerLine)
        card21 = nil
        resetLogical()
      } else if line.allSatisfy({ ASCII.isSpace($0) }) {
        return
      } else if !inGarbage {
        inGarbage = true
        onError(markerLine, "unexpected text outside a card")
      }
    }

    /// END:VCARD: the card is done, and an outer card (2.1 nesting) goes on.
    @inline(__always)
    mutating func endCard(onCard: (inout VCardCard) -> Void) {
      closeLogical()
      if outer.isEmpty {
        finish(onCard: onCard)
        inCard = false
      } else {
        pending.append(card)
        card = outer.removeLast()
        card21 = nil
      }
    }

    /// BEGIN:VCARD inside a card: a nested card in a 2.1 card, else the end
    /// of a card that was cut off.
    @inline(never)
    mutating func beginInsideCard(markerLine: Int, onCard: (inout VCardCard) -> Void) {
      closeLogical()
      if outer.count < VCardLexer.maxNesting && VCardLexer.isVersion21(card, chunk: buf) {
        outer.append(card)
      } else {
        card.warnings.append((card.startLine, VCardLexer.cutOff))
        finish(onCard: onCard)
      }
      card.reset(startLine: markerLine)
      card21 = nil
    }

    /// A card is done: handed on now, or (inside an open card) later.
    @inline(never)
    mutating func finish(onCard: (inout VCardCard) -> Void) {
      if !outer.isEmpty {
        pending.append(card)
      } else if pending.isEmpty {
        onCard(&card)
      } else {
        pending.append(card)
        pending.sort { $0.startLine < $1.startLine }
        for i in pending.indices { onCard(&pending[i]) }
        pending.removeAll()
      }
    }

    /// The end of the chunk: a card still open was cut off, and so was
    /// every card it is nested in.
    @inline(never)
    mutating func endOfInput(onCard: (inout VCardCard) -> Void) {
      guard inCard else { return }
      closeLogical()
      while true {
        card.warnings.append((card.startLine, VCardLexer.cutOff))
        guard let o = outer.popLast() else { break }
        pending.append(card)
        card = o
      }
      finish(onCard: onCard)
    }

    // MARK: Lines of a card

    /// After a quoted-printable soft break, is the line at `r` (no card marker)
    /// taken as part of the value? An empty line is either the end of the value
    /// (Android and Evolution end a value with `=` and an empty line) or a
    /// doubled line end (a writer that turned each CRLF into two): the line
    /// after it tells, joined unless it can start a property.
    @inline(__always)
    mutating func joinedAfterSoftBreak(_ r: Range<Int>) -> Bool {
      if r.isEmpty {
        qpAfterEmpty = true
        return true
      }
      if !qpAfterEmpty || !VCardLexer.startsProperty(bytes(r)) {
        qpAfterEmpty = false
        append(r)
        return true
      }
      qpAfterEmpty = false
      qpSoft = false
      return false
    }

    /// A line of a card that is no marker: skipped (empty, a comment), a
    /// fold, the continuation of a 2.1 property, or a property line.
    @inline(__always)
    mutating func readCardLine(_ r: Range<Int>) {
      let line = bytes(r)
      guard let first = line.first else { return }  // empty line
      if ASCII.isSpace(first) {
        readFold(r, line)
        return
      }
      if first == ASCII.hash { return }
      // Word at a time: the colon is usually within the first 16 bytes.
      if hasCurrent && !ByteScan.contains(line, ASCII.colon) && continuable()
        && !VCardLexer.foldsBringColon(buf, from: pos)
      {
        append(r)
        return
      }
      start(r, line: lineNo)
    }

    /// A line starting with a blank continues the current logical line.
    /// With nothing to continue (right after BEGIN:VCARD or a nested card's
    /// END:VCARD) it is a line of its own, without its leading blanks. Kept
    /// with one, it could never be written back (a writer's line that
    /// starts with a blank continues the line before it); the parser drops,
    /// with a warning, what it then cannot keep either (`#`, a card marker).
    @inline(__always)
    mutating func readFold(_ r: Range<Int>, _ line: UnsafeBufferPointer<UInt8>) {
      if hasCurrent {
        append((r.lowerBound + 1)..<r.upperBound)
      } else if let text = line.firstIndex(where: { !ASCII.isSpace($0) }) {
        start((r.lowerBound + text)..<r.upperBound, line: lineNo)
      }
    }

    /// May a line without `:` continue the current logical line? Only after
    /// an odd run of trailing backslashes or in base64 data.
    @inline(never)
    mutating func continuable() -> Bool {
      if currentTooLong { return false }
      // Both habits are vCard 2.1's (3.0 and 4.0 fold with a leading blank).
      if card21 == nil { card21 = VCardLexer.isVersion21(card, chunk: buf) }
      if card21 != true { return false }
      if currentInChunk.lowerBound >= 0 {
        return VCardLexer.acceptsContinuation(bytes(currentInChunk))
      }
      let s = currentStart
      return card.bytes.withUnsafeBufferPointer {
        VCardLexer.acceptsContinuation(UnsafeBufferPointer(rebasing: $0[s...]))
      }
    }

    // MARK: The current logical line

    @inline(__always)
    var hasCurrent: Bool { currentStart >= 0 || currentInChunk.lowerBound >= 0 || currentTooLong }

    @inline(__always)
    mutating func resetLogical() {
      currentStart = -1
      currentInChunk = -1..<(-1)
      currentIsQP = nil
      qpSoft = false
      qpAfterEmpty = false
      currentTooLong = false
    }

    /// Starts a logical line with the bytes `r`, after closing the current one.
    @inline(__always)
    mutating func start(_ r: Range<Int>, line: Int) {
      closeLogical()
      currentLine = line
      // Most lines neither end in `=` nor run long: they stay where they
      // are (a fold on the next line copies them then).
      if !r.isEmpty && base[r.upperBound - 1] != ASCII.equals && r.count <= maxLineBytes {
        currentInChunk = r
      } else {
        currentStart = card.bytes.count
        card.bytes.append(contentsOf: bytes(r))
        afterAppend()
      }
    }

    /// Appends the bytes `r` to the current logical line.
    @inline(__always)
    mutating func append(_ r: Range<Int>) {
      if currentTooLong {
        // Dropped: only follow its quoted-printable soft breaks to its end.
        qpSoft = currentIsQP == true && !r.isEmpty && base[r.upperBound - 1] == ASCII.equals
        return
      }
      materialize()
      card.bytes.append(contentsOf: bytes(r))
      afterAppend()
    }

    /// Copies the current logical line into `card.bytes` (before something
    /// is appended to it).
    @inline(__always)
    mutating func materialize() {
      guard currentInChunk.lowerBound >= 0 else { return }
      currentStart = card.bytes.count
      card.bytes.append(contentsOf: bytes(currentInChunk))
      currentInChunk = -1..<(-1)
    }

    /// After appending to the current logical line: QP soft break, then the
    /// length check (a line that runs too long is dropped from here on).
    @inline(__always)
    mutating func afterAppend() {
      if card.bytes.last == ASCII.equals {
        if currentIsQP == nil {
          let start = currentStart
          // Known only once the parameters are whole (a `:` is in): a fold
          // can split `ENCODING=` from `QUOTED-PRINTABLE`.
          let (isQP, complete) = card.bytes.withUnsafeBufferPointer { b -> (Bool, Bool) in
            guard start >= 0, start <= b.count else { return (false, true) }
            let line = UnsafeBufferPointer(rebasing: b[start...])
            return (VCardLexer.namesQuotedPrintable(line), ByteScan.contains(line, ASCII.colon))
          }
          if isQP || complete { currentIsQP = isQP }
        }
        if currentIsQP == true {
          card.bytes.removeLast()
          qpSoft = true
        } else {
          qpSoft = false
        }
      } else {
        qpSoft = false
      }
      if currentStart >= 0 && card.bytes.count - currentStart > maxLineBytes {
        card.bytes.removeSubrange(currentStart...)
        currentStart = -1
        currentTooLong = true
      }
    }

    /// Closes the current logical line: its range goes to `card.lines` (or,
    /// dropped for its length, a warning to `card.warnings`).
    @inline(__always)
    mutating func closeLogical() {
      if currentTooLong {
        card.warnings.append((currentLine, VCardLexer.tooLong(maxLineBytes)))
      } else if currentInChunk.lowerBound >= 0 {
        card.lines.append((currentInChunk, currentLine))
      } else if currentStart >= 0 {
        card.lines.append(((VCardCard.copied + currentStart)..<(VCardCard.copied + card.bytes.count), currentLine))
      }
      resetLogical()
    }
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
    // Leading dots are an empty group (`.TEL`, `..TEL`): no group, and not
    // part of the name (a name kept as `.TEL` would be written back as an
    // empty group and read as `TEL`). Blanks around the group and the name
    // are not part of them either (`. TEL`, `item1 . TEL`): a name or group
    // kept with a leading blank would be written at the start of a line,
    // where a reader takes the blank for a fold and glues the property onto
    // the one before it (a fuzz round-trip finding).
    var nameStart = 0
    while nameStart < i && (ASCII.isSpace(line[nameStart]) || line[nameStart] == ASCII.dot) { nameStart += 1 }
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
      var groupEnd = dot
      while groupEnd > nameStart && ASCII.isSpace(line[groupEnd - 1]) { groupEnd -= 1 }
      group = (from + nameStart)..<(from + groupEnd)
      nameStart = dot + 1
      while nameStart < i && ASCII.isSpace(line[nameStart]) { nameStart += 1 }
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

extension VCardPropertyLine {
  /// A line that is not a property: no name, its whole text as the value.
  init(unreadable range: Range<Int>) {
    let empty = range.lowerBound..<range.lowerBound
    self.init(group: empty, name: empty, params: empty, value: range)
  }
}
