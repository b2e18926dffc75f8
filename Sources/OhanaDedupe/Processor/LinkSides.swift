import OhanaCore

/// Linking two tables rather than deduping one (DESIGN §15: link is a mode
/// of the same machinery): the left table's rows come first in the table
/// handed to ``Deduplicator``, the right table's after them, from
/// ``rightStart`` on.
///
/// - ``withinSides`` off (`ohana link`, Splink's `link_only`): only pairs
///   with one row on each side are candidates, scored, fitted (EM) and
///   joined; two rows of one side are never compared as a candidate pair
///   (the chaining guard still weighs them when a second row of one side
///   would join a cluster: two left rows that differ keep one right row
///   from taking both).
/// - ``withinSides`` on (`--link-and-dedupe`): every pair, as a dedupe of
///   both tables together; only the outputs know the sides.
public struct LinkSides: Sendable, Hashable {
  /// The first row of the right table; rows below it are the left's.
  public var rightStart: Int
  /// Compare rows within each table too (link and dedupe).
  public var withinSides: Bool

  public init(rightStart: Int, withinSides: Bool = false) {
    self.rightStart = rightStart
    self.withinSides = withinSides
  }

  /// Whether row `r` is the right table's.
  @inlinable public func isRight(_ r: Int) -> Bool { r >= rightStart }

  /// Whether a pair of rows `a < b` is a candidate in this mode.
  @inlinable public func compares(_ a: Int, _ b: Int) -> Bool {
    withinSides || (a < rightStart) != (b < rightStart)
  }

  /// The pairs of `pairs` (packed `low << 32 | high`, as blocking makes
  /// them) that this mode compares, in their order.
  func candidates(_ pairs: [UInt64], threads: Int) -> [UInt64] {
    if withinSides { return pairs }
    let start = UInt64(rightStart)
    // low < high, so a pair is across exactly when low is left and high right.
    let parts = Parallel.map(count: pairs.count, threads: threads, minimumChunk: 1 << 16) { range in
      range.compactMap { i -> UInt64? in
        let p = pairs[i]
        return (p >> 32) < start && (p & 0xFFFF_FFFF) >= start ? p : nil
      }
    }
    var out: [UInt64] = []
    out.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    for p in parts { out.append(contentsOf: p) }
    return out
  }
}
