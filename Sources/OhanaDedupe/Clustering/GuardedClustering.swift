import COhanaCore
import OhanaCore

/// How the chaining guard judges the cross pairs of two clusters that an
/// accepted pair would join (``GuardedClustering``).
public enum GuardLinkage: String, Sendable, Hashable, CaseIterable {
  /// The mean cross-pair weight reaches the link threshold: a candidate
  /// link scored against the whole cluster. Measured (Benchmarks/HISTORY.md,
  /// 2026-12-02) against complete linkage: the recall of people with many
  /// records rises (independent generator crm 10k F1 0.8360 to 0.9538,
  /// with the cluster cap raised to 32 as well; FEBRL2 0.9906 to 0.9948)
  /// at no loss of precision on FEBRL.
  case average
  /// Every cross pair reaches the link threshold (the guard before
  /// 2026-12-02): the strictest, for sources where one conflicting pair
  /// must keep two groups apart.
  case complete
}

/// Union-find over accepted pairs, with a guard against chaining.
///
/// Pairs are taken strongest first. Two clusters join only if
/// - together they hold at most `maxClusterSize` contacts, and
/// - the cross pairs (one contact from each) say they are one: under
///   ``GuardLinkage/average`` (the default) their mean weight reaches
///   `linkThreshold`, under ``GuardLinkage/complete`` every one does. So
///   A~B and B~C cannot pull in a C that conflicts with A (two people
///   sharing a household phone, bridged by a record of each: A-C weighs
///   far below 0 and pulls the mean under the bar), while a person with
///   fifteen records, some of whose pairs disagree (a missing birth date
///   and a typo in the name), is not cut apart by one weak pair.
/// A refused pair is counted; its contacts stay in their clusters.
///
/// A join reads and writes only the rows of the two clusters it joins, so
/// joins within *different components* of the pairs' graph may run on
/// several workers at once: ``joinAll(_:unions:threads:maxClusterSize:linkThreshold:decide:)``
/// does so. The rows' links live in buffers this class owns (the only
/// unsafe code of the clustering); every other use is one thread's.
///
/// - Complexity: O(pairs × α) for unions of singletons; a join of clusters
///   of sizes p and q compares p × q pairs, at most maxClusterSize² / 4.
final class GuardedClustering: @unchecked Sendable {
  // @unchecked Sendable: concurrent calls touch disjoint components (the
  // contract of `joinAll`); otherwise one thread at a time.
  private let parent: UnsafeMutableBufferPointer<Int32>
  private let size: UnsafeMutableBufferPointer<Int32>
  /// Members of a cluster form a ring through `next`.
  private let next: UnsafeMutableBufferPointer<Int32>

  var count: Int { parent.count }

