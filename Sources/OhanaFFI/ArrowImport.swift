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

/// One column of an ``ImportedBatch``, row `r` being the batch's row.
struct ImportedColumn {
  enum Kind { case utf8, largeUTF8, int32 }
  let kind: Kind
  let count: Int
  /// Row r of the batch is element `start + r` of the buffers.
  let start: Int
  let validity: UnsafePointer<UInt8>?
  let values: UnsafeRawPointer?
  let data: UnsafeRawPointer?

  /// Nil for a column of another type (ignored by the importer, which
  /// names the columns it takes).
  init?(schema: ArrowSchema, array: ArrowArray, parentOffset: Int, length: Int, name: String) throws(FFIError) {
    let format = schema.format.map { String(cString: $0) } ?? ""
    switch format {
    case "u": kind = .utf8
    case "U": kind = .largeUTF8
    case "i": kind = .int32
    default: return nil
    }
    guard array.offset >= 0, array.length >= 0, Int(array.length) >= parentOffset + length else {
      throw FFIError(.arrow, "\(name): shorter than its batch")
    }
    guard array.n_buffers == (kind == .int32 ? 2 : 3), array.dictionary == nil, let buffers = array.buffers else {
      throw FFIError(.arrow, "\(name): unexpected buffers for its type")
    }
    count = length
    start = Int(array.offset) + parentOffset
    validity = array.null_count == 0 ? nil : buffers[0].map { $0.assumingMemoryBound(to: UInt8.self) }
    values = buffers[1]
    data = kind == .int32 ? nil : buffers[2]
    if length > 0 && values == nil { throw FFIError(.arrow, "\(name): no values buffer") }
    if kind != .int32 && length > 0 {
      // Offsets must not decrease or be negative; data is needed when any string is not empty.
      var previous = offset(start)
      guard previous >= 0 else { throw FFIError(.arrow, "\(name): negative offset") }
      for r in 0..<length {
        let next = offset(start + r + 1)
        guard next >= previous else { throw FFIError(.arrow, "\(name): offsets decrease at row \(r)") }
        previous = next
      }
      if previous > offset(start) && data == nil { throw FFIError(.arrow, "\(name): no data buffer") }
    }
  }

  private func offset(_ i: Int) -> Int {
    guard let values else { return 0 }
    return kind == .largeUTF8
      ? Int(values.load(fromByteOffset: i * 8, as: Int64.self))
      : Int(values.load(fromByteOffset: i * 4, as: Int32.self))
  }

  func isNull(_ r: Int) -> Bool {
    guard let validity else { return false }
    let i = start + r
    return validity[i >> 3] & (1 << UInt8(i & 7)) == 0
  }

  /// The bytes of row `r`, nil when null or not a string column.
  func bytes(_ r: Int) -> UnsafeRawBufferPointer? {
    guard kind != .int32, r >= 0, r < count, !isNull(r) else { return nil }
    let lo = offset(start + r), hi = offset(start + r + 1)
    guard let data, hi > lo else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: data + lo, count: hi - lo)
  }

  /// The integer of row `r`, nil when null or not an int32 column.
  func int(_ r: Int) -> Int? {
    guard kind == .int32, r >= 0, r < count, !isNull(r), let values else { return nil }
    return Int(values.load(fromByteOffset: (start + r) * 4, as: Int32.self))
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
    let names: [(ContactAttribute, String)] = [(.uid, "uid")] + TableExport.attributeNames
    let attributes = names.compactMap { a, name in contacts.columns[name].map { (a, $0) } }
    let fieldColumns = ["label", "value", "group", "parameters"].map { fields.columns[$0] }
    let kinds = fields.columns["type"]
    let addressColumns = TableExport.addressNames.map { addresses.columns[$0.1] }
    func intern(_ c: ImportedColumn?, _ r: Int) -> StringID {
      guard let c, let bytes = c.bytes(r) else { return .absent }
      return b.pool.intern(bytes)
    }
    for r in 0..<n {
      b.beginContact()
      for (a, c) in attributes { b.set(a, intern(c, r)) }
      for f in fieldRows.rows(of: r) {
        var kind = FieldKind.other
        if let k = kinds?.bytes(f), let named = FieldKind(name: String(decoding: k, as: UTF8.self)) { kind = named }
        b.appendField(
          kind: kind, label: intern(fieldColumns[0], f), value: intern(fieldColumns[1], f),
          group: intern(fieldColumns[2], f), parameters: intern(fieldColumns[3], f))
      }
      for a in addressRows.rows(of: r) {
        b.appendAddress(addressColumns.map { intern($0, a) })
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
