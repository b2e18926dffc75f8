import Foundation
import Ohana

/// `dedupe`'s output for a table (DESIGN §15): the user's rows again, every
/// cell as it was, with `cluster_id` (the uid of the cluster's first row:
/// the table's own id column when one is mapped, else `row-N`, as
/// `--clusters` names it), `cluster_size`, and the weakest and strongest
/// weight of the pairs that joined the cluster (`match_weight_min`,
/// `match_weight_max`; empty for a row alone); `--golden`, one row per
/// cluster: its first row's cells, with `cluster_id` and `cluster_size`.
/// (Which member's value a golden row takes field by field is the subject
/// of survivorship rules; until then it is the cluster's first row.)
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
    path: String, delimiter: UInt8, table: ContactTable, result: DedupeResult, golden: Bool, to out: OutputFile
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
    try rows.write(to: out)
  }
}
