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

  static func uid(_ table: ContactTable, _ row: Int) -> String {
    var buf: [UInt8] = []
    if table.uuids.appendText(at: row, to: &buf) { return String(decoding: buf, as: UTF8.self) }
    if table.hasUID(at: row) {
      var s = ""
      table.withUID(at: row) { s = String(decoding: $0, as: UTF8.self) }
      return s
    }
    return "row-\(row + 1)"
  }

  /// The appended cells of every row, by its line in the input.
  static func cells(_ table: ContactTable, _ result: DedupeResult, golden: Bool) -> [Int: [String]] {
    let n = min(table.rowCount, result.clusterOf.count)
    var size: [Int32: Int] = [:]
    for r in 0..<n { size[result.clusterOf[r], default: 0] += 1 }
    var low: [Int32: Double] = [:], high: [Int32: Double] = [:]
    for p in result.pairs where p.first < n {
      let c = result.clusterOf[p.first]
      low[c] = min(low[c] ?? p.weight, p.weight)
      high[c] = max(high[c] ?? p.weight, p.weight)
    }
    var ids: [Int32: String] = [:]
    var out: [Int: [String]] = [:]
    out.reserveCapacity(n)
    for r in 0..<n {
      let c = result.clusterOf[r]
      if golden && Int(c) != r { continue }
      let id = ids[c] ?? uid(table, Int(c))
      ids[c] = id
      let w = { (x: Double?) in x.map { Deduplicator.formatWeight($0) } ?? "" }
      let line = Int(table.sourceLine[r])
      out[line] = golden ? [id, String(size[c] ?? 1)] : [id, String(size[c] ?? 1), w(low[c]), w(high[c])]
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
    let cells = Self.cells(table, result, golden: golden)
    try TableRows.rewrite(
      Array(data), delimiter: delimiter, appended: golden ? Array(appended.prefix(2)) : appended, onlyListed: golden,
      cells: { cells[$0] }
    ) { try out.write($0) }
    out.startFlush()
  }
}
