import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// The clustering's parallel pieces against plain one-thread references
/// written here (sets and scans, not the engine's structures).
@Suite struct ParallelClusteringTests {
  /// The guarded joins as the rule states them: clusters as sets; a pair
  /// joins two clusters when together they hold at most `cap` rows, no
  /// decision keeps a cross pair apart, and (complete linkage) every cross
  /// pair but the pair itself scores at least `bar`, or (average linkage)
  /// the mean of all cross pairs, the pair itself among them, does.
  static func referenceJoins(
    count: Int, pairs: [(Int, Int)], unions: [(Int, Int)], cap: Int, bar: Double, apart: Set<UInt64>,
    linkage: GuardLinkage = .complete, score: (Int, Int) -> Double
  ) -> (outcomes: [GuardedClustering.Outcome], ids: [Int32]) {
    var clusterOf = Array(0..<count)
    var members = (0..<count).map { [$0] }
    func merge(_ x: Int, _ y: Int) {
      let (a, b) = (clusterOf[x], clusterOf[y])
      if a == b { return }
      for m in members[b] { clusterOf[m] = a }
      members[a] += members[b]
      members[b] = []
    }
    func isApart(_ x: Int, _ y: Int) -> Bool { apart.contains(UInt64(min(x, y)) << 32 | UInt64(max(x, y))) }
    for (a, b) in unions { merge(a, b) }
    var outcomes: [GuardedClustering.Outcome] = []
    for (a, b) in pairs {
      if isApart(a, b) {
        outcomes.append(.refusedByDecision)
        continue
      }
      let (ca, cb) = (clusterOf[a], clusterOf[b])
      if ca == cb {
        outcomes.append(.joined)
        continue
      }
      if members[ca].count + members[cb].count > cap {
        outcomes.append(.refusedForSize)
        continue
      }
      var byDecision = false, ok = true
      var sum = 0.0
      let grouped = members[ca].count > 1 || members[cb].count > 1
      for x in members[ca] {
        for y in members[cb] {
          if x == a && y == b {
            sum += score(min(x, y), max(x, y))
          } else if isApart(x, y) {
            byDecision = true
            ok = false
          } else {
            let w = score(min(x, y), max(x, y))
            sum += w
            if linkage == .complete && grouped && w < bar { ok = false }
          }
        }
      }
      if linkage == .average && grouped && sum / Double(members[ca].count * members[cb].count) < bar { ok = false }
      if ok {
        merge(a, b)
        outcomes.append(.joined)
      } else {
        outcomes.append(byDecision ? .refusedByDecision : .refusedByGuard)
      }
    }
    let ids = (0..<count).map { r in Int32(members[clusterOf[r]].min() ?? r) }
    return (outcomes, ids)
  }

