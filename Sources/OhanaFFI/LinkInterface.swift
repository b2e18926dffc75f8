import COhanaArrow
import OhanaCore
import OhanaDedupe
import OhanaIO
import OhanaPhone
import OhanaProcessors

// The C functions the distributed job (python/ohana/spark.py) calls: the
// engine does the per-record and per-block work (reading a piece of an
// input, the blocking keys and comparison record of each contact, scoring
// a batch of candidate pairs, the chaining guard and the merge of a batch
// of components), Spark the shuffles between them. Each is the one-machine
// dedupe's own code on part of the data, so that Spark's answer is the one
// machine's (see README "More than one machine").
//
// Settings come as text, `key=value` separated by `;`: region, threshold,
// max_block, blocking (all, basic or a list of rules), weights (auto,
// defaults, em). The model crosses as ``FellegiSunterModel/storedText``.
// Numeric arrays are the caller's memory (NumPy's), read or filled here
// for exactly the counts given.

/// A dedupe configuration from `key=value;...` text.
func linkConfiguration(_ text: String?) throws(FFIError) -> DedupeConfiguration {
  try linkSettings(text).configuration
}

/// The configuration of `key=value;...` text and the weights it names;
/// without `threads`, `defaultThreads` (0: every core).
func linkSettings(_ text: String?, defaultThreads: Int = 1) throws(FFIError)
  -> (configuration: DedupeConfiguration, weights: WeightsSetting, table: Bool)
{
  var c = DedupeConfiguration()
  var weights = WeightsSetting.auto
  var table = false
  c.threads = 0
  for part in (text ?? "").split(separator: ";") {
    let kv = part.split(separator: "=", maxSplits: 1).map { String($0.trimmingBlanks) }
    guard kv.count == 2 else { throw FFIError(.argument, "setting \(part) is not key=value") }
    switch kv[0] {
    case "region":
      guard let code = RegionCode(kv[1]), PhoneNumberEngine().isSupportedRegion(code) else {
        throw FFIError(.argument, "unknown region \(kv[1]) (an ISO 3166 code such as US, GB, DE)")
      }
      c.defaultRegion = code.description
    case "threshold":
      guard let t = Double(kv[1]), t.isFinite else { throw FFIError(.argument, "threshold \(kv[1]) is not a number") }
      c.setThreshold(t)
    case "max_block":
      guard let m = Int(kv[1]), m >= 2 else { throw FFIError(.argument, "max_block must be 2 or more") }
      c.maxBlockSize = m
    case "blocking":
      if let unknown = c.setBlocking(kv[1]) { throw FFIError(.argument, "unknown blocking rule \(unknown)") }
    case "weights":
      guard let w = WeightsSetting(rawValue: kv[1]) else { throw FFIError(.argument, "weights must be auto, defaults or em") }
      weights = w
      c.setWeights(w)
    case "threads":
      guard let t = Int(kv[1]), t >= 1, t <= 4096 else { throw FFIError(.argument, "threads must be 1 or more") }
      c.threads = t
    case "table":
      // A table in its own columns (the job's `dedupe_table`): `auto`
      // weights follow ``DedupeConfiguration/adapt(toTableOf:titleColumn:weights:)``.
      guard kv[1] == "0" || kv[1] == "1" else { throw FFIError(.argument, "table must be 0 or 1") }
      table = kv[1] == "1"
    default: throw FFIError(.argument, "unknown setting \(kv[0])")
    }
  }
  // A Spark task uses the CPUs it was given (`threads`, the job passes
  // spark.task.cpus), never the host's: one by default there.
  if c.threads == 0 { c.threads = defaultThreads }
  return (c, weights, table)
}

private func linkModel(_ text: UnsafePointer<CChar>?) throws(FFIError) -> FellegiSunterModel {
  guard let text else { return .defaults }
  guard let m = FellegiSunterModel(storedText: String(cString: text)) else {
    throw FFIError(.argument, "the model text does not parse")
  }
  return m
}

private func fill(_ text: String, _ out: UnsafeMutablePointer<CChar>?, _ capacity: Int64) throws(FFIError) {
  let bytes = Array(text.utf8)
  guard let out, bytes.count < capacity else { throw FFIError(.argument, "the text buffer is too small (\(bytes.count + 1) bytes needed)") }
  for (i, b) in bytes.enumerated() { out[i] = CChar(bitPattern: b) }
  out[bytes.count] = 0
}

