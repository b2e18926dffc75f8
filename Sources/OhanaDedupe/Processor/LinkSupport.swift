import OhanaCore

// What the entity store (Sources/OhanaStore) needs of dedupe's internals,
// at `package` level: a table's blocking keys as values that mean the same
// in every table (so they can be kept and looked up later), and scoring and
// guarded clustering over a table of stored and new contacts.

/// The dedupe keys of one table, for linking it to an entity store.
package struct LinkKeys: Sendable {
  let keys: ContactKeys
  package let configuration: DedupeConfiguration

  /// The version of the kept keys (block hashes, neighbourhood and sorted
  /// name keys). A store made under another version has its keys rebuilt
  /// before use. Raise it with any change to ``Blocking/blockKey(_:_:)``,
  /// ``Hash64``, the rule keys or the key functions behind them.
  /// 2: the rules `names-sound` and `birthday+initial`, and locality keys
  /// for addresses without a postcode. 3: the rule `mailbox`. 4: street
  /// types in their full form in the street key (``StreetTypes``).
  package static let version = 4

  package init(table: ContactTable, configuration: DedupeConfiguration) {
    keys = ContactKeys(table: table, configuration: configuration)
    self.configuration = configuration
  }

  package var count: Int { keys.count }

  /// Calls `body(key)` for each blocking key of `rows`' rows: the block
  /// hash (``Blocking/blockKey(_:_:)``) with its lowest bit set for the
  /// typo-tolerant rules' blocks and clear for the others, as the full run
  /// tells the two apart.
  package func forEachBlockingKey(_ rows: Range<Int>, _ body: (Int, UInt64, BlockingKey) -> Void) {
    let rules = configuration.blockingRules
    let configuration = self.configuration
    let keys = self.keys
    keys.folds.withStorage { arena, ends in
      for r in rows {
        if !rules.isEmpty {
          Blocking.forEachRuleKey(keys, r, rules: rules, arena: arena, ends: ends) { key, kind in
            body(r, Blocking.blockKey(key, kind) | 1, kind)
          }
        }
        Blocking.forEachBasicKey(keys, r, configuration: configuration) { key, kind in
          body(r, Blocking.blockKey(key, kind) & ~1, kind)
        }
      }
    }
  }

  /// The key of a capped block's sorted neighbourhood (name key and first
  /// phone together, see ``Blocking``): 0 for a contact without a name key.
  package func neighbourhoodKey(_ r: Int) -> UInt64 {
    let nk = keys.nameKey[r]
    return nk == 0 ? 0 : Hash64.combine(nk, UInt64(keys.records[r].sketch.p0)) | 1
  }

  /// The row's place in the sorted neighbourhood over names (nil when it
  /// has no family name, or the rule is off).
  package func sortedNameKey(_ r: Int) -> UInt64? {
    guard configuration.blockingRules.contains(.sortedNames) else { return nil }
    return keys.folds.withStorage { arena, ends in Blocking.sortedNameKey(keys, r, arena: arena, ends: ends) }
  }

  /// How many following rows in name order the sorted neighbourhood pairs.
  package static var sortedNameNeighbours: Int { Blocking.windowNeighbours }
  /// In a capped block, how many following rows of one neighbourhood key are paired.
  package static var cappedNeighbours: Int { Blocking.neighbours }
}

