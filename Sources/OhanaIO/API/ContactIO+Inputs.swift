import OhanaCore

/// One input of a read of several files (``ContactIO/read(inputs:options:progress:)``):
/// where to read, the format (nil: from the extension, else the content),
/// and the name its contacts carry as their source.
public struct ContactInput: Sendable, Hashable {
  public var path: String
  public var format: ContactFormat?
  /// The source name (`--source NAME=PATH`); the path when not given.
  public var name: String

  public init(path: String, format: ContactFormat? = nil, name: String? = nil) {
    self.path = path
    self.format = format
    self.name = name ?? path
  }
}

/// What one input of a read of several gave: its share of the counts.
public struct SourceSummary: Sendable, Hashable {
  public var name: String
  public var path: String
  /// Contacts read from it (rows of the table, in input order).
  public var contacts: Int
  /// Its range of the result's rows.
  public var rows: Range<Int>
  public var warnings: Int
  public var skipped: Int
  public var bytes: Int
  /// How its undeclared 8-bit text was decoded (vCard), if it had any.
  public var charset: String?
}

extension ContactIO {
  /// The derived field column naming each field's source (after a merge,
  /// each field of a merged contact still says which input it came from).
  public static let fieldSourceColumn = FieldTable.sourceColumn

  /// Reads several inputs, of any formats, into one table: their contacts
  /// in input order, each tagged with its input's name (the
  /// `sourceProvider` attribute, written as `source` by the NDJSON and CSV
  /// writers) and each field too (``fieldSourceColumn``). Every error
  /// names its input (``InputError/source``); ``ReadResult/sources`` gives
  /// per-input counts. An input that cannot be read at all (missing, not a
  /// contact format) stops the read with an error naming it: a run never
  /// goes on without one of its inputs.
  ///
  /// Each input is read as one input is (its chunks parsed on every core).
  public static func read(
    inputs: [ContactInput], options: ReadOptions = ReadOptions(), progress: (@Sendable (Int, Int?) -> Void)? = nil
  ) throws(ContactIOError) -> ReadResult {
    var parts: [ContactTable] = []
    var errors: [InputError] = []
    var sources: [SourceSummary] = []
    var bytes = 0, records = 0, skipped = 0
    var charset: UndeclaredCharset? = nil
    var row = 0
    for input in inputs {
      var o = options
      o.sourceName = input.name
      let done = bytes
      if let progress { o.progress = { n, total in progress(done + n, total) } }
      var r: ReadResult
      do {
        r = try read(path: input.path, format: input.format, options: o)
      } catch {
        throw ContactIOError(error.code, "\(input.path): \(error.message)", line: error.line)
      }
      r.table.tagSource(input.name)
      let counts = (warnings: r.errors.filter { $0.severity == .warning }.count, skipped: r.errors.filter { $0.severity == .skipped }.count)
      sources.append(
        SourceSummary(
          name: input.name, path: input.path, contacts: r.table.rowCount, rows: row..<(row + r.table.rowCount),
          warnings: counts.warnings, skipped: counts.skipped, bytes: r.bytesRead, charset: r.undeclaredCharset?.name))
      row += r.table.rowCount
      parts.append(r.table)
      errors.append(contentsOf: r.errors)
      bytes += r.bytesRead
      records += r.recordsRead
      skipped += r.recordsSkipped
      if charset == nil { charset = r.undeclaredCharset }
    }
    var result = ReadResult(
      table: ContactTable.concatenate(parts), errors: errors, bytesRead: bytes, recordsRead: records, recordsSkipped: skipped)
    result.undeclaredCharset = charset
    result.sources = sources
    return result
  }
}

extension ContactTable {
  /// Tags every contact (`sourceProvider`) and every field
  /// (``ContactIO/fieldSourceColumn``) with `name`.
  public mutating func tagSource(_ name: String) {
    let id = intern(name)
    setAttribute(.sourceProvider, [StringID](repeating: id, count: rowCount))
    setFieldColumn(ContactIO.fieldSourceColumn, .string([StringID](repeating: id, count: fields.count)))
  }
}