/// Reads contacts held in memory (`length` bytes, a whole file or a piece
/// of an NDJSON file cut at line ends) as the input `source` (NULL: the
/// contacts keep the sources their records name, as records shipped
/// between tasks do); the lines
/// of contacts and problems are counted from `first_line` (the line of the
/// piece's first byte in its file).
@_cdecl("ohana_read_bytes")
public func ohana_read_bytes(
  _ data: UnsafePointer<UInt8>?, _ length: Int64, _ formatName: UnsafePointer<CChar>?, _ source: UnsafePointer<CChar>?,
  _ firstLine: Int64, _ strict: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    var format: ContactFormat? = nil
    if let formatName, let f = ContactFormat(name: String(cString: formatName)) { format = f }
    var options = ReadOptions()
    options.strict = strict != 0
    try readBytes(data, length, format: format, source: source, firstLine: firstLine, options: options, into: out)
  }
}

/// As ``ohana_read_bytes(_:_:_:_:_:_:_:_:)`` for a piece of a table: CSV
/// text with its header first and `,` between cells, read with the column
/// roles `mapping` (a `--columns` file's text, `ROLE=COLUMN[,COLUMN...]` a
/// line; NULL: detected from the piece's own header and values, as
/// `ohana dedupe table.csv` does). The distributed job reads a frame's part
/// files with the one mapping its driver chose, so that every part maps
/// its columns alike whatever its first rows hold.
@_cdecl("ohana_read_table_bytes")
public func ohana_read_table_bytes(
  _ data: UnsafePointer<UInt8>?, _ length: Int64, _ source: UnsafePointer<CChar>?, _ firstLine: Int64,
  _ mapping: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let options = try tableReadOptions(mapping: mapping)
    try readBytes(data, length, format: .csv, source: source, firstLine: firstLine, options: options, into: out)
  }
}

/// How the C interface reads a table's CSV text (`,` between cells) with
/// the column roles `mapping` (a `--columns` file's text; NULL: detected).
func tableReadOptions(mapping: UnsafePointer<CChar>?) throws(FFIError) -> ReadOptions {
  var options = ReadOptions()
  options.delimiter = 0x2C
  if let mapping {
    do throws(ColumnMapping.ParseError) {
      options.columnMapping = try ColumnMapping(file: String(cString: mapping))
    } catch {
      throw FFIError(.argument, "columns: \(error.description)")
    }
  }
  return options
}

/// The read behind both entries: `length` bytes as `format` (nil: sniffed),
/// lines counted from `firstLine`, contacts tagged with `source`.
private func readBytes(
  _ data: UnsafePointer<UInt8>?, _ length: Int64, format: ContactFormat?, source: UnsafePointer<CChar>?,
  firstLine: Int64, options: ReadOptions, into out: UnsafeMutablePointer<OpaquePointer?>?
) throws(FFIError) {
  guard length >= 0, length == 0 || data != nil else { throw FFIError(.argument, "no data") }
  guard let out else { throw FFIError(.argument, "no place for the result (NULL)") }
  guard firstLine >= 1, firstLine < Int64(UInt32.max) else { throw FFIError(.argument, "first_line out of range") }
  let bytes = length == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: Int(length)))
  var options = options
  let name = source.map { String(cString: $0) }
  options.sourceName = name ?? "-"
  let shift = Int(firstLine) - 1
  var result: ReadResult
  do throws(ContactIOError) {
    result = try ContactIO.read(bytes: bytes, format: format, options: options)
  } catch {
    var e = FFIError(error)
    if e.line > 0 { e.line += shift }
    throw e
  }
  if let name { result.table.tagSource(name) }
  if shift > 0 {
    for i in result.table.sourceLine.indices where result.table.sourceLine[i] > 0 {
      result.table.sourceLine[i] &+= UInt32(truncatingIfNeeded: shift)
    }
    for i in result.errors.indices where result.errors[i].line > 0 { result.errors[i].line += shift }
  }
  out.pointee = OpaquePointer(Unmanaged.passRetained(TableHandle(table: result.table, problems: result.errors)).toOpaque())
}

