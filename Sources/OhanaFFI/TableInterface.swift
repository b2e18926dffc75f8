import COhanaArrow
import OhanaCore
import OhanaDedupe
import OhanaIO

// Tables in their own columns from Python (issue 44, item 7:
// `ohana.dedupe(frame)`, `ohana.link(left, right)`): the frame crosses as
// CSV text (the Python side writes it with pyarrow's CSV writer, header
// first), is read through the same ``ColumnMapping`` and detection as
// `ohana dedupe people.csv`, deduped or linked with the command line's
// settings, and what comes back is per row: the user's rows themselves
// never leave Python, which appends the columns to the frame it was given.

/// Dedupes the table `left` (`left_length` bytes of CSV, header first) or,
/// with `right`, links it to `right` (``LinkSides``: `mode=link`, the
/// default, compares only pairs across; `mode=link-and-dedupe` all).
/// `left_mapping` / `right_mapping`: column roles as a `--columns` file's
/// text (`ROLE=COLUMN[,COLUMN...]` a line), NULL for detection alone.
/// `settings`: `key=value;...` as the distributed job's (region, threshold,
/// max_block, blocking, weights, threads; every core by default) and
/// `mode` (`dedupe`, `link`, `link-and-dedupe`, or `mapping`: the table
/// read and its mapping given, with no rows and no dedupe).
///
/// Fills `schema`/`array` with one row per input row (LEFT's, then
/// RIGHT's): `cluster` (int32: the row naming its cluster, its smallest),
/// `cluster_size` (int32), `weight_min` and `weight_max` (float64: the
/// weakest and strongest pair that joined the cluster, null for a row
/// alone), `match` (int32: linking, the row on the other side whose joined
/// pair with this one weighed most, null when none) and `match_weight`
/// (float64), `match_count` (int32: linking, the rows of the other side in
/// its cluster; 0 for a dedupe). `columns` gets the mapping, a line per column:
/// `side<TAB>column<TAB>role<TAB>how` (side 0 or 1; role empty: passed
/// through). A table where no column is a name, an e-mail or a phone is an
/// OHANA_ERROR_INVALID_INPUT naming its columns.
@_cdecl("ohana_table_match")
public func ohana_table_match(
  _ left: UnsafePointer<UInt8>?, _ leftLength: Int64, _ leftMapping: UnsafePointer<CChar>?,
  _ right: UnsafePointer<UInt8>?, _ rightLength: Int64, _ rightMapping: UnsafePointer<CChar>?,
  _ settings: UnsafePointer<CChar>?, _ schema: UnsafeMutablePointer<ArrowSchema>?,
  _ array: UnsafeMutablePointer<ArrowArray>?, _ columns: UnsafeMutablePointer<CChar>?, _ columnsCapacity: Int64,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard schema != nil, array != nil else { throw FFIError(.argument, "NULL output") }
    // `mode` is this function's; the rest are the shared settings.
    var linking = right != nil
    var within = false
    var mappingOnly = false
    var shared: [Substring] = []
    for part in (settings.map { String(cString: $0) } ?? "").split(separator: ";") {
      if part.hasPrefix("mode=") {
        switch part.dropFirst(5) {
        case "link": within = false
        case "link-and-dedupe": within = true
        case "dedupe": linking = false
        case "mapping": mappingOnly = true
        default: throw FFIError(.argument, "mode must be dedupe, link or link-and-dedupe")
        }
      } else {
        shared.append(part)
      }
    }
    guard linking == (right != nil) else { throw FFIError(.argument, "mode dedupe takes one table, link two") }
    guard !mappingOnly || !linking else { throw FFIError(.argument, "mode mapping takes one table") }
    var (config, weights, _) = try linkSettings(shared.joined(separator: ";"), defaultThreads: 0)

    var sides: [ReadResult] = []
    for (data, length, mapping) in [(left, leftLength, leftMapping), (right, rightLength, rightMapping)] {
      if sides.count == 1 && !linking { break }
      guard length >= 0, length == 0 || data != nil else { throw FFIError(.argument, "no table") }
      let options = try tableReadOptions(mapping: mapping)
      let bytes = length == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: Int(length)))
      let read: ReadResult
      do throws(ContactIOError) { read = try ContactIO.read(bytes: bytes, format: .csv, options: options) } catch {
        throw FFIError(error)
      }
      let names = read.columns.map(\.column)
      guard mappingOnly || read.columns.contains(where: { $0.role?.identifies == true }) else {
        throw FFIError(
          .invalidInput,
          "\(sides.isEmpty ? "the table" : "the right table"): no column is a name, an e-mail or a phone, so no "
            + "contact can be told from another (columns: \(names.prefix(12).map { "'\($0)'" }.joined(separator: ", ")))"
            + "; map them, for example columns={\"given\": \"\(names.first ?? "COLUMN")\"}")
      }
      sides.append(read)
    }

    var table = sides.count == 1 ? sides[0].table : ContactTable.concatenate(sides.map(\.table))
    if mappingOnly { table = ContactTable() }
    config.adapt(
      toTableOf: table.rowCount, titleColumn: sides.allSatisfy { $0.columns.contains { $0.role == .title } },
      weights: weights)
    var dedupe = Deduplicator(configuration: config)
    let link = linking ? LinkSides(rightStart: sides[0].table.rowCount, withinSides: within) : nil
    dedupe.link = link
    let result = dedupe.findDuplicates(in: table, evidence: false)

    let n = table.rowCount
    let (size, low, high) = result.clusterFigures(rows: n)
    let (match, matchWeight) =
      link.map { result.strongestAcross($0, rows: n) }
      ?? ([Int32](repeating: -1, count: n), [Double](repeating: .nan, count: n))
    // Per cluster, its rows on each side (linking).
    var onSide = [[Int32]](repeating: [Int32](repeating: 0, count: n), count: link == nil ? 0 : 2)
    if let link {
      for r in 0..<n { onSide[link.isRight(r) ? 1 : 0][Int(result.clusterOf[r])] += 1 }
    }
    let node = ArrowNode.recordBatch(
      [
        ColumnExport.int32("cluster", result.clusterOf),
        ColumnExport.int32("cluster_size", (0..<n).map { size[Int(result.clusterOf[$0])] }),
        ColumnExport.float64(nullingNaN: "weight_min", (0..<n).map { low[Int(result.clusterOf[$0])] }),
        ColumnExport.float64(nullingNaN: "weight_max", (0..<n).map { high[Int(result.clusterOf[$0])] }),
        ColumnExport.int32(nullingNegative: "match", match),
        ColumnExport.float64(nullingNaN: "match_weight", matchWeight),
        ColumnExport.int32(
          "match_count",
          (0..<n).map { r in link.map { onSide[$0.isRight(r) ? 0 : 1][Int(result.clusterOf[r])] } ?? 0 }),
      ], length: n)
    var text = ""
    for (side, read) in sides.enumerated() {
      for c in read.columns { text += "\(side)\t\(c.column)\t\(c.role.map(\.description) ?? "")\t\(c.how)\n" }
    }
    guard let columns, Int64(text.utf8.count) < columnsCapacity else {
      throw FFIError(.argument, "the columns buffer is too small (\(text.utf8.count + 1) bytes needed)")
    }
    for (i, b) in text.utf8.enumerated() { columns[i] = CChar(bitPattern: b) }
    columns[text.utf8.count] = 0
    try export(node, schema, array)
  }
}
