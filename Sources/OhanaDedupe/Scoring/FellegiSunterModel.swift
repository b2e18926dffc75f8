#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A Fellegi-Sunter model over ``ComparisonVector``s.
///
/// For each comparison `c` and level `l`, `m[c][l] = P(level l | match)` and
/// `u[c][l] = P(level l | non-match)`. Comparisons are taken as independent
/// given the match status, so the match weight of a vector is the sum of
/// `log2(m/u)` over its non-null levels (the log2 Bayes factor); the prior
/// `lambda` (the share of matches) turns it into a probability.
///
/// The probabilities are conditional on being a *candidate pair* (sharing a
/// blocking key), not on a random pair: a shared phone is common among
/// non-matching candidates (households share a landline), so it weighs less
/// than it would against random pairs, and a different given name weighs
/// against a match strongly. The built-in ``defaults`` go further and set
/// the weights directly from measurements, because contact comparisons are
/// far from independent (households). ``estimate(from:iterations:)`` fits the same
/// quantities from the data without labels (EM), as record-linkage tools do.
public struct FellegiSunterModel: Sendable, Hashable {
  /// `m[c.rawValue][level]`; index 0 (null) is unused.
  public var m: [[Double]]
  public var u: [[Double]]
  /// The share of candidate pairs that match; with ``includesPrior``, the
  /// chance that two random records match.
  public var lambda: Double
  /// Whether a vector's weight counts the prior odds,
  /// `log2(lambda / (1 - lambda))`, beside the levels' weights: set when u
  /// comes from random pairs (``RandomPairs``), whose weights are
  /// posterior log-odds only with it. Off, the weight is the levels' sum
  /// alone, compared with the threshold as it is (the built-in weights and
  /// EM over candidate pairs).
  public var includesPrior = false

  /// What a pair that shares no blocking key but a mailbox
  /// (``ComparisonVector/mailboxOnly``) is given in place of its e-mail
  /// level's weight: the log2 odds of those pairs' own share of matches
  /// under this model (EM over that share alone, m and u held), less its
  /// lambda's, set by a fit. Nil (the built-in weights): such a pair weighs as any other
  /// with no e-mail in common.
  public var mailboxShift: Double? = nil

  /// The weight comparison `c` adds at level `l` of a vector, `w` being
  /// ``weights``.
  @inline(__always)
  func levelWeight(_ w: [[Double]], _ c: Comparison, _ l: Int) -> Double {
    if c == .email && l == ComparisonVector.mailboxOnly { return mailboxShift ?? w[c.rawValue][2] }
    return w[c.rawValue][min(l, c.levelCount - 1)]
  }

  public init(m: [[Double]], u: [[Double]], lambda: Double) {
    self.m = m
    self.u = u
    self.lambda = lambda
  }

  /// A model from m probabilities and the weights `log2(m/u)` wanted,
  /// with `u = m / 2^weight` (u then need not sum to 1: see ``defaults``).
  public init(m: [[Double]], weights: [[Double]], lambda: Double) {
    self.m = m
    self.u = zip(m, weights).map { mc, wc in
      zip(mc, wc).enumerated().map { l, p in l == 0 ? 0 : p.0 / pow(2, p.1) }
    }
    self.lambda = lambda
  }

