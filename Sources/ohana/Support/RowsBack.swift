import Foundation
import Ohana
import OhanaParquet

/// The user's rows written back with columns appended (DESIGN §15): what
/// `dedupe -o` and `--golden` write for a table, and `link -o` for LEFT.
/// The same rows and values in either layout:
/// - CSV or TSV (any output but `.parquet`): the input's records again,
///   every cell as it was, in the input's delimiter (``TableRows``);
/// - Parquet (an output named `*.parquet`): a Parquet input's table as
///   Arrow read it, every column with its type, or a CSV input's columns
///   as text (an empty cell is null), then the appended columns, typed:
///   ids text, sizes and counts int32, weights float64 (null where the CSV
///   output has an empty cell).
///   A blank CSV record is left out, as the CSV output leaves it out; a
///   Parquet input keeps every row.
struct RowsBack {
  enum Kind { case text, int32, float64 }

  enum Value {
    case text(String)
    case int(Int)
    case double(Double)
    case empty
  }

  /// Where the rows came from: the input's path, and its delimiter as the
  /// table route read it.
  let path: String
  let delimiter: UInt8
  /// The contacts' ``ContactTable/sourceLine``s (of this input's rows).
  let lines: [UInt32]
  let columns: [(name: String, kind: Kind)]
  /// Row `r`'s appended values (as many as `columns`).
  let values: (Int) -> [Value]
  /// Golden rows: only the rows for which this is true are written.
  var keep: ((Int) -> Bool)? = nil
  /// A row's own cells written anew (golden rows by survivorship rules).
  /// In a Parquet output from a Parquet input, a column in which some cell
  /// changed is written as text in its place; the others keep their types.
  var cellsOf: ((Int, [String]) -> [String])? = nil

  var inputIsParquet: Bool { ParquetTable.isParquet(path: path) }

  static func isParquet(output: String) -> Bool {
    output.lowercased().hasSuffix(".parquet") || output.lowercased().hasSuffix(".parq")
  }

  /// The input's records as the table route read them: a CSV's bytes, or
  /// a Parquet table's CSV text.
  func inputText() throws -> [UInt8] {
    if inputIsParquet {
      do {
        return try ParquetTable.csvText(path: path).bytes
      } catch {
        throw CLIError(error.message, exitCode: CLIError.dataError)
      }
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError("cannot read \(path) again to write its rows", exitCode: CLIError.noInput)
    }
    return Array(data)
  }

  func write(to out: OutputFile) throws {
    if Self.isParquet(output: out.path) { return try writeParquet(to: out) }
    let text = try inputText()
    let count = columns.count
    try TableRows.rewrite(
      text, delimiter: delimiter, appended: columns.map(\.name), lines: lines, onlyRows: keep != nil, cellsOf: cellsOf,
      appendRow: { row, bytes in
        if let keep, !keep(row) { return false }
        let v = values(row)
        for k in 0..<count {
          bytes.append(delimiter)
          switch k < v.count ? v[k] : .empty {
          case .text(let s): TableRows.writeCell(s.utf8, delimiter: delimiter, into: &bytes)
          case .int(let i): bytes.append(contentsOf: String(i).utf8)
          case .double(let d): if !d.isNaN { bytes.append(contentsOf: Deduplicator.formatWeight(d).utf8) }
          case .empty: break
          }
        }
        return true
      }
    ) { try out.write($0) }
    out.startFlush()
  }

  private func writeParquet(to out: OutputFile) throws {
    let parquetIn = inputIsParquet
    let records = TableRows.records(
      try inputText(), delimiter: delimiter, lines: lines, cells: !parquetIn || cellsOf != nil, keepBlank: parquetIn)
    if records.longRecords > 0 {
      StandardError.write(
        "\(path): \(records.longRecords) records have more cells than the header; "
          + "their extra cells are not in the Parquet output (the CSV output keeps them)\n")
    }
    // The records written: all, or the golden ones.
    let written = records.rows.indices.filter { i in
      guard let keep else { return true }
      return records.rows[i] >= 0 && keep(Int(records.rows[i]))
    }
    var appended: [[Value]] = Array(repeating: [], count: columns.count)
    for i in written {
      let v = records.rows[i] >= 0 ? values(Int(records.rows[i])) : []
      for k in 0..<columns.count { appended[k].append(k < v.count ? v[k] : .empty) }
    }
    let own = Set(records.header)
    var parts: [ParquetTable.Column] = []
    // The written records' own cells: as read, or as `cellsOf` writes
    // them (golden rows by survivorship rules).
    var cells = records.columns.map { column in written.map { column[$0] } }
    var rewritten = [Bool](repeating: false, count: records.header.count)
    if let cellsOf {
      for (k, i) in written.enumerated() where records.rows[i] >= 0 {
        let typed = records.columns.indices.map { records.columns[$0][i] ?? "" }
        let out = cellsOf(Int(records.rows[i]), typed)
        for c in records.columns.indices where c < out.count && out[c] != typed[c] {
          cells[c][k] = out[c].isEmpty ? nil : out[c]
          rewritten[c] = true
        }
      }
    }
    for (c, name) in records.header.enumerated() {
      // A CSV input's columns all as text; a Parquet input's keep their
      // values and types, but for a column `cellsOf` rewrote, which is
      // written anew as text in its place.
      if !parquetIn || rewritten[c] { parts.append(.text(name: name, values: cells[c])) }
    }
    for (k, column) in columns.enumerated() {
      let name = own.contains(column.name) ? "ohana_" + column.name : column.name
      switch column.kind {
      case .text:
        parts.append(
          .text(
            name: name,
            values: appended[k].map {
              if case .text(let s) = $0 { return s }
              return nil
            }))
      case .int32:
        parts.append(
          .int32(
            name: name,
            values: appended[k].map {
              if case .int(let i) = $0 { return Int32(clamping: max(i, Int(Int32.min) + 1)) }
              return Int32.min  // null
            }))
      case .float64:
        parts.append(
          .float64(
            name: name,
            values: appended[k].map {
              if case .double(let d) = $0 { return d }
              return .nan
            }))
      }
    }
    let bytes: [UInt8]
    do {
      bytes = try ParquetTable.write(
        base: parquetIn ? path : nil, columns: parts, take: parquetIn && keep != nil ? written : nil)
    } catch {
      throw CLIError("cannot write \(out.path): \(error.message)", exitCode: CLIError.dataError)
    }
    try out.write(bytes)
    out.startFlush()
  }
}
