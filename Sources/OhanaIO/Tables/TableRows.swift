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
  /// Appended cells of a record, by its first line in the input (a
  /// contact's ``ContactTable/sourceLine``); nil for a record that is not
  /// written (``rewrite(_:delimiter:appended:cells:to:)``'s `only`).
  public typealias Appended = (_ line: Int) -> [String]?

  /// Writes `input` (a whole table's bytes, header first) with the columns
  /// `appended` after its own, and for every record the cells `cells`
  /// gives for its line. With `onlyListed`, a record `cells` gives nil for
  /// is left out (a golden table's one row per cluster); else it is
  /// written with empty appended cells.
  public static func rewrite(
    _ input: [UInt8], delimiter: UInt8, appended: [String], onlyListed: Bool = false, cells: Appended,
    to sink: ([UInt8]) throws -> Void
  ) rethrows {
    var tok = CSVTokenizer(input, range: 0..<input.count, firstLine: 1, delimiter: delimiter)
    var text: [UInt8] = []
    var ranges: [Range<Int>] = []
    var line = 1
    var out: [UInt8] = []
    out.reserveCapacity(1 << 20)
    // The header, and the line end its record used.
    guard tok.next(text: &text, cells: &ranges, recordLine: &line) == .record else { return }
    let headerEnd = tok.i
    let crlf = headerEnd >= 2 && input[headerEnd - 1] == ASCII.lf && input[headerEnd - 2] == ASCII.cr
    let eol: [UInt8] = crlf ? [ASCII.cr, ASCII.lf] : [ASCII.lf]
    // (A UTF-8 byte order mark stays where it was: in the first cell.)
    var headerCells = ranges.map { Array(text[$0]) }
    let own = Set(headerCells.map { String(decoding: $0, as: UTF8.self) })
    for name in appended {
      headerCells.append(Array((own.contains(name) ? "ohana_" + name : name).utf8))
    }
    write(headerCells, delimiter: delimiter, eol: eol, into: &out)
    let width = appended.count
    while true {
      let before = tok.i
      let outcome = tok.next(text: &text, cells: &ranges, recordLine: &line)
      if outcome == .end { break }
      if outcome == .unterminatedQuote {
        // What is left, as one cell (the reader skipped it too).
        if !onlyListed {
          write([Array(input[before..<input.count])] + Array(repeating: [], count: width), delimiter: delimiter, eol: eol, into: &out)
        }
        break
      }
      if ranges.allSatisfy(\.isEmpty) { continue }
      let extra = cells(line)
      if extra == nil && onlyListed { continue }
      var row = ranges.map { Array(text[$0]) }
      let add = extra ?? []
      for k in 0..<width { row.append(k < add.count ? Array(add[k].utf8) : []) }
      write(row, delimiter: delimiter, eol: eol, into: &out)
      if out.count >= 1 << 20 {
        try sink(out)
        out.removeAll(keepingCapacity: true)
      }
    }
    if !out.isEmpty { try sink(out) }
  }

  /// One record: cells joined by the delimiter, quoted where they must be.
  static func write(_ cells: [[UInt8]], delimiter: UInt8, eol: [UInt8], into out: inout [UInt8]) {
    for (k, c) in cells.enumerated() {
      if k > 0 { out.append(delimiter) }
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
    out.append(contentsOf: eol)
  }
}
