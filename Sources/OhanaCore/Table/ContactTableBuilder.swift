/// Appends contacts to a new ``ContactTable`` one at a time, for readers and
/// generators. Strings go through ``pool`` (intern bytes there, then pass ids).
///
/// ```swift
/// var b = ContactTableBuilder()
/// b.beginContact(sourceLine: 1)
/// b.set(.fullName, b.pool.intern("Homer Simpson"))
/// b.appendField(kind: .phone, label: b.pool.intern("cell"), value: b.pool.intern("+1 555 0100"))
/// b.endContact()
/// let table = b.build()
/// ```
/// A contact that turns out bad halfway can be dropped with ``discardContact()``.
///
/// The open contact's attributes are kept in a small row and written to the
/// attribute columns by ``endContact()`` (one pass over the columns per
/// contact instead of one column access per ``set(_:_:)-(_,StringID)``), so
/// while a contact is open `table.attributes` does not hold its row yet;
/// read them with ``value(_:)``. Photo, source line and child rows are
/// appended at once, so ``rowCount`` counts the open contact.
public struct ContactTableBuilder: Sendable {
  public var table: ContactTable
  public private(set) var inContact = false
  /// The open contact's attributes, indexed by ``ContactAttribute/rawValue``.
  private var openRow = [StringID](repeating: .absent, count: ContactAttribute.allCases.count)

  public init(pool: StringPool = StringPool()) { table = ContactTable(pool: pool) }

  /// The table's string pool: intern values here.
  public var pool: StringPool {
    get { table.pool }
    _modify { yield &table.pool }
  }

  public var rowCount: Int { table.rowCount }

  /// Reserves room for about `contacts` contacts with `fields` fields.
  public mutating func reserve(contacts: Int, fields: Int = 0, addresses: Int = 0) {
    for i in 0..<table.attributes.count { table.attributes[i].reserveCapacity(contacts) }
    table.photo.reserveCapacity(contacts); table.sourceLine.reserveCapacity(contacts)
    table.fieldOffsets.reserveCapacity(contacts + 1)
    table.addressOffsets.reserveCapacity(contacts + 1)
    table.extraOffsets.reserveCapacity(contacts + 1)
    table.fields.reserve(fields)
  }

  /// Starts a new contact with every attribute absent. Ends an open one first.
  public mutating func beginContact(sourceLine: Int = 0) {
    if inContact { endContact() }
    openRow.withUnsafeMutableBufferPointer { row in
      for i in row.indices { row[i] = .absent }
    }
    table.photo.append(.none)
    table.sourceLine.append(UInt32(clamping: sourceLine))
    inContact = true
  }

  /// Sets an attribute of the open contact.
  public mutating func set(_ attribute: ContactAttribute, _ id: StringID) {
    guard inContact else { return }
    openRow[attribute.rawValue] = id
  }

  /// Sets an attribute of the open contact from a string.
  public mutating func set(_ attribute: ContactAttribute, _ string: String?) {
    let id = table.pool.intern(string)
    set(attribute, id)
  }

  /// The current value of an attribute of the open contact.
  public func value(_ attribute: ContactAttribute) -> StringID {
    guard inContact else { return .absent }
    return openRow[attribute.rawValue]
  }

  public mutating func setPhoto(_ bytes: UnsafeRawBufferPointer, mediaType: StringID) {
    guard inContact else { return }
    table.photo[table.photo.count - 1] = table.blobs.append(bytes, mediaType: mediaType)
  }

  public mutating func setPhoto(_ bytes: [UInt8], mediaType: StringID) {
    bytes.withUnsafeBytes { setPhoto($0, mediaType: mediaType) }
  }

  public mutating func appendField(
    kind: FieldKind, label: StringID = .absent, value: StringID,
    group: StringID = .absent, parameters: StringID = .absent
  ) {
    guard inContact else { return }
    table.fields.append(kind: kind, label: label, value: value, group: group, parameters: parameters)
  }

  /// Appends an address; `values` are indexed by ``AddressAttribute/rawValue``.
  public mutating func appendAddress(_ values: [StringID]) {
    guard inContact else { return }
    table.addresses.append(values)
  }

  public mutating func appendAddress(
    label: StringID = .absent, street: StringID = .absent, locality: StringID = .absent,
    region: StringID = .absent, postalCode: StringID = .absent, country: StringID = .absent,
    poBox: StringID = .absent, extended: StringID = .absent, group: StringID = .absent,
    parameters: StringID = .absent
  ) {
    appendAddress([label, street, locality, region, postalCode, country, poBox, extended, group, parameters])
  }

  public mutating func appendExtra(name: StringID, group: StringID = .absent, parameters: StringID = .absent, value: StringID) {
    guard inContact else { return }
    table.extras.append(name: name, group: group, parameters: parameters, value: value)
  }

  /// Closes the open contact.
  public mutating func endContact() {
    guard inContact else { return }
    openRow.withUnsafeBufferPointer { row in
      table.attributes.withUnsafeMutableBufferPointer { columns in
        for i in 0..<min(row.count, columns.count) { columns[i].append(row[i]) }
      }
    }
    let first = Int(table.fieldOffsets.last ?? 0)
    table.fieldKinds.append(table.fields.kind.withUnsafeBufferPointer { ContactTable.kindMask($0, first..<$0.count) })
    table.fieldOffsets.append(UInt32(truncatingIfNeeded: table.fields.count))
    table.addressOffsets.append(UInt32(truncatingIfNeeded: table.addresses.count))
    table.extraOffsets.append(UInt32(truncatingIfNeeded: table.extras.count))
    // A table given to the builder may hold UUID uids: the new row has none.
    if !table.uuids.isEmpty { table.uuids.extend(to: table.rowCount) }
    inContact = false
  }

  /// Drops the open contact and everything appended to it (its interned
  /// strings stay in the pool, unused).
  public mutating func discardContact() {
    guard inContact else { return }
    table.photo.removeLast()
    table.sourceLine.removeLast()
    table.fields.truncate(to: Int(table.fieldOffsets.last ?? 0))
    table.addresses.truncate(to: Int(table.addressOffsets.last ?? 0))
    table.extras.truncate(to: Int(table.extraOffsets.last ?? 0))
    inContact = false
  }

  /// Finishes the table (closing an open contact).
  public mutating func build() -> ContactTable {
    if inContact { endContact() }
    table.rowsIdentity = ContactTable.newIdentity()
    table.checkInvariants()
    return table
  }

  /// Finishes a table whose string ids are provisional ids of a
  /// ``StringBatch`` rather than ids of ``pool`` (a parallel reader's
  /// chunk): not checked here, since its ids are not valid until the batch
  /// is interned and the columns remapped (the reader checks the result).
  package mutating func buildDeferred() -> ContactTable {
    if inContact { endContact() }
    table.rowsIdentity = ContactTable.newIdentity()
    return table
  }
}
