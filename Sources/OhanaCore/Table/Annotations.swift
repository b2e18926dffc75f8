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

  /// This column followed by `other` (`other`'s string ids remapped
  /// through `remap`; this column's are ids of `pool` already).
  ///
  /// When the two disagree on type, both become text (``PropertyValue/text``:
  /// integers in decimal, booleans `true` / `false`), interned into `pool`:
  /// the column a reader builds when one part of its input sees the values
  /// of both. No value of either side is lost.
  func appending(_ other: DerivedColumn, remap: [StringID], pool: inout StringPool) -> DerivedColumn {
    switch (self, other) {
    case (.string(let a), .string(let b)): return .string(a + b.map { remap[$0.index] })
    case (.int(let a, let va), .int(let b, let vb)): return .int(a + b, valid: va.appending(vb))
    case (.bool(let a, let va), .bool(let b, let vb)): return .bool(a.appending(b), valid: va.appending(vb))
    default:
      return .string(texts(remap: nil, pool: &pool) + other.texts(remap: remap, pool: &pool))
    }
  }

  /// This column's values as string ids of `pool`: strings remapped through
  /// `remap` (kept as they are when nil), integers and booleans interned as
  /// their ``PropertyValue/text``; no value stays ``StringID/absent``.
  func texts(remap: [StringID]?, pool: inout StringPool) -> [StringID] {
    switch self {
    case .string(let v):
      guard let remap else { return v }
      return v.map { remap[$0.index] }
    case .int(let v, let valid):
      var out = [StringID](repeating: .absent, count: v.count)
      for i in 0..<v.count where valid.contains(i) { out[i] = pool.intern(PropertyValue.int(v[i]).text) }
      return out
    case .bool(let b, let valid):
      let yes = pool.intern(PropertyValue.bool(true).text)
      let no = pool.intern(PropertyValue.bool(false).text)
      var out = [StringID](repeating: .absent, count: valid.count)
      for i in 0..<valid.count where valid.contains(i) { out[i] = b.contains(i) ? yes : no }
      return out
    }
  }

  /// The column of `values` (rows without one have no value): integers when
  /// every value is an integer, booleans when every one is a boolean,
  /// otherwise text (``PropertyValue/text``, interned into `pool`; an empty
  /// string is no value). The typing rule of one part of a reader's input,
  /// and of ``appending(_:remap:pool:)`` across parts.
  public static func typed(_ values: [(row: Int, value: PropertyValue)], rows: Int, pool: inout StringPool) -> DerivedColumn {
    var allInt = true
    var allBool = true
    for (_, v) in values {
      if case .int = v {} else { allInt = false }
      if case .bool = v {} else { allBool = false }
    }
    if allInt {
      var ints = [Int64](repeating: 0, count: rows)
      var valid = Bitmap(count: rows)
      for (r, v) in values { if case .int(let n) = v { ints[r] = n; valid.insert(r) } }
      return .int(ints, valid: valid)
    }
    if allBool {
      var bits = Bitmap(count: rows)
      var valid = Bitmap(count: rows)
      for (r, v) in values { if case .bool(let b) = v { if b { bits.insert(r) }; valid.insert(r) } }
      return .bool(bits, valid: valid)
    }
    var ids = [StringID](repeating: .absent, count: rows)
    for (r, v) in values { ids[r] = pool.intern(v.text) }
    return .string(ids)
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

  /// The value as text, the way a text column holds it: a string itself,
  /// an integer in decimal (`-12`), a boolean `true` or `false` (as JSON
  /// spells them).
  public var text: String {
    switch self {
    case .string(let s): s
    case .int(let n): String(n)
    case .bool(let b): b ? "true" : "false"
    }
  }
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

  /// `self` (over `count` rows) followed by `other` (over `otherCount` rows),
  /// `other`'s string ids remapped through `remap` into `pool` (the pool of
  /// `self`). A column only one side has gets no value on the other side's
  /// rows; columns of one name and different types become text (see
  /// ``DerivedColumn/appending(_:remap:pool:)``). Every merge of derived
  /// columns goes through here.
  func appending(
    _ other: Annotations, count: Int, otherCount: Int, remap: [StringID], pool: inout StringPool
  ) -> Annotations {
    var a = Annotations()
    var names = columnNames
    for n in other.columnNames where columns[n] == nil { names.append(n) }
    for n in names {
      let mine = columns[n], theirs = other.columns[n]
      let left = mine ?? theirs.map { $0.empty(count: count) }
      let right = theirs ?? mine.map { $0.empty(count: otherCount) }
      if let left, let right { a.setColumn(n, left.appending(right, remap: remap, pool: &pool)) }
    }
    for n in Set(tags.keys).union(other.tags.keys) {
      let l = tags[n] ?? Bitmap(count: count)
      let r = other.tags[n] ?? Bitmap(count: otherCount)
      a.tags[n] = l.appending(r)
    }
    return a
  }
}