/// Scores pairs of one table's rows with a fixed model (no term
/// frequencies: they would change with every batch).
package struct LinkScorer: Sendable {
  let keys: ContactKeys
  let scorer: PairScorer
  let table: [Float]
  let bound: ScoreBound
  let deduplicator: Deduplicator

  package init(keys: LinkKeys, model: FellegiSunterModel) {
    self.keys = keys.keys
    scorer = PairScorer(keys: keys.keys, configuration: keys.configuration)
    table = model.weightTable()
    bound = ScoreBound(model: model, threshold: keys.configuration.threshold(for: model))
    deduplicator = Deduplicator(configuration: keys.configuration, model: model)
  }

  /// The weight and vector of a pair, or nil when its phones and e-mails
  /// alone keep it below the threshold.
  package func score(_ a: Int, _ b: Int) -> (weight: Double, vector: ComparisonVector)? {
    guard let v = scorer.vector(a, b, bound: bound) else { return nil }
    return (Double(table[Int(v.rawValue)]), v)
  }

  /// The weight of a pair, always computed (for the chaining guard).
  package func weight(_ a: Int, _ b: Int) -> Double { Double(table[Int(scorer.vector(a, b).rawValue)]) }

  /// The pair with its evidence, as ``DedupeResult/pairs`` holds it.
  package func matchedPair(_ a: Int, _ b: Int, weight: Double, vector: ComparisonVector) -> MatchedPair {
    MatchedPair(
      first: min(a, b), second: max(a, b), weight: weight, vector: vector,
      sharedKeys: deduplicator.sharedKeys(keys, a, b, vector))
  }
}

/// Guarded clustering (the full run's) for linking: stored clusters are
/// united first, without the guard; new pairs then join with it.
package struct LinkClustering {
  var clustering: GuardedClustering
  let maxClusterSize: Int
  let linkThreshold: Double
  let linkage: GuardLinkage

  package init(count: Int, configuration: DedupeConfiguration) {
    clustering = GuardedClustering(count: count)
    maxClusterSize = max(2, configuration.maxClusterSize)
    linkThreshold = configuration.linkThreshold
    linkage = configuration.guardLinkage
  }

  package mutating func unite(_ a: Int, _ b: Int) { clustering.unite(a, b) }

  /// Tries to join `a`'s and `b`'s clusters under the chaining guard.
  package mutating func join(_ a: Int, _ b: Int, scorer: LinkScorer) -> Bool {
    clustering.join(a, b, maxClusterSize: maxClusterSize, linkThreshold: linkThreshold, linkage: linkage) { x, y in scorer.weight(x, y) }
  }

  /// ``join(_:_:scorer:)`` that also refuses a join bringing together two
  /// rows a reviewer's decision keeps apart (read by the guard as a cross
  /// pair of weight -inf, as a full run does). `refusedByDecision` tells
  /// why a refusal was made.
  package mutating func join(
    _ a: Int, _ b: Int, scorer: LinkScorer, decisions: DecisionConstraints, refusedByDecision: inout Bool
  ) -> Bool {
    if decisions.keepsApart(a, b) {
      refusedByDecision = true
      return false
    }
    var byDecision = false
    let ok = clustering.join(a, b, maxClusterSize: maxClusterSize, linkThreshold: linkThreshold, linkage: linkage) { x, y in
      if decisions.keepsApart(x, y) {
        byDecision = true
        return -.infinity
      }
      return scorer.weight(x, y)
    }
    refusedByDecision = !ok && byDecision
    return ok
  }

  package mutating func find(_ a: Int) -> Int { clustering.find(a) }

  /// For every row, its cluster's smallest row.
  package mutating func clusterIDs() -> [Int32] { clustering.clusterIDs() }
}

extension Deduplicator {
  /// ``findDuplicates(in:)`` on keys already computed (of `table`, whose
  /// uids the configuration's decisions name).
  package func findDuplicates(linkKeys: LinkKeys, table: ContactTable? = nil) -> DedupeResult {
    findDuplicates(keys: linkKeys.keys, decisions: table.map { constraints($0) } ?? DecisionConstraints())
  }

  /// ``merge(_:_:)`` on keys already computed.
  package func merge(_ table: ContactTable, _ result: DedupeResult, linkKeys: LinkKeys) -> ContactTable {
    merge(table, result, keys: MergeKeys(linkKeys.keys))
  }
}

extension DedupeResult {
  /// A result made by linking (the entity store): clusters and the pairs
  /// that joined them, no statistics.
  package static func linked(clusterOf: [Int32], pairs: [MatchedPair], model: FellegiSunterModel) -> DedupeResult {
    DedupeResult(clusterOf: clusterOf, pairs: pairs, model: model, statistics: Statistics())
  }
}

