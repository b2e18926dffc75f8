import OhanaCore
import OhanaProcessors

/// Caps the selection at `maximum` contacts (Ohana's
/// OHMaximumSelectedCountSelectionFilter).
///
/// Decision: a selection that would go past the maximum is refused whole
/// (none of its contacts are selected) and announced on
/// ``onAttemptedToExceedMaximum`` with the refused contacts.
public final class MaximumSelectedCount: SelectionFilter {
  public let maximum: Int
  /// The selection reached the maximum (value: the count).
  public let onReachedMaximum = Signal<Int>()
  /// A selection was refused because it would exceed the maximum.
  public let onAttemptedToExceedMaximum = Signal<[Contact]>()
  /// The selection dropped below the maximum again (value: the count).
  public let onNoLongerAtMaximum = Signal<Int>()

  public init(_ maximum: Int) { self.maximum = max(0, maximum) }

  public func filterForSelection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int] {
    let new = candidates.filter { !selected.contains($0) }
    if selected.count + new.count > maximum {
      onAttemptedToExceedMaximum.fire(new.map { frame.table.contact(at: $0) })
      return []
    }
    return candidates
  }

  public func selectionDidChange(selected: Set<Int>, oldCount: Int, frame: Frame) {
    if oldCount < maximum && selected.count >= maximum { onReachedMaximum.fire(selected.count) }
    if oldCount >= maximum && selected.count < maximum { onNoLongerAtMaximum.fire(selected.count) }
  }
}

/// Keeps at least `minimum` contacts selected (Ohana's
/// OHMinimumSelectedCountSelectionFilter): a deselection that would drop
/// below it is refused whole and announced with the refused contacts.
public final class MinimumSelectedCount: SelectionFilter {
  public let minimum: Int
  public let onAttemptedToDropBelowMinimum = Signal<[Contact]>()

  public init(_ minimum: Int) { self.minimum = max(0, minimum) }

  public func filterForDeselection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int] {
    let gone = candidates.filter { selected.contains($0) }
    if selected.count - gone.count < minimum {
      onAttemptedToDropBelowMinimum.fire(gone.map { frame.table.contact(at: $0) })
      return []
    }
    return candidates
  }
}

/// Only contacts that meet a `Requirement` (a phone, an email...) can be
/// selected (Ohana's OHRequiredFieldSelectionFilter). Refused contacts are
/// announced on ``onRejected``.
public final class RequiredFieldSelectionFilter: SelectionFilter {
  public let requirement: Requirement
  public let onRejected = Signal<[Contact]>()

  public init(_ requirement: Requirement) { self.requirement = requirement }

  public func filterForSelection(_ candidates: [Int], selected: Set<Int>, frame: Frame) -> [Int] {
    let ok = requirement.rows(of: frame.table)
    let (pass, fail) = (candidates.filter { ok.contains($0) }, candidates.filter { !ok.contains($0) })
    if !fail.isEmpty { onRejected.fire(fail.map { frame.table.contact(at: $0) }) }
    return pass
  }
}
