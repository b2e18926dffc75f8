import OhanaCore
import OhanaDedupe
import OhanaIO
import OhanaPhone
import OhanaProcessors
import Synchronization

/// What a C `ohana_table*` points to: a table and the problems its reading
/// met. Immutable: every operation returns a new handle, so a handle can be
/// used from several threads at once.
final class TableHandle: Sendable {
  let table: ContactTable
  let problems: [InputError]
  /// The pool dictionary of the last export, while a consumer still holds
  /// it (weak): the parts exported one after the other (contacts, fields,
  /// addresses for one `to_arrow()`) share one copy of the pool, and none
  /// is kept once the consumer has released them.
  private let lastDictionary = Mutex<WeakNode>(WeakNode())

  init(table: ContactTable, problems: [InputError] = []) {
    self.table = table
    self.problems = problems
  }

  /// The table's pool as an Arrow dictionary: the one still in use by a
  /// consumer, or a new one.
  func dictionary() -> PoolDictionary {
    lastDictionary.withLock { cached in
      if let node = cached.node { return PoolDictionary(node: node) }
      let d = PoolDictionary(table.pool)
      cached = WeakNode(d.node)
      return d
    }
  }

  /// Reads `paths` one after the other into one table (the command line's
  /// read of several inputs, `ContactIO.read(inputs:)`); each contact's
  /// `sourceProvider`, and each field's `source`, is the path it came from.
  static func read(paths: [String], format: ContactFormat?, strict: Bool) throws(FFIError) -> TableHandle {
    var options = ReadOptions()
    options.strict = strict
    do {
      let result = try ContactIO.read(inputs: paths.map { ContactInput(path: $0, format: format) }, options: options)
      return TableHandle(table: result.table, problems: result.errors)
    } catch {
      throw FFIError(error)
    }
  }

  /// The table with phone fields parsed and `phone.<format>` columns added
  /// over fields.
  func normalizingPhones(region: String, formats: String) throws(FFIError) -> TableHandle {
    guard let code = RegionCode(region), PhoneNumberEngine().isSupportedRegion(code) else {
      throw FFIError(.argument, "unknown region \(region) (an ISO 3166 code such as US, GB, DE)")
    }
    var list: [PhoneNumberFormat] = []
    for part in formats.split(separator: ",") {
      switch part.trimmingBlanks.lowercased() {
      case "e164": list.append(.e164)
      case "international": list.append(.international)
      case "national": list.append(.national)
      case "rfc3966": list.append(.rfc3966)
      default: throw FFIError(.argument, "unknown phone format \(part) (e164, international, national, rfc3966)")
      }
    }
    guard !list.isEmpty else { throw FFIError(.argument, "no phone format given") }
    let frame = try run(PhoneNumberFormatting(formats: list, defaultRegion: code))
    return TableHandle(table: frame.materialized(), problems: problems)
  }

  /// The table sorted by a name with ICU collation.
  func sorted(by: String, locale: String, descending: Bool) throws(FFIError) -> TableHandle {
    let mode: AlphabeticalSort.Mode
    switch by.lowercased() {
    case "full", "fullname": mode = .fullName
    case "given", "givenname", "first": mode = .givenName
    case "family", "familyname", "last": mode = .familyName
    default: throw FFIError(.argument, "cannot sort by \(by) (full, given or family)")
    }
    var frame = try run(AlphabeticalSort(mode: mode, locale: locale))
    if descending { frame.order = frame.rows.reversed() }
    return TableHandle(table: frame.materialized(), problems: problems)
  }

  /// Dedupes: the merged table and, for every input row, the row of its
  /// merged contact.
  /// `decisions`: a decisions file's bytes (NDJSON, ``DedupeDecision``);
  /// the lines that are not decisions and the decisions skipped are the
  /// merged handle's problems (warnings, with their lines).
  func deduped(region: String, threshold: Double?, decisions: [UInt8]? = nil) throws(FFIError)
    -> (TableHandle, clusterOfRow: [Int32])
  {
    guard let code = RegionCode(region), PhoneNumberEngine().isSupportedRegion(code) else {
      throw FFIError(.argument, "unknown region \(region) (an ISO 3166 code such as US, GB, DE)")
    }
    var configuration = DedupeConfiguration()
    configuration.defaultRegion = code.description
    if let threshold { configuration.setThreshold(threshold) }
    var problems: [InputError] = []
    if let decisions {
      let read = DedupeDecision.read(ndjson: decisions)
      configuration.decisions = read.decisions
      problems = read.errors.map {
        InputError(line: $0.line, reason: $0.reason + "; line skipped", source: "decisions", severity: .warning)
      }
    }
    let (result, merged) = Deduplicator(configuration: configuration).deduplicate(table)
    for var e in result.statistics.decisionsSkipped {
      e.source = "decisions"
      problems.append(e)
    }
    problems.sort { $0.line < $1.line }
    // Merged contacts come in the order of their clusters' first rows.
    var mergedRow = [Int32](repeating: -1, count: max(table.rowCount, 1))
    var next: Int32 = 0
    var out = [Int32](repeating: 0, count: result.clusterOf.count)
    for r in result.clusterOf.indices {
      let c = Int(result.clusterOf[r])
      guard c >= 0, c < mergedRow.count else { continue }
      if mergedRow[c] < 0 {
        mergedRow[c] = next
        next += 1
      }
      out[r] = mergedRow[c]
    }
    return (TableHandle(table: merged, problems: problems), out)
  }

  /// Writes the table; `format` nil: from the path's extension.
  func write(path: String, format: ContactFormat?) throws(FFIError) {
    guard let format = format ?? ContactFormat(path: path) else {
      throw FFIError(.format, "cannot tell the format of \(path) from its extension: give a format")
    }
    do {
      try ContactIO.write(table, format: format, to: path)
    } catch {
      throw FFIError(error)
    }
  }

  private func run(_ processor: some PostProcessor) throws(FFIError) -> Frame {
    do {
      return try processor.process(Frame(table: table), context: ProcessingContext())
    } catch {
      throw FFIError(.argument, "\(error)")
    }
  }
}

/// A weak reference to an exported node.
struct WeakNode: @unchecked Sendable {
  // @unchecked: only read and written inside the handle's mutex.
  weak var node: ArrowNode?
  init(_ node: ArrowNode? = nil) { self.node = node }
}
