/// Guards a data source's selection (Ohana's OHContactsSelectionFilterProtocol).
///
/// Rows are row ids of the data source's current frame. A filter answers
/// which candidates may be selected (or deselected), given the rows already
/// selected, and may announce what it decided through its own signals.
public protocol SelectionFilter: Sendable {
  /// Of `candidates`, the rows that may be selected.
  func filterForSelection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int]
  /// Of `candidates`, the rows that may be deselected.
  func filterForDeselection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int]
  /// Called after the selection changed (from `oldCount` to `selected.count`).
  func selectionDidChange(selected: Set<Int>, oldCount: Int, frame: Frame)
}

extension SelectionFilter {
  public func filterForSelection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int] { candidates }
  public func filterForDeselection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int] { candidates }
  public func selectionDidChange(selected: Set<Int>, oldCount: Int, frame: Frame) {}
}
