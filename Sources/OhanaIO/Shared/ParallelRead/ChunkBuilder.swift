import OhanaCore

/// A growable column of 8-, 16-, 32- or 64-bit values in memory it does not free
/// itself: ``ChunkBuilder``'s storage owns every `RawColumn` it holds and
/// frees them once, in its `deinit`. Appending is a capacity test and a
/// store: no uniqueness check, no exclusivity check, no retain.
struct RawColumn<Element: FixedWidthInteger & UnsignedInteger> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private(set) var capacity: Int

  init(capacity: Int) {
    let c = max(capacity, 16)
    base = .allocate(capacity: c)
    self.capacity = c
  }

  @inline(__always)
  mutating func append(_ value: Element) {
    if count == capacity { grow(to: count + 1) }
    base[count] = value
    count += 1
  }

  /// Appends `n` copies of `value`.
  @inline(__always)
  mutating func append(_ value: Element, times n: Int) {
    if count + n > capacity { grow(to: count + n) }
    (base + count).update(repeating: value, count: n)
    count += n
  }

  /// The last value; the column must not be empty.
  @inline(__always)
  var last: Element { base[count - 1] }

  /// Writes `value` at `index`, which must be below ``count``.
  @inline(__always)
  func set(_ index: Int, _ value: Element) {
    assert(index >= 0 && index < count)
    base[index] = value
  }

  @inline(__always)
  func get(_ index: Int) -> Element {
    assert(index >= 0 && index < count)
    return base[index]
  }

  /// Drops values from `n` on (nothing when `n >= count`).
  mutating func truncate(to n: Int) {
    if n >= 0 && n < count { count = n }
  }

  /// The values as an array, converted by `make`.
  func array<T>(_ make: (Element) -> T) -> [T] {
    [T](unsafeUninitializedCapacity: count) { out, initialized in
      for i in 0..<count { out.initializeElement(at: i, to: make(base[i])) }
      initialized = count
    }
  }

  private mutating func grow(to need: Int) {
    let c = max(need, capacity * 2)
    let new = UnsafeMutablePointer<Element>.allocate(capacity: c)
    new.update(from: base, count: count)
    base.deallocate()
    base = new
    capacity = c
  }

  /// Frees the memory; called once, by the owner.
  func free() { base.deallocate() }
}

/// The vCard parser's table builder: what ``ContactTableBuilder`` does for
/// one chunk, with its columns in ``RawColumn``s: some 60 appends a card,
/// each a capacity test and a store, where an array's append adds a
/// uniqueness check (two for the nested attribute and address columns).
///
/// Attributes and address parts are kept row-major while building (one
/// row of ``attributeCount`` ids per contact, ``addressWidth`` per address)
/// and turned into columns by ``buildDeferred()``. Ids are the chunk's
/// provisional `StringBatch` ids, like ``ContactTableBuilder/buildDeferred()``.
struct ChunkBuilder {
  /// Ids per contact row: every ``ContactAttribute`` (computed from the
  /// last case, so a constant: a `static let` would cost a lazy-init check
  /// per use).
  @inline(__always) static var attributeCount: Int { ContactAttribute.sourceProvider.rawValue + 1 }
  /// Ids per address row: every ``AddressAttribute``.
  @inline(__always) static var addressWidth: Int { AddressAttribute.parameters.rawValue + 1 }

  /// The columns, behind one pointer: mutated through it, so no access to
  /// them is checked for exclusivity or uniqueness.
  struct Columns {
    var inContact = false
    var attributes: RawColumn<UInt32>
    /// Per contact: its uid's ``UUIDColumn/Form`` (0: none, or not a UUID),
    /// and two halves of the UUID; ``uuidCount`` of them are set.
    var uidForm: RawColumn<UInt8>
    var uidHalves: RawColumn<UInt64>
    var uuidCount = 0
    var photo: RawColumn<UInt32>
    var sourceLine: RawColumn<UInt32>
    var fieldOffsets: RawColumn<UInt32>
    var fieldKinds: RawColumn<UInt8>
    var addressOffsets: RawColumn<UInt32>
    var extraOffsets: RawColumn<UInt32>
    var fieldKind: RawColumn<UInt8>
    var fieldLabel: RawColumn<UInt32>
    var fieldValue: RawColumn<UInt32>
    var fieldGroup: RawColumn<UInt32>
    var fieldParameters: RawColumn<UInt32>
    var address: RawColumn<UInt32>
    var extraName: RawColumn<UInt32>
    var extraGroup: RawColumn<UInt32>
    var extraParameters: RawColumn<UInt32>
    var extraValue: RawColumn<UInt32>

