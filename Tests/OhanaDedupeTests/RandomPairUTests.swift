import OhanaCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@testable import OhanaDedupe

/// Issue 45, "the u probabilities from random pairs": the sample, the u it
/// gives with the matches' part taken out, and the prior in the weights.
/// Expectations come from the statements in ``RandomPairs``' documentation,
/// worked out here, or from a brute-force walk over every pair.
@Suite struct RandomPairUTests {
  static func table(_ n: Int) -> ContactTable {
    let given = ["Ann", "Anne", "Bob", "Carl", "Dora", "Eve", "Finn"]
    let family = ["Smith", "Smyth", "Jones", "Brown", "Black"]
    return ContactTable(
      contacts: (0..<n).map { i in
        var c = Contact(givenName: given[i % given.count], familyName: family[(i / 3) % family.count])
        c.uid = "r\(i)"
        if i % 4 == 0 { c.birthday = "1980-01-\(10 + i % 7)" }
        return c
      })
  }

  /// A table of fewer pairs than the sample takes every pair once: the
  /// level counts equal a brute-force walk over all `i < j`, in chunks of
  /// any size (each chunk starts its walk mid-way) and at any thread count.
  @Test(arguments: [1, 7, 100, 1 << 14])
  func aSmallTableIsWalkedWholeOnce(chunk: Int) {
    let n = 41
    let keys = ContactKeys(table: Self.table(n), configuration: DedupeConfiguration())
    let scorer = PairScorer(keys: keys)
    var expected = Comparison.allCases.map { [Int](repeating: 0, count: $0.levelCount) }
    for i in 0..<n {
      for j in (i + 1)..<n {
        let v = scorer.vector(i, j)
        for c in Comparison.allCases { expected[c.rawValue][min(v[c], c.levelCount - 1)] += 1 }
      }
    }
    for threads in [1, 3] {
      let got = RandomPairs.levelCounts(scorer, count: n, threads: threads, minimumChunk: chunk)
      #expect(got.pairs == n * (n - 1) / 2)
      #expect(got.levels == expected)
    }
  }

  /// Drawn pairs are two different rows in range, lower first, and every
  /// pair of a 7-row table comes up about equally often (21 pairs, 21,000
  /// draws: about 1,000 each).
  @Test func drawnPairsAreUniformOverDistinctRows() {
    var seen = [Int: Int]()
    for i in 0..<21_000 {
      let (a, b) = RandomPairs.pair(i, of: 7)
      #expect(a >= 0 && a < b && b < 7)
      seen[a * 7 + b, default: 0] += 1
    }
    #expect(seen.count == 21)
    #expect(seen.values.allSatisfy { $0 > 800 && $0 < 1200 }, "\(seen)")
  }

  /// u = (share - lambda·m) / (1 - lambda), share add-one smoothed over
  /// the levels present, never below one pair's share; the prior is in
  /// every weight.
  @Test func uIsTheRandomShareLessTheMatches() {
    var levels = Comparison.allCases.map { [Int](repeating: 0, count: $0.levelCount) }
    // Given name: 1,000,000 pairs with both present (and 7 with none).
    levels[Comparison.givenName.rawValue] = [7, 1000, 20, 4030, 900, 994_050]
    let lambda = 0.0005
    var model = FellegiSunterModel.defaults
    model.m[Comparison.givenName.rawValue] = [0, 0.8, 0.1, 0.05, 0.03, 0.02]
    let fitted = model.withRandomU(levels, lambda: lambda)
    let denominator = 1_000_000.0 + 5
    let u = fitted.u[Comparison.givenName.rawValue]
    // Exact: 1001/1000005 = 0.001001, less 0.0005 · 0.8 = 0.0004.
    #expect(abs(u[1] - (1001 / denominator - 0.0004) / 0.9995) < 1e-12)
    // Jaro-Winkler ≥ 0.92: 21/1000005 = 0.000021, less than the matches'
    // part 0.0005 · 0.1 = 0.00005: the floor, one pair's share 1/1000005.
    #expect(abs(u[2] - 1 / denominator) < 1e-15)
    #expect(abs(u[5] - (994_051 / denominator - 0.0005 * 0.02) / 0.9995) < 1e-12)
    // Comparisons without random counts keep their u.
    #expect(fitted.u[Comparison.phone.rawValue] == model.u[Comparison.phone.rawValue])
    #expect(fitted.includesPrior && fitted.lambda == lambda)
    let prior = log2(0.0005 / 0.9995)
    #expect(abs(fitted.priorWeight - prior) < 1e-12)
    var v = ComparisonVector(rawValue: 0)
    v[.givenName] = 1
    #expect(abs(fitted.weight(v) - (prior + log2(0.8 / u[1]))) < 1e-9)
    #expect(abs(Double(fitted.weightTable()[Int(v.rawValue)]) - fitted.weight(v)) < 1e-4)
    // The probability of a weight that holds the prior: 2^w / (1 + 2^w).
    #expect(abs(fitted.probability(weight: 3) - 8.0 / 9.0) < 1e-12)
    #expect(!FellegiSunterModel.defaults.includesPrior && FellegiSunterModel.defaults.priorWeight == 0)
  }

  /// The stored model keeps whether the prior is in its weights; a model
  /// stored before (no `prior` part) reads as without.
  @Test func theStoredModelKeepsThePrior() throws {
    var m = FellegiSunterModel.defaults
    m.lambda = 0.001
    m.includesPrior = true
    let back = try #require(FellegiSunterModel(storedText: m.storedText))
    #expect(back == m)
    let old = try #require(FellegiSunterModel(storedText: FellegiSunterModel.defaults.storedText))
    #expect(!old.includesPrior)
    #expect(m.storedText.hasSuffix("|prior=1") && FellegiSunterModel(storedText: String(m.storedText.dropLast()) + "2") == nil)
  }

  /// End to end: 150 people with two records each (300 rows, 44,850
  /// pairs, 150 true): the prior EM and the sample give is a random pair's
  /// chance of a match, 150 / 44,850, within a factor of two; the weights
  /// are monotone; and the clusters are the same at every thread count.
  @Test func thePriorIsARandomPairsChanceOfAMatch() {
    let people = ModelSafetyTests.people()
    var config = DedupeConfiguration()
    config.estimateWeights = true
    config.uFromRandomPairs = true
    config.threads = 1
    let one = Deduplicator(configuration: config).findDuplicates(in: people.table)
    config.threads = 3
    let three = Deduplicator(configuration: config).findDuplicates(in: people.table)
    #expect(one.clusterOf == three.clusterOf)
    #expect(one.model == three.model)
    #expect(one.statistics.weightsEstimated)
    #expect(one.model.includesPrior)
    let truth = 150.0 / 44_850
    #expect(one.model.lambda > truth / 2 && one.model.lambda < truth * 2, "\(one.model.lambda)")
    #expect(ModelSafetyTests.isMonotone(one.model), "\(one.model.weights)")
  }
}
