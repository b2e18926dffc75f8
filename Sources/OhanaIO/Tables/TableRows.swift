/// The user's own rows written back (DESIGN §15): a table read again
/// record by record, every cell as it was in the input (its bytes, its
/// column, its order), with columns appended: what `dedupe` writes for a
/// table (`cluster_id`, `cluster_size`, the cluster's weakest and strongest
/// match weight), and `--golden`'s one row per cluster.
///
/// Cells are written in the input's delimiter, quoted (RFC 4180: `"`
/// around, `""` inside) when they hold the delimiter, a quote or a line
/// break; records end as the input's header ended (CRLF or LF). A blank
/// record is left out (it holds nothing); a record the reader skipped (an
/// unterminated quote, more cells than the header) is written with empty
/// appended cells, so that no row of the user's is lost.
public enum TableRows {
  /// Writes `input` (a whole table's bytes, header first) with the columns
  /// `appended` after its own. Record by record in order: the record whose
  /// first line is `lines[k]` (the contacts' ``ContactTable/sourceLine``,
  /// ascending) is row `k`, and `appendRow(k, &out)` writes its appended
  /// cells (each after a delimiter) and says whether the record is written
  /// at all (a golden table writes one row per cluster). A record no row
  /// came from (one the reader skipped) is written with empty cells, unless
  /// `onlyRows`.
  ///
  /// `cellsOf`, when given, may write a row's own cells anew (a
  /// normalization job): it gets row `k`'s cells as text and returns the
  /// cells to write, as many (a record no row came from keeps its cells).
  public static func rewrite(
    _ input: [UInt8], delimiter: UInt8, appended: [String], lines: [UInt32], onlyRows: Bool = false,
    cellsOf: ((_ row: Int, _ cells: [String]) -> [String])? = nil,
    appendRow: (_ row: Int, _ out: inout [UInt8]) -> Bool, to sink: ([UInt8]) throws -> Void
  ) rethrows {
    var tok = CSVTokenizer(input, range: 0..<input.count, firstLine: 1, delimiter: delimiter)
    var text: [UInt8] = []
    var ranges: [Range<Int>] = []
    var line = 1
    var out: [UInt8] = []
    out.reserveCapacity(1 << 21)
    // The header, and the line end its record used.
    guard tok.next(text: &text, cells: &ranges, recordLine: &line) == .record else { return }
    let headerEnd = tok.i
    let crlf = headerEnd >= 2 && input[headerEnd - 1] == ASCII.lf && input[headerEnd - 2] == ASCII.cr
    let eol: [UInt8] = crlf ? [ASCII.cr, ASCII.lf] : [ASCII.lf]
    // (A UTF-8 byte order mark stays where it was: in the first cell.)
    let own = Set(ranges.map { String(decoding: text[$0], as: UTF8.self) })
    writeCells(text, ranges, delimiter: delimiter, into: &out)
    for name in appended {
      out.append(delimiter)
      writeCell((own.contains(name) ? "ohana_" + name : name).utf8, delimiter: delimiter, into: &out)
    }
    out.append(contentsOf: eol)
    var row = 0
    while true {
      let before = tok.i
      let outcome = tok.next(text: &text, cells: &ranges, recordLine: &line)
      if outcome == .end { break }
      if outcome == .unterminatedQuote {
        // What is left, as one cell (the reader skipped it too).
        if !onlyRows {
          writeCell(input[before..<input.count], delimiter: delimiter, into: &out)
          for _ in appended { out.append(delimiter) }
          out.append(contentsOf: eol)
        }
        break
      }
      if ranges.allSatisfy(\.isEmpty) { continue }
      while row < lines.count && Int(lines[row]) < line { row += 1 }
      let mark = out.count
      let matched = row < lines.count && Int(lines[row]) == line
      if matched, let cellsOf {
        let cells = cellsOf(row, ranges.map { String(decoding: text[$0], as: UTF8.self) })
        for (k, c) in cells.enumerated() {
          if k > 0 { out.append(delimiter) }
          writeCell(c.utf8, delimiter: delimiter, into: &out)
        }
      } else {
        writeCells(text, ranges, delimiter: delimiter, into: &out)
      }
      if matched {
        let keep = appendRow(row, &out)
        row += 1
        if !keep {
          out.removeSubrange(mark...)
          continue
        }
      } else if onlyRows {
        out.removeSubrange(mark...)
        continue
      } else {
        for _ in appended { out.append(delimiter) }
      }
      out.append(contentsOf: eol)
      if out.count >= 1 << 21 {
        try sink(out)
        out.removeAll(keepingCapacity: true)
      }
    }
    if !out.isEmpty { try sink(out) }
  }

