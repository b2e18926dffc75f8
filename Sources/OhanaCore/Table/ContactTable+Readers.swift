/// Readers of every string column of a table, for passes that read many
/// cells of many columns (the writers): through ``StringColumn/UnsafeReader``
/// a cell costs a load, with no bounds check and no reference counting.
/// Valid only inside ``ContactTable/withStringReaders(_:)``.
public struct StringColumnReaders {
  public typealias Reader = StringColumn.UnsafeReader
  /// By ``ContactAttribute/rawValue``.
  public let attributes: [Reader]
  public let fields: Fields
  /// By ``AddressAttribute/rawValue``.
  public let addresses: [Reader]
  public let extras: Extras

  public struct Fields {
    public let label: Reader, value: Reader, group: Reader, parameters: Reader
  }

  public struct Extras {
    public let name: Reader, group: Reader, parameters: Reader, value: Reader
  }
}

extension ContactTable {
  /// Calls `body` with readers of every string column (see
  /// ``StringColumnReaders``); they must not escape `body`.
  public func withStringReaders<R>(_ body: (StringColumnReaders) throws -> R) rethrows -> R {
    let f = fields, x = extras
    let columns = attributes + [f.label, f.value, f.group, f.parameters] + addresses.columns
      + [x.name, x.group, x.parameters, x.value]
    var readers: [StringColumn.UnsafeReader] = []
    readers.reserveCapacity(columns.count)
    let na = attributes.count, nd = addresses.columns.count
    return try Self.withReaders(columns[...], &readers) { r in
      try body(
        StringColumnReaders(
          attributes: Array(r[0..<na]),
          fields: .init(label: r[na], value: r[na + 1], group: r[na + 2], parameters: r[na + 3]),
          addresses: Array(r[(na + 4)..<(na + 4 + nd)]),
          extras: .init(name: r[na + 4 + nd], group: r[na + 5 + nd], parameters: r[na + 6 + nd], value: r[na + 7 + nd])))
    }
  }

  /// Opens a reader on each of `columns` in turn, nesting, then calls `body`.
  private static func withReaders<R>(
    _ columns: ArraySlice<StringColumn>, _ readers: inout [StringColumn.UnsafeReader],
    _ body: ([StringColumn.UnsafeReader]) throws -> R
  ) rethrows -> R {
    guard let first = columns.first else { return try body(readers) }
    return try first.withUnsafeReader { r in
      readers.append(r)
      return try withReaders(columns.dropFirst(), &readers, body)
    }
  }
}
