/// A named column computed by a processor (Ohana's `customProperties`).
///
/// Strings are ids in the table's pool (absent = no value); integers and
/// booleans carry a validity bitmap (a clear bit = no value).
public enum DerivedColumn: Sendable {
  case string([StringID])
  case int([Int64], valid: Bitmap)
  case bool(Bitmap, valid: Bitmap)

  public var count: Int {
    switch self {
    case .string(let v): v.count
    case .int(let v, _): v.count
    case .bool(_, let valid): valid.count
    }
  }

  /// The value at `row` as a ``PropertyValue`` (nil when absent).
  public func value(at row: Int, pool: StringPool) -> PropertyValue? {
    switch self {
    case .string(let v):
      guard row < v.count, let s = pool.string(v[row]) else { return nil }
      return .string(s)
    case .int(let v, let valid):
      return valid.contains(row) ? .int(v[row]) : nil
    case .bool(let b, let valid):
      return valid.contains(row) ? .bool(b.contains(row)) : nil
    }
  }

  /// The rows `rows` of this column, in that order.
  public func gathering(_ rows: [UInt32]) -> DerivedColumn {
    switch self {
    case .string(let v): return .string(rows.map { v[Int($0)] })
    case .int(let v, let valid): return .int(rows.map { v[Int($0)] }, valid: .gathering(valid, rows: rows))
    case .bool(let b, let valid): return .bool(.gathering(b, rows: rows), valid: .gathering(valid, rows: rows))
    }
  }

  /// A column of `count` rows with no values, shaped like this one.
  func empty(count: Int) -> DerivedColumn {
    switch self {
    case .string: .string(Array(repeating: .absent, count: count))
    case .int: .int(Array(repeating: 0, count: count), valid: Bitmap(count: count))
    case .bool: .bool(Bitmap(count: count), valid: Bitmap(count: count))
    }
  }

  /// This column followed by `other` (same shape; `other` remapped through `remap`).
  func appending(_ other: DerivedColumn, remap: [StringID]) -> DerivedColumn {
    switch (self, other) {
    case (.string(let a), .string(let b)): return .string(a + b.map { remap[$0.index] })
    case (.int(let a, let va), .int(let b, let vb)): return .int(a + b, valid: va.appending(vb))
    case (.bool(let a, let va), .bool(let b, let vb)): return .bool(a.appending(b), valid: va.appending(vb))
    default:
      // Shapes disagree: keep this column's shape, other's rows have no value.
      return appending(empty(count: other.count), remap: remap)
    }
  }

  func remapped(_ remap: [StringID]) -> DerivedColumn {
    if case .string(let v) = self { return .string(v.map { remap[$0.index] }) }
    return self
  }
}

/// A typed cell value, as row views show derived columns.
public enum PropertyValue: Hashable, Sendable, Codable {
  case string(String)
  case int(Int64)
  case bool(Bool)
}

/// Derived columns and tags of one table (contacts, fields or addresses).
public struct Annotations: Sendable {
  /// Derived columns by name, in the order they were added.
  public private(set) var columns: [String: DerivedColumn] = [:]
  public private(set) var columnNames: [String] = []
  /// Tags: named bitmaps over the table's rows.
  public private(set) var tags: [String: Bitmap] = [:]

  public init() {}

  public var isEmpty: Bool { columns.isEmpty && tags.isEmpty }

  public subscript(column name: String) -> DerivedColumn? { columns[name] }

  /// Adds or replaces a column.
  public mutating func setColumn(_ name: String, _ column: DerivedColumn) {
    if columns.updateValue(column, forKey: name) == nil { columnNames.append(name) }
  }

  public mutating func removeColumn(_ name: String) {
    if columns.removeValue(forKey: name) != nil { columnNames.removeAll { $0 == name } }
  }

  public mutating func setTag(_ name: String, _ rows: Bitmap) { tags[name] = rows }
  public mutating func removeTag(_ name: String) { tags[name] = nil }

  /// The tag names that contain `row`, sorted.
  public func tagNames(at row: Int) -> [String] {
    tags.filter { $0.value.contains(row) }.map(\.key).sorted()
  }

  /// The derived values at `row`.
  public func properties(at row: Int, pool: StringPool) -> [String: PropertyValue] {
    var out: [String: PropertyValue] = [:]
    for (name, col) in columns { if let v = col.value(at: row, pool: pool) { out[name] = v } }
    return out
  }

  /// The annotations of rows `rows`, in that order.
  public func gathering(_ rows: [UInt32]) -> Annotations {
    var a = Annotations()
    for name in columnNames { if let c = columns[name] { a.setColumn(name, c.gathering(rows)) } }
    for (name, bits) in tags { a.tags[name] = .gathering(bits, rows: rows) }
    return a
  }

  func remapped(_ remap: [StringID]) -> Annotations {
    var a = self
    for (name, c) in columns { a.columns[name] = c.remapped(remap) }
    return a
  }

  /// `self` (over `count` rows) followed by `other` (over `otherCount` rows).
  func appending(_ other: Annotations, count: Int, otherCount: Int, remap: [StringID]) -> Annotations {
    var a = Annotations()
    var names = columnNames
    for n in other.columnNames where columns[n] == nil { names.append(n) }
    for n in names {
      let mine = columns[n], theirs = other.columns[n]
      let left = mine ?? theirs.map { $0.empty(count: count) }
      let right = theirs ?? mine.map { $0.empty(count: otherCount) }
      if let left, let right { a.setColumn(n, left.appending(right, remap: remap)) }
    }
    for n in Set(tags.keys).union(other.tags.keys) {
      let l = tags[n] ?? Bitmap(count: count)
      let r = other.tags[n] ?? Bitmap(count: otherCount)
      a.tags[n] = l.appending(r)
    }
    return a
  }
}
