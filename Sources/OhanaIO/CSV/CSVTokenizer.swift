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
    var cellStart = 0
    while true {
      // One cell.
      if i < end && bytes[i] == ASCII.quote {
        i += 1
        var closed = false
        while i < end {
          let b = bytes[i]
          if b == ASCII.quote {
            if i + 1 < end && bytes[i + 1] == ASCII.quote {
              text.append(ASCII.quote)
              i += 2
              continue
            }
            i += 1
            closed = true
            break
          }
          if b == ASCII.lf { line += 1 }
          text.append(b)
          i += 1
        }
        if !closed { return .unterminatedQuote }
        // Text after the closing quote up to the separator is kept.
        while i < end && bytes[i] != delimiter && bytes[i] != ASCII.lf && bytes[i] != ASCII.cr {
          text.append(bytes[i])
          i += 1
        }
      } else {
        while i < end {
          let b = bytes[i]
          if b == delimiter || b == ASCII.lf || b == ASCII.cr { break }
          text.append(b)
          i += 1
        }
      }
      cells.append(cellStart..<text.count)
      cellStart = text.count
      if i >= end { return .record }
      let b = bytes[i]
      i += 1
      if b == delimiter { continue }
      // A lone CR ends the record but not the line: lines are counted by
      // LF, as the chunk reader numbers them (else a record's line would
      // depend on where the chunks were cut).
      if b == ASCII.lf {
        line += 1
      } else if i < end && bytes[i] == ASCII.lf {
        i += 1
        line += 1
      }
      return .record
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
    var inQuotes = false
    var atCellStart = true
    var last: Int? = nil
    var i = 0
    let n = buf.count
    while i < n {
      let b = buf[i]
      i += 1
      if inQuotes {
        if b == ASCII.quote {
          if i < n && buf[i] == ASCII.quote {
            i += 1  // an escaped quote
          } else {
            inQuotes = false
          }
        }
        continue
      }
      if b == ASCII.quote && atCellStart {
        inQuotes = true
        atCellStart = false
        continue
      }
      if b == ASCII.lf { last = i }
      atCellStart = b == delimiter || b == ASCII.lf || b == ASCII.cr
    }
    return last
  }
}