  @Test(arguments: [1, 2, 3, 4, 7], GuardLinkage.allCases)
  func joinsOnManyWorkersAreTheOneByOneJoins(threads: Int, linkage: GuardLinkage) {
    for seed in 0..<12 as Range<UInt64> {
      var rng = SeededRandom(seed: seed &* 7919 &+ 1)
      let count = Int.random(in: 50...3000, using: &rng)
      // Pairs within small neighbourhoods (many components, some large).
      var seen = Set<UInt64>()
      var pairs: [(Int, Int)] = []
      for _ in 0..<(count * 2) {
        let a = Int.random(in: 0..<count, using: &rng)
        let b = min(count - 1, a + Int.random(in: 1...(seed % 3 == 0 ? 400 : 6), using: &rng))
        if a == b || !seen.insert(UInt64(a) << 32 | UInt64(b)).inserted { continue }
        pairs.append((a, b))
      }
      var apart = Set<UInt64>()
      if seed % 2 == 1 {
        for _ in 0..<(count / 20) {
          let a = Int.random(in: 0..<count, using: &rng), b = Int.random(in: 0..<count, using: &rng)
          if a != b { apart.insert(UInt64(min(a, b)) << 32 | UInt64(max(a, b))) }
        }
      }
      let unions = (0..<(seed % 4 == 2 ? 10 : 0)).map { _ in
        (Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng))
      }
      let salt = rng.next()
      let score: (Int, Int) -> Double = { x, y in
        var h = SeededRandom(seed: salt ^ (UInt64(x) << 32 | UInt64(y)))
        return Double(h.next() % 1000) / 100 - 2
      }
      let cap = [2, 4, 16, 1000][Int(seed % 4)]
      let expected = Self.referenceJoins(
        count: count, pairs: pairs, unions: unions, cap: cap, bar: 0, apart: apart, linkage: linkage, score: score)
      let clustering = GuardedClustering(count: count, threads: threads)
      let outcomes = clustering.joinAll(
        pairs.map { UInt64($0.0) << 32 | UInt64($0.1) }, unions: unions, threads: threads, maxClusterSize: cap,
        linkThreshold: 0, linkage: linkage,
        apart: apart.isEmpty ? nil : { x, y in apart.contains(UInt64(min(x, y)) << 32 | UInt64(max(x, y))) },
        score: score)
      // Joined or not; why a join was refused can depend on which cross
      // pair the guard looks at first.
      #expect(outcomes.map { $0 == .joined } == expected.outcomes.map { $0 == .joined }, "seed \(seed)")
      #expect(clustering.clusterIDs(threads: threads) == expected.ids, "seed \(seed)")
      let sizes = Dictionary(grouping: expected.ids, by: { $0 }).values.filter { $0.count > 1 }
      let counts = clustering.clusterCounts(threads: threads)
      #expect(counts.clusters == sizes.count && counts.contacts == sizes.reduce(0) { $0 + $1.count })
    }
  }

  @Test(arguments: [1, 2, 5])
  func componentsAreThoseOfASearch(threads: Int) {
    var rng = SeededRandom(seed: 42)
    let count = 5000
    let edges = (0..<4000).map { _ in (Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng)) }
    let components = ConcurrentComponents(count: count, threads: threads)
    Parallel.forEach(edges.count, workers: threads) { components.unite(edges[$0].0, edges[$0].1) }
    // Reference: a breadth-first search from each row; a component's id is its smallest row.
    var adjacent = [[Int]](repeating: [], count: count)
    for (a, b) in edges {
      adjacent[a].append(b)
      adjacent[b].append(a)
    }
    var smallest = [Int](repeating: -1, count: count)
    for start in 0..<count where smallest[start] < 0 {
      var queue = [start]
      smallest[start] = start
      while let x = queue.popLast() {
        for y in adjacent[x] where smallest[y] < 0 {
          smallest[y] = start
          queue.append(y)
        }
      }
    }
    #expect((0..<count).map { components.find($0) } == smallest)
  }

  @Test(arguments: [1, 2, 3, 8])
  func clusterMembersAreAGrouping(threads: Int) {
    var rng = SeededRandom(seed: 9)
    let count = 70_000
    // Each row's cluster id is its cluster's smallest row.
    var clusterOf = (0..<count).map { Int32($0) }
    for r in 1..<count where rng.chance(0.3) { clusterOf[r] = clusterOf[Int.random(in: max(0, r - 50)..<r, using: &rng)] }
    let (members, starts, representatives) = ClusterMembers.lists(clusterOf, threads: threads)
    var expectedMembers: [Int32] = [], expectedStarts: [Int32] = [], expectedReps: [Int32] = []
    var byCluster = [Int32: [Int32]]()
    for r in 0..<count { byCluster[clusterOf[r], default: []].append(Int32(r)) }
    for c in 0..<count {
      expectedStarts.append(Int32(expectedMembers.count))
      if let rows = byCluster[Int32(c)] {
        expectedReps.append(Int32(c))
        expectedMembers += rows
      }
    }
    expectedStarts.append(Int32(count))
    #expect(members == expectedMembers)
    #expect(starts == expectedStarts)
    #expect(representatives == expectedReps)
  }

  @Test(arguments: [1, 2, 4])
  func keySetGivesOneIDPerKey(threads: Int) {
    var rng = SeededRandom(seed: 3)
    let distinct = (0..<20_000).map { _ in rng.next() | 1 }
    let keys = (0..<200_000).map { _ in distinct[Int.random(in: 0..<distinct.count, using: &rng)] }
    let set = ConcurrentKeySet(capacity: keys.count)
    let ids = Parallel.map(keys.count, workers: threads) { set.insert(keys[$0]) }
    var idOf = [UInt64: UInt32](), keyOf = [UInt32: UInt64]()
    for (k, id) in zip(keys, ids) {
      #expect(id > 0)
      #expect(idOf[k, default: id] == id)
      #expect(keyOf[id, default: k] == k)
      idOf[k] = id
      keyOf[id] = k
    }
    #expect(set.insert(0) == 0)
  }

  @Test(arguments: [1, 2, 3])
  func firstOccurrencesAreThoseOfAScan(threads: Int) {
    var rng = SeededRandom(seed: 5)
    let count = 60_000, ids = 9_000
    let named = (0..<count).map { _ in (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1..<ids, using: &rng) } }
    let (list, _) = ContactKeys.firstOccurrences(count: count, ids: ids, threads: threads) { r, body in
      for id in named[r] { body(id) }
    }
    var seen = Set<Int>(), expected: [UInt32] = []
    for row in named { for id in row where seen.insert(id).inserted { expected.append(UInt32(id)) } }
    #expect(list == expected)
  }

  @Test(arguments: [1, 2, 3])
  func strongestFirstIsTheComparisonSort(threads: Int) {
    var rng = SeededRandom(seed: 8)
    let weights: [Float] = [3, 3.5, 4, 7.25, -0.0, 0, 12, 100, -.infinity]
    var pairs = Set<UInt64>()
    while pairs.count < 150_000 { pairs.insert(rng.next() >> 8) }
    let ascending = pairs.sorted().map { (pair: $0, weight: rng.pick(weights), vector: UInt32(truncatingIfNeeded: $0)) }
    let reference: ([(pair: UInt64, weight: Float, vector: UInt32)]) -> [UInt64] = { a in
      a.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.pair < $1.pair }.map(\.pair)
    }
    #expect(Deduplicator.strongestFirst(ascending, threads: threads).map(\.pair) == reference(ascending))
    let shuffled = ascending.shuffled(using: &rng)  // not ascending: the comparison sort
    #expect(Deduplicator.strongestFirst(shuffled, threads: threads).map(\.pair) == reference(shuffled))
  }

  @Test(arguments: [1, 2, 3, 7])
  func parallelFillsAreTheirOneThreadForms(threads: Int) {
    var rng = SeededRandom(seed: UInt64(threads))
    // Parts of uneven sizes, empty ones among them.
    let parts = (0..<40).map { i in (0..<(i % 5 == 0 ? 0 : Int.random(in: 1...9000, using: &rng))).map { _ in rng.next() } }
    #expect(ParallelFill.laid(parts, threads: threads) == parts.flatMap { $0 })
    let fixed = ParallelFill.laid(parts, threads: threads) { i, v in v = v &+ UInt64(i) }
    #expect(fixed == parts.flatMap { $0 }.enumerated().map { $0.element &+ UInt64($0.offset) })
    // CSR offsets: each part's ends relative to its own list.
    let lengths = parts.map(\.count)
    let ends = lengths.map { n in (0..<(n / 3)).map { _ in UInt32.random(in: 0...UInt32(n), using: &rng) }.sorted() }
    var expected: [UInt32] = [0], base: UInt32 = 0
    for (e, n) in zip(ends, lengths) {
      expected += e.map { base + $0 }
      base += UInt32(n)
    }
    #expect(ParallelFill.offsets(ends: ends, lengths: lengths, threads: threads) == expected)
    let sorted = (0..<300_000).map { _ in UInt64.random(in: 0..<50_000, using: &rng) }.sorted()
    var unique: [UInt64] = []
    for v in sorted where unique.last != v { unique.append(v) }
    #expect(ParallelFill.uniqued(sorted, threads: threads) == unique)
    #expect(ParallelFill.uniqued(unique, threads: threads) == unique)
    #expect(ParallelFill.uniqued([UInt64](), threads: threads).isEmpty)
    #expect(ParallelFill.filled(100_001, threads: threads) { $0 * 3 } == (0..<100_001).map { $0 * 3 })
    var counted = Array(repeating: 1, count: 70_000)
    ParallelFill.update(&counted, threads: threads) { i, v in v += i }
    #expect(counted == (0..<70_000).map { $0 + 1 })
  }
}