extension FellegiSunterModel {
  /// The model as text, every number in full (`m`, `u` per comparison and
  /// level, then lambda, and the mailbox shift when set), for the entity
  /// store and the distributed job.
  package var storedText: String {
    func row(_ a: [[Double]]) -> String { a.map { $0.map { "\($0)" }.joined(separator: ",") }.joined(separator: ";") }
    return "m=\(row(m))|u=\(row(u))|lambda=\(lambda)" + (includesPrior ? "|prior=1" : "")
      + (mailboxShift.map { "|mailbox=\($0)" } ?? "")
  }

  /// A model from ``storedText`` (nil when it does not parse or its shape
  /// is not today's comparisons and levels).
  package init?(storedText text: String) {
    var m: [[Double]]? = nil, u: [[Double]]? = nil, lambda: Double? = nil, prior = false, mailbox: Double? = nil
    for part in text.split(separator: "|") {
      let kv = part.split(separator: "=", maxSplits: 1)
      guard kv.count == 2 else { return nil }
      func table(_ s: Substring) -> [[Double]]? {
        var out: [[Double]] = []
        for r in s.split(separator: ";", omittingEmptySubsequences: false) {
          var row: [Double] = []
          for x in r.split(separator: ",") {
            guard let d = Double(x) else { return nil }
            row.append(d)
          }
          out.append(row)
        }
        return out
      }
      switch kv[0] {
      case "m": m = table(kv[1])
      case "u": u = table(kv[1])
      case "lambda": lambda = Double(kv[1])
      case "prior":
        guard kv[1] == "1" else { return nil }
        prior = true
      case "mailbox":
        guard let x = Double(kv[1]), x.isFinite else { return nil }
        mailbox = x
      default: return nil
      }
    }
    guard let m, let u, let lambda, m.count == Comparison.allCases.count, u.count == m.count else { return nil }
    for c in Comparison.allCases where m[c.rawValue].count != c.levelCount || u[c.rawValue].count != c.levelCount {
      return nil
    }
    self.init(m: m, u: u, lambda: lambda)
    includesPrior = prior
    mailboxShift = mailbox
  }
}

extension LinkKeys {
  /// The candidate pairs of this table (the full run's blocking), keeping
  /// only those with at least one row at or past `start` (the new rows of
  /// a link, which follow the stored ones). Pairs are `low << 32 | high`.
  package func candidatePairs(model: FellegiSunterModel, involvingRowsFrom start: Int) -> [UInt64] {
    var stats = DedupeResult.Statistics()
    let bound = ScoreBound(model: model, threshold: configuration.threshold(for: model))
    var pairs = Blocking.candidatePairs(
      keys: keys, configuration: configuration, bound: bound, statistics: &stats, involving: start)
    pairs.removeAll { Int($0 & 0xFFFF_FFFF) < start }
    return pairs
  }

  /// Row `r`'s class for the rules' skip: 1 has phones, 2 has e-mails.
  package func contactClass(_ r: Int) -> Int {
    let s = keys.records[r].sketch
    return (s.phoneCount > 0 ? 1 : 0) | (s.emailCount > 0 ? 2 : 0)
  }
}

/// Which pairs of contact classes (``LinkKeys/contactClass(_:)``) the
/// typo-tolerant rules skip under a model and threshold: the full run's
/// ``RuleSkip``, for pairs met through the store.
package struct LinkRuleSkip: Sendable {
  private let table: [Bool]

  private let bound: ScoreBound

  package init(model: FellegiSunterModel, threshold: Double) {
    bound = ScoreBound(model: model, threshold: threshold)
    table = RuleSkip.classTable(bound)
  }

  /// Whether a pair whose phone and e-mail levels are these
  /// (``Comparison/phone``, ``Comparison/email``) can never reach the threshold: the
  /// scorer's early exit, taken before a stored contact is read.
  package func cannotReach(phone: Int, email: Int) -> Bool { bound.cannotReach(phone: phone, email: email) }

  package func skips(_ a: Int, _ b: Int) -> Bool { table[(a & 3) * 4 + (b & 3)] }
}

