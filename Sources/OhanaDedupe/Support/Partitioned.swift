import OhanaCore

/// Items `0 ..< count` grouped by partition, each partition's items in
/// their order: counted per piece of items, then placed, on the workers.
/// Used to cut work that must stay together (a component's joins, a hash
/// table's partition) into many independent pieces.
struct Partitioned {
  /// The items, partition by partition.
  let order: SharedWords
  /// Partition `p`'s items are `order[starts[p] ..< starts[p + 1]]`.
  let starts: [Int]

  init(count m: Int, partitions: Int, threads: Int, partitionOf: (Int) -> Int) {
    let chunks = Parallel.pieces(m, workers: threads, minimumPiece: 1 << 14)
    let counted = Parallel.map(chunks, workers: threads) { c -> (of: [UInt32], counts: [Int]) in
      let range = Parallel.piece(c, of: chunks, count: m)
      var of = [UInt32](repeating: 0, count: range.count)
      var counts = [Int](repeating: 0, count: partitions)
      for (i, k) in range.enumerated() {
        let p = partitionOf(k)
        of[i] = UInt32(p)
        counts[p] += 1
      }
      return (of, counts)
    }
    var starts = [Int](repeating: 0, count: partitions + 1)
    // at[c][p]: where piece c's first item of partition p goes.
    var at = [[Int]](repeating: [Int](repeating: 0, count: partitions), count: chunks)
    var next = 0
    for p in 0..<partitions {
      starts[p] = next
      for c in 0..<chunks {
        at[c][p] = next
        next += counted[c].counts[p]
      }
    }
    starts[partitions] = next
    let order = SharedWords(count: m)
    let places = at
    Parallel.forEach(chunks, workers: threads) { c in
      let range = Parallel.piece(c, of: chunks, count: m)
      var place = places[c]
      let of = counted[c].of
      for (i, k) in range.enumerated() {
        let p = Int(of[i])
        order[place[p]] = UInt32(k)
        place[p] += 1
      }
    }
    self.order = order
    self.starts = starts
  }
}
