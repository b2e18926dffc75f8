import COhanaArrow
import OhanaCore
import OhanaIO
import OhanaProcessors

// The C functions of `ohana_arrow.h`. Each returns 0 (OHANA_OK) or an error
// code and then fills `error` (when not NULL). A table is an opaque
// `ohana_table*`: a retained ``TableHandle``, freed by `ohana_table_free`.
// No function keeps a pointer it was given after it returns. A NULL
// argument where a value is needed is an OHANA_ERROR_ARGUMENT, not a crash.

/// Runs `body`; a thrown ``FFIError`` becomes its code and fills `error`.
func call(_ error: UnsafeMutablePointer<ohana_error>?, _ body: () throws(FFIError) -> Void) -> Int32 {
  do {
    try body()
    if let error {
      error.pointee.code = 0
      error.pointee.line = 0
    }
    return 0
  } catch let e {
    if let error {
      error.pointee.code = e.code.rawValue
      error.pointee.line = Int64(e.line)
      withUnsafeMutableBytes(of: &error.pointee.message) { buffer in
        // Cut at a character boundary so the message stays UTF-8.
        var bytes = Array(e.message.utf8.prefix(buffer.count - 1))
        while let last = bytes.last, last & 0xC0 == 0x80 || (last >= 0xC0 && bytes.count == buffer.count - 1) {
          bytes.removeLast()
        }
        for (i, b) in bytes.enumerated() { buffer[i] = b }
        buffer[bytes.count] = 0
      }
    }
    return e.code.rawValue
  }
}

func table(_ p: OpaquePointer?) throws(FFIError) -> TableHandle {
  guard let p else { throw FFIError(.argument, "no table (NULL)") }
  return Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(p)).takeUnretainedValue()
}

func give(_ h: TableHandle, _ out: UnsafeMutablePointer<OpaquePointer?>?) throws(FFIError) {
  guard let out else { throw FFIError(.argument, "no place for the result (NULL)") }
  out.pointee = OpaquePointer(Unmanaged.passRetained(h).toOpaque())
}

func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

private func format(_ p: UnsafePointer<CChar>?) throws(FFIError) -> ContactFormat? {
  guard let name = text(p), !name.isEmpty else { return nil }
  guard let f = ContactFormat(name: name) else {
    throw FFIError(.format, "unknown format \(name) (vcard, vcard3, vcard21, csv, ndjson)")
  }
  return f
}

func export(
  _ node: ArrowNode, _ schema: UnsafeMutablePointer<ArrowSchema>?, _ array: UnsafeMutablePointer<ArrowArray>?
) throws(FFIError) {
  guard let schema, let array else { throw FFIError(.argument, "no ArrowSchema or ArrowArray to fill (NULL)") }
  node.exportSchema(to: schema)
  node.exportArray(to: array)
}

/// The library's version, a static NUL-terminated string.
@_cdecl("ohana_version")
public func ohana_version() -> UnsafePointer<CChar> {
  let s: StaticString = "ohana-ffi 1 (Arrow C Data Interface)"
  return UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// What the library is made of (`BuildInfo`): `key=value` lines, UTF-8,
/// copied into `buffer` (NUL-terminated) when `capacity` holds them and
/// the NUL. Returns the bytes the lines take without the NUL, so that a
/// caller with too small a buffer learns the size to ask for.
@_cdecl("ohana_build_info")
public func ohana_build_info(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int64) -> Int64 {
  let bytes = Array(BuildInfo.keyValueText.utf8)
  if let buffer, capacity > Int64(bytes.count) {
    for (i, byte) in bytes.enumerated() { buffer[i] = CChar(bitPattern: byte) }
    buffer[bytes.count] = 0
  }
  return Int64(bytes.count)
}

/// Sets the worker threads of every later call in the process (as
/// `ohana --threads`): `n` of 1 or more, or 0 for the default
/// (`OHANA_THREADS`, else the CPUs the process may run on).
@_cdecl("ohana_set_threads")
public func ohana_set_threads(_ n: Int64, _ error: UnsafeMutablePointer<ohana_error>?) -> Int32 {
  call(error) { () throws(FFIError) in
    guard n >= 0, n <= 1 << 16 else { throw FFIError(.argument, "threads must be 1 or more (0: the default)") }
    if n == 0 { Workers.reset() } else { Workers.set(Int(n)) }
  }
}

/// The worker threads calls use now.
@_cdecl("ohana_threads")
public func ohana_threads() -> Int64 { Int64(Workers.count) }

/// Reads `count` files (`format` NULL: each from its extension, else from
/// its content) and concatenates them.
@_cdecl("ohana_read")
public func ohana_read(
  _ paths: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int64, _ formatName: UnsafePointer<CChar>?,
  _ strict: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard count >= 0, count == 0 || paths != nil else { throw FFIError(.argument, "no paths") }
    var list: [String] = []
    for i in 0..<Int(count) {
      guard let p = text(paths?[i]) else { throw FFIError(.argument, "path \(i) is NULL") }
      list.append(p)
    }
    let h = try TableHandle.read(paths: list, format: try format(formatName), strict: strict != 0)
    try give(h, out)
  }
}