  init(count: Int, threads: Int = 0) {
    let n = max(0, count)
    parent = .allocate(capacity: n)
    size = .allocate(capacity: n)
    next = .allocate(capacity: n)
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 16)
    Parallel.forEach(pieces, workers: threads) { p in
      for i in Parallel.piece(p, of: pieces, count: n) {
        parent.initializeElement(at: i, to: Int32(truncatingIfNeeded: i))
        size.initializeElement(at: i, to: 1)
        next.initializeElement(at: i, to: Int32(truncatingIfNeeded: i))
      }
    }
  }

  deinit {
    parent.deallocate()
    size.deallocate()
    next.deallocate()
  }

  /// Starts loading `x`'s parent link and cluster size, for a join a few
  /// pairs later (the pairs come strongest first, so their rows are
  /// scattered: each would otherwise wait on its loads in turn). A hint only.
  @inline(__always)
  func prefetch(_ x: Int) {
    guard x >= 0 && x < parent.count, let p = parent.baseAddress, let s = size.baseAddress else { return }
    ohana_prefetch(p + x)
    ohana_prefetch(s + x)
  }

  func find(_ x: Int) -> Int {
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
  func join(
    _ a: Int, _ b: Int, maxClusterSize: Int, linkThreshold: Double, linkage: GuardLinkage = .average,
    score: (Int, Int) -> Double
  ) -> Bool {
    attempt(a, b, maxClusterSize: maxClusterSize, linkThreshold: linkThreshold, linkage: linkage, score: score)
      == .joined
  }

  /// What a join came to: joined (or already one), refused because the
  /// cluster would pass the cap, or refused by the cross pairs.
  enum Attempt: Sendable, Equatable {
    case joined, tooLarge, crossPairs
  }

  /// As ``join(_:_:maxClusterSize:linkThreshold:linkage:score:)``, saying
  /// why a refused join was refused.
  func attempt(
    _ a: Int, _ b: Int, maxClusterSize: Int, linkThreshold: Double, linkage: GuardLinkage = .average,
    score: (Int, Int) -> Double
  ) -> Attempt {
    let ra = find(a), rb = find(b)
    if ra == rb { return .joined }
    let sa = Int(size[ra]), sb = Int(size[rb])
    if sa + sb > maxClusterSize { return .tooLarge }
    if sa > 1 || sb > 1 {
      if linkage == .average {
        // The candidate link scored against the cluster: the mean of every
        // cross pair (the accepted pair's own weight among them) must reach
        // the bar, and no cross pair may be kept apart (-inf).
        var total = 0.0
        var x = ra
        repeat {
          var y = rb
          repeat {
            let w = score(min(x, y), max(x, y))
            if w == -.infinity { return .crossPairs }
            total += w
            y = Int(next[y])
          } while y != rb
          x = Int(next[x])
        } while x != ra
        if total < linkThreshold * Double(sa * sb) { return .crossPairs }
      } else {
        var x = ra
        repeat {
          var y = rb
          repeat {
            if !(x == a && y == b) && score(min(x, y), max(x, y)) < linkThreshold { return .crossPairs }
            y = Int(next[y])
          } while y != rb
          x = Int(next[x])
        } while x != ra
      }
    }
    // Union by size; splice the rings.
    splice(ra, rb)
    return .joined
  }

  /// Joins the clusters of `a` and `b` without the guard (the entity
  /// store's clusters, joined when they were made).
  func unite(_ a: Int, _ b: Int) {
    let ra = find(a), rb = find(b)
    if ra == rb { return }
    splice(ra, rb)
  }

  private func splice(_ ra: Int, _ rb: Int) {
    let sa = Int(size[ra]), sb = Int(size[rb])
    let (big, small) = sa >= sb ? (ra, rb) : (rb, ra)
    parent[small] = Int32(big)
    size[big] = Int32(sa + sb)
    let t = next[big]
    next[big] = next[small]
    next[small] = t
  }

  /// For every row, its cluster's smallest row. On all workers: each
  /// cluster's root walks its ring twice (its smallest member, then the
  /// members' ids), so every row is written by one worker.
  func clusterIDs(threads: Int = 0) -> [Int32] {
    let n = parent.count
    let out = SharedWords(count: n)
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 15)
    Parallel.forEach(pieces, workers: threads) { p in
      for r in Parallel.piece(p, of: pieces, count: n) where Int(parent[r]) == r {
        var smallest = UInt32(r)
        var x = Int(next[r])
        while x != r {
          smallest = min(smallest, UInt32(x))
          x = Int(next[x])
        }
        x = r
        repeat {
          out[x] = smallest
          x = Int(next[x])
        } while x != r
      }
    }
    return out.signedArray()
  }

  /// How many clusters hold more than one row, and how many rows they hold.
  func clusterCounts(threads: Int = 0) -> (clusters: Int, contacts: Int) {
    let n = parent.count
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 15)
    return Parallel.map(pieces, workers: threads) { p -> (Int, Int) in
      var clusters = 0, contacts = 0
      for r in Parallel.piece(p, of: pieces, count: n) where Int(parent[r]) == r && size[r] > 1 {
        clusters += 1
        contacts += Int(size[r])
      }
      return (clusters, contacts)
    }.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
  }

  /// What became of one pair in ``joinAll(_:unions:threads:maxClusterSize:linkThreshold:decide:)``.
  enum Outcome: UInt8, Sendable {
    case joined = 1
    /// The cross pairs said no (their mean, or one of them, below the bar).
    case refusedByGuard = 2
    case refusedByDecision = 3
    /// Together the two clusters would pass the cap (`--max-cluster`).
    case refusedForSize = 4
  }

  /// Unites `unions` (unguarded), then joins `pairs` (`a << 32 | b`,
  /// strongest first) under the guard, on all workers, and returns each
  /// pair's outcome: the same as joining them one by one in their order.
  /// `apart(x, y)`: a reviewer keeps the two rows apart (a pair so is
  /// refused; a cross pair so reads as weight -inf); `score(x, y)`: the
  /// weight of a cross pair.
  ///
  /// Why that holds: a join reads and changes only the clusters of its own
  /// component of the graph of `pairs` and `unions`, and its outcome depends
  /// only on the joins before it in that component. So the components are
  /// found first (a union-find run on all workers at once), dealt by a hash
  /// of their root into many more pieces than workers, and each piece's
  /// pairs are joined in their order by one worker. A component is never
  /// split: one very large component is one worker's serial work.
  func joinAll(
    _ pairs: [UInt64], unions: [(Int, Int)], threads: Int, maxClusterSize: Int, linkThreshold: Double,
    linkage: GuardLinkage = .average, apart: ((Int, Int) -> Bool)?, score: (Int, Int) -> Double
  ) -> [Outcome] {
    let m = pairs.count
    for (a, b) in unions { unite(a, b) }
    if m == 0 { return [] }
    @inline(__always) func ends(_ k: Int) -> (Int, Int) {
      (Int(pairs[k] >> 32), Int(pairs[k] & 0xFFFF_FFFF))
    }

    // 1. The components.
    let components = ConcurrentComponents(count: count, threads: threads)
    for (a, b) in unions { components.unite(a, b) }
    let chunks = Parallel.pieces(m, workers: threads, minimumPiece: 1 << 14)
    Parallel.forEach(chunks, workers: threads) { c in
      for k in Parallel.piece(c, of: chunks, count: m) {
        let (a, b) = ends(k)
        components.unite(a, b)
      }
    }

    // 2. Each pair's piece (a hash of its component's root), and the pairs
    // of each piece in their order: counted per chunk, then placed.
    let buckets = max(1, min(Parallel.workerCount(threads) * 64, m / 256))
    let pieces = Partitioned(count: m, partitions: buckets, threads: threads) { k in
      let root = UInt64(components.find(ends(k).0))
      return Int(((root &+ 1) &* 0x9E37_79B9_7F4A_7C15) >> 32) % buckets
    }
    let order = pieces.order, bucketStart = pieces.starts

    // 3. The joins, a piece per worker at a time.
    let outcome = SharedWords(count: m)
    let ahead = 8
    Parallel.forEach(buckets, workers: threads) { b in
      let lo = bucketStart[b], hi = bucketStart[b + 1]
      for i in lo..<hi {
        if i + ahead < hi {
          let (p, q) = ends(Int(order[i + ahead]))
          prefetch(p)
          prefetch(q)
        }
        let k = Int(order[i])
        let (a, b) = ends(k)
        if let apart, apart(a, b) {
          outcome[k] = UInt32(Outcome.refusedByDecision.rawValue)
          continue
        }
        var byDecision = false
        let done = attempt(a, b, maxClusterSize: maxClusterSize, linkThreshold: linkThreshold, linkage: linkage) { x, y in
          if let apart, apart(x, y) {
            byDecision = true
            return -.infinity
          }
          return score(x, y)
        }
        let o: Outcome =
          switch done {
          case .joined: .joined
          case .tooLarge: .refusedForSize
          case .crossPairs: byDecision ? .refusedByDecision : .refusedByGuard
          }
        outcome[k] = UInt32(o.rawValue)
      }
    }
    return outcome.array().map { Outcome(rawValue: UInt8(truncatingIfNeeded: $0)) ?? .refusedByGuard }
  }
}

