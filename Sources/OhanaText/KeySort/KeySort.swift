/// Sorting by collation sort keys: no pairwise ICU comparison, ever.
///
/// The plan for sorting M rows whose strings are interned to K ≤ M distinct
/// ids (rows with the same name share one key):
///
/// 1. make one key per distinct string: ``Collator/sortKeys(for:parallel:)``;
/// 2. sort the K keys by their bytes and number them: ``ranks(_:parallel:)``
///    (a stable MSD radix sort; equal keys share a rank);
/// 3. order the M rows by the rank of their key: ``rowOrder(keyOfRow:ranks:)``
///    (a counting sort, stable: ties keep row order).
///
/// ```swift
/// let keys = collator.sortKeys(for: distinctNames)
/// let ranks = KeySort.ranks(keys)
/// let order = KeySort.rowOrder(keyOfRow: nameIDOfRow, ranks: ranks)
/// ```
///
/// Secondary keys compose least significant first: order rows by the
/// secondary rank, then pass that order to ``stableOrder(_:rankOfRow:bucketCount:)``
/// with the primary rank.
public enum KeySort {
  /// Marks a row without a key in ``rowOrder(keyOfRow:ranks:)``: such rows go last.
  public static let noKey = UInt32.max

  /// Key indices in ascending key order; equal keys keep index order.
  ///
  /// - Complexity: O(n + distinguishing key bytes); parallel for large n.
  public static func order(_ keys: SortKeys, parallel: Bool = true) -> [UInt32] {
    Kernel.sortedIndices(keys.storage, parallel: parallel)
  }

  /// Dense ranks of the keys: `ranks[i] < ranks[j]` iff key `i` sorts before
  /// key `j`, equal keys get equal ranks, and ranks run from 0 to
  /// `distinctCount - 1`.
  public static func ranks(_ keys: SortKeys, parallel: Bool = true) -> KeyRanks {
    let order = Kernel.sortedIndices(keys.storage, parallel: parallel)
    let (ranks, distinct) = Kernel.ranks(keys.storage, order: order)
    return KeyRanks(ranks: ranks, distinctCount: distinct)
  }

  /// Rows `0..<keyOfRow.count` ordered by the rank of their key; rows with
  /// ``noKey`` go last; ties keep row order.
  ///
  /// - Precondition: every key id other than ``noKey`` is below `ranks.count`.
  /// - Complexity: O(M + K): a counting sort.
  public static func rowOrder(keyOfRow: [UInt32], ranks: KeyRanks) -> [UInt32] {
    precondition(keyOfRow.count < Int(UInt32.max), "KeySort: too many rows")
    let missing = UInt32(ranks.distinctCount)
    let rankOfRow = keyOfRow.map { key -> UInt32 in
      key == noKey ? missing : ranks.ranks[Int(key)]
    }
    let rows = (0..<keyOfRow.count).map { UInt32(truncatingIfNeeded: $0) }
    return stableOrder(rows, rankOfRow: rankOfRow, bucketCount: ranks.distinctCount + 1)
  }

  /// Reorders `rows` stably by `rankOfRow[row]` (a counting sort).
  ///
  /// - Parameters:
  ///   - rows: row ids in their current order (e.g. the result of a sort by
  ///     a secondary key).
  ///   - rankOfRow: the rank of each row id, below `bucketCount`.
  /// - Complexity: O(rows.count + bucketCount).
  public static func stableOrder(_ rows: [UInt32], rankOfRow: [UInt32], bucketCount: Int) -> [UInt32] {
    var starts = [Int](repeating: 0, count: bucketCount + 1)
    for row in rows {
      let r = Int(rankOfRow[Int(row)])
      precondition(r < bucketCount, "KeySort: rank out of range")
      starts[r + 1] += 1
    }
    for b in 0..<bucketCount { starts[b + 1] += starts[b] }
    var out = [UInt32](repeating: 0, count: rows.count)
    for row in rows {
      let r = Int(rankOfRow[Int(row)])
      out[starts[r]] = row
      starts[r] += 1
    }
    return out
  }
}

/// Dense ranks of sort keys; see ``KeySort/ranks(_:parallel:)``.
public struct KeyRanks: Sendable, Hashable {
  /// The rank of each key, by key index.
  public let ranks: [UInt32]
  /// The number of distinct keys (the largest rank plus one).
  public let distinctCount: Int

  public init(ranks: [UInt32], distinctCount: Int) {
    self.ranks = ranks
    self.distinctCount = distinctCount
  }

  /// The number of keys.
  public var count: Int { ranks.count }

  /// The rank of key `i`.
  public subscript(i: Int) -> UInt32 { ranks[i] }
}
