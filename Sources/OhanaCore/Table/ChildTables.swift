/// The fields table: one row per phone number, email, URL, IM handle or
/// other labelled value. Rows of one contact are contiguous (CSR layout):
/// contact `r` owns rows `fieldOffsets[r] ..< fieldOffsets[r+1]` of
/// ``ContactTable``.
///
/// ```
///  contacts   r0        r1              r2
///  offsets    0         2               5      5
///  fields     [p  e]    [p  p  u]       []
///  kind       0  1      0  0  2
///  value      id id     id id id
/// ```
public struct FieldTable: Sendable {
  /// The derived column naming each field's source (the input it was read
  /// from, in a read of several); the merge keeps it, so a merged
  /// contact's fields still say where each came from.
  public static let sourceColumn = "source"

  public package(set) var kind: [FieldKind] = []
  /// The label as Ohana shows it (`cell`, `home`, `work`, Apple's `X-ABLabel`...).
  public package(set) var label = StringColumn()
  /// The value as written (unescaped and decoded).
  public package(set) var value = StringColumn()
  /// The vCard property group (`item1`), absent when none.
  public package(set) var group = StringColumn()
  /// The property's parameters as text in vCard syntax (see ``ParameterList``).
  public package(set) var parameters = StringColumn()
  public package(set) var annotations = Annotations()

  public init() {}
  public var count: Int { kind.count }

  package mutating func reserve(_ n: Int) {
    kind.reserveCapacity(n); label.reserveCapacity(n); value.reserveCapacity(n)
    group.reserveCapacity(n); parameters.reserveCapacity(n)
  }

  package mutating func append(kind k: FieldKind, label l: StringID, value v: StringID, group g: StringID, parameters p: StringID) {
    kind.append(k); label.append(l); value.append(v); group.append(g); parameters.append(p)
  }

  package mutating func truncate(to n: Int) {
    guard n < count else { return }
    kind.removeSubrange(n...); label.truncate(to: n); value.truncate(to: n)
    group.truncate(to: n); parameters.truncate(to: n)
  }

  /// The rows `rows` of this table, in that order (same string pool).
  public func gathering(_ rows: [UInt32]) -> FieldTable { gathering(rows, parallel: true) }

  package func gathering(_ rows: [UInt32], parallel: Bool) -> FieldTable {
    let source = self
    let k = ResultSlots<[FieldKind]>(count: 1), l = ResultSlots<StringColumn>(count: 1), v = ResultSlots<StringColumn>(count: 1)
    let g = ResultSlots<StringColumn>(count: 1), p = ResultSlots<StringColumn>(count: 1), a = ResultSlots<Annotations>(count: 1)
    let jobs: [@Sendable () -> Void] = [
      { k.set(0, ColumnOps.gather(source.kind, rows)) },
      { l.set(0, source.label.gathering(rows)) },
      { v.set(0, source.value.gathering(rows)) },
      { g.set(0, source.group.gathering(rows)) },
      { p.set(0, source.parameters.gathering(rows)) },
      { a.set(0, source.annotations.gathering(rows)) },
    ]
    if parallel { ColumnOps.run(jobs) } else { jobs.forEach { $0() } }
    var t = FieldTable()
    t.kind = k.value(0) ?? []
    t.label = l.value(0) ?? StringColumn()
    t.value = v.value(0) ?? StringColumn()
    t.group = g.value(0) ?? StringColumn()
    t.parameters = p.value(0) ?? StringColumn()
    t.annotations = a.value(0) ?? Annotations()
    return t
  }
}

/// The postal addresses table, CSR like ``FieldTable``: one string column
/// per ``AddressAttribute``.
public struct AddressTable: Sendable {
  /// Columns indexed by ``AddressAttribute/rawValue``.
  public package(set) var columns: [StringColumn] = Array(repeating: StringColumn(), count: AddressAttribute.allCases.count)
  public package(set) var annotations = Annotations()

  public init() {}
  public var count: Int { columns[0].count }

  public subscript(_ attribute: AddressAttribute) -> StringColumn { columns[attribute.rawValue] }

  package mutating func append(_ values: [StringID]) {
    for i in 0..<columns.count { columns[i].append(i < values.count ? values[i] : .absent) }
  }

  package mutating func truncate(to n: Int) {
    guard n < count else { return }
    for i in 0..<columns.count { columns[i].truncate(to: n) }
  }

  public func gathering(_ rows: [UInt32]) -> AddressTable { gathering(rows, parallel: true) }

  package func gathering(_ rows: [UInt32], parallel: Bool) -> AddressTable {
    let source = self
    let cols = columns.indices.map { _ in ResultSlots<StringColumn>(count: 1) }
    let a = ResultSlots<Annotations>(count: 1)
    var jobs: [@Sendable () -> Void] = cols.indices.map { i in { cols[i].set(0, source.columns[i].gathering(rows)) } }
    jobs.append { a.set(0, source.annotations.gathering(rows)) }
    if parallel { ColumnOps.run(jobs) } else { jobs.forEach { $0() } }
    var t = AddressTable()
    t.columns = cols.map { $0.value(0) ?? StringColumn() }
    t.annotations = a.value(0) ?? Annotations()
    return t
  }
}

/// Every property the model has no column for, kept whole so that a
/// round trip loses nothing: name, group, parameters and value as read.
public struct ExtraTable: Sendable {
  public package(set) var name = StringColumn()
  public package(set) var group = StringColumn()
  public package(set) var parameters = StringColumn()
  public package(set) var value = StringColumn()

  public init() {}
  public var count: Int { name.count }

  package mutating func append(name n: StringID, group g: StringID, parameters p: StringID, value v: StringID) {
    name.append(n); group.append(g); parameters.append(p); value.append(v)
  }

  package mutating func truncate(to n: Int) {
    guard n < count else { return }
    name.truncate(to: n); group.truncate(to: n)
    parameters.truncate(to: n); value.truncate(to: n)
  }

  public func gathering(_ rows: [UInt32]) -> ExtraTable { gathering(rows, parallel: true) }

  package func gathering(_ rows: [UInt32], parallel: Bool) -> ExtraTable {
    var t = ExtraTable()
    t.name = name.gathering(rows)
    t.group = group.gathering(rows)
    t.parameters = parameters.gathering(rows)
    t.value = value.gathering(rows)
    return t
  }
}
