/// What a processor sees: a table, a selection of its rows and an order.
///
/// Filters return a frame with a narrower ``selection``; sorts return a new
/// ``order``; enrichers add derived columns to ``table``; only processors
/// that change rows (split, merge) build a new table. A frame is a value and
/// its table is copy-on-write, so a frame handed to an observer is an
/// immutable snapshot: later passes never change what it sees.
public struct Frame: Sendable {
  public var table: ContactTable
  /// The rows that pass, or nil for every row.
  public var selection: Bitmap?
  /// The order rows are visited in (a permutation of a subset of the rows,
  /// always including every selected row), or nil for row order.
  public var order: [UInt32]?

  public init(table: ContactTable, selection: Bitmap? = nil, order: [UInt32]? = nil) {
    self.table = table
    self.selection = selection
    self.order = order
  }

  /// The selected rows as a bitmap (all rows when there is no selection).
  public var selectionBitmap: Bitmap {
    selection ?? Bitmap(count: table.rowCount, allSet: true)
  }

  /// The visible rows, in order.
  /// - Complexity: O(rows).
  public var rows: [UInt32] {
    switch (selection, order) {
    case (nil, nil): return (0..<UInt32(truncatingIfNeeded: table.rowCount)).map { $0 }
    case (let s?, nil): return s.setRows
    case (nil, let o?): return o
    case (let s?, let o?): return o.filter { s.contains(Int($0)) }
    }
  }

  /// The number of visible rows.
  public var count: Int {
    if let selection { return selection.popCount }
    return order?.count ?? table.rowCount
  }

  /// A frame whose selection is `selection` intersected with the current one.
  public func narrowed(to selection: Bitmap) -> Frame {
    var f = self
    f.selection = self.selection.map { $0.intersection(selection) } ?? selection
    return f
  }

  /// The visible contacts as values, in order.
  public var contacts: [Contact] { rows.map { table.contact(at: Int($0)) } }

  /// A new table with only the visible rows, in order.
  public func materialized() -> ContactTable {
    if selection == nil && order == nil { return table }
    return table.gathering(rows: rows)
  }
}
