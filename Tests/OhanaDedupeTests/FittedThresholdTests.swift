import OhanaCore
import OhanaDatasets
import OhanaIO
import Testing

@testable import OhanaDedupe

/// Weights EM fitted over the candidate pairs are judged against a
/// threshold of their own (``DedupeConfiguration/estimatedThreshold``, 1);
/// the built-in weights and weights that count the prior keep 3.
@Suite struct FittedThresholdTests {
  /// On generated hand-keyed records (EM fits them): every joined pair
  /// weighs at least 1, some of them less than 3 (pairs the one threshold
  /// of before refused); with `setThreshold(3)` (a user's `--threshold 3`)
  /// none weighs less than 3, and fewer are joined.
  @Test func fittedWeightsAreJudgedAgainstTheirOwnThreshold() throws {
    var bytes: [UInt8] = []
    let g = DatasetGenerator(
      options: GeneratorOptions(contacts: 4000, seed: 3, version: .mixed, dupRate: 0.3, handKeyed: true))
    try g.generate(vcard: { bytes.append(contentsOf: $0) })
    let table = try ContactIO.read(bytes: bytes, format: .vcard4).table
    var config = DedupeConfiguration()
    config.estimateWeights = true
    let fitted = Deduplicator(configuration: config).findDuplicates(in: table)
    #expect(fitted.statistics.weightsEstimated, "EM's fit was rejected: this test needs fitted weights")
    #expect(config.threshold(for: fitted.model) == 1)
    let weights = fitted.pairs.map(\.weight)
    #expect(!weights.isEmpty && weights.allSatisfy { $0 >= 1 })
    #expect(weights.contains { $0 < 3 })
    var three = config
    three.setThreshold(3)
    #expect(three.threshold == 3 && three.estimatedThreshold == 3)
    let strict = Deduplicator(configuration: three).findDuplicates(in: table)
    #expect(strict.pairs.allSatisfy { $0.weight >= 3 })
    #expect(strict.pairs.count < fitted.pairs.count)
  }

  /// Which threshold a model is judged against.
  @Test func theBuiltInWeightsAndWeightsWithThePriorKeepThree() {
    let c = DedupeConfiguration()
    #expect(c.threshold == 3 && c.estimatedThreshold == 1)
    #expect(c.threshold(for: .defaults) == 3)
    var fitted = FellegiSunterModel.defaults
    fitted.lambda = 0.3  // any model but the built-in one was fitted
    #expect(c.threshold(for: fitted) == 1)
    fitted.includesPrior = true  // u from random pairs: the weight is the posterior log-odds
    #expect(c.threshold(for: fitted) == 3)
  }
}
