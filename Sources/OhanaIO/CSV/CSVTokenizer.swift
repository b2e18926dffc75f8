/// RFC 4180 records over bytes: `,` between cells, CRLF, LF or a lone CR
/// between records (lines are numbered by LF only), `"` quoting with `""` for a quote; quoted cells may hold
/// commas and line breaks. A quote in the middle of an unquoted cell is kept
/// as text (lenient, as spreadsheets write it).
struct CSVTokenizer {
  let bytes: [UInt8]
  var i: Int
  let end: Int
  /// 1-based line of the next record.
  var line: Int
  /// The byte between cells: `,`, or `;`, tab, `|` (``sniffDelimiter(_:)``).
  let delimiter: UInt8

  init(_ bytes: [UInt8], range: Range<Int>, firstLine: Int, delimiter: UInt8 = ASCII.comma) {
    self.bytes = bytes
    self.i = range.lowerBound
    self.end = range.upperBound
    self.line = firstLine
    self.delimiter = delimiter
  }

  /// The delimiter of a table whose text starts with `head`: of `,`, `;`,
  /// tab and `|`, the one its first record (outside quotes) holds most
  /// of; `,` on a tie or when it holds none.
  static func sniffDelimiter(_ head: [UInt8]) -> UInt8 {
    let candidates: [UInt8] = [ASCII.comma, ASCII.semicolon, 0x09, 0x7C]
    var counts = [Int](repeating: 0, count: candidates.count)
    var inQuotes = false
    for b in head.prefix(64 << 10) {
      if b == ASCII.quote { inQuotes.toggle() }
      if inQuotes { continue }
      if b == ASCII.lf || b == ASCII.cr { break }
      if let k = candidates.firstIndex(of: b) { counts[k] += 1 }
    }
    var best = 0
    for k in 1..<candidates.count where counts[k] > counts[best] { best = k }
    return candidates[best]
  }

  enum Outcome { case record, end, unterminatedQuote }

  /// Reads the next record: decoded cell text goes back to back into
  /// `text`, `cells` gets each cell's range. Returns `.end` when there is
  /// nothing left. Blank lines give a record with one empty cell.
  mutating func next(text: inout [UInt8], cells: inout [Range<Int>], recordLine: inout Int) -> Outcome {
    text.removeAll(keepingCapacity: true)
    cells.removeAll(keepingCapacity: true)
    if i >= end { return .end }
    recordLine = line
    // Runs of plain bytes are found word at a time (`ByteScan`) and
    // appended at once; only quotes and line breaks are looked at one by one.
    let bytes = self.bytes
    return bytes.withUnsafeBytes { whole in
      let raw = UnsafeRawBufferPointer(rebasing: whole[..<end])
      var cellStart = 0
      while true {
        // One cell.
        if i < end && raw[i] == ASCII.quote {
          i += 1
          var closed = false
          while i < end {
            let q = ByteScan.firstIndex(raw, ASCII.quote, or: ASCII.lf, from: i)
            text.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i..<q]))
            i = q
            if i >= end { break }
            if raw[i] == ASCII.lf {
              line += 1
              text.append(ASCII.lf)
              i += 1
              continue
            }
            if i + 1 < end && raw[i + 1] == ASCII.quote {
              text.append(ASCII.quote)
              i += 2
              continue
            }
            i += 1
            closed = true
            break
          }
          if !closed { return .unterminatedQuote }
          // Text after the closing quote up to the separator is kept.
          let stop = ByteScan.firstIndex(raw, delimiter, ASCII.lf, ASCII.cr, from: i)
          text.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i..<stop]))
          i = stop
        } else {
          let stop = ByteScan.firstIndex(raw, delimiter, ASCII.lf, ASCII.cr, from: i)
          text.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i..<stop]))
          i = stop
        }
        cells.append(cellStart..<text.count)
        cellStart = text.count
        if i >= end { return .record }
        let b = raw[i]
        i += 1
        if b == delimiter { continue }
        // A lone CR ends the record but not the line: lines are counted by
        // LF, as the chunk reader numbers them (else a record's line would
        // depend on where the chunks were cut).
        if b == ASCII.lf {
          line += 1
        } else if i < end && raw[i] == ASCII.lf {
          i += 1
          line += 1
        }
        return .record
      }
    }
  }

  /// Offset of the start of the last record in `buf` that begins after a
  /// line break outside quotes (nil if none after offset 0).
  ///
  /// Follows `next`: a quote opens a quoted cell only at the start of a
  /// cell (there `""` is a quote and `"` closes it); anywhere else it is
  /// text. Toggling on every quote instead would let one stray quote in an
  /// unquoted cell (`a"b`) invert the state for the rest of the buffer and
  /// cut a chunk inside a later quoted line break.
  static func lastRecordStart(in buf: UnsafeBufferPointer<UInt8>, delimiter: UInt8 = ASCII.comma) -> Int? {
    // Outside quotes, the scan jumps from quote or line break to the next
    // (`ByteScan`); a quote opens a quoted cell when the byte before it
    // ends a cell (or it is the first byte): the state `next` is in there.
    let raw = UnsafeRawBufferPointer(buf)
    let n = raw.count
    var last: Int? = nil
    var i = 0
    while i < n {
      let k = ByteScan.firstIndex(raw, ASCII.quote, or: ASCII.lf, from: i)
      if k >= n { break }
      if raw[k] == ASCII.lf {
        last = k + 1
        i = k + 1
        continue
      }
      let before = k == 0 ? ASCII.lf : raw[k - 1]
      i = k + 1
      guard before == delimiter || before == ASCII.lf || before == ASCII.cr else { continue }
      // A quoted cell: up to its closing quote (`""` is a quote in it).
      while true {
        let q = ByteScan.firstIndex(raw, ASCII.quote, or: ASCII.quote, from: i)
        if q >= n { return last }
        if q + 1 < n && raw[q + 1] == ASCII.quote {
          i = q + 2
          continue
        }
        i = q + 1
        break
      }
    }
    return last
  }
}