    init(contacts: Int, fields: Int, addresses: Int) {
      attributes = RawColumn(capacity: contacts * ChunkBuilder.attributeCount)
      uidForm = RawColumn(capacity: contacts)
      uidHalves = RawColumn(capacity: contacts * 2)
      photo = RawColumn(capacity: contacts)
      sourceLine = RawColumn(capacity: contacts)
      fieldOffsets = RawColumn(capacity: contacts + 1)
      fieldKinds = RawColumn(capacity: contacts)
      addressOffsets = RawColumn(capacity: contacts + 1)
      extraOffsets = RawColumn(capacity: contacts + 1)
      fieldKind = RawColumn(capacity: fields)
      fieldLabel = RawColumn(capacity: fields)
      fieldValue = RawColumn(capacity: fields)
      fieldGroup = RawColumn(capacity: fields)
      fieldParameters = RawColumn(capacity: fields)
      address = RawColumn(capacity: addresses * ChunkBuilder.addressWidth)
      extraName = RawColumn(capacity: contacts)
      extraGroup = RawColumn(capacity: contacts)
      extraParameters = RawColumn(capacity: contacts)
      extraValue = RawColumn(capacity: contacts)
      fieldOffsets.append(0)
      addressOffsets.append(0)
      extraOffsets.append(0)
    }

    func free() {
      attributes.free(); uidForm.free(); uidHalves.free(); photo.free(); sourceLine.free(); fieldOffsets.free(); fieldKinds.free()
      addressOffsets.free(); extraOffsets.free(); fieldKind.free(); fieldLabel.free(); fieldValue.free()
      fieldGroup.free(); fieldParameters.free(); address.free(); extraName.free(); extraGroup.free()
      extraParameters.free(); extraValue.free()
    }
  }

  /// Owns the columns and frees them when the last builder copy goes.
  final class Storage {
    let c: UnsafeMutablePointer<Columns>
    init(contacts: Int, fields: Int, addresses: Int) {
      c = .allocate(capacity: 1)
      c.initialize(to: Columns(contacts: contacts, fields: fields, addresses: addresses))
    }
    deinit {
      c.pointee.free()
      c.deinitialize(count: 1)
      c.deallocate()
    }
  }

  private let storage: Storage
  private var blobs = BlobStore()

  /// Room for about `contacts` contacts with `fields` fields and `addresses` addresses.
  init(contacts: Int = 64, fields: Int = 192, addresses: Int = 32) {
    storage = Storage(contacts: contacts, fields: fields, addresses: addresses)
  }

  @inline(__always) private var c: UnsafeMutablePointer<Columns> { storage.c }

  var rowCount: Int { c.pointee.photo.count }
  var inContact: Bool { c.pointee.inContact }

  /// Starts a contact with every attribute absent (ending an open one first).
  mutating func beginContact(sourceLine: Int) {
    if c.pointee.inContact { endContact() }
    c.pointee.attributes.append(0, times: Self.attributeCount)
    c.pointee.uidForm.append(0)
    c.pointee.uidHalves.append(0, times: 2)
    c.pointee.photo.append(BlobID.none.rawValue)
    c.pointee.sourceLine.append(UInt32(clamping: sourceLine))
    c.pointee.inContact = true
  }

  /// Sets an attribute of the open contact.
  @inline(__always)
  func set(_ attribute: ContactAttribute, _ id: StringID) {
    guard c.pointee.inContact else { return }
    let row = c.pointee.attributes.count - Self.attributeCount
    c.pointee.attributes.set(row + attribute.rawValue, id.rawValue)
  }

  /// The open contact's current value of `attribute` (absent when no
  /// contact is open).
  @inline(__always)
  func value(_ attribute: ContactAttribute) -> StringID {
    guard c.pointee.inContact else { return .absent }
    let row = c.pointee.attributes.count - Self.attributeCount
    return StringID(rawValue: c.pointee.attributes.get(row + attribute.rawValue))
  }

