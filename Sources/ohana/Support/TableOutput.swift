import Foundation
import Ohana

/// `dedupe`'s output for a table (DESIGN §15): the user's rows again, every
/// cell as it was, with `cluster_id` (the uid of the cluster's first row:
/// the table's own id column when one is mapped, else `row-N`, as
/// `--clusters` names it), `cluster_size`, and the weakest and strongest
/// weight of the pairs that joined the cluster (`match_weight_min`,
/// `match_weight_max`; empty for a row alone); `--golden`, one row per
/// cluster: its first row's cells, with `cluster_id` and `cluster_size`.
/// With survivorship rules (``Survivorship``), a golden row's ruled fields
/// come from the member each rule chose (``goldenCells``).
enum TableOutput {
  static let appended = ["cluster_id", "cluster_size", "match_weight_min", "match_weight_max"]

  /// Whether a read is a table of the user's (its columns were given or
  /// detected), whose rows `dedupe -o FILE.csv` writes back.
  static func isUserTable(_ read: ReadResult) -> Bool {
    read.tableDelimiter != nil && read.columns.contains { ["given", "detected", "values"].contains($0.how) }
  }

  /// The uid of `row`: its uuid or UID, else `row-N` with N the row's
  /// number in its own table (`number`, 1-based; by default `row + 1`).
  static func uid(_ table: ContactTable, _ row: Int, number: Int? = nil) -> String {
    var buf: [UInt8] = []
    if table.uuids.appendText(at: row, to: &buf) { return String(decoding: buf, as: UTF8.self) }
    if table.hasUID(at: row) {
      var s = ""
      table.withUID(at: row) { s = String(decoding: $0, as: UTF8.self) }
      return s
    }
    return "row-\(number ?? row + 1)"
  }

  /// Writes the rows of the table at `path` (CSV, TSV or Parquet) with
  /// the appended columns to `out` (CSV in the input's delimiter, or
  /// Parquet when `out` is named `*.parquet`; ``RowsBack``).
  static func write(
    path: String, delimiter: UInt8, table: ContactTable, result: DedupeResult, golden: Bool, to out: OutputFile,
    roles: [ColumnRole?] = [], survivorship: Survivorship = Survivorship(), threads: Int = 0
  ) throws {
    let n = min(table.rowCount, result.clusterOf.count)
    let (size, low, high) = result.clusterFigures(rows: n)
    let clusterOf = result.clusterOf
    // A cluster's id, once per cluster (kept by its first row).
    var ids = [String?](repeating: nil, count: n)
    for r in 0..<n where Int(clusterOf[r]) == r { ids[r] = uid(table, r) }
    var columns: [(String, RowsBack.Kind)] = zip(appended, [RowsBack.Kind.text, .int32, .float64, .float64]).map { ($0, $1) }
    // Golden rows by rules: the ruled cells of other members, and which
    // member each came from (`golden_sources`).
    var ruled: Golden? = nil
    if golden {
      columns = Array(columns.prefix(2))
      if !survivorship.isDefault {
        let input = RowsBack(path: path, delimiter: delimiter, lines: table.sourceLine, columns: [], values: { _ in [] })
        ruled = try goldenCells(
          input, table: table, result: result, roles: roles, survivorship: survivorship, threads: threads)
        columns.append((sourcesColumn, .text))
      }
    }
    let sources = ruled?.sources ?? [:]
    var rows = RowsBack(
      path: path, delimiter: delimiter, lines: table.sourceLine, columns: columns,
      values: { row in
        guard row < n else { return [] }
        let c = Int(clusterOf[row])
        let head: [RowsBack.Value] = [.text(ids[c] ?? ""), .int(Int(size[c]))]
        if golden { return ruled == nil ? head : head + [sources[row].map { .text($0) } ?? .empty] }
        return head + [low[c].isNaN ? .empty : .double(low[c]), high[c].isNaN ? .empty : .double(high[c])]
      })
    if golden { rows.keep = { $0 < n && Int(clusterOf[$0]) == $0 } }
    rows.cellsOf = ruled?.cells
    try rows.write(to: out)
  }

  /// The column of golden rows by rules that names, for each cell taken
  /// from another member than the cluster's first row, that member:
  /// `COLUMN=UID;COLUMN=UID` in the table's column order, UID as
  /// `cluster_id` names rows (the table's id column, else `row-N`); empty
  /// when every cell is the first row's own.
  static let sourcesColumn = "golden_sources"

  /// A golden row's cells by rules, and per golden row (its first row)
  /// its ``sourcesColumn`` text.
  struct Golden {
    var cells: (Int, [String]) -> [String]
    var sources: [Int: String]
  }

  /// The field of the golden record a column of `role` shows.
  static func field(of role: ColumnRole?) -> Survivorship.Field? {
    switch role {
    case .name?, .given?, .middle?, .family?, .prefix?, .suffix?: .name
    case .nickname?: .nickname
    case .organization?: .organization
    case .department?: .department
    case .title?: .jobTitle
    case .birthday?: .birthday
    case .note?: .note
    default: nil
    }
  }

  /// A golden row's cells by `survivorship`: each column of a field the
  /// rules decide takes the cell of the member the rules chose for that
  /// field (``Survivorship/choices(input:result:threads:)``); every other
  /// column keeps the cluster's first row's cell.
  static func goldenCells(
    _ rows: RowsBack, table: ContactTable, result: DedupeResult, roles: [ColumnRole?], survivorship: Survivorship,
    threads: Int
  ) throws -> Golden {
    let records = TableRows.records(try rows.inputText(), delimiter: rows.delimiter, lines: rows.lines, cells: true, keepBlank: false)
    var recordOf = [Int](repeating: -1, count: table.rowCount)
    for (i, r) in records.rows.enumerated() where r >= 0 && Int(r) < recordOf.count { recordOf[Int(r)] = i }
    let chosen = survivorship.choices(input: table, result: result, threads: threads)
    var clusterIndex = [Int](repeating: -1, count: table.rowCount)
    var k = 0
    for (r, c) in result.clusterOf.enumerated() where Int(c) == r && r < clusterIndex.count {
      clusterIndex[r] = k
      k += 1
    }
    let fields = roles.map(field(of:))
    var sources: [Int: String] = [:]
    for (r, k) in clusterIndex.enumerated() where k >= 0 && k < chosen.count {
      var parts: [String] = []
      for (c, f) in fields.enumerated() where c < records.header.count {
        guard let f, let m = chosen[k][f], m != r, m < recordOf.count, recordOf[m] >= 0 else { continue }
        parts.append(records.header[c] + "=" + uid(table, m))
      }
      if !parts.isEmpty { sources[r] = parts.joined(separator: ";") }
    }
    let rewrite: (Int, [String]) -> [String] = { row, cells in
      guard row < clusterIndex.count, clusterIndex[row] >= 0, clusterIndex[row] < chosen.count else { return cells }
      let picks = chosen[clusterIndex[row]]
      var out = cells
      for (c, f) in fields.enumerated() where c < out.count && c < records.columns.count {
        guard let f, let m = picks[f], m != row, m < recordOf.count, recordOf[m] >= 0 else { continue }
        out[c] = records.columns[c][recordOf[m]] ?? ""
      }
      return out
    }
    return Golden(cells: rewrite, sources: sources)
  }
}
