import COhanaCore

/// Union-find over accepted pairs, with a guard against chaining.
///
/// Pairs are taken strongest first. Two clusters join only if
/// - together they hold at most `maxClusterSize` contacts, and
/// - every cross pair (one contact from each) scores at least
///   `linkThreshold` — complete linkage on a lower bar — so that A~B and
///   B~C cannot pull in a C that clearly conflicts with A (two people sharing
///   a household phone, bridged by a record of each).
/// A refused pair is counted; its contacts stay in their clusters.
///
/// - Complexity: O(pairs × α) for unions of singletons; a join of clusters
///   of sizes p and q compares p × q pairs, at most maxClusterSize² / 4.
struct GuardedClustering {
  private(set) var parent: [Int32]
  private var size: [Int32]
  /// Members of a cluster form a ring through `next`.
  private var next: [Int32]

  init(count: Int) {
    parent = (0..<Int32(count)).map { $0 }
    size = [Int32](repeating: 1, count: count)
    next = parent
  }

  /// Starts loading `x`'s parent link and cluster size, for a join a few
  /// pairs later (the pairs come strongest first, so their rows are
  /// scattered: each would otherwise wait on its loads in turn). A hint only.
  @inline(__always)
  func prefetch(_ x: Int) {
    parent.withUnsafeBufferPointer { p in if x < p.count, let base = p.baseAddress { ohana_prefetch(base + x) } }
    size.withUnsafeBufferPointer { p in if x < p.count, let base = p.baseAddress { ohana_prefetch(base + x) } }
  }

  mutating func find(_ x: Int) -> Int {
    var r = x
    while Int(parent[r]) != r { r = Int(parent[r]) }
    var c = x
    while Int(parent[c]) != r {
      let p = Int(parent[c])
      parent[c] = Int32(r)
      c = p
    }
    return r
  }

  /// Tries to join the clusters of `a` and `b`; `score(x, y)` gives the
  /// weight of a cross pair. Returns whether they are (now) one cluster.
  mutating func join(
    _ a: Int, _ b: Int, maxClusterSize: Int, linkThreshold: Double, score: (Int, Int) -> Double
  ) -> Bool {
    let ra = find(a), rb = find(b)
    if ra == rb { return true }
    let sa = Int(size[ra]), sb = Int(size[rb])
    if sa + sb > maxClusterSize { return false }
    if sa > 1 || sb > 1 {
      var x = ra
      repeat {
        var y = rb
        repeat {
          if !(x == a && y == b) && score(min(x, y), max(x, y)) < linkThreshold { return false }
          y = Int(next[y])
        } while y != rb
        x = Int(next[x])
      } while x != ra
    }
    // Union by size; splice the rings.
    splice(ra, rb)
    return true
  }

  /// Joins the clusters of `a` and `b` without the guard (the entity
  /// store's clusters, joined when they were made).
  mutating func unite(_ a: Int, _ b: Int) {
    let ra = find(a), rb = find(b)
    if ra == rb { return }
    splice(ra, rb)
  }

  private mutating func splice(_ ra: Int, _ rb: Int) {
    let sa = Int(size[ra]), sb = Int(size[rb])
    let (big, small) = sa >= sb ? (ra, rb) : (rb, ra)
    parent[small] = Int32(big)
    size[big] = Int32(sa + sb)
    let t = next[big]
    next[big] = next[small]
    next[small] = t
  }

  /// For every row, its cluster's smallest row.
  mutating func clusterIDs() -> [Int32] {
    let n = parent.count
    var smallest = [Int32](repeating: Int32.max, count: n)
    for i in 0..<n {
      let r = find(i)
      if Int32(i) < smallest[r] { smallest[r] = Int32(i) }
    }
    var out = [Int32](repeating: 0, count: n)
    for i in 0..<n { out[i] = smallest[find(i)] }
    return out
  }
}