  /// Stores the open contact's uid as a UUID when `text` is one in a
  /// ``UUIDColumn/Form`` (16 bytes instead of an interned string); false,
  /// storing nothing, when it is not.
  func setUUID(_ text: UnsafeRawBufferPointer) -> Bool {
    guard c.pointee.inContact, let (form, high, low) = UUIDColumn.parse(text) else { return false }
    let row = c.pointee.uidForm.count - 1
    c.pointee.uidForm.set(row, form.rawValue)
    c.pointee.uidHalves.set(2 * row, high)
    c.pointee.uidHalves.set(2 * row + 1, low)
    c.pointee.uuidCount += 1
    return true
  }

  /// Whether a photo cannot be set: the open contact has one, or no contact is open.
  var photoTaken: Bool { !c.pointee.inContact || c.pointee.photo.last != BlobID.none.rawValue }

  mutating func setPhoto(_ bytes: [UInt8], mediaType: StringID) {
    guard c.pointee.inContact else { return }
    let id = bytes.withUnsafeBytes { blobs.append($0, mediaType: mediaType) }
    c.pointee.photo.set(c.pointee.photo.count - 1, id.rawValue)
  }

  @inline(__always)
  func appendField(kind: FieldKind, label: StringID, value: StringID, group: StringID, parameters: StringID) {
    guard c.pointee.inContact else { return }
    c.pointee.fieldKind.append(kind.rawValue)
    c.pointee.fieldLabel.append(label.rawValue)
    c.pointee.fieldValue.append(value.rawValue)
    c.pointee.fieldGroup.append(group.rawValue)
    c.pointee.fieldParameters.append(parameters.rawValue)
  }

  /// Appends an address (arguments in ``AddressAttribute`` order).
  @inline(__always)
  func appendAddress(
    label: StringID, street: StringID, locality: StringID, region: StringID, postalCode: StringID,
    country: StringID, poBox: StringID, extended: StringID, group: StringID, parameters: StringID
  ) {
    guard c.pointee.inContact else { return }
    c.pointee.address.append(0, times: Self.addressWidth)
    let base = c.pointee.address.count - Self.addressWidth
    let a = c.pointee.address
    a.set(base + AddressAttribute.label.rawValue, label.rawValue)
    a.set(base + AddressAttribute.street.rawValue, street.rawValue)
    a.set(base + AddressAttribute.locality.rawValue, locality.rawValue)
    a.set(base + AddressAttribute.region.rawValue, region.rawValue)
    a.set(base + AddressAttribute.postalCode.rawValue, postalCode.rawValue)
    a.set(base + AddressAttribute.country.rawValue, country.rawValue)
    a.set(base + AddressAttribute.poBox.rawValue, poBox.rawValue)
    a.set(base + AddressAttribute.extended.rawValue, extended.rawValue)
    a.set(base + AddressAttribute.group.rawValue, group.rawValue)
    a.set(base + AddressAttribute.parameters.rawValue, parameters.rawValue)
  }

  /// Appends an address; `values` are indexed by ``AddressAttribute/rawValue``
  /// (missing ones at the end are absent).
  func appendAddress(_ values: [StringID]) {
    guard c.pointee.inContact else { return }
    c.pointee.address.append(0, times: Self.addressWidth)
    let base = c.pointee.address.count - Self.addressWidth
    for (i, v) in values.prefix(Self.addressWidth).enumerated() { c.pointee.address.set(base + i, v.rawValue) }
  }

  @inline(__always)
  func appendExtra(name: StringID, group: StringID, parameters: StringID, value: StringID) {
    guard c.pointee.inContact else { return }
    c.pointee.extraName.append(name.rawValue)
    c.pointee.extraGroup.append(group.rawValue)
    c.pointee.extraParameters.append(parameters.rawValue)
    c.pointee.extraValue.append(value.rawValue)
  }