/// Rows `start..<start + count` of a table as a record batch: `uid`
/// (utf8, null without one), `line` (int64, the contact's first line in
/// its input, 0 unknown), `record` (utf8: the contact as one NDJSON line,
/// which reads back to the same contact). With `with_keys` also the
/// dedupe keys under `settings`: `keys` (list<int64>: the block hashes,
/// lowest bit set for the typo-tolerant rules), `neighbourhood` (int64,
/// 0 none), `name_order` (int64, null without a family name), `class`
/// (int32: 1 has phones, 2 has e-mails), `tf_family` and `tf_given`
/// (int64 name hashes, 0 none) and `cmp` (binary: the contact's comparison
/// record, everything scoring reads, about a quarter of `record`'s bytes;
/// ``ohana_link_score_records`` scores pairs of them).
@_cdecl("ohana_link_prepare")
public func ohana_link_prepare(
  _ p: OpaquePointer?, _ settings: UnsafePointer<CChar>?, _ start: Int64, _ count: Int64, _ withKeys: Int32,
  _ schema: UnsafeMutablePointer<ArrowSchema>?, _ array: UnsafeMutablePointer<ArrowArray>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let t = try table(p).table
    guard start >= 0, count >= 0, start + count <= Int64(t.rowCount) else { throw FFIError(.argument, "rows out of range") }
    guard let schema, let array else { throw FFIError(.argument, "no ArrowSchema or ArrowArray to fill (NULL)") }
    let rows = Int(start)..<Int(start + count)
    let table = rows.count == t.rowCount ? t : t.gathering(rows: rows.map { UInt32($0) })
    let n = table.rowCount
    var columns: [ArrowNode] = [try ColumnExport.uids("uid", table)]
    columns.append(LinkColumns.int64("line", (0..<n).map { Int64(table.sourceLine[$0]) }))
    let records = ContactIO.encodeNDJSON(table, rows: 0..<n)
    columns.append(try LinkColumns.text("record", records.bytes, ends: records.ends, trimLineEnds: true))
    if withKeys != 0 {
      let keys = LinkKeys(table: table, configuration: try linkConfiguration(settings.map { String(cString: $0) }))
      var offsets: [Int32] = [0]
      var values: [Int64] = []
      var r0 = 0
      keys.forEachBlockingKey(0..<n) { r, key, _ in
        while r0 < r {
          offsets.append(Int32(values.count))
          r0 += 1
        }
        values.append(Int64(bitPattern: key))
      }
      while offsets.count < n + 1 { offsets.append(Int32(values.count)) }
      columns.append(LinkColumns.int64List("keys", offsets: offsets, values: values))
      columns.append(LinkColumns.int64("neighbourhood", (0..<n).map { Int64(bitPattern: keys.neighbourhoodKey($0)) }))
      columns.append(LinkColumns.int64("name_order", (0..<n).map { keys.sortedNameKey($0).map { Int64(bitPattern: $0) } }))
      columns.append(ColumnExport.int32("class", (0..<n).map { Int32(keys.contactClass($0)) }))
      let terms = (0..<n).map { keys.termHashes($0) }
      columns.append(LinkColumns.int64("tf_family", terms.map { Int64(bitPattern: $0.family) }))
      columns.append(LinkColumns.int64("tf_given", terms.map { Int64(bitPattern: $0.given) }))
      let compact = keys.comparisonRecords(0..<n, threads: 1)
      columns.append(try LinkColumns.text("cmp", compact.bytes, ends: compact.ends, trimLineEnds: false, format: "z"))
    }
    let node = ArrowNode.recordBatch(columns, length: n)
    node.exportSchema(to: schema)
    node.exportArray(to: array)
  }
}

/// What a full run over `count` contacts, `with_phone_or_email` of them
/// with a phone or an e-mail, decides before scoring, under `settings`:
/// `estimates` (1: the weights are estimated by EM, 0: the built-in ones),
/// `threshold` (the acceptance threshold), and `skip` (16 entries,
/// `class_a * 4 + class_b`: 1 where the typo-tolerant rules skip a pair of
/// these contact classes under the built-in model; all 0 with EM).
@_cdecl("ohana_link_plan")
public func ohana_link_plan(
  _ settings: UnsafePointer<CChar>?, _ count: Int64, _ withPhoneOrEmail: Int64, _ estimates: UnsafeMutablePointer<Int32>?,
  _ threshold: UnsafeMutablePointer<Double>?, _ skip: UnsafeMutablePointer<Int8>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    var (config, weights, table) = try linkSettings(settings.map { String(cString: $0) })
    // A table decides as the command line's table route does: under
    // `auto`, EM from ``Deduplicator/automaticEMMinimum`` rows.
    if table { config.adapt(toTableOf: Int(count), titleColumn: false, weights: weights) }
    let em = Deduplicator(configuration: config).estimatesWeights(count: Int(count), withPhoneOrEmail: Int(withPhoneOrEmail))
    estimates?.pointee = em ? 1 : 0
    threshold?.pointee = config.threshold
    if let skip {
      let rule = LinkRuleSkip(model: .defaults, threshold: config.threshold)
      for a in 0..<4 {
        for b in 0..<4 { skip[a * 4 + b] = !em && rule.skips(a, b) ? 1 : 0 }
      }
    }
  }
}