  // m per comparison (null level first), measured on generated data with
  // known duplicates and rounded.
  private static let defaultM: [[Double]] = [
    [0, 0.80, 0.12, 0.05, 0.01, 0.02],  // given: exact, jw>=.92, jw>=.80, phonetic or initial, different
    [0, 0.80, 0.12, 0.05, 0.01, 0.02],  // family
    [0, 0.98, 0.02],  // phone: shared, none shared
    [0, 0.95, 0.05],  // email: shared, none shared
    [0, 0.90, 0.04, 0.02, 0.04],  // birthday: same, close, same year, different
    [0, 0.90, 0.05, 0.01, 0.01, 0.01, 0.02],  // address: same, close, same street, same postcode, near, different
  ]
  // Weights log2(m/u) per level, set from measurements (pairwise F1 on
  // labelled candidate pairs, kept on a plateau rather than a peak) and
  // rounded. They differ from what independent m and u would give because
  // the comparisons are not independent in contact data:
  // - households share a phone, an address and a family name, so a
  //   different given name must outweigh all three (-6 against 6 + 1 + 0.5);
  // - duplicates nearly always keep a phone number, so "no phone in common"
  //   speaks strongly against a match (-9), even with a shared e-mail
  //   (addresses built from names, john.smith@..., are shared by namesakes);
  // - a different family name is weak evidence (marriage, transliteration,
  //   swapped fields), a different birthday too (one record's may be a guess).
  // - a birthday one typo away (a digit, or day and month swapped) is good
  //   evidence (2), but namesakes sharing an e-mail are often born close
  //   together: at 3 they were merged (precision fell on generated data);
  //   the same year alone says little (0.5);
  // - family names that sound alike are weak evidence (0.5); given names
  //   that only sound alike or share an initial count as different (-6):
  //   in a household (shared phone, address and family name) they are
  //   mostly other people (at 0.5, false merges on generated data).
  // - an address close to the other (a typo in the street) counts as the
  //   same; the same street with another house number as the same
  //   postcode; a near one (the postcode typed wrong) as different: in
  //   address books it is mostly a neighbour.
  private static let defaultWeights: [[Double]] = [
    [0, 2, 2, 1, -6, -6],
    [0, 1, 1, 1, 0.5, -1],
    [0, 6, -9],
    [0, 6, -5.5],
    [0, 4.5, 2, 0.5, -1.5],
    [0, 0.5, 0.5, 0, 0, -3, -3],
  ]

  /// The built-in model (see the comments on its tables in the source).
  public static let defaults = FellegiSunterModel(m: defaultM, weights: defaultWeights, lambda: 0.1)

  /// `log2(m/u)` per comparison and level (0 for the null level).
  public var weights: [[Double]] {
    var out: [[Double]] = []
    for c in 0..<m.count {
      var row = [Double](repeating: 0, count: m[c].count)
      for l in 1..<m[c].count {
        let mc: Double = max(m[c][l], 1e-6)
        let uc: Double = max(u[c][l], 1e-6)
        row[l] = log2(mc / uc)
      }
      out.append(row)
    }
    return out
  }

  /// What every vector's weight starts from: the prior log-odds with
  /// ``includesPrior``, else 0.
  public var priorWeight: Double { includesPrior ? priorLogOdds : 0 }

  /// `log2(lambda / (1 - lambda))`, lambda kept off 0 and 1.
  public var priorLogOdds: Double {
    let l = min(max(lambda, 1e-12), 1 - 1e-12)
    return log2(l / (1 - l))
  }

  /// A lookup table of the match weight of every vector.
  package func weightTable() -> [Float] {
    let w = weights
    let prior = priorWeight
    var table = [Float](repeating: 0, count: ComparisonVector.space)
    for raw in 0..<ComparisonVector.space {
      let v = ComparisonVector(rawValue: UInt32(raw))
      var s = prior
      var valid = true
      for c in Comparison.allCases {
        let l = v[c]
        if l >= c.levelCount && !(c == .email && l == ComparisonVector.mailboxOnly) { valid = false; break }
        s += levelWeight(w, c, l)
      }
      table[raw] = valid ? Float(s) : 0
    }
    return table
  }

  /// The match weight of one vector.
  public func weight(_ v: ComparisonVector) -> Double {
    let w = weights
    return Comparison.allCases.reduce(priorWeight) { $0 + levelWeight(w, $1, v[$1]) }
  }

  /// The probability of a match given a weight, with this model's prior
  /// (counted already in a weight of a model that ``includesPrior``).
  public func probability(weight: Double) -> Double {
    let odds = includesPrior ? pow(2, weight) : pow(2, weight) * lambda / max(1e-12, 1 - lambda)
    return odds / (1 + odds)
  }