  /// Closes the open contact.
  func endContact() {
    guard c.pointee.inContact else { return }
    var mask: UInt8 = 0
    let kinds = c.pointee.fieldKind
    for i in Int(c.pointee.fieldOffsets.last)..<kinds.count { mask |= 1 << (kinds.get(i) & 7) }
    c.pointee.fieldKinds.append(mask)
    c.pointee.fieldOffsets.append(UInt32(truncatingIfNeeded: kinds.count))
    c.pointee.addressOffsets.append(UInt32(truncatingIfNeeded: c.pointee.address.count / Self.addressWidth))
    c.pointee.extraOffsets.append(UInt32(truncatingIfNeeded: c.pointee.extraName.count))
    c.pointee.inContact = false
  }

  /// Drops the open contact and everything appended to it (a photo it set
  /// stays in the blob store, unreferenced, like ``ContactTableBuilder``'s
  /// interned strings).
  func discardContact() {
    guard c.pointee.inContact else { return }
    let rows = c.pointee.photo.count - 1
    c.pointee.attributes.truncate(to: rows * Self.attributeCount)
    if c.pointee.uidForm.get(rows) != 0 { c.pointee.uuidCount -= 1 }
    c.pointee.uidForm.truncate(to: rows)
    c.pointee.uidHalves.truncate(to: rows * 2)
    c.pointee.photo.truncate(to: rows)
    c.pointee.sourceLine.truncate(to: rows)
    let f = Int(c.pointee.fieldOffsets.last)
    c.pointee.fieldKind.truncate(to: f)
    c.pointee.fieldLabel.truncate(to: f)
    c.pointee.fieldValue.truncate(to: f)
    c.pointee.fieldGroup.truncate(to: f)
    c.pointee.fieldParameters.truncate(to: f)
    c.pointee.address.truncate(to: Int(c.pointee.addressOffsets.last) * Self.addressWidth)
    let x = Int(c.pointee.extraOffsets.last)
    c.pointee.extraName.truncate(to: x)
    c.pointee.extraGroup.truncate(to: x)
    c.pointee.extraParameters.truncate(to: x)
    c.pointee.extraValue.truncate(to: x)
    c.pointee.inContact = false
  }

  /// The chunk's table (closing an open contact), its string ids still the
  /// batch's provisional ids: not checked here (see
  /// ``ContactTableBuilder/buildDeferred()``), every one below `idLimit`
  /// (the batch's count). String columns are encoded here, on the worker
  /// (see ``StringColumn``), so the merge maps each chunk's distinct values
  /// once.
  func buildDeferred(idLimit: Int) -> ContactTable {
    endContact()
    let k = c.pointee
    var scratch = [UInt32](repeating: 0, count: idLimit)
    func encoded(_ column: RawColumn<UInt32>, _ offset: Int = 0, stride: Int = 1) -> StringColumn {
      StringColumn(
        count: column.count / stride, ids: column.base + offset, stride: stride, idLimit: idLimit, scratch: &scratch)
    }
    var t = ContactTable()
    t.attributes = (0..<Self.attributeCount).map { a in encoded(k.attributes, a, stride: Self.attributeCount) }
    if k.uuidCount > 0 { t.uuids = UUIDColumn(forms: k.uidForm.array { $0 }, halves: k.uidHalves.array { $0 }) }
    t.photo = k.photo.array(BlobID.init(rawValue:))
    t.blobs = blobs
    t.sourceLine = k.sourceLine.array { $0 }
    t.fieldOffsets = k.fieldOffsets.array { $0 }
    t.fieldKinds = k.fieldKinds.array { $0 }
    t.addressOffsets = k.addressOffsets.array { $0 }
    t.extraOffsets = k.extraOffsets.array { $0 }
    var fields = FieldTable()
    fields.kind = k.fieldKind.array { FieldKind(rawValue: $0) ?? .other }
    fields.label = encoded(k.fieldLabel)
    fields.value = encoded(k.fieldValue)
    fields.group = encoded(k.fieldGroup)
    fields.parameters = encoded(k.fieldParameters)
    t.fields = fields
    var addresses = AddressTable()
    addresses.columns = (0..<Self.addressWidth).map { a in encoded(k.address, a, stride: Self.addressWidth) }
    t.addresses = addresses
    var extras = ExtraTable()
    extras.name = encoded(k.extraName)
    extras.group = encoded(k.extraGroup)
    extras.parameters = encoded(k.extraParameters)
    extras.value = encoded(k.extraValue)
    t.extras = extras
    return t
  }
}