/// The model: the built-in one (`counts` NULL), or EM's fit to `counts`
/// (candidate pairs per comparison vector, `n` = ``ComparisonVector/space``
/// entries) with `plausible` set to whether it was kept (when not, the
/// built-in model is returned). Fills `text` (the model, NUL-terminated),
/// `weights` (`n` floats: each vector's weight, or NULL) and `threshold`
/// (the threshold a pair's weight under this model is judged against:
/// ``DedupeConfiguration/threshold(for:)``; or NULL).
@_cdecl("ohana_link_model")
public func ohana_link_model(
  _ settings: UnsafePointer<CChar>?, _ counts: UnsafePointer<Int64>?, _ n: Int64, _ text: UnsafeMutablePointer<CChar>?,
  _ capacity: Int64, _ weights: UnsafeMutablePointer<Float>?, _ plausible: UnsafeMutablePointer<Int32>?,
  _ threshold: UnsafeMutablePointer<Double>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard n == Int64(ComparisonVector.space) else { throw FFIError(.argument, "n must be \(ComparisonVector.space)") }
    let d = Deduplicator(configuration: try linkConfiguration(settings.map { String(cString: $0) }))
    var model = FellegiSunterModel.defaults
    if let counts {
      let fit = d.fit(counts: (0..<Int(n)).map { Int(counts[$0]) })
      model = fit.model
      plausible?.pointee = fit.plausible ? 1 : 0
    }
    threshold?.pointee = d.configuration.threshold(for: model)
    try fill(model.storedText, text, capacity)
    if let weights {
      let table = model.weightTable()
      for i in 0..<Int(n) { weights[i] = table[i] }
    }
  }
}

/// Scores `n` pairs of rows of `table` (`a[i]`, `b[i]`). With `model`:
/// `vector[i]` is the pair's comparison vector, or -1 when its phones and
/// e-mails alone keep it below the threshold (the one-machine scorer's
/// early exit), and `weight[i]` its weight with the term-frequency
/// adjustments `tf_family` / `tf_given` (per row; NULL: none). Without
/// `model` (EM: weights are not known yet): every vector, and `terms[i]`
/// (bit 0: an exact family-name agreement that earns an adjustment, bit 1
/// the same for the given name).
@_cdecl("ohana_link_score")
public func ohana_link_score(
  _ p: OpaquePointer?, _ settings: UnsafePointer<CChar>?, _ modelText: UnsafePointer<CChar>?, _ n: Int64,
  _ a: UnsafePointer<Int32>?, _ b: UnsafePointer<Int32>?, _ tfFamily: UnsafePointer<Float>?,
  _ tfGiven: UnsafePointer<Float>?, _ vector: UnsafeMutablePointer<Int64>?, _ weight: UnsafeMutablePointer<Float>?,
  _ terms: UnsafeMutablePointer<Int8>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let contacts = try table(p).table
    guard n >= 0, n == 0 || (a != nil && b != nil && vector != nil) else { throw FFIError(.argument, "no pairs") }
    let rows = Int32(truncatingIfNeeded: contacts.rowCount)
    for i in 0..<Int(n) {
      guard let a, let b, a[i] >= 0, a[i] < rows, b[i] >= 0, b[i] < rows else { throw FFIError(.argument, "pair \(i) names a row out of range") }
    }
    let config = try linkConfiguration(settings.map { String(cString: $0) })
    let keys = LinkKeys(table: contacts, configuration: config)
    try scorePairs(keys, modelText, n, a, b, tfFamily, tfGiven, vector, weight, terms)
  }
}

