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
    let names = golden ? Array(appended.prefix(2)) : appended
    var rows = RowsBack(
      path: path, delimiter: delimiter, lines: table.sourceLine,
      columns: zip(names, [RowsBack.Kind.text, .int32, .float64, .float64]).map { ($0, $1) },
      values: { row in
        guard row < n else { return [] }
        let c = Int(clusterOf[row])
        let head: [RowsBack.Value] = [.text(ids[c] ?? ""), .int(Int(size[c]))]
        if golden { return head }
        return head + [low[c].isNaN ? .empty : .double(low[c]), high[c].isNaN ? .empty : .double(high[c])]
      })
    if golden { rows.keep = { $0 < n && Int(clusterOf[$0]) == $0 } }
    if golden && !survivorship.isDefault {
      rows.cellsOf = try goldenCells(
        rows, table: table, result: result, roles: roles, survivorship: survivorship, threads: threads)
    }
    try rows.write(to: out)
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
  ) throws -> (Int, [String]) -> [String] {
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
    return { row, cells in
      guard row < clusterIndex.count, clusterIndex[row] >= 0, clusterIndex[row] < chosen.count else { return cells }
      let picks = chosen[clusterIndex[row]]
      var out = cells
      for (c, f) in fields.enumerated() where c < out.count && c < records.columns.count {
        guard let f, let m = picks[f], m != row, m < recordOf.count, recordOf[m] >= 0 else { continue }
        out[c] = records.columns[c][recordOf[m]] ?? ""
      }
      return out
    }
  }
}
