import COhanaArrow
import OhanaCore

/// A record batch given by an Arrow producer (pyarrow), read in place and
/// checked before use: the engine copies what it needs into its store and
/// then releases the batch.
///
/// Accepted columns: `utf8` (`u`), `large_utf8` (`U`) and `int32` (`i`),
/// with or without a validity bitmap, at any offset. What the C Data
/// Interface does not carry (the size of each buffer) cannot be checked;
/// what it does is: the formats, the counts of buffers and children, that
/// the pointers a column needs are there, that every offset is at least the
/// one before it and not negative.
struct ImportedBatch {
  let length: Int
  let columns: [String: ImportedColumn]

  /// Reads the batch at `array` (its type at `schema`), calls `body`, and
  /// releases both, whatever happens. Null pointers (or a released struct)
  /// are an empty batch.
  static func with<R>(
    schema: UnsafeMutablePointer<ArrowSchema>?, array: UnsafeMutablePointer<ArrowArray>?, part: String,
    _ body: (ImportedBatch) throws(FFIError) -> R
  ) throws(FFIError) -> R {
    defer {
      if let array, let release = array.pointee.release { release(array) }
      if let schema, let release = schema.pointee.release { release(schema) }
    }
    guard let schema, let array, schema.pointee.release != nil, array.pointee.release != nil else {
      return try body(ImportedBatch(length: 0, columns: [:]))
    }
    let s = schema.pointee, a = array.pointee
    guard let format = s.format.map({ String(cString: $0) }), format == "+s" else {
      throw FFIError(.arrow, "\(part): not a record batch (a struct array)")
    }
    guard a.length >= 0, a.offset >= 0, a.n_children == s.n_children, a.n_children >= 0 else {
      throw FFIError(.arrow, "\(part): length, offset or children do not fit the schema")
    }
    var columns: [String: ImportedColumn] = [:]
    for i in 0..<Int(a.n_children) {
      guard let cs = s.children?[i], let ca = a.children?[i] else {
        throw FFIError(.arrow, "\(part): a column is missing")
      }
      let name = cs.pointee.name.map { String(cString: $0) } ?? ""
      let column = try ImportedColumn(
        schema: cs.pointee, array: ca.pointee, parentOffset: Int(a.offset), length: Int(a.length), name: "\(part).\(name)")
      if let column { columns[name] = column }
    }
    return try body(ImportedBatch(length: Int(a.length), columns: columns))
  }
}

/// One column of an ``ImportedBatch``, row `r` being the batch's row:
/// strings (`utf8`, `large_utf8`, or either dictionary-encoded with
/// integer indices) or `int32`.
struct ImportedColumn {
  enum Kind { case strings, int32, dictionary }
  let kind: Kind
  let count: Int
  /// Row r of the batch is element `start + r` of the buffers.
  let start: Int
  let validity: UnsafePointer<UInt8>?
  /// int32 values, or dictionary indices (`indexWidth` bytes each).
  let values: UnsafeRawPointer?
  let indexWidth: Int
  /// The strings (of the column, or of its dictionary).
  let strings: ImportedStrings?

  /// Nil for a column of another type (ignored by the importer, which
  /// names the columns it takes).
  init?(schema: ArrowSchema, array: ArrowArray, parentOffset: Int, length: Int, name: String) throws(FFIError) {
    let format = schema.format.map { String(cString: $0) } ?? ""
    guard array.offset >= 0, array.length >= 0, Int(array.length) >= parentOffset + length else {
      throw FFIError(.arrow, "\(name): shorter than its batch")
    }
    guard let buffers = array.buffers, array.n_buffers >= 2 else {
      if format == "u" || format == "U" || format == "i" { throw FFIError(.arrow, "\(name): missing buffers") }
      return nil
    }
    count = length
    start = Int(array.offset) + parentOffset
    validity = array.null_count == 0 ? nil : buffers[0].map { $0.assumingMemoryBound(to: UInt8.self) }
    // Signed indices only, as the specification recommends (Python decodes others first).
    let widths: [String: Int] = ["c": 1, "s": 2, "i": 4, "l": 8]
    if let dictSchema = schema.dictionary {
      let valueFormat = dictSchema.pointee.format.map { String(cString: $0) } ?? ""
      guard valueFormat == "u" || valueFormat == "U", let width = widths[format] else { return nil }
      guard let dictArray = array.dictionary, array.n_buffers == 2 else {
        throw FFIError(.arrow, "\(name): a dictionary column without its dictionary")
      }
      let d = dictArray.pointee
      guard d.offset >= 0, d.length >= 0 else { throw FFIError(.arrow, "\(name): bad dictionary") }
      kind = .dictionary
      indexWidth = width
      values = buffers[1]
      strings = try ImportedStrings(
        d, start: Int(d.offset), count: Int(d.length), large: valueFormat == "U", name: "\(name) (dictionary)")
    } else {
      switch format {
      case "u", "U":
        guard array.n_buffers == 3 else { throw FFIError(.arrow, "\(name): unexpected buffers for its type") }
        kind = .strings
        indexWidth = 0
        values = nil
        strings = try ImportedStrings(array, start: start, count: length, large: format == "U", name: name)
      case "i":
        kind = .int32
        indexWidth = 4
        values = buffers[1]
        strings = nil
      default: return nil
      }
    }
    if length > 0 && kind != .strings && values == nil { throw FFIError(.arrow, "\(name): no values buffer") }
  }