/// Scores `n` pairs of contacts given as comparison records (the `cmp`
/// column of ``ohana_link_prepare``): `data` holds them end to end, the
/// i-th from `offsets[i]` to `offsets[i + 1]` (`count + 1` offsets, Arrow's
/// binary layout); `a[i]`, `b[i]` index them. Outputs as ``ohana_link_score``.
/// A damaged record is an error, never a crash.
@_cdecl("ohana_link_score_records")
public func ohana_link_score_records(
  _ data: UnsafePointer<UInt8>?, _ offsets: UnsafePointer<Int32>?, _ count: Int64, _ settings: UnsafePointer<CChar>?,
  _ modelText: UnsafePointer<CChar>?, _ n: Int64, _ a: UnsafePointer<Int32>?, _ b: UnsafePointer<Int32>?,
  _ tfFamily: UnsafePointer<Float>?, _ tfGiven: UnsafePointer<Float>?, _ vector: UnsafeMutablePointer<Int64>?,
  _ weight: UnsafeMutablePointer<Float>?, _ terms: UnsafeMutablePointer<Int8>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard count >= 0, count == 0 || offsets != nil else { throw FFIError(.argument, "no record offsets") }
    guard n >= 0, n == 0 || (a != nil && b != nil && vector != nil) else { throw FFIError(.argument, "no pairs") }
    var ends: [Int] = []
    ends.reserveCapacity(Int(count))
    var bytes: [UInt8] = []
    if let offsets, count > 0 {
      let first = Int(offsets[0]), last = Int(offsets[Int(count)])
      guard first == 0, last >= 0, last == 0 || data != nil else { throw FFIError(.argument, "record offsets do not start at 0") }
      var previous = first
      for i in 1...Int(count) {
        let e = Int(offsets[i])
        guard e >= previous else { throw FFIError(.argument, "record offsets go backwards at \(i)") }
        ends.append(e)
        previous = e
      }
      if let data, last > 0 { bytes = Array(UnsafeBufferPointer(start: data, count: last)) }
    }
    for i in 0..<Int(n) {
      guard let a, let b, a[i] >= 0, a[i] < count, b[i] >= 0, b[i] < count else {
        throw FFIError(.argument, "pair \(i) names a record out of range")
      }
    }
    let config = try linkConfiguration(settings.map { String(cString: $0) })
    guard let keys = LinkKeys(records: bytes, ends: ends, configuration: config) else {
      throw FFIError(.invalidInput, "a comparison record is damaged or of another version")
    }
    try scorePairs(keys, modelText, n, a, b, tfFamily, tfGiven, vector, weight, terms)
  }
}

/// The scoring loop of ``ohana_link_score`` and ``ohana_link_score_records``
/// (pairs already checked to lie within the keys' rows).
private func scorePairs(
  _ keys: LinkKeys, _ modelText: UnsafePointer<CChar>?, _ n: Int64, _ a: UnsafePointer<Int32>?, _ b: UnsafePointer<Int32>?,
  _ tfFamily: UnsafePointer<Float>?, _ tfGiven: UnsafePointer<Float>?, _ vector: UnsafeMutablePointer<Int64>?,
  _ weight: UnsafeMutablePointer<Float>?, _ terms: UnsafeMutablePointer<Int8>?
) throws(FFIError) {
  let bounded = modelText != nil
  let scorer = LinkScorer(keys: keys, model: try linkModel(modelText))
  let rowCount = keys.count
  let family = tfFamily.map { p in (0..<rowCount).map { p[$0] } }
  let given = tfGiven.map { p in (0..<rowCount).map { p[$0] } }
  guard let a, let b, let vector else { return }
  for i in 0..<Int(n) {
    let x = Int(a[i]), y = Int(b[i])
    if bounded {
      guard let s = scorer.score(x, y) else {
        vector[i] = -1
        weight?[i] = -.infinity
        continue
      }
      vector[i] = Int64(s.vector.rawValue)
      weight?[i] = scorer.adjustedWeight(x, y, s.vector, family: family, given: given)
    } else {
      let v = scorer.vector(x, y)
      vector[i] = Int64(v.rawValue)
      let t = scorer.termAgreements(x, y, v)
      terms?[i] = (t.family ? 1 : 0) | (t.given ? 2 : 0)
      weight?[i] = scorer.tableWeight(v)
    }
  }
}

