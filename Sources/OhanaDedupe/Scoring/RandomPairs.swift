import OhanaCore

/// The u probabilities from random pairs, as Splink estimates them: the
/// chance that two records drawn at random (almost all of them different
/// people) agree at each level of each comparison.
///
/// EM over candidate pairs learns a u conditional on *sharing a blocking
/// key*: most non-matching candidates share a family name, so an exact
/// family name weighs little (1.05 on a held-out web table) and an exact
/// given name a lot (13.9); two different people with the same given
/// name then pass the threshold. Over random pairs both mean what they
/// mean in the population, and the prior odds of a match between two
/// random records, `log2(λr / (1 - λr))`, goes into the weight
/// (``FellegiSunterModel/includesPrior``), so the threshold is a bound on
/// the posterior log-odds of a match (3: p ≥ 8/9).
enum RandomPairs {
  /// Pairs drawn (every pair when the table has fewer).
  static let sampleSize = 1_000_000
  static let seed: UInt64 = 0x0A4A_4A11

  /// The `i`th pair drawn from `n` rows (`a < b`), a pure function of `i`:
  /// the same sample at every thread count.
  @inline(__always)
  static func pair(_ i: Int, of n: Int) -> (Int, Int) {
    var z = seed &+ UInt64(i) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    let a = Int((z >> 32) % UInt64(n))
    var b = Int((z & 0xFFFF_FFFF) % UInt64(n - 1))
    if b >= a { b += 1 }
    return (min(a, b), max(a, b))
  }

  /// Per comparison and level, how many of the sampled pairs have it
  /// (index 0: a side has no value), and how many pairs were drawn.
  static func levelCounts(_ scorer: PairScorer, count n: Int, threads: Int, minimumChunk: Int = 1 << 14)
    -> (levels: [[Int]], pairs: Int)
  {
    let cs = Comparison.allCases
    let empty = cs.map { [Int](repeating: 0, count: $0.levelCount) }
    guard n >= 2 else { return (empty, 0) }
    let all = n * (n - 1) / 2
    let exhaustive = all <= sampleSize
    let drawn = exhaustive ? all : sampleSize
    let parts = Parallel.map(count: drawn, threads: threads, minimumChunk: minimumChunk) { range -> [[Int]] in
      var counts = empty
      // Every pair in order, walked from the range's first pair.
      var a = 0, b = 1
      if exhaustive {
        var k = range.lowerBound
        while k >= n - 1 - a { k -= n - 1 - a; a += 1 }
        b = a + 1 + k
      }
      for i in range {
        let (x, y): (Int, Int)
        if exhaustive {
          (x, y) = (a, b)
          b += 1
          if b == n { a += 1; b = a + 1 }
        } else {
          (x, y) = pair(i, of: n)
        }
        let v = scorer.vector(x, y)
        for c in cs { counts[c.rawValue][v.modelLevel(c)] += 1 }
      }
      return counts
    }
    var total = empty
    for p in parts {
      for c in cs { for l in 0..<c.levelCount { total[c.rawValue][l] += p[c.rawValue][l] } }
    }
    return (total, drawn)
  }
}

extension FellegiSunterModel {
  /// This model's m with u from `levels` (random pairs per comparison and
  /// level, ``RandomPairs/levelCounts(_:count:threads:)``), add-one
  /// smoothed so that a level no random pair had weighs much but not
  /// infinitely, and `lambda` the prior of a match between two random
  /// records, counted in the weights.
  func withRandomU(_ levels: [[Int]], lambda: Double) -> FellegiSunterModel {
    var out = self
    for c in Comparison.allCases {
      let present = (1..<c.levelCount).reduce(0) { $0 + levels[c.rawValue][$1] }
      guard present > 0 else { continue }
      // Random pairs hold matches too, at the rate `lambda`: where records
      // have few duplicates each that is negligible, but in a table of
      // 10,000 with 23,000 true pairs, most random pairs that share an
      // e-mail are the same person. So the matches' part, `lambda · m`,
      // is taken out: u = (share - lambda · m) / (1 - lambda), at least
      // what one pair in the sample would give.
      let floor = 1 / (Double(present) + Double(c.levelCount - 1))
      for l in 1..<c.levelCount {
        let share = (Double(levels[c.rawValue][l]) + 1) / (Double(present) + Double(c.levelCount - 1))
        out.u[c.rawValue][l] = max(floor, (share - lambda * m[c.rawValue][l]) / (1 - lambda))
      }
    }
    out.lambda = lambda
    out.includesPrior = true
    return out
  }
}