  /// Whether the weights say what agreement means, judged on the levels
  /// that occur in `counts` (pairs per comparison vector): for given name,
  /// family name and birthday, the first level (exact, same) weighs more
  /// than the last (different), the first not clearly against a match
  /// (at least -1) and the last not clearly for one (at most 1); the same
  /// address weighs for a match and a different one not (at most 1). EM on
  /// candidate pairs can settle on another split of the pairs (households,
  /// which agree on phone, address and family name, or namesakes) and then
  /// breaks these; such a fit is not used (see
  /// ``Deduplicator/findDuplicates(in:)``).
  public func isPlausible(for counts: [Int]) -> Bool {
    var seen = Comparison.allCases.map { [Bool](repeating: false, count: $0.levelCount) }
    for raw in counts.indices where counts[raw] > 0 {
      let v = ComparisonVector(rawValue: UInt32(raw))
      for c in Comparison.allCases where v[c] < c.levelCount { seen[c.rawValue][v[c]] = true }
    }
    let w = weights
    for c in [Comparison.givenName, .familyName, .birthday] {
      let last = c.levelCount - 1
      let first = w[c.rawValue][1], different = w[c.rawValue][last]
      if seen[c.rawValue][1] && first < -1 { return false }
      if seen[c.rawValue][last] && different > 1 { return false }
      if seen[c.rawValue][1] && seen[c.rawValue][last] && first <= different { return false }
    }
    let a = Comparison.address
    if seen[a.rawValue][1] && w[a.rawValue][1] <= 0 { return false }
    if seen[a.rawValue][a.levelCount - 1] && w[a.rawValue][a.levelCount - 1] > 1 { return false }
    return true
  }

  /// The comparisons whose weights are not monotone in their levels: a
  /// level of stronger agreement (a lower level number: exact before
  /// Jaro-Winkler, same before close) weighs less than a weaker one,
  /// judged on the levels that occur in `counts` (pairs per comparison
  /// vector). EM can settle there on a split of the pairs that is not
  /// match against non-match (households, namesakes), and an exact name
  /// weighing less than a fuzzy one is never what the data means.
  public func nonMonotone(for counts: [Int]) -> [Comparison] {
    let seen = Self.levelsSeen(counts)
    let w = weights
    return Comparison.allCases.filter { c in
      var stronger = Double.infinity
      for l in 1..<c.levelCount where seen[c.rawValue][l] {
        if w[c.rawValue][l] > stronger + 1e-9 { return true }
        stronger = w[c.rawValue][l]
      }
      return false
    }
  }

  /// Per comparison and level, whether a pair of `counts` has it.
  static func levelsSeen(_ counts: [Int]) -> [[Bool]] {
    var seen = Comparison.allCases.map { [Bool](repeating: false, count: $0.levelCount) }
    for raw in counts.indices where counts[raw] > 0 {
      let v = ComparisonVector(rawValue: UInt32(raw))
      for c in Comparison.allCases where v[c] < c.levelCount { seen[c.rawValue][v[c]] = true }
    }
    return seen
  }