/// The contact files that `count` input arguments name, in the order the
/// command line reads them (``InputDiscovery``: directories walked,
/// globs expanded), written to `out` as paths each ended by a NUL; `needed`
/// gets the bytes the whole list takes (call again with a larger buffer
/// when it exceeds `capacity`: nothing is written then).
@_cdecl("ohana_list_inputs")
public func ohana_list_inputs(
  _ paths: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int64, _ out: UnsafeMutablePointer<CChar>?, _ capacity: Int64,
  _ needed: UnsafeMutablePointer<Int64>?, _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    guard count >= 0, count == 0 || paths != nil else { throw FFIError(.argument, "no paths") }
    var bytes: [UInt8] = []
    for i in 0..<Int(count) {
      guard let p = paths?[i] else { throw FFIError(.argument, "path \(i) is NULL") }
      let files: [String]
      do throws(ContactIOError) {
        files = try InputDiscovery.files(String(cString: p))
      } catch {
        throw FFIError(error)
      }
      for f in files {
        bytes.append(contentsOf: f.utf8)
        bytes.append(0)
      }
    }
    needed?.pointee = Int64(bytes.count)
    guard Int64(bytes.count) <= capacity else { return }
    guard let out else { throw FFIError(.argument, "no buffer (NULL)") }
    for (i, c) in bytes.enumerated() { out[i] = CChar(bitPattern: c) }
  }
}

/// The chaining guard and the merge of a batch of whole components. The
/// table holds each component's contacts in input order; `edges` accepted
/// pairs (`ea[i] < eb[i]`, rows of the table, weight `ew[i]`) joined
/// strongest first (ties by rows) as the one-machine run joins them, the
/// guard scoring cross pairs with `model` and the per-row term-frequency
/// adjustments (NULL: none). Fills `merged` (one contact per cluster, in
/// the order of each cluster's first row), `cluster[r]` (per row: the row
/// of its cluster's first contact), `refused` (pairs the guard refused)
/// and `joined` (a record batch of the pairs that joined: `a`, `b` (rows),
/// `weight` (float64) and `explanation` (utf8, as `ohana dedupe
/// --explain` writes it)).
@_cdecl("ohana_link_merge")
public func ohana_link_merge(
  _ p: OpaquePointer?, _ settings: UnsafePointer<CChar>?, _ modelText: UnsafePointer<CChar>?, _ n: Int64,
  _ ea: UnsafePointer<Int32>?, _ eb: UnsafePointer<Int32>?, _ ew: UnsafePointer<Float>?,
  _ tfFamily: UnsafePointer<Float>?, _ tfGiven: UnsafePointer<Float>?, _ merged: UnsafeMutablePointer<OpaquePointer?>?,
  _ cluster: UnsafeMutablePointer<Int32>?, _ refused: UnsafeMutablePointer<Int64>?,
  _ joinedSchema: UnsafeMutablePointer<ArrowSchema>?, _ joined: UnsafeMutablePointer<ArrowArray>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let contacts = try table(p).table
    guard let merged, let cluster, let joinedSchema, let joined else { throw FFIError(.argument, "NULL output") }
    guard n >= 0, n == 0 || (ea != nil && eb != nil && ew != nil) else { throw FFIError(.argument, "no edges") }
    let rows = contacts.rowCount
    var edges: [(a: Int, b: Int, w: Float)] = []
    edges.reserveCapacity(Int(n))
    if let ea, let eb, let ew {
      for i in 0..<Int(n) {
        let x = Int(ea[i]), y = Int(eb[i])
        guard x >= 0, y < rows, x < y else { throw FFIError(.argument, "edge \(i) is not two rows a < b of the table") }
        edges.append((x, y, ew[i]))
      }
    }
    // Strongest first, ties by the pair (rows are in input order within a
    // component, so this is the one-machine order).
    edges.sort { $0.w != $1.w ? $0.w > $1.w : ($0.a, $0.b) < ($1.a, $1.b) }
    let config = try linkConfiguration(settings.map { String(cString: $0) })
    let model = try linkModel(modelText)
    let keys = LinkKeys(table: contacts, configuration: config)
    let scorer = LinkScorer(keys: keys, model: model)
    let family = tfFamily.map { p in (0..<rows).map { p[$0] } }
    let given = tfGiven.map { p in (0..<rows).map { p[$0] } }
    var clustering = LinkClustering(count: rows, configuration: config)
    var pairs: [MatchedPair] = []
    var refusedCount: Int64 = 0
    for e in edges {
      if clustering.join(e.a, e.b, weight: { x, y in scorer.weight(x, y, family: family, given: given) }) {
        let v = scorer.vector(e.a, e.b)
        pairs.append(scorer.matchedPair(e.a, e.b, weight: Double(e.w), vector: v))
      } else {
        refusedCount += 1
      }
    }
    let clusterOf = clustering.clusterIDs()
    let result = DedupeResult.linked(clusterOf: clusterOf, pairs: pairs, model: model)
    let out = Deduplicator(configuration: config, model: model).merge(contacts, result, linkKeys: keys)
    for r in 0..<rows { cluster[r] = clusterOf[r] }
    refused?.pointee = refusedCount
    var text: [UInt8] = []
    var ends: [Int] = []
    // Each pair's evidence as `ohana dedupe --explain` writes it, with how
    // its weight was built (prior, parts, adjust).
    let weights = ExplanationWeights(model)
    for pair in pairs {
      DedupeResult.appendExplanation(
        pair, table: contacts, cluster: DedupeResult.uid(contacts, Int(clusterOf[pair.first])), weights: weights, to: &text)
      ends.append(text.count)
    }
    let node = ArrowNode.recordBatch(
      [
        ColumnExport.int32("a", pairs.map { Int32(truncatingIfNeeded: $0.first) }),
        ColumnExport.int32("b", pairs.map { Int32(truncatingIfNeeded: $0.second) }),
        LinkColumns.float64("weight", pairs.map(\.weight)),
        try LinkColumns.text("explanation", text, ends: ends, trimLineEnds: false),
      ], length: pairs.count)
    node.exportSchema(to: joinedSchema)
    node.exportArray(to: joined)
    merged.pointee = OpaquePointer(Unmanaged.passRetained(TableHandle(table: out)).toOpaque())
  }
}