  func isNull(_ r: Int) -> Bool {
    guard let validity else { return false }
    let i = start + r
    return validity[i >> 3] & (1 << UInt8(i & 7)) == 0
  }

  /// The dictionary index of row `r` (any integer width).
  private func index(_ r: Int) -> Int {
    guard let values else { return -1 }
    let i = start + r
    switch indexWidth {
    case 1: return Int(values.load(fromByteOffset: i, as: Int8.self))
    case 2: return Int(values.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))
    case 4: return Int(values.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))
    default: return Int(values.loadUnaligned(fromByteOffset: i * 8, as: Int64.self))
    }
  }

  /// The integer of row `r`, nil when null or not an int32 column.
  func int(_ r: Int) -> Int? {
    guard kind == .int32, r >= 0, r < count, !isNull(r), let values else { return nil }
    return Int(values.loadUnaligned(fromByteOffset: (start + r) * 4, as: Int32.self))
  }

  /// Every row's string interned into `pool` (absent where null or
  /// empty), with the pool's bulk path: the strings of a plain column at
  /// once, a dictionary's values once (shared dictionaries once per
  /// import, through `cache`) and then one lookup a row.
  /// - Throws: a dictionary index out of range.
  func ids(into pool: inout StringPool, cache: inout [DictionaryKey: [StringID]], name: String) throws(FFIError) -> [StringID] {
    guard let strings, kind != .int32 else { return [] }
    switch kind {
    case .strings:
      var ids = strings.intern(into: &pool)
      if validity != nil { for r in 0..<count where isNull(r) { ids[r] = .absent } }
      return ids
    default:
      let key = strings.key
      let dictIDs: [StringID]
      if let known = cache[key] {
        dictIDs = known
      } else {
        dictIDs = strings.intern(into: &pool)
        cache[key] = dictIDs
      }
      var ids = [StringID](repeating: .absent, count: count)
      for r in 0..<count where !isNull(r) {
        let i = index(r)
        guard i >= 0, i < dictIDs.count else { throw FFIError(.arrow, "\(name): dictionary index out of range at row \(r)") }
        ids[r] = dictIDs[i]
      }
      return ids
    }
  }
}

/// Names one dictionary within an import (the same buffers, the same strings).
struct DictionaryKey: Hashable {
  let offsets: UInt
  let data: UInt
  let start: Int
  let count: Int
}

/// The strings of a `utf8` or `large_utf8` array (`count` of them from
/// element `start`), their offsets checked: not negative, never decreasing.
struct ImportedStrings {
  let offsets: UnsafeRawPointer?
  let data: UnsafeRawPointer?
  let validity: UnsafePointer<UInt8>?
  let start: Int
  let count: Int
  let large: Bool

  init(_ array: ArrowArray, start: Int, count: Int, large: Bool, name: String) throws(FFIError) {
    guard let buffers = array.buffers, array.n_buffers == 3 else {
      throw FFIError(.arrow, "\(name): a string array needs 3 buffers")
    }
    guard start >= 0, count >= 0 else { throw FFIError(.arrow, "\(name): negative offset or length") }
    offsets = buffers[1]
    data = buffers[2]
    validity = array.null_count == 0 ? nil : buffers[0].map { $0.assumingMemoryBound(to: UInt8.self) }
    self.start = start
    self.count = count
    self.large = large
    guard count > 0 else { return }
    guard offsets != nil else { throw FFIError(.arrow, "\(name): no offsets buffer") }
    var previous = offset(start)
    guard previous >= 0 else { throw FFIError(.arrow, "\(name): negative offset") }
    for r in 0..<count {
      let next = offset(start + r + 1)
      guard next >= previous else { throw FFIError(.arrow, "\(name): offsets decrease at row \(r)") }
      previous = next
    }
    if previous > offset(start) && data == nil { throw FFIError(.arrow, "\(name): no data buffer") }
  }

  var key: DictionaryKey {
    DictionaryKey(
      offsets: UInt(bitPattern: offsets), data: UInt(bitPattern: data), start: start, count: count)
  }

