import OhanaCore

/// Per-cluster and per-row figures the table outputs append (the command
/// line's rows back and `link`, and the C interface Python calls): one
/// computation for every driver.
extension DedupeResult {
  /// For each of the first `rows` rows: the size of the cluster it names
  /// (0 for a row that names none), and the weakest and strongest weight
  /// of the joined pairs in it (NaN: none), indexed by the naming row.
  public func clusterFigures(rows: Int) -> (size: [Int32], low: [Double], high: [Double]) {
    let n = min(rows, clusterOf.count)
    var size = [Int32](repeating: 0, count: n)
    for r in 0..<n { size[Int(clusterOf[r])] += 1 }
    var low = [Double](repeating: .nan, count: n), high = [Double](repeating: .nan, count: n)
    for p in pairs where p.first < n {
      let c = Int(clusterOf[p.first])
      low[c] = low[c].isNaN ? p.weight : min(low[c], p.weight)
      high[c] = high[c].isNaN ? p.weight : max(high[c], p.weight)
    }
    return (size, low, high)
  }

  /// Linking: for each of the first `rows` rows, the row on the other
  /// side of `link` whose joined pair with it weighed most (-1: none; of
  /// equal weights the first pair, pairs being strongest first) and that
  /// weight (NaN: none).
  public func strongestAcross(_ link: LinkSides, rows: Int) -> (row: [Int32], weight: [Double]) {
    var row = [Int32](repeating: -1, count: rows), weight = [Double](repeating: .nan, count: rows)
    for p in pairs where link.isRight(p.first) != link.isRight(p.second) {
      for (a, b) in [(p.first, p.second), (p.second, p.first)] where a < rows && (weight[a].isNaN || p.weight > weight[a]) {
        row[a] = Int32(b)
        weight[a] = p.weight
      }
    }
    return (row, weight)
  }
}