/// Frees a table (NULL is ignored). Arrow data exported from it stays valid.
@_cdecl("ohana_table_free")
public func ohana_table_free(_ p: OpaquePointer?) {
  guard let p else { return }
  Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(p)).release()
}

/// The number of contacts (0 for NULL).
@_cdecl("ohana_table_rows")
public func ohana_table_rows(_ p: OpaquePointer?) -> Int64 {
  guard let h = try? table(p) else { return 0 }
  return Int64(h.table.rowCount)
}

/// How many warnings and skips the reading of this table reported.
@_cdecl("ohana_table_problem_count")
public func ohana_table_problem_count(_ p: OpaquePointer?) -> Int64 {
  guard let h = try? table(p) else { return 0 }
  return Int64(h.problems.count)
}

/// Problem `index`: its line, severity (0 warning, 1 skipped) and
/// `source:line: property: reason` as text (cut to `capacity` - 1 bytes).
/// Returns 0, or OHANA_ERROR_ARGUMENT for an index out of range.
@_cdecl("ohana_table_problem")
public func ohana_table_problem(
  _ p: OpaquePointer?, _ index: Int64, _ line: UnsafeMutablePointer<Int64>?, _ severity: UnsafeMutablePointer<Int32>?,
  _ textOut: UnsafeMutablePointer<CChar>?, _ capacity: Int64
) -> Int32 {
  guard let h = try? table(p), index >= 0, index < h.problems.count else { return FFIError.Code.argument.rawValue }
  let e = h.problems[Int(index)]
  line?.pointee = Int64(e.line)
  severity?.pointee = e.isWarning ? 0 : 1
  if let textOut, capacity > 0 {
    let s = "\(e.source ?? "-"):\(e.line): \(e.property.map { "\($0): " } ?? "")\(e.reason)"
    let bytes = Array(s.utf8.prefix(Int(capacity) - 1))
    for (i, b) in bytes.enumerated() { textOut[i] = CChar(bitPattern: b) }
    textOut[bytes.count] = 0
  }
  return 0
}

/// Fills `schema` and `array` with a part of the table (OHANA_PART_*) as
/// a record batch. The caller releases both.
@_cdecl("ohana_table_export")
public func ohana_table_export(
  _ p: OpaquePointer?, _ part: Int32, _ schema: UnsafeMutablePointer<ArrowSchema>?,
  _ array: UnsafeMutablePointer<ArrowArray>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard let which = TablePart(rawValue: part) else { throw FFIError(.argument, "unknown part \(part)") }
    let h = try table(p)
    let node = try TableExport(table: h.table, dictionary: which == .fieldOffsets || which == .addressOffsets ? nil : h.dictionary()).export(which)
    try export(node, schema, array)
  }
}

/// Builds a table from record batches of contacts, fields and addresses
/// (fields and addresses may be NULL). Takes all six structs: each is
/// released before this returns, also on error.
@_cdecl("ohana_table_import")
public func ohana_table_import(
  _ contactsSchema: UnsafeMutablePointer<ArrowSchema>?, _ contacts: UnsafeMutablePointer<ArrowArray>?,
  _ fieldsSchema: UnsafeMutablePointer<ArrowSchema>?, _ fields: UnsafeMutablePointer<ArrowArray>?,
  _ addressesSchema: UnsafeMutablePointer<ArrowSchema>?, _ addresses: UnsafeMutablePointer<ArrowArray>?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let t = try ImportedBatch.with(schema: contactsSchema, array: contacts, part: "contacts") { c throws(FFIError) in
      try ImportedBatch.with(schema: fieldsSchema, array: fields, part: "fields") { f throws(FFIError) in
        try ImportedBatch.with(schema: addressesSchema, array: addresses, part: "addresses") { a throws(FFIError) in
          try TableImport.build(contacts: c, fields: f, addresses: a)
        }
      }
    }
    try give(TableHandle(table: t), out)
  }
}