  func offset(_ i: Int) -> Int {
    guard let offsets else { return 0 }
    return large
      ? Int(offsets.loadUnaligned(fromByteOffset: i * 8, as: Int64.self))
      : Int(offsets.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))
  }

  func isNull(_ i: Int) -> Bool {
    guard let validity else { return false }
    let k = start + i
    return validity[k >> 3] & (1 << UInt8(k & 7)) == 0
  }

  /// The strings interned with the pool's bulk path (absent where null).
  func intern(into pool: inout StringPool) -> [StringID] {
    guard count > 0 else { return [] }
    let base = offset(start)
    let end = offset(start + count)
    var rel = [Int](repeating: 0, count: count + 1)
    for i in 0...count { rel[i] = offset(start + i) - base }
    var ids: [StringID] = []
    let bytes = UnsafeRawBufferPointer(start: data.map { $0 + base }, count: data == nil ? 0 : end - base)
    rel.withUnsafeBufferPointer { pool.intern(contentsOf: bytes, offsets: $0, into: &ids) }
    if validity != nil { for i in 0..<count where isNull(i) { ids[i] = .absent } }
    return ids
  }
}

/// Builds a ``ContactTable`` from imported batches: contacts (string
/// columns named like the exported ones: `uid`, `fullName`, ...,
/// `source`), fields (`contact`, `type`, `label`, `value`, `group`,
/// `parameters`) and addresses (`contact` and the address columns). Child
/// rows may come in any order; each goes to the contact its `contact`
/// names, in the order given.
enum TableImport {
  static func build(contacts: ImportedBatch, fields: ImportedBatch, addresses: ImportedBatch) throws(FFIError) -> ContactTable {
    let n = contacts.length
    let fieldRows = try rowsByContact(fields, contacts: n, part: "fields")
    let addressRows = try rowsByContact(addresses, contacts: n, part: "addresses")
    var b = ContactTableBuilder()
    b.reserve(contacts: n, fields: fields.length, addresses: addresses.length)
    // Every string column interned first, in bulk (see ImportedColumn.ids).
    var cache: [DictionaryKey: [StringID]] = [:]
    func ids(_ batch: ImportedBatch, _ name: String, _ part: String) throws(FFIError) -> [StringID]? {
      guard let c = batch.columns[name], c.kind != .int32 else { return nil }
      return try c.ids(into: &b.pool, cache: &cache, name: "\(part).\(name)")
    }
    var attributes: [(ContactAttribute, [StringID])] = []
    for (a, name) in [(ContactAttribute.uid, "uid")] + TableExport.attributeNames {
      if let v = try ids(contacts, name, "contacts") { attributes.append((a, v)) }
    }
    var fieldColumns: [[StringID]?] = []
    for name in ["label", "value", "group", "parameters"] { fieldColumns.append(try ids(fields, name, "fields")) }
    let typeIDs = try ids(fields, "type", "fields")
    var addressColumns: [[StringID]?] = []
    for (_, name) in TableExport.addressNames { addressColumns.append(try ids(addresses, name, "addresses")) }
    // The kind of each distinct type string, looked up once.
    var kindOf: [StringID: FieldKind] = [:]
    for id in Set(typeIDs ?? []) {
      kindOf[id] = b.pool.string(id).flatMap { FieldKind(name: $0) } ?? .other
    }
    func at(_ column: [StringID]?, _ r: Int) -> StringID { column.map { $0[r] } ?? .absent }
    for r in 0..<n {
      b.beginContact()
      for (a, v) in attributes { b.set(a, v[r]) }
      for f in fieldRows.rows(of: r) {
        b.appendField(
          kind: typeIDs.map { kindOf[$0[f]] ?? .other } ?? .other, label: at(fieldColumns[0], f),
          value: at(fieldColumns[1], f), group: at(fieldColumns[2], f), parameters: at(fieldColumns[3], f))
      }
      for a in addressRows.rows(of: r) {
        b.appendAddress(addressColumns.map { at($0, a) })
      }
      b.endContact()
    }
    var table = b.build()
    table.packUUIDs()
    return table
  }

  /// Child rows grouped by contact (a stable counting sort on `contact`).
  struct Grouped {
    var offsets: [Int]
    var order: [Int]
    func rows(of contact: Int) -> ArraySlice<Int> { order[offsets[contact]..<offsets[contact + 1]] }
  }

  static func rowsByContact(_ batch: ImportedBatch, contacts n: Int, part: String) throws(FFIError) -> Grouped {
    guard batch.length > 0 else { return Grouped(offsets: Array(repeating: 0, count: n + 1), order: []) }
    guard let owner = batch.columns["contact"], owner.kind == .int32 else {
      throw FFIError(.arrow, "\(part): needs an int32 column `contact`")
    }
    var counts = [Int](repeating: 0, count: n + 1)
    for r in 0..<batch.length {
      guard let c = owner.int(r), c >= 0, c < n else {
        throw FFIError(.arrow, "\(part): row \(r) names no contact (contact must be 0 ..< \(n), not null)")
      }
      counts[c + 1] += 1
    }
    for i in 0..<n { counts[i + 1] += counts[i] }
    var next = counts
    var order = [Int](repeating: 0, count: batch.length)
    for r in 0..<batch.length {
      let c = owner.int(r) ?? 0
      order[next[c]] = r
      next[c] += 1
    }
    return Grouped(offsets: counts, order: order)
  }
}
