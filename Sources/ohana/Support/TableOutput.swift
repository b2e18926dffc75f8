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

  /// The appended cells of each cluster's rows (`,id,size,min,max`, in
  /// the delimiter), made once per cluster and kept by its first row.
  static func suffixes(_ table: ContactTable, _ result: DedupeResult, delimiter: UInt8, golden: Bool) -> [[UInt8]] {
    let n = min(table.rowCount, result.clusterOf.count)
    let (size, low, high) = result.clusterFigures(rows: n)
    var out = [[UInt8]](repeating: [], count: n)
    for r in 0..<n where Int(result.clusterOf[r]) == r {
      var s: [UInt8] = [delimiter]
      TableRows.writeCell(uid(table, r).utf8, delimiter: delimiter, into: &s)
      s.append(delimiter)
      s.append(contentsOf: String(size[r]).utf8)
      if !golden {
        s.append(delimiter)
        if !low[r].isNaN { s.append(contentsOf: Deduplicator.formatWeight(low[r]).utf8) }
        s.append(delimiter)
        if !high[r].isNaN { s.append(contentsOf: Deduplicator.formatWeight(high[r]).utf8) }
      }
      out[r] = s
    }
    return out
  }

  /// Writes the rows of the table at `path` with the appended cells to `out`.
  static func write(
    path: String, delimiter: UInt8, table: ContactTable, result: DedupeResult, golden: Bool, to out: OutputFile
  ) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError("cannot read \(path) again to write its rows", exitCode: CLIError.noInput)
    }
    let suffix = Self.suffixes(table, result, delimiter: delimiter, golden: golden)
    let clusterOf = result.clusterOf
    try TableRows.rewrite(
      Array(data), delimiter: delimiter, appended: golden ? Array(appended.prefix(2)) : appended,
      lines: table.sourceLine, onlyRows: golden,
      appendRow: { row, bytes in
        guard row < clusterOf.count else { return !golden }
        let c = Int(clusterOf[row])
        if golden && c != row { return false }
        bytes.append(contentsOf: suffix[c])
        return true
      }
    ) { try out.write($0) }
    out.startFlush()
  }
}