/// Parses phone fields with `region` as the default and adds
/// `phone.<format>` columns over fields for each of `formats`
/// (comma-separated: e164, international, national, rfc3966).
@_cdecl("ohana_normalize_phones")
public func ohana_normalize_phones(
  _ p: OpaquePointer?, _ region: UnsafePointer<CChar>?, _ formats: UnsafePointer<CChar>?,
  _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let h = try table(p).normalizingPhones(region: text(region) ?? "US", formats: text(formats) ?? "e164")
    try give(h, out)
  }
}

/// Sorts by `by` (full, given, family) with ICU collation for `locale`.
@_cdecl("ohana_sort")
public func ohana_sort(
  _ p: OpaquePointer?, _ by: UnsafePointer<CChar>?, _ locale: UnsafePointer<CChar>?, _ descending: Int32,
  _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let h = try table(p).sorted(by: text(by) ?? "family", locale: text(locale) ?? "root", descending: descending != 0)
    try give(h, out)
  }
}

/// Dedupes: `merged` gets the merged table; `clusters` a record batch of
/// `row` (input row), `uid` and `dedupe.cluster` (the row of its merged
/// contact). `threshold` NaN: the default.
@_cdecl("ohana_dedupe")
public func ohana_dedupe(
  _ p: OpaquePointer?, _ region: UnsafePointer<CChar>?, _ threshold: Double,
  _ merged: UnsafeMutablePointer<OpaquePointer?>?, _ clustersSchema: UnsafeMutablePointer<ArrowSchema>?,
  _ clusters: UnsafeMutablePointer<ArrowArray>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  dedupe(p, region, threshold, decisions: nil, merged, clustersSchema, clusters, error)
}

/// ``ohana_dedupe`` obeying a reviewer's decisions: `decisions` holds
/// `length` bytes of a decisions file (NDJSON, README "Review decisions").
/// Lines that are not decisions, and decisions naming an unknown uid or
/// contradicting an earlier one, are skipped and listed as the merged
/// table's problems (warnings, with their lines).
@_cdecl("ohana_dedupe_decisions")
public func ohana_dedupe_decisions(
  _ p: OpaquePointer?, _ region: UnsafePointer<CChar>?, _ threshold: Double,
  _ decisions: UnsafePointer<UInt8>?, _ length: Int64,
  _ merged: UnsafeMutablePointer<OpaquePointer?>?, _ clustersSchema: UnsafeMutablePointer<ArrowSchema>?,
  _ clusters: UnsafeMutablePointer<ArrowArray>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  guard length >= 0, length == 0 || decisions != nil else {
    return call(error) { () throws(FFIError) in throw FFIError(.argument, "no decisions") }
  }
  let bytes = length == 0 ? [] : Array(UnsafeBufferPointer(start: decisions, count: Int(length)))
  return dedupe(p, region, threshold, decisions: bytes, merged, clustersSchema, clusters, error)
}

/// Both dedupe entry points: the merged handle, and the clusters batch
/// (`row`, `uid`, `dedupe.cluster`).
private func dedupe(
  _ p: OpaquePointer?, _ region: UnsafePointer<CChar>?, _ threshold: Double, decisions: [UInt8]?,
  _ merged: UnsafeMutablePointer<OpaquePointer?>?, _ clustersSchema: UnsafeMutablePointer<ArrowSchema>?,
  _ clusters: UnsafeMutablePointer<ArrowArray>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let input = try table(p)
    guard merged != nil, clustersSchema != nil, clusters != nil else { throw FFIError(.argument, "NULL output") }
    let (h, clusterOf) = try input.deduped(
      region: text(region) ?? "US", threshold: threshold.isNaN ? nil : threshold, decisions: decisions)
    let t = input.table
    let rows = (0..<Int32(truncatingIfNeeded: t.rowCount)).map { $0 }
    let node = ArrowNode.recordBatch(
      [
        ColumnExport.int32("row", rows),
        try ColumnExport.uids("uid", t),
        ColumnExport.int32("dedupe.cluster", clusterOf),
      ], length: t.rowCount)
    try export(node, clustersSchema, clusters)
    try give(h, merged)
  }
}

/// Writes the table to `path` (`format` NULL: from the extension).
@_cdecl("ohana_write")
public func ohana_write(
  _ p: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ formatName: UnsafePointer<CChar>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard let path = text(path) else { throw FFIError(.argument, "no path") }
    try table(p).write(path: path, format: try format(formatName))
  }
}