  /// This model with every comparison's weights made monotone over its
  /// levels, by pooling adjacent violators: where a stronger level weighs
  /// less than a weaker one, the run of levels between them takes their
  /// mean weight, each level counted by its pairs in `counts` (isotonic
  /// regression). A level no pair had, whose weight EM left to its
  /// smoothing, weighs at most as much as the level before it. So no pair,
  /// a cross pair of the chaining guard included, meets a level that
  /// weighs more than a stronger one, and the fit keeps what the data said
  /// (FEBRL's blocked pairs agree on exact names among non-matches so
  /// often that EM puts an exact given name a little below a Jaro-Winkler
  /// one: pooled, both keep about the exact name's weight; replaced by the
  /// built-in address-book weights instead, FEBRL1's F1 fell from 0.998 to
  /// 0.959).
  public func monotone(for counts: [Int]) -> FellegiSunterModel {
    var out = self
    var pairs = Comparison.allCases.map { [Double](repeating: 0, count: $0.levelCount) }
    for raw in counts.indices where counts[raw] > 0 {
      let v = ComparisonVector(rawValue: UInt32(raw))
      for c in Comparison.allCases where v[c] < c.levelCount { pairs[c.rawValue][v[c]] += Double(counts[raw]) }
    }
    let w = weights
    for c in Comparison.allCases {
      let levels = (1..<c.levelCount).filter { pairs[c.rawValue][$0] > 0 }
      // Blocks of (levels, total pairs, mean weight), merged while a block
      // weighs more than the one before it.
      var blocks: [(levels: [Int], n: Double, mean: Double)] = []
      for l in levels {
        blocks.append(([l], pairs[c.rawValue][l], w[c.rawValue][l]))
        while blocks.count > 1 && blocks[blocks.count - 1].mean > blocks[blocks.count - 2].mean {
          let last = blocks.removeLast(), prev = blocks.removeLast()
          let n = last.n + prev.n
          blocks.append((prev.levels + last.levels, n, (prev.mean * prev.n + last.mean * last.n) / n))
        }
      }
      var target = w[c.rawValue]
      for b in blocks { for l in b.levels { target[l] = b.mean } }
      var stronger = Double.infinity
      for l in 1..<c.levelCount {
        if target[l] > stronger { target[l] = stronger }
        stronger = target[l]
        if abs(target[l] - w[c.rawValue][l]) > 1e-12 {
          out.u[c.rawValue][l] = max(out.m[c.rawValue][l], 1e-6) / pow(2, target[l])
        }
      }
    }
    return out
  }

  /// Fits m, u and lambda to the comparison vectors of the candidate pairs
  /// by expectation-maximization (no labels), starting from this model.
  /// `counts[v]` is the number of pairs with vector `v`.
  ///
  /// - Complexity: O(iterations × distinct vectors × comparisons).
  /// With `fixU` (as record-linkage tools do by default, u coming from
  /// elsewhere), only m and lambda move.
  public func estimate(from counts: [Int], iterations: Int = 40, fixU: Bool = false) -> FellegiSunterModel {
    var model = self
    let patterns = counts.indices.filter { counts[$0] > 0 }
    if patterns.isEmpty { return model }
    let cs = Comparison.allCases
    for _ in 0..<iterations {
      var mNum = cs.map { [Double](repeating: 0, count: $0.levelCount) }
      var uNum = mNum
      var matchTotal = 0.0, total = 0.0
      for p in patterns {
        let v = ComparisonVector(rawValue: UInt32(p))
        var lm = model.lambda, lu = 1 - model.lambda
        for c in cs {
          let l = v.modelLevel(c)
          if l == 0 { continue }
          lm *= model.m[c.rawValue][l]
          lu *= model.u[c.rawValue][l]
        }
        let post = lm / max(lm + lu, 1e-300)
        let n = Double(counts[p])
        matchTotal += post * n
        total += n
        for c in cs {
          let l = v.modelLevel(c)
          if l == 0 { continue }
          mNum[c.rawValue][l] += post * n
          uNum[c.rawValue][l] += (1 - post) * n
        }
      }
      for c in cs {
        let ms = mNum[c.rawValue].reduce(0, +), us = uNum[c.rawValue].reduce(0, +)
        for l in 1..<c.levelCount {
          // A little smoothing keeps a level that never occurs from
          // turning into an infinite weight.
          if ms > 0 { model.m[c.rawValue][l] = (mNum[c.rawValue][l] + 0.5) / (ms + 0.5 * Double(c.levelCount - 1)) }
          if us > 0 && !fixU { model.u[c.rawValue][l] = (uNum[c.rawValue][l] + 0.5) / (us + 0.5 * Double(c.levelCount - 1)) }
        }
      }
      model.lambda = min(0.999, max(0.001, matchTotal / max(total, 1)))
    }
    return model
  }
}
