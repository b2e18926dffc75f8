import COhanaCore
import OhanaCore

/// The members of every cluster, as lists by cluster id, built on all
/// workers. The counting and the placing are atomic (``SharedWords``), so
/// members land in their cluster's slot in any order; each cluster's
/// members are then sorted, which gives the serial build's lists exactly.
enum ClusterMembers {
  /// For `clusterOf` (every row's cluster id, its smallest row): the rows
  /// of each cluster in row order (`members`, CSR), where cluster `c`'s
  /// begin (`starts[c] ..< starts[c + 1]`, `n + 1` entries), and the cluster
  /// ids in order (`representatives`).
  static func lists(_ clusterOf: [Int32], threads: Int) -> (members: [Int32], starts: [Int32], representatives: [Int32]) {
    let n = clusterOf.count
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 15)
    let sizes = SharedWords(count: n)
    Parallel.forEach(pieces, workers: threads) { p in
      for r in Parallel.piece(p, of: pieces, count: n) { sizes.add(Int(clusterOf[r])) }
    }
    // The starts: a sum per piece, then each piece's running sum.
    let pieceSums = Parallel.map(pieces, workers: threads) { p in
      Parallel.piece(p, of: pieces, count: n).reduce(0) { $0 + Int(sizes[$1]) }
    }
    var pieceStart = [Int](repeating: 0, count: pieces + 1)
    for p in 0..<pieces { pieceStart[p + 1] = pieceStart[p] + pieceSums[p] }
    let starts = SharedWords(count: n + 1)
    let fill = SharedWords(count: n)
    let repParts = Parallel.map(pieces, workers: threads) { p -> [Int32] in
      var at = pieceStart[p]
      var reps: [Int32] = []
      for c in Parallel.piece(p, of: pieces, count: n) {
        starts[c] = UInt32(at)
        fill[c] = UInt32(at)
        let size = Int(sizes[c])
        if size > 0 { reps.append(Int32(c)) }
        at += size
      }
      return reps
    }
    starts[n] = UInt32(n)
    let members = SharedWords(count: n)
    Parallel.forEach(pieces, workers: threads) { p in
      for r in Parallel.piece(p, of: pieces, count: n) { members[Int(fill.add(Int(clusterOf[r])))] = UInt32(r) }
    }
    var representatives: [Int32] = []
    representatives.reserveCapacity(repParts.reduce(0) { $0 + $1.count })
    for part in repParts { representatives.append(contentsOf: part) }
    let reps = representatives
    let repPieces = Parallel.pieces(reps.count, workers: threads, minimumPiece: 1 << 14)
    Parallel.forEach(repPieces, workers: threads) { p in
      for i in Parallel.piece(p, of: repPieces, count: reps.count) {
        let c = Int(reps[i])
        let lo = Int(starts[c]), hi = Int(starts[c + 1])
        if hi - lo < 2 { continue }
        if hi - lo > 32 {  // a large `maxClusterSize`
          var rows = (lo..<hi).map { members[$0] }
          rows.sort()
          for (j, r) in zip(lo..<hi, rows) { members[j] = r }
          continue
        }
        // Insertion sort: a cluster holds a few rows.
        for j in (lo + 1)..<hi {
          let v = members[j]
          var k = j
          while k > lo && members[k - 1] > v {
            members[k] = members[k - 1]
            k -= 1
          }
          members[k] = v
        }
      }
    }
    return (members.signedArray(), starts.signedArray(), representatives)
  }

  /// The size of each cluster, in the order of each cluster's first row.
  static func sizes(_ clusterOf: [Int32]) -> [Int] {
    var count = [Int](repeating: 0, count: clusterOf.count)
    for c in clusterOf { count[Int(c)] += 1 }
    var out: [Int] = []
    for (r, c) in clusterOf.enumerated() where Int(c) == r { out.append(count[r]) }
    return out
  }
}
