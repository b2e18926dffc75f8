import Synchronization

/// The columnar contact store: one row per contact, one array per attribute,
/// and child tables (fields, addresses, extra properties) in CSR layout.
///
/// ### Layout
/// ```
///  pool        StringPool            every string once, named by StringID
///  attributes  [StringColumn] x 14   uid, fullName, givenName, ... (ContactAttribute)
///  uuids       UUIDColumn            uids that are UUIDs, 16 bytes each (not in `attributes`)
///  photo       [BlobID]              into blobs
///  sourceLine  [UInt32]              1-based line where the contact starts (0 = unknown)
///  fieldOffsets   [UInt32] rowCount+1  -> fields   (FieldTable)
///  fieldKinds     [UInt8]  rowCount    bit k set: has a field of FieldKind(rawValue: k)
///  addressOffsets [UInt32] rowCount+1  -> addresses (AddressTable)
///  extraOffsets   [UInt32] rowCount+1  -> extras   (ExtraTable)
///  annotations  derived columns and tags over contacts
/// ```
/// A table is a value: copies share storage until one of them is changed
/// (copy on write), so a frame handed to an observer never changes under it.
///
/// ``rowsIdentity`` names the set of rows: it is new whenever rows are
/// built, and kept when only derived columns or tags are added, so a
/// composite can tell a filter (same rows) from a row-changing processor.
public struct ContactTable: Sendable {
  public package(set) var pool: StringPool
  public package(set) var blobs: BlobStore
  /// String columns indexed by ``ContactAttribute/rawValue``. The `uid`
  /// column holds only the uids that are not UUIDs: see ``uuids``.
  public package(set) var attributes: [StringColumn]
  /// The uids that are UUIDs written in one of ``UUIDColumn/Form``'s
  /// forms, 17 bytes a row instead of an interned string (a contact's uid
  /// is here or in the `uid` string column, never both). Read a uid
  /// with ``withUID(at:_:)``, ``uid(at:)`` or ``string(_:at:)``.
  public package(set) var uuids: UUIDColumn
  public package(set) var photo: [BlobID]
  public package(set) var sourceLine: [UInt32]
  public package(set) var fieldOffsets: [UInt32]
  /// Per contact, bit `k` is set when it has a field of kind
  /// `FieldKind(rawValue: k)`: a summary kept with the fields (like an
  /// index), so a field-kind filter is a byte test per contact.
  public package(set) var fieldKinds: [UInt8]
  public package(set) var fields: FieldTable
  public package(set) var addressOffsets: [UInt32]
  public package(set) var addresses: AddressTable
  public package(set) var extraOffsets: [UInt32]
  public package(set) var extras: ExtraTable
  /// Derived columns and tags over contacts.
  public package(set) var annotations: Annotations
  public package(set) var rowsIdentity: UInt64