/// The connected components of a graph, by a union-find that many workers
/// run at once: a root is linked only to a smaller root, by
/// compare-and-swap (so no cycle can form and a lost race is retried), and
/// a find halves its path as it goes. Every link points to a smaller row,
/// so a find ends. Once the workers have joined, ``find(_:)`` gives each
/// row its component's smallest row.
final class ConcurrentComponents: @unchecked Sendable {
  // @unchecked Sendable: every access to `parent` is atomic.
  private let parent: UnsafeMutableBufferPointer<UInt32>

  init(count: Int, threads: Int = 0) {
    let n = max(0, count)
    parent = .allocate(capacity: n)
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 16)
    Parallel.forEach(pieces, workers: threads) { p in
      for i in Parallel.piece(p, of: pieces, count: n) {
        parent.initializeElement(at: i, to: UInt32(truncatingIfNeeded: i))
      }
    }
  }

  deinit { parent.deallocate() }

  @inline(__always) private func load(_ x: UInt32) -> UInt32 {
    ohana_atomic_load_u32(parent.baseAddress.unsafelyUnwrapped + Int(x))
  }

  @inline(__always) private func swap(_ x: UInt32, from old: UInt32, to new: UInt32) -> Bool {
    ohana_atomic_cas_u32(parent.baseAddress.unsafelyUnwrapped + Int(x), old, new) != 0
  }

  func find(_ row: Int) -> Int {
    precondition(row >= 0 && row < parent.count, "ConcurrentComponents row out of range")
    var x = UInt32(row)
    while true {
      let p = load(x)
      if p == x { return Int(x) }
      let g = load(p)
      if g != p { _ = swap(x, from: p, to: g) }
      x = g
    }
  }

  func unite(_ a: Int, _ b: Int) {
    var ra = UInt32(find(a)), rb = UInt32(find(b))
    while ra != rb {
      let (high, low) = ra > rb ? (ra, rb) : (rb, ra)
      if swap(high, from: high, to: low) { return }
      ra = UInt32(find(Int(high)))
      rb = UInt32(find(Int(low)))
    }
  }
}