// What the distributed job (python/ohana/spark.py, through OhanaFFI) needs
// beyond the entity store: term-frequency inputs that can be counted over
// all tasks, unbounded vectors for EM, and the full run's decisions about
// weights, so that Spark's answer is the one machine's.

extension LinkKeys {
  /// Hashes of row `r`'s folded family name and canonical given name (0
  /// when absent): the values ``TermFrequency`` counts, as numbers that
  /// mean the same in every task.
  package func termHashes(_ r: Int) -> (family: UInt64, given: UInt64) {
    keys.folds.withStorage { arena, ends in
      func h(_ id: StringID) -> UInt64 {
        if id.isAbsent { return 0 }
        return Hash64.hash(UnsafeRawBufferPointer(rebasing: arena[ends[id.index - 1]..<ends[id.index]])) | 1
      }
      return (h(keys.family[r]), h(keys.givenCanonical[r]))
    }
  }
}

extension LinkScorer {
  /// The comparison vector of a pair, always computed (EM counts every pair).
  package func vector(_ a: Int, _ b: Int) -> ComparisonVector { scorer.vector(a, b) }

  /// Which exact name agreements of a pair with vector `v` earn a
  /// term-frequency adjustment (``TermFrequency/adjustment(_:_:_:_:)``'s test).
  package func termAgreements(_ a: Int, _ b: Int, _ v: ComparisonVector) -> (family: Bool, given: Bool) {
    let f = keys.family[a], g = keys.givenCanonical[a]
    return (
      v[.familyName] == 1 && f.isPresent && f == keys.family[b],
      v[.givenName] == 1 && g.isPresent && g == keys.givenCanonical[b]
    )
  }

  /// The weight of vector `v` under the model, without adjustments.
  package func tableWeight(_ v: ComparisonVector) -> Float { table[Int(v.rawValue)] }

  /// The weight of a pair with per-row term-frequency adjustments (`family`
  /// and `given`: row → the adjustment of that row's own name, nil without
  /// term frequencies), summed as the full run sums them.
  package func weight(_ a: Int, _ b: Int, family: [Float]?, given: [Float]?) -> Double {
    let v = scorer.vector(a, b)
    return Double(adjustedWeight(a, b, v, family: family, given: given))
  }

  package func adjustedWeight(_ a: Int, _ b: Int, _ v: ComparisonVector, family: [Float]?, given: [Float]?) -> Float {
    guard let family, let given else { return table[Int(v.rawValue)] }
    let t = termAgreements(a, b, v)
    var adj: Float = 0
    if t.family { adj += family[a] }
    if t.given { adj += given[a] }
    return table[Int(v.rawValue)] + adj
  }
}

extension LinkClustering {
  /// Tries to join `a`'s and `b`'s clusters under the chaining guard, with
  /// `weight(x, y)` for the cross pairs.
  package mutating func join(_ a: Int, _ b: Int, weight: (Int, Int) -> Double) -> Bool {
    clustering.join(a, b, maxClusterSize: maxClusterSize, linkThreshold: linkThreshold, linkage: linkage, score: weight)
  }
}

extension Deduplicator {
  /// Whether a full run over `count` contacts, `withPhoneOrEmail` of them
  /// with a phone or an e-mail, estimates its weights (EM).
  package func estimatesWeights(count: Int, withPhoneOrEmail: Int) -> Bool {
    if configuration.estimateWeights { return true }
    return configuration.automaticWeights && count >= Self.automaticEMMinimum && withPhoneOrEmail * 2 < count
  }

  /// The model EM fits to `counts` (candidate pairs per comparison vector,
  /// ``ComparisonVector/space`` entries) and whether it was plausible (when
  /// not, the returned model is this deduplicator's own).
  package func fit(counts: [Int]) -> (model: FellegiSunterModel, plausible: Bool) {
    let f = fittedModel(counts)
    return (f.model, f.rejected == nil)
  }
}