/// Column builders for the link functions' batches.
enum LinkColumns {
  /// `int64`, null where nil.
  static func int64(_ name: String, _ values: [Int64?]) -> ArrowNode {
    let valid = ArrowBuffer.bitmap(count: values.count)
    var nulls = 0
    let data = ArrowBuffer.filled(Int64.self, count: values.count) { out in
      for (i, v) in values.enumerated() {
        if let v {
          out[i] = v
          valid.setBit(i)
        } else {
          out[i] = 0
          nulls += 1
        }
      }
    }
    return ArrowNode(format: "l", name: name, length: values.count, nullCount: nulls, buffers: [nulls == 0 ? nil : valid, data])
  }

  /// `float64`, no nulls.
  static func float64(_ name: String, _ values: [Double]) -> ArrowNode {
    let b = values.withUnsafeBytes { ArrowBuffer.copy($0) }
    return ArrowNode(format: "g", name: name, nullable: false, length: values.count, buffers: [nil, b])
  }

  /// `list<int64>` from offsets (count + 1) and the values.
  static func int64List(_ name: String, offsets: [Int32], values: [Int64]) -> ArrowNode {
    let o = offsets.withUnsafeBytes { ArrowBuffer.copy($0) }
    let child = ArrowNode(
      format: "l", name: "item", nullable: false, length: values.count,
      buffers: [nil, values.withUnsafeBytes { ArrowBuffer.copy($0) }])
    return ArrowNode(format: "+l", name: name, nullable: false, length: offsets.count - 1, buffers: [nil, o], children: [child])
  }

  /// `utf8` of texts laid end to end (`ends` as ``ContactIO/encodeNDJSON(_:rows:)``
  /// gives them), each without its line end when `trimLineEnds`.
  static func text(_ name: String, _ bytes: [UInt8], ends: [Int], trimLineEnds: Bool, format: String = "u") throws(FFIError)
    -> ArrowNode
  {
    guard bytes.count <= Int(Int32.max) else { throw FFIError(.arrow, "a batch of more than 2 GiB of text: ask for fewer rows") }
    var offsets = [Int32](repeating: 0, count: ends.count + 1)
    var data: [UInt8] = []
    data.reserveCapacity(bytes.count)
    var start = 0
    for (i, e) in ends.enumerated() {
      var end = e
      while trimLineEnds && end > start && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
      data.append(contentsOf: bytes[start..<end])
      offsets[i + 1] = Int32(data.count)
      start = e
    }
    return ArrowNode(
      format: format, name: name, nullable: false, length: ends.count,
      buffers: [nil, offsets.withUnsafeBytes { ArrowBuffer.copy($0) }, data.withUnsafeBytes { ArrowBuffer.copy($0) }])
  }
}