  /// A table's records, for writing them in another layout (Parquet):
  /// the header's names, and per record in order the contact row that
  /// came from it (-1: none, a record the reader skipped or a blank one).
  public struct Records: Sendable {
    public var header: [String] = []
    public var rows: [Int32] = []
    /// With `cells`: each column's cells (as many as `rows`), nil where a
    /// record has no cell there or it is empty.
    public var columns: [[String?]] = []
    /// Records with more cells than the header: their extra cells are in
    /// no column.
    public var longRecords = 0
  }

  /// The records of `input` (a whole table, header first), matched to
  /// contact rows as ``rewrite(_:delimiter:appended:lines:onlyRows:appendRow:to:)``
  /// matches them. `keepBlank`: a blank record is a record (a Parquet
  /// table's all-null row), else it is left out as `rewrite` leaves it.
  public static func records(
    _ input: [UInt8], delimiter: UInt8, lines: [UInt32], cells: Bool, keepBlank: Bool
  ) -> Records {
    var tok = CSVTokenizer(input, range: 0..<input.count, firstLine: 1, delimiter: delimiter)
    var text: [UInt8] = []
    var ranges: [Range<Int>] = []
    var line = 1
    var out = Records()
    guard tok.next(text: &text, cells: &ranges, recordLine: &line) == .record else { return out }
    out.header = ranges.map { String(decoding: text[$0], as: UTF8.self) }
    if cells { out.columns = Array(repeating: [], count: out.header.count) }
    var row = 0
    while true {
      let before = tok.i
      let outcome = tok.next(text: &text, cells: &ranges, recordLine: &line)
      if outcome == .end { break }
      if outcome == .unterminatedQuote {
        // What is left, as one cell (the reader skipped it too).
        out.rows.append(-1)
        if cells {
          for c in out.columns.indices {
            out.columns[c].append(c == 0 ? String(decoding: input[before..<input.count], as: UTF8.self) : nil)
          }
        }
        break
      }
      if !keepBlank && ranges.allSatisfy(\.isEmpty) { continue }
      while row < lines.count && Int(lines[row]) < line { row += 1 }
      if row < lines.count && Int(lines[row]) == line {
        out.rows.append(Int32(row))
        row += 1
      } else {
        out.rows.append(-1)
      }
      if ranges.count > out.header.count { out.longRecords += 1 }
      if cells {
        for c in out.columns.indices {
          out.columns[c].append(c < ranges.count && !ranges[c].isEmpty ? String(decoding: text[ranges[c]], as: UTF8.self) : nil)
        }
      }
    }
    return out
  }

  static func writeCells(_ text: [UInt8], _ ranges: [Range<Int>], delimiter: UInt8, into out: inout [UInt8]) {
    for (k, r) in ranges.enumerated() {
      if k > 0 { out.append(delimiter) }
      writeCell(text[r], delimiter: delimiter, into: &out)
    }
  }

  /// One cell, quoted (RFC 4180) when it holds the delimiter, a quote or a
  /// line break.
  public static func writeCell<C: Collection<UInt8>>(_ c: C, delimiter: UInt8, into out: inout [UInt8]) {
    if c.contains(where: { $0 == delimiter || $0 == ASCII.quote || $0 == ASCII.lf || $0 == ASCII.cr }) {
      out.append(ASCII.quote)
      for b in c {
        if b == ASCII.quote { out.append(ASCII.quote) }
        out.append(b)
      }
      out.append(ASCII.quote)
    } else {
      out.append(contentsOf: c)
    }
  }
}