  private static let identities = Atomic<UInt64>(1)
  package static func newIdentity() -> UInt64 {
    identities.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// An empty table.
  public init(pool: StringPool = StringPool()) {
    self.pool = pool
    blobs = BlobStore()
    attributes = Array(repeating: StringColumn(), count: ContactAttribute.allCases.count)
    uuids = UUIDColumn()
    photo = []
    sourceLine = []
    fieldOffsets = [0]
    fieldKinds = []
    fields = FieldTable()
    addressOffsets = [0]
    addresses = AddressTable()
    extraOffsets = [0]
    extras = ExtraTable()
    annotations = Annotations()
    rowsIdentity = Self.newIdentity()
  }

  /// The number of contacts.
  @inlinable public var rowCount: Int { photo.count }

  /// The column of `attribute`.
  @inlinable
  public subscript(_ attribute: ContactAttribute) -> StringColumn { attributes[attribute.rawValue] }

  /// The value of `attribute` at `row` as a string (for `uid`, a UUID
  /// stored in ``uuids`` too).
  public func string(_ attribute: ContactAttribute, at row: Int) -> String? {
    if attribute == .uid, let text = uuids.text(at: row) { return text }
    return pool.string(attributes[attribute.rawValue][row])
  }

  /// The uid of `row` as a string, nil when it has none.
  public func uid(at row: Int) -> String? { string(.uid, at: row) }

  /// Whether `row` has a uid (in ``uuids`` or the `uid` string column).
  @inlinable
  public func hasUID(at row: Int) -> Bool {
    uuids.form(at: row) != .none || attributes[ContactAttribute.uid.rawValue][row].isPresent
  }

  /// Calls `body` with the UTF-8 bytes of `row`'s uid (empty when it has
  /// none), wherever it is stored.
  public func withUID<R>(at row: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    if let r = try uuids.withText(at: row, body) { return r }
    return try pool.withBytes(of: attributes[ContactAttribute.uid.rawValue][row], body)
  }

  /// Moves every uid of the `uid` string column that is a UUID in one of
  /// ``UUIDColumn/Form``'s forms into ``uuids`` (the readers do this as
  /// they read vCard; a table built from values can do it after). The
  /// strings stay in the pool.
  public mutating func packUUIDs() {
    let u = ContactAttribute.uid.rawValue
    var column = Array(attributes[u])
    var packed = uuids
    var changed = false
    for r in 0..<rowCount where column[r].isPresent {
      guard let (form, high, low) = pool.withBytes(of: column[r], { UUIDColumn.parse($0) }) else { continue }
      packed.set(r, form: form, high: high, low: low, rowCount: rowCount)
      column[r] = .absent
      changed = true
    }
    guard changed else { return }
    attributes[u] = StringColumn(column)
    uuids = packed
  }

  /// Moves every UUID uid from ``uuids`` into the `uid` string column
  /// (interned), for code that wants every uid as a ``StringID``.
  public mutating func internUUIDs() {
    guard !uuids.isEmpty else { return }
    var column = Array(attributes[ContactAttribute.uid.rawValue])
    for r in 0..<min(rowCount, uuids.rowCount) {
      if let id = uuids.withText(at: r, { pool.intern($0) }) { column[r] = id }
    }
    attributes[ContactAttribute.uid.rawValue] = StringColumn(column)
    uuids = UUIDColumn()
  }

  /// The field rows of contact `row`.
  @inlinable
  public func fieldRange(of row: Int) -> Range<Int> {
    Int(fieldOffsets[row])..<Int(fieldOffsets[row + 1])
  }

  @inlinable
  public func addressRange(of row: Int) -> Range<Int> {
    Int(addressOffsets[row])..<Int(addressOffsets[row + 1])
  }

  @inlinable
  public func extraRange(of row: Int) -> Range<Int> {
    Int(extraOffsets[row])..<Int(extraOffsets[row + 1])
  }

  /// For every field row, the contact row that owns it.
  public func fieldOwners() -> [UInt32] {
    var owners = [UInt32](repeating: 0, count: fields.count)
    owners.withUnsafeMutableBufferPointer { o in
      fieldOffsets.withUnsafeBufferPointer { off in
        for r in 0..<(off.count - 1) {
          for f in Int(off[r])..<Int(off[r + 1]) { o[f] = UInt32(truncatingIfNeeded: r) }
        }
      }
    }
    return owners
  }

  // MARK: Derived columns and tags (checked setters)

  /// Adds or replaces a derived column over contacts.
  /// - Precondition: `column.count == rowCount` (a programmer error otherwise).
  public mutating func setColumn(_ name: String, _ column: DerivedColumn) {
    precondition(column.count == rowCount, "column \(name) has \(column.count) rows, table has \(rowCount)")
    annotations.setColumn(name, column)
  }

  /// Adds or replaces a derived column over fields.
  public mutating func setFieldColumn(_ name: String, _ column: DerivedColumn) {
    precondition(column.count == fields.count, "field column \(name) has \(column.count) rows, table has \(fields.count)")
    fields.annotations.setColumn(name, column)
  }

  /// Adds or replaces a derived column over addresses.
  public mutating func setAddressColumn(_ name: String, _ column: DerivedColumn) {
    precondition(column.count == addresses.count, "address column \(name) has \(column.count) rows")
    addresses.annotations.setColumn(name, column)
  }

  public mutating func removeColumn(_ name: String) { annotations.removeColumn(name) }

  /// Tags contacts (a named bitmap over rows).
  public mutating func setTag(_ name: String, _ rows: Bitmap) {
    precondition(rows.count == rowCount, "tag \(name) has \(rows.count) rows")
    annotations.setTag(name, rows)
  }

  public mutating func setFieldTag(_ name: String, _ rows: Bitmap) {
    precondition(rows.count == fields.count, "field tag \(name) has \(rows.count) rows")
    fields.annotations.setTag(name, rows)
  }

  public mutating func setAddressTag(_ name: String, _ rows: Bitmap) {
    precondition(rows.count == addresses.count, "address tag \(name) has \(rows.count) rows")
    addresses.annotations.setTag(name, rows)
  }

  /// Interns a string into this table's pool (for processors that add string columns).
  public mutating func intern(_ string: String?) -> StringID { pool.intern(string) }

  /// Interns bytes into this table's pool.
  public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> StringID { pool.intern(bytes) }

  /// Takes `part`'s derived columns and tags (contacts, fields, addresses),
  /// string ids remapped through `remap` into this table's pool, for a table
  /// built from `part`'s rows by remapping (same row counts).
  package mutating func setAnnotations(of part: ContactTable, remap: [StringID]) {
    precondition(part.rowCount == rowCount && part.fields.count == fields.count && part.addresses.count == addresses.count)
    annotations = part.annotations.remapped(remap)
    fields.annotations = part.fields.annotations.remapped(remap)
    addresses.annotations = part.addresses.annotations.remapped(remap)
  }

  /// Replaces a contact attribute column (same row count).
  /// Replacing the `uid` column replaces every uid: ``uuids`` is emptied.
  public mutating func setAttribute(_ attribute: ContactAttribute, _ column: StringColumn) {
    precondition(column.count == rowCount, "attribute column has \(column.count) rows")
    attributes[attribute.rawValue] = column
    if attribute == .uid { uuids = UUIDColumn() }
  }

  /// Replaces a contact attribute column (same row count).
  public mutating func setAttribute(_ attribute: ContactAttribute, _ column: [StringID]) {
    setAttribute(attribute, StringColumn(column))
  }

  /// Replaces the fields table and its offsets (for row-changing processors
  /// in this package). - Precondition: the offsets fit the table.
  package mutating func replaceFields(with newFields: FieldTable, offsets: [UInt32]) {
    precondition(offsets.count == rowCount + 1 && Int(offsets.last ?? 0) == newFields.count, "field offsets do not fit")
    replaceFields(with: newFields, offsets: offsets, kinds: Self.kindMasks(offsets: offsets, kinds: newFields.kind))
  }

  /// ``replaceFields(with:offsets:)`` with the ``fieldKinds`` summary
  /// already known (checked in debug builds).
  package mutating func replaceFields(with newFields: FieldTable, offsets: [UInt32], kinds: [UInt8]) {
    precondition(offsets.count == rowCount + 1 && Int(offsets.last ?? 0) == newFields.count, "field offsets do not fit")
    precondition(kinds.count == rowCount, "field kind summary does not fit")
    fields = newFields
    fieldOffsets = offsets
    fieldKinds = kinds
    #if OHANA_INTERNAL_CHECKS
    // Only the fields here: a caller may still be filling the other columns.
    precondition(kinds == Self.kindMasks(offsets: offsets, kinds: newFields.kind), "fieldKinds out of date")
    #endif
  }

  /// The ``fieldKinds`` byte of one contact whose fields are `range` of `kinds`.
  @inline(__always)
  package static func kindMask(_ kinds: UnsafeBufferPointer<FieldKind>, _ range: Range<Int>) -> UInt8 {
    var mask: UInt8 = 0
    for i in range { mask |= 1 << (kinds[i].rawValue & 7) }
    return mask
  }

  /// The ``fieldKinds`` summary of a fields table and its offsets.
  package static func kindMasks(offsets: [UInt32], kinds: [FieldKind]) -> [UInt8] {
    let n = max(0, offsets.count - 1)
    return [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
      offsets.withUnsafeBufferPointer { off in
        kinds.withUnsafeBufferPointer { k in
          for r in 0..<n { out.initializeElement(at: r, to: kindMask(k, Int(off[r])..<Int(off[r + 1]))) }
        }
      }
      initialized = n
    }
  }

  /// Reserves room for `rows` contacts with `fields`, `addresses` and
  /// `extras` child rows, and for `strings` more strings of `bytes` bytes in
  /// the pool's storage (not its hash table, which is filled as it grows).
  /// Reserved, untouched capacity costs address space, not memory; it saves
  /// the copies (and the moment of twice the memory) of growing by doubling.
  package mutating func reserveCapacity(rows: Int, fields f: Int, addresses a: Int, extras x: Int, strings: Int, bytes: Int) {
    for i in attributes.indices { attributes[i].reserveCapacity(rows) }
    uuids.reserveCapacity(rows)
    photo.reserveCapacity(rows)
    sourceLine.reserveCapacity(rows)
    fieldKinds.reserveCapacity(rows)
    fieldOffsets.reserveCapacity(rows + 1)
    addressOffsets.reserveCapacity(rows + 1)
    extraOffsets.reserveCapacity(rows + 1)
    fields.reserve(f)
    for i in addresses.columns.indices { addresses.columns[i].reserveCapacity(a) }
    extras.name.reserveCapacity(x)
    extras.group.reserveCapacity(x)
    extras.parameters.reserveCapacity(x)
    extras.value.reserveCapacity(x)
    pool.reserveStorage(strings: strings, bytes: bytes)
  }

  /// Frees what only appends use (each coded string column's id -> code
  /// index, rebuilt by the next append that needs it): for a reader's
  /// finished table.
  package mutating func dropAppendIndexes() {
    for i in attributes.indices { attributes[i].dropAppendIndex() }
    fields.label.dropAppendIndex()
    fields.value.dropAppendIndex()
    fields.group.dropAppendIndex()
    fields.parameters.dropAppendIndex()
    for i in addresses.columns.indices { addresses.columns[i].dropAppendIndex() }
    extras.name.dropAppendIndex()
    extras.group.dropAppendIndex()
    extras.parameters.dropAppendIndex()
    extras.value.dropAppendIndex()
  }

  /// Appends the UUID uids of `part`'s rows after this table's rows: call
  /// it before the rest of `part`'s rows are appended (for mergers that
  /// append column by column; ``concatenate(_:)`` does it itself).
  package mutating func appendUUIDs(of part: ContactTable) {
    uuids.append(part.uuids, otherRows: part.rowCount, after: rowCount)
  }

  /// Adds `delta` to every known source line (0, unknown, stays 0): for a
  /// reader whose chunks number their lines from 1.
  package mutating func offsetSourceLines(by delta: Int) {
    let d = UInt32(clamping: delta)
    sourceLine.withUnsafeMutableBufferPointer { lines in
      for i in lines.indices where lines[i] != 0 {
        let (sum, overflow) = lines[i].addingReportingOverflow(d)
        lines[i] = overflow ? .max : sum
      }
    }
  }

  /// Approximate heap bytes held by the table.
  public var memoryFootprint: Int {
    var n = pool.memoryFootprint + blobs.memoryFootprint
    n += attributes.reduce(0) { $0 + $1.memoryFootprint } + uuids.memoryFootprint
    n += photo.capacity * 4 + sourceLine.capacity * 4 + fieldKinds.capacity
    n += (fieldOffsets.capacity + addressOffsets.capacity + extraOffsets.capacity) * 4
    n += fields.kind.capacity + fields.label.memoryFootprint + fields.value.memoryFootprint
    n += fields.group.memoryFootprint + fields.parameters.memoryFootprint
    n += addresses.columns.reduce(0) { $0 + $1.memoryFootprint }
    n += extras.name.memoryFootprint + extras.group.memoryFootprint
    n += extras.parameters.memoryFootprint + extras.value.memoryFootprint
    return n
  }
}