extension LinkColumns {
  /// `utf8` (`format` "u") or `binary` ("z") of one value a row, null where nil.
  static func values(_ name: String, format: String, _ values: [[UInt8]?]) throws(FFIError) -> ArrowNode {
    let total = values.reduce(0) { $0 + ($1?.count ?? 0) }
    guard total <= Int(Int32.max) else { throw FFIError(.arrow, "a batch of more than 2 GiB of text: ask for fewer rows") }
    let valid = ArrowBuffer.bitmap(count: values.count)
    var nulls = 0
    var data: [UInt8] = []
    data.reserveCapacity(total)
    let offsets = ArrowBuffer.filled(Int32.self, count: values.count + 1) { o in
      o[0] = 0
      for (i, v) in values.enumerated() {
        if let v {
          data.append(contentsOf: v)
          valid.setBit(i)
        } else {
          nulls += 1
        }
        o[i + 1] = Int32(data.count)
      }
    }
    return ArrowNode(
      format: format, name: name, length: values.count, nullCount: nulls,
      buffers: [nulls == 0 ? nil : valid, offsets, data.withUnsafeBytes { ArrowBuffer.copy($0) }])
  }
}

/// Name columns for sorting and matching elsewhere (the Spark job's
/// normalization): a record batch of `given_folded`, `family_folded` and
/// `full_folded` (utf8: the names folded as dedupe folds them, the full
/// name composed from its parts when absent; null when empty) and
/// `sort_key` (binary: bytes whose order is `ohana process --sort BY --locale
/// LOCALE`'s order, ties to be broken by input order; null without the name).
@_cdecl("ohana_name_keys")
public func ohana_name_keys(
  _ p: OpaquePointer?, _ by: UnsafePointer<CChar>?, _ locale: UnsafePointer<CChar>?,
  _ schema: UnsafeMutablePointer<ArrowSchema>?, _ array: UnsafeMutablePointer<ArrowArray>?,
  _ error: UnsafeMutablePointer<ohana_error>?
) -> Int32 {
  call(error) { () throws(FFIError) in
    let t = try table(p).table
    guard let schema, let array else { throw FFIError(.argument, "no ArrowSchema or ArrowArray to fill (NULL)") }
    let mode: AlphabeticalSort.Mode
    switch (text(by) ?? "family").lowercased() {
    case "full", "fullname": mode = .fullName
    case "given", "givenname", "first": mode = .givenName
    case "family", "familyname", "last": mode = .familyName
    default: throw FFIError(.argument, "cannot sort by \(text(by) ?? "") (full, given or family)")
    }
    let keys: [[UInt8]?]
    do {
      keys = try AlphabeticalSort(mode: mode, locale: text(locale) ?? "root").sortKeys(t)
    } catch {
      throw FFIError(.argument, "\(error)")
    }
    let folder = NameFolder.shared
    func folded(_ attribute: ContactAttribute) -> [[UInt8]?] {
      let column = t[attribute]
      var cache: [StringID: [UInt8]?] = [:]
      return (0..<t.rowCount).map { r in
        let id = column[r]
        if id.isAbsent { return nil }
        if let hit = cache[id] { return hit }
        let f = Array(folder.fold(t.pool.string(id) ?? "").utf8)
        let v: [UInt8]? = f.isEmpty ? nil : f
        cache[id] = v
        return v
      }
    }
    let given = folded(.givenName), family = folded(.familyName), middle = folded(.middleName)
    var full = folded(.fullName)
    for r in full.indices where full[r] == nil {
      let parts = [given[r], middle[r], family[r]].compactMap { $0 }
      if !parts.isEmpty { full[r] = Array(parts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ").utf8) }
    }
    let node = ArrowNode.recordBatch(
      [
        try LinkColumns.values("given_folded", format: "u", given),
        try LinkColumns.values("family_folded", format: "u", family),
        try LinkColumns.values("full_folded", format: "u", full),
        try LinkColumns.values("sort_key", format: "z", keys),
      ], length: t.rowCount)
    node.exportSchema(to: schema)
    node.exportArray(to: array)
  }
}
