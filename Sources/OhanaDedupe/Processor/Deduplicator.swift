#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import OhanaCore

/// Bulk dedupe as a library: keys and blocking, Fellegi-Sunter scoring,
/// guarded clustering, and merging with provenance.
///
/// ```swift
/// let dedupe = Deduplicator(configuration: DedupeConfiguration(defaultRegion: "US"))
/// let result = dedupe.findDuplicates(in: table)   // cluster ids + accepted pairs with evidence
/// let merged = dedupe.merge(table, result)        // one contact per cluster
/// ```
///
/// - Complexity: O(contacts + fields + candidate pairs); blocks are capped
///   at ``DedupeConfiguration/maxBlockSize``, so no input makes it quadratic.
public struct Deduplicator: Sendable {
  public var configuration: DedupeConfiguration
  /// The model used when ``DedupeConfiguration/estimateWeights`` is off (and
  /// the starting point of EM when it is on).
  public var model: FellegiSunterModel

  /// For measuring: the true entity of every row (rows with a negative
  /// entity are left out). With it, ``DedupeResult/Statistics`` counts the
  /// true pairs and how many were compared (blocking recall).
  public var truth: [Int32]?

  /// Linking two tables (``LinkSides``): which pairs of rows are compared.
  /// Nil: a dedupe of one table, every pair.
  public var link: LinkSides?

  public init(configuration: DedupeConfiguration = DedupeConfiguration(), model: FellegiSunterModel = .defaults) {
    self.configuration = configuration
    self.model = model
  }

  /// Whether the weights are estimated (EM) for these keys: asked for, or
  /// chosen because fewer than half the contacts have a phone or an e-mail
  /// (see ``DedupeConfiguration/automaticWeights``).
  func estimates(_ keys: ContactKeys, withPhoneOrEmail count: Int) -> Bool {
    estimatesWeights(count: keys.count, withPhoneOrEmail: count)
  }

  /// The model fitted by EM to `counts` (pairs per comparison vector),
  /// or this deduplicator's own model when the fit is not plausible.
  /// A plausible fit whose weights are not monotone in their levels
  /// (``FellegiSunterModel/nonMonotone(for:)``, named in `pooled`) is made
  /// so (``FellegiSunterModel/monotone(for:)``).
  ///
  /// Pairs that share no blocking key but a mailbox
  /// (``ComparisonVector/mailboxOnly``: only the rule
  /// ``BlockingKey/mailbox`` brings them) are left out of EM: they are a
  /// population of their own. Where handles are built from names
  /// (`jjones@`, `jschmidt@`) many are namesakes, and fitted with them EM
  /// moved the name weights until the fit was not plausible (Splink's
  /// fake 20k: an exact family name 0.11 against a different one 0.12;
  /// F1 0.73 on the built-in weights it fell back to). They are weighed by
  /// the fit of the others, their e-mail level (on which they all agree)
  /// left out and the log-odds of their own share of matches under the
  /// fit, less the candidates', in its place
  /// (``FellegiSunterModel/mailboxShift``): where handles belong to
  /// people (sign-up forms) nearly all are matches, among namesakes few.
  func fittedModel(_ counts: [Int]) -> (model: FellegiSunterModel, rejected: FellegiSunterModel?, pooled: [Comparison]) {
    var others = counts
    var mailboxOnly: [(raw: Int, count: Int)] = []
    for raw in counts.indices where counts[raw] > 0 {
      if ComparisonVector(rawValue: UInt32(raw))[.email] == ComparisonVector.mailboxOnly {
        mailboxOnly.append((raw, counts[raw]))
        others[raw] = 0
      }
    }
    let raw = model.estimate(from: others)
    guard raw.isPlausible(for: others) else { return (model, raw, []) }
    var fitted = raw.monotone(for: others)
    if !mailboxOnly.isEmpty {
      let factors = mailboxOnly.map { Float(fitted.weight(Self.withoutEmail($0.raw))) }
      fitted.mailboxShift = Double(Self.populationShift(lambda: fitted.lambda, factors: factors, counts: mailboxOnly.map(\.count)))
    }
    return (fitted, nil, raw.nonMonotone(for: others))
  }

  /// A vector with its e-mail level set to null.
  static func withoutEmail(_ raw: Int) -> ComparisonVector {
    var v = ComparisonVector(rawValue: UInt32(raw))
    v[.email] = 0
    return v
  }

  /// As ``fittedModel(_:)``, with u from random pairs of `keys`' rows when
  /// the configuration asks (``DedupeConfiguration/uFromRandomPairs``):
  /// m from EM over the `candidates` candidate pairs, the prior of a
  /// random pair `λc · candidates / (n(n-1)/2)` (λc: EM's share of
  /// matches among candidates; a true pair blocking missed is not
  /// counted, so the prior errs low, against merging), made monotone
  /// again over the levels `counts` has.
  func fittedModel(_ counts: [Int], keys: ContactKeys, scorer: PairScorer, candidates: Int)
    -> (model: FellegiSunterModel, rejected: FellegiSunterModel?, pooled: [Comparison])
  {
    let fit = fittedModel(counts)
    guard configuration.uFromRandomPairs, fit.rejected == nil, keys.count >= 2 else { return fit }
    let random = RandomPairs.levelCounts(scorer, count: keys.count, threads: configuration.threads)
    let all = Double(keys.count) * Double(keys.count - 1) / 2
    let prior = min(0.5, max(1e-12, fit.model.lambda * Double(candidates) / all))
    var model = fit.model.withRandomU(random.levels, lambda: prior)
    // With the prior in every weight the candidates' odds are not the
    // baseline the shift was taken against: such pairs weigh as level 2.
    model.mailboxShift = nil
    return (model.monotone(for: counts), nil, fit.pooled + model.nonMonotone(for: counts).filter { !fit.pooled.contains($0) })
  }

  /// Fewer contacts than this keep the built-in weights under automatic
  /// weights: EM needs many candidate pairs to fit anything.
  public static let automaticEMMinimum = 500

  static func withPhoneOrEmail(_ keys: ContactKeys, threads: Int = 0) -> Int {
    let records = keys.records
    return Parallel.map(count: records.count, threads: threads, minimumChunk: 1 << 15) { range in
      range.reduce(0) { $0 + (records[$1].sketch.phoneCount > 0 || records[$1].sketch.emailCount > 0 ? 1 : 0) }
    }.reduce(0, +)
  }

  /// True pairs, and those among `pairs` (sorted, unique). Linking
  /// (`link` without its sides' own pairs), a true pair is one across the
  /// sides: a left and a right row of one entity.
  static func truthCounts(_ truth: [Int32], pairs: [UInt64], link: LinkSides? = nil) -> (truePairs: Int, compared: Int) {
    var sizes: [Int32: Int] = [:]
    var rights: [Int32: Int] = [:]
    for (r, e) in truth.enumerated() where e >= 0 {
      sizes[e, default: 0] += 1
      if link?.isRight(r) == true { rights[e, default: 0] += 1 }
    }
    let total: Int
    if let link, !link.withinSides {
      total = sizes.reduce(0) { sum, entry in
        let right = rights[entry.key] ?? 0
        return sum + (entry.value - right) * right
      }
    } else {
      total = sizes.values.reduce(0) { $0 + $1 * ($1 - 1) / 2 }
    }
    var compared = 0
    for p in pairs where isTruePair(truth, p) { compared += 1 }
    return (total, compared)
  }

  /// Whether the rows of `pair` (`a << 32 | b`) are one entity of `truth`.
  @inline(__always)
  static func isTruePair(_ truth: [Int32], _ pair: UInt64) -> Bool {
    let a = Int(pair >> 32), b = Int(pair & 0xFFFF_FFFF)
    return a < truth.count && b < truth.count && truth[a] >= 0 && truth[a] == truth[b]
  }

  /// True pairs ``ruleRecall(_:keys:configuration:)`` looks at, at most.
  public static let ruleRecallPairs = 2_000_000

  /// Per blocking rule, how many true pairs share a key of it, and of how
  /// many true pairs (see ``DedupeResult/Statistics/truePairsByRule``).
  static func ruleRecall(
    _ truth: [Int32], keys: ContactKeys, configuration: DedupeConfiguration, link: LinkSides? = nil,
    columns: ColumnKeys? = nil
  ) -> (pairs: Int, byRule: [String: Int]) {
    var members: [Int32: [Int]] = [:]
    var order: [Int32] = []
    for r in 0..<min(truth.count, keys.count) where truth[r] >= 0 {
      if members[truth[r]] == nil { order.append(truth[r]) }
      members[truth[r], default: []].append(r)
    }
    var counts = [Int](repeating: 0, count: BlockingKey.allCases.count)
    var looked = 0
    let rules = configuration.blockingRules
    func keysOf(_ r: Int, arena: UnsafeRawBufferPointer, ends: StringPool.Ends) -> [(UInt64, BlockingKey)] {
      var out: [(UInt64, BlockingKey)] = []
      Blocking.forEachBasicKey(keys, r, configuration: configuration) { out.append(($0, $1)) }
      Blocking.forEachRuleKey(keys, r, rules: rules, arena: arena, ends: ends) { out.append(($0, $1)) }
      if let columns { for k in columns.of(r) { out.append((k, .otherColumns)) } }
      return out
    }
    keys.folds.withStorage { arena, ends in
      outer: for e in order {
        guard let rows = members[e], rows.count > 1 else { continue }
        let all = rows.map { keysOf($0, arena: arena, ends: ends) }
        for i in 0..<(rows.count - 1) {
          for j in (i + 1)..<rows.count where link?.compares(rows[i], rows[j]) ?? true {
            if looked >= Self.ruleRecallPairs { break outer }
            looked += 1
            var shared = BlockingKey.Set()
            for (k, kind) in all[i] where all[j].contains(where: { $0.0 == k && $0.1 == kind }) {
              shared.insert(.init(kind))
            }
            for kind in BlockingKey.allCases where shared.contains(kind) { counts[Int(kind.rawValue)] += 1 }
          }
        }
      }
    }
    var byRule: [String: Int] = [:]
    for kind in BlockingKey.allCases where kind != .sortedNames {
      let used: Bool
      switch kind {
      case .phone: used = configuration.blockOnPhones
      case .email: used = configuration.blockOnEmails
      case .name: used = configuration.blockOnNames
      case .address: used = configuration.blockOnAddresses
      case .otherColumns: used = !(columns?.keys.isEmpty ?? true)
      default: used = rules.contains(kind)
      }
      if used { byRule[kind.description] = counts[Int(kind.rawValue)] }
    }
    return (looked, byRule)
  }

  /// Finds the clusters of `table`'s rows. Without `evidence`, the joined
  /// pairs' ``MatchedPair/sharedKeys`` are left empty (for a caller that
  /// does not explain them; the clusters and weights are the same).
  public func findDuplicates(in table: ContactTable, evidence: Bool = true) -> DedupeResult {
    let keys = ContactKeys(table: table, configuration: configuration)
    return findDuplicates(keys: keys, evidence: evidence, decisions: constraints(table)) { attributes(table) }
  }

  /// The columns of `table` compared beyond the model's own comparisons.
  func attributes(_ table: ContactTable) -> AttributeComparisons {
    configuration.compareAttributes
      ? AttributeComparisons(table: table, jobTitle: configuration.compareJobTitle) : AttributeComparisons()
  }

  /// The configuration's decisions resolved against `table`'s uids.
  func constraints(_ table: ContactTable) -> DecisionConstraints {
    guard !configuration.decisions.isEmpty else { return DecisionConstraints() }
    return DecisionConstraints(configuration.decisions, rowCount: table.rowCount) { table.string(.uid, at: $0) }
  }

  /// Finds the clusters of `table` and merges them: ``findDuplicates(in:)``
  /// then ``merge(_:_:)``, computing the keys once.
  ///
  /// With `provenance` false the merged table has none of the derived columns
  /// (``sourceUIDsColumn``, ``reasonColumn``, ``sourcesColumn``,
  /// ``mergedCountColumn``), for a caller that reads none of them (a vCard or
  /// CSV output writes no derived column): building them interns every merged
  /// contact's source uids into a copy of the pool, a large part of the merge's
  /// work. With `evidence` false as well, the result's pairs carry no
  /// ``MatchedPair/sharedKeys`` (empty sets), for a caller that neither
  /// explains the pairs nor keeps the provenance. The clusters and the merged
  /// contacts are the same either way.
  public func deduplicate(_ table: ContactTable, provenance: Bool = true, evidence: Bool = true)
    -> (result: DedupeResult, merged: ContactTable)
  {
    let clock = ContinuousClock()
    let start = clock.now, startCPU = ProcessCPU.seconds()
    var keys = ContactKeys(table: table, configuration: configuration)
    let keysDone = clock.now, keysCPU = ProcessCPU.seconds()
    var result = findDuplicates(keys: keys, evidence: evidence || provenance, decisions: constraints(table)) {
      attributes(table)
    }
    let found = clock.now, foundCPU = ProcessCPU.seconds()
    // The merge reads two of the keys: free the others first (peak memory).
    let mergeKeys = MergeKeys(keys)
    keys = ContactKeys()
    PhaseTrace.mark("merge.keys")
    let merged = merge(table, result, keys: mergeKeys, provenance: provenance)
    let end = clock.now, endCPU = ProcessCPU.seconds()
    result.statistics.timings["keys"] = Self.seconds(keysDone - start)
    result.statistics.timings["merge"] = Self.seconds(end - found)
    result.statistics.cpuTimings["keys"] = keysCPU - startCPU
    result.statistics.cpuTimings["merge"] = endCPU - foundCPU
    return (result, merged)
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  /// Every candidate pair (sharing a blocking key, blocks capped) with its
  /// comparison vector and weight, before the threshold and the chaining
  /// guard: for tuning and for explaining a non-match.
  public func candidatePairs(in table: ContactTable) -> [MatchedPair] {
    let keys = ContactKeys(table: table, configuration: configuration)
    var stats = DedupeResult.Statistics()
    let blocked = Blocking.candidatePairs(keys: keys, configuration: configuration, statistics: &stats)
    let pairs = link?.candidates(blocked, threads: configuration.threads) ?? blocked
    let scorer = PairScorer(keys: keys, configuration: configuration)
    var model = self.model
    var estimated = estimates(keys, withPhoneOrEmail: Self.withPhoneOrEmail(keys))
    if estimated {
      var counts = [Int](repeating: 0, count: ComparisonVector.space)
      for p in pairs { counts[Int(scorer.vector(Int(p >> 32), Int(p & 0xFFFF_FFFF)).rawValue)] += 1 }
      let fit = fittedModel(counts, keys: keys, scorer: scorer, candidates: pairs.count)
      model = fit.model
      estimated = fit.rejected == nil
    }
    let table = model.weightTable()
    let tf = configuration.termFrequencies && estimated ? TermFrequency(keys: keys) : nil
    return pairs.map { p in
      let a = Int(p >> 32), b = Int(p & 0xFFFF_FFFF)
      let v = scorer.vector(a, b)
      let w = table[Int(v.rawValue)] + (tf?.adjustment(keys, a, b, v) ?? 0)
      return MatchedPair(first: a, second: b, weight: Double(w), vector: v, sharedKeys: sharedKeys(keys, a, b, v))
    }
  }

  /// The chaining guard's refusals of a piece of the accepted pairs, by
  /// reason, and (with a truth file) the true pairs among them.
  struct GuardRefusals {
    var crossPairs = 0, size = 0, decisions = 0
    var trueAccepted = 0, trueCrossPairs = 0, trueSize = 0
  }

  /// The vector stored for a pair that stopped early (never a real vector,
  /// and out of the weight table: it is
  /// checked explicitly).
  static let unreachable = UInt32.max

  /// Pairs of `column+name` sampled to judge whether the rest are worth
  /// scoring, and the least share of matches among them for that.
  static let columnSample = 50_000
  static let columnLeastShare = 0.001

  /// For pairs scored by a model fitted on other pairs: the log2 odds of
  /// their own share of matches (EM over the share alone, m and u held:
  /// `factors` are the pairs' Bayes factors, log2; `counts`, when given,
  /// how many pairs each stands for) less those of `lambda`, the share the
  /// model was fitted with.
  static func populationShift(lambda: Double, factors: [Float], counts: [Int]? = nil) -> Float {
    guard !factors.isEmpty, lambda > 0, lambda < 1 else { return 0 }
    let ratios = factors.map { exp2(Double(min(60, max(-60, $0)))) }
    let weights = counts.map { $0.map(Double.init) } ?? [Double](repeating: 1, count: factors.count)
    let total = weights.reduce(0, +)
    guard total > 0 else { return 0 }
    var share = min(0.5, lambda)
    for _ in 0..<200 {
      let odds = share / (1 - share)
      var sum = 0.0
      for (r, n) in zip(ratios, weights) { sum += n * r * odds / (r * odds + 1) }
      let next = min(1 - 1e-9, max(1e-9, sum / total))
      if abs(next - share) < 1e-9 {
        share = next
        break
      }
      share = next
    }
    return Float(log2(share / (1 - share)) - log2(lambda / (1 - lambda)))
  }

  /// Pairs of `counts` (per comparison vector) marked
  /// ``ComparisonVector/mailboxOnly``.
  static func mailboxOnlyPairs(_ counts: [Int]) -> Int {
    var n = 0
    for raw in counts.indices where counts[raw] > 0 && ComparisonVector(rawValue: UInt32(raw))[.email] == ComparisonVector.mailboxOnly {
      n += counts[raw]
    }
    return n
  }

  /// The pairs of rule ``BlockingKey/otherColumns`` (`columns`, see
  /// ``Blocking/columnKeys(_:_:threads:)``) not among `besides` (sorted,
  /// unique), across the sides when linking.
  func columnPairs(_ columns: ColumnKeys, keys: ContactKeys, besides: [UInt64]) -> [UInt64] {
    var scratch = DedupeResult.Statistics()
    let found = Blocking.candidatePairs(
      keys: keys, configuration: configuration.withoutBlockingKeys, statistics: &scratch, columns: columns)
    let linked = link?.candidates(found, threads: configuration.threads) ?? found
    // Both sorted: a merge keeps those not compared already.
    var out: [UInt64] = []
    var j = 0
    for p in linked {
      while j < besides.count && besides[j] < p { j += 1 }
      if j < besides.count && besides[j] == p { continue }
      out.append(p)
    }
    return out
  }

  /// The clusters of `keys`' contacts; without `evidence`, the joined
  /// pairs' ``MatchedPair/sharedKeys`` are left empty (see
  /// ``deduplicate(_:provenance:evidence:)``).
  func findDuplicates(
    keys: ContactKeys, evidence: Bool = true, decisions: DecisionConstraints = DecisionConstraints(),
    attributes: () -> AttributeComparisons = { AttributeComparisons() }
  ) -> DedupeResult {
    let clock = ContinuousClock()
    var t = clock.now, tCPU = ProcessCPU.seconds()
    var stats = DedupeResult.Statistics()
    func lap(_ name: String) {
      let now = clock.now, nowCPU = ProcessCPU.seconds()
      stats.timings[name] = Self.seconds(now - t)
      stats.cpuTimings[name] = nowCPU - tCPU
      t = now
      tCPU = nowCPU
    }
    // Without EM, pairs that cannot reach the threshold are left out of the
    // typo-tolerant rules' blocks, and stop after phones and e-mails when
    // scored (their vector keeps only those two levels: never accepted).
    stats.contactsWithPhoneOrEmail = Self.withPhoneOrEmail(keys, threads: configuration.threads)
    let useEM = estimates(keys, withPhoneOrEmail: stats.contactsWithPhoneOrEmail)
    stats.weightsEstimated = useEM
    let bound = useEM ? ScoreBound.none : ScoreBound(model: self.model, threshold: configuration.threshold(for: self.model))
    // The table's other columns (birthplace, occupation...), read once,
    // weighed after EM (their m measured on the pairs it is sure of). The
    // built-in weights use none.
    let tableColumns = useEM ? attributes() : AttributeComparisons()
    stats.restatedColumns = tableColumns.restated.map { RestatedColumn(name: $0.name, share: $0.share) }
    let blocked = Blocking.candidatePairs(keys: keys, configuration: configuration, bound: bound, statistics: &stats)
    // Linking: only the pairs the mode compares (across the sides).
    var pairs = link?.candidates(blocked, threads: configuration.threads) ?? blocked
    PhaseTrace.mark("blocking")
    lap("blocking")
    var columnKeys: ColumnKeys? = nil
    let scorer = PairScorer(keys: keys, configuration: configuration)

    // Comparison vectors of every candidate pair, in parallel. Without EM
    // the weights are known already (and term frequencies go with fitted
    // weights only), so each chunk keeps just its accepted pairs: no
    // vector list, and no serial pass over it.
    let threshold = Float(configuration.threshold(for: self.model))
    let knownWeights: [Float]? = useEM ? nil : self.model.weightTable()
    // Pieces of even count but uneven cost (the pairs' comparisons differ):
    // 64 a worker, so that the last ones to finish leave the others idle
    // only briefly.
    let pieces = Parallel.pieces(pairs.count, workers: configuration.threads, perWorker: 64, minimumPiece: 16384)
    let chunks = Parallel.map(pieces, workers: configuration.threads) {
      piece -> (vectors: [UInt32], accepted: [(pair: UInt64, weight: Float, vector: UInt32)]) in
      let range = Parallel.piece(piece, of: pieces, count: pairs.count)
      let vectors = scorer.vectors(pairs, range, bound: bound)
      guard let knownWeights else { return (vectors, []) }
      var accepted: [(pair: UInt64, weight: Float, vector: UInt32)] = []
      for (i, v) in vectors.enumerated() where v != Self.unreachable {
        let w = knownWeights[Int(v)]
        if w >= threshold { accepted.append((pairs[range.lowerBound + i], w, v)) }
      }
      return ([], accepted)
    }
    PhaseTrace.mark("scoring")

    lap("scoring")
    var model = self.model
    var rejected: FellegiSunterModel? = nil
    var table = knownWeights ?? []
    var tf: TermFrequency? = nil
    var extra: AttributeComparisons? = nil
    var accepted: [(pair: UInt64, weight: Float, vector: UInt32)] = []
    if knownWeights != nil {
      accepted.reserveCapacity(chunks.reduce(0) { $0 + $1.accepted.count })
      for c in chunks { accepted.append(contentsOf: c.accepted) }
    } else {
      var vectors: [UInt32] = []
      vectors.reserveCapacity(pairs.count)
      for c in chunks { vectors.append(contentsOf: c.vectors) }
      // EM's fit over the compared pairs, then the other columns' m on the
      // pairs it is sure of.
      var counts = [Int](repeating: 0, count: ComparisonVector.space)
      for v in vectors where v != Self.unreachable { counts[Int(v)] += 1 }
      let fit = fittedModel(counts, keys: keys, scorer: scorer, candidates: pairs.count)
      stats.pairsByMailbox = Self.mailboxOnlyPairs(counts)
      stats.mailboxPairsShift = fit.model.mailboxShift ?? 0
      model = fit.model
      rejected = fit.rejected
      stats.estimateRejected = fit.rejected != nil
      stats.weightsPooled = fit.pooled.map(\.description)
      stats.weightsEstimated = fit.rejected == nil
      // Fitted weights have a threshold of their own (see
      // DedupeConfiguration.estimatedThreshold); a rejected fit falls back
      // to the built-in weights and their threshold.
      let accept = Float(stats.weightsEstimated ? configuration.threshold(for: model) : configuration.threshold)
      table = model.weightTable()
      // Term frequencies go with fitted weights only: the built-in
      // weights were set without them (with them F1 falls slightly on
      // generated data; with EM they add a little on FEBRL).
      tf = configuration.termFrequencies && stats.weightsEstimated ? TermFrequency(keys: keys) : nil
      var columns = stats.weightsEstimated ? tableColumns : AttributeComparisons()
      if !columns.isEmpty {
        let bar = accept + AttributeComparisons.confidentMargin
        var confident: [UInt64] = []
        for i in 0..<pairs.count where vectors[i] != Self.unreachable {
          var w = table[Int(vectors[i])]
          if let tf, w + TermFrequency.maximum * 2 >= bar {
            let p = pairs[i]
            w += tf.adjustment(keys, Int(p >> 32), Int(p & 0xFFFF_FFFF), ComparisonVector(rawValue: vectors[i]))
          }
          if w >= bar { confident.append(pairs[i]) }
        }
        columns.estimate(confident: confident)
      }
      lap("em")
      // `column+name`: the pairs that share a column one person's records
      // agree on (m measured just now) and a part of the name, not
      // compared yet. They are scored by this fit, which has not seen
      // them, as a population of their own: a candidate pair's weight is
      // its Bayes factor against the candidates (u among them, whose
      // share of matches is EM's lambda), so these pairs are given the
      // log-odds of their own share of matches, estimated over them with
      // the fitted m and u, less the candidates'; and the column they were
      // found by, on which they all agree, is not evidence among them.
      // (Fitting EM again over all the pairs instead moved its weights:
      // on Splink's historical figures as vCard, F1 fell 0.852 → 0.773.)
      var firstColumnPair = Int.max
      var columnShift: Float = 0
      let columnRule =
        configuration.blockingRules.contains(.otherColumns) && !columns.isEmpty && stats.weightsEstimated
      let columnRuleUsed =
        columnRule && configuration.usesColumnRule(contacts: keys.count, withPhoneOrEmail: stats.contactsWithPhoneOrEmail)
      stats.columnRuleWithheld = columnRule && !columnRuleUsed
      if columnRuleUsed {
        let found = Blocking.columnKeys(keys, columns, threads: configuration.threads)
        if !found.keys.isEmpty {
          columnKeys = found
          var more = columnPairs(found, keys: keys, besides: pairs)
          // Their Bayes factors under the fit (the column they were found
          // by left out), for their share of matches.
          func factors(_ list: [UInt64], _ vectorsOf: [UInt32]) -> [Float] {
            zip(list, vectorsOf).compactMap { p, raw -> Float? in
              guard raw != Self.unreachable else { return nil }
              let a = Int(p >> 32), b = Int(p & 0xFFFF_FFFF), v = ComparisonVector(rawValue: raw)
              return table[Int(raw)] + (tf?.adjustment(keys, a, b, v) ?? 0)
                + columns.adjustment(a, b, agreementsOf: .notBlocked)
            }
          }
          // A sample first: where it holds next to no matches (a CRM's job
          // titles with a family name: 4.5 million pairs at 1M contacts,
          // their share 2^-27), the rest are not scored.
          if !model.includesPrior && more.count > Self.columnSample {
            let step = more.count / Self.columnSample
            let sample = stride(from: 0, to: more.count, by: step).map { more[$0] }
            let shift = Self.populationShift(lambda: model.lambda, factors: factors(sample, scorer.vectors(sample, 0..<sample.count, bound: .none)))
            let odds = model.lambda / (1 - model.lambda) * exp2(Double(shift))
            if odds / (1 + odds) < Self.columnLeastShare { more = [] }
          }
          if !more.isEmpty {
            stats.pairsByColumns = more.count
            let moreVectors = Parallel.map(count: more.count, threads: configuration.threads, minimumChunk: 16384) {
              range in scorer.vectors(more, range, bound: .none)
            }
            firstColumnPair = pairs.count
            for v in moreVectors { vectors.append(contentsOf: v) }
            pairs.append(contentsOf: more)
            if !model.includesPrior {
              columnShift = Self.populationShift(
                lambda: model.lambda, factors: factors(more, Array(vectors[firstColumnPair...])))
              stats.columnPairsShift = Double(columnShift)
            }
          }
        }
        lap("columns")
      }
      if !columns.isEmpty {
        stats.attributes = columns.attributes.map {
          AttributeWeight(
            name: $0.name, same: Double($0.typicalSame), different: Double($0.different), m: $0.m, u: $0.u,
            pairs: $0.confidentPairs)
        }
        if columns.weighs { extra = columns }
      }
      let extraMaximum = extra?.maximum ?? 0
      for i in 0..<pairs.count where vectors[i] != Self.unreachable {
        let byColumns = i >= firstColumnPair
        var w = table[Int(vectors[i])] + (byColumns ? columnShift : 0)
        let p = pairs[i]
        if let tf, w + TermFrequency.maximum * 2 + extraMaximum >= accept {
          w += tf.adjustment(keys, Int(p >> 32), Int(p & 0xFFFF_FFFF), ComparisonVector(rawValue: vectors[i]))
        }
        if let extra, w + extraMaximum >= accept {
          let agreements: AttributeComparisons.Agreements = byColumns && !model.includesPrior ? .notBlocked : .all
          w += extra.adjustment(Int(p >> 32), Int(p & 0xFFFF_FFFF), agreementsOf: agreements)
        }
        if w >= accept { accepted.append((pairs[i], w, vectors[i])) }
      }
    }
    stats.pairsCompared = pairs.count
    if let truth {
      (stats.truePairs, stats.trueCandidatePairs) = Self.truthCounts(truth, pairs: pairs, link: link)
      (stats.truePairsByRuleOf, stats.truePairsByRule) = Self.ruleRecall(
        truth, keys: keys, configuration: configuration, link: link, columns: columnKeys)
    }
    stats.pairsAccepted = accepted.count
    PhaseTrace.mark("cluster.accepted")
    accepted = Self.strongestFirst(accepted, threads: configuration.threads)
    PhaseTrace.mark("cluster.sorted")

    let clustering = GuardedClustering(count: keys.count, threads: configuration.threads)
    // The guard weighs cross pairs by their evidence (the Bayes factor),
    // not by their posterior: with the prior in the weights (u from random
    // pairs) a cross pair that says nothing would weigh the prior, about
    // -12, and split clusters that every joined pair holds together.
    let linkBar = configuration.linkThreshold + model.priorWeight
    let weights = table, frequencies = tf, columns = extra
    // A reviewer's decisions: `same` groups first, unguarded; a pair kept
    // apart never joins, and neither do two clusters with such a pair
    // across them (the guard reads it as a cross pair of weight -inf), so
    // a cluster that would hold both is cut at its weakest links between
    // them (pairs come strongest first).
    stats.decisionsApplied = decisions.applied
    stats.decisionsSkipped = decisions.skipped
    let constrained = !decisions.isEmpty
    let outcomes = clustering.joinAll(
      accepted.map(\.pair), unions: decisions.unions, threads: configuration.threads,
      maxClusterSize: max(2, configuration.maxClusterSize), linkThreshold: linkBar, linkage: configuration.guardLinkage,
      apart: constrained ? { decisions.keepsApart($0, $1) } : nil
    ) { x, y in
      let v = scorer.vector(x, y)
      return Double(weights[Int(v.rawValue)] + (frequencies?.adjustment(keys, x, y, v) ?? 0) + (columns?.adjustment(x, y) ?? 0))
    }
    let clusterOf = clustering.clusterIDs(threads: configuration.threads)
    PhaseTrace.mark("cluster.joined")
    // The pairs that joined, in their order, with their evidence (the
    // blocking keys each shares: a pure function of the keys), on all
    // cores; and the refusals counted.
    // With a truth file, the true pairs among the accepted, the joined and
    // the refused: where the true pairs compared were lost (`--truth`).
    let truth = self.truth
    let evidence = Parallel.map(count: accepted.count, threads: configuration.threads, minimumChunk: Self.evidenceChunk) {
      range in
      var part: [MatchedPair] = []
      var refused = GuardRefusals()
      for i in range {
        let real = truth.map { Self.isTruePair($0, accepted[i].pair) } ?? false
        if real { refused.trueAccepted += 1 }
        switch outcomes[i] {
        case .refusedByGuard:
          refused.crossPairs += 1
          if real { refused.trueCrossPairs += 1 }
        case .refusedForSize:
          refused.size += 1
          if real { refused.trueSize += 1 }
        case .refusedByDecision: refused.decisions += 1
        case .joined:
          let e = accepted[i]
          let a = Int(e.pair >> 32), b = Int(e.pair & 0xFFFF_FFFF)
          let v = ComparisonVector(rawValue: e.vector)
          let shared = evidence ? sharedKeys(keys, a, b, v, columns: columnKeys) : BlockingKey.Set()
          part.append(MatchedPair(first: a, second: b, weight: Double(e.weight), vector: v, sharedKeys: shared))
        }
      }
      return (part, refused)
    }
    var joined: [MatchedPair] = []
    joined.reserveCapacity(evidence.reduce(0) { $0 + $1.0.count })
    for (part, refused) in evidence {
      joined.append(contentsOf: part)
      stats.pairsRefusedByGuard += refused.crossPairs + refused.size
      stats.pairsRefusedForSize += refused.size
      stats.pairsRefusedByDecision += refused.decisions
      stats.trueAccepted += refused.trueAccepted
      stats.trueRefusedByGuard += refused.trueCrossPairs + refused.trueSize
      stats.trueRefusedForSize += refused.trueSize
    }
    PhaseTrace.mark("cluster.evidence")
    lap("clustering")
    (stats.clusters, stats.contactsInClusters) = clustering.clusterCounts(threads: configuration.threads)
    var result = DedupeResult(clusterOf: clusterOf, pairs: joined, model: model, statistics: stats)
    result.rejectedModel = rejected
    result.columns = extra
    return result
  }

  /// Joined pairs a task when their evidence is computed in parallel.
  static let evidenceChunk = 1024

  /// `accepted` sorted by weight, strongest first, equal weights by pair:
  /// on the workers, as a radix sort of keys (the weight's order bits, the
  /// index) when the pairs come in ascending order, as they do from
  /// blocking (so the index orders equal weights as the pair does), else
  /// by comparison on one thread.
  static func strongestFirst(_ accepted: [(pair: UInt64, weight: Float, vector: UInt32)], threads: Int)
    -> [(pair: UInt64, weight: Float, vector: UInt32)]
  {
    let n = accepted.count
    let chunk = 1 << 14
    let ascending = Parallel.map(count: n, threads: threads, minimumChunk: chunk) { range in
      range.allSatisfy { $0 == 0 || accepted[$0 - 1].pair < accepted[$0].pair }
    }.allSatisfy { $0 }
    guard ascending, n < Int(UInt32.max) else {
      return accepted.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.pair < $1.pair }
    }
    let keys = RadixSort.sorted(
      Parallel.map(count: n, threads: threads, minimumChunk: chunk) { range in
        range.map { i -> UInt64 in
          // Ascending order bits of the weight (-0 read as +0), inverted.
          let bits = (accepted[i].weight + 0).bitPattern
          let order = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
          return UInt64(~order) << 32 | UInt64(i)
        }
      }, threads: threads)
    var sorted: [(pair: UInt64, weight: Float, vector: UInt32)] = []
    sorted.reserveCapacity(n)
    for part in Parallel.map(count: n, threads: threads, minimumChunk: chunk, { range in
      range.map { accepted[Int(keys[$0] & 0xFFFF_FFFF)] }
    }) {
      sorted.append(contentsOf: part)
    }
    return sorted
  }

  func sharedKeys(_ keys: ContactKeys, _ a: Int, _ b: Int, _ v: ComparisonVector, columns: ColumnKeys? = nil)
    -> BlockingKey.Set
  {
    var s = BlockingKey.Set()
    if v[.phone] == 1 { s.insert(.init(.phone)) }
    if v[.email] == 1 { s.insert(.init(.email)) }
    if keys.nameKey[a] != 0 && keys.nameKey[a] == keys.nameKey[b] { s.insert(.init(.name)) }
    if v[.address] == 1 { s.insert(.init(.address)) }
    if !configuration.blockingRules.isEmpty {
      s.formUnion(Blocking.sharedRuleKeys(keys, a, b, rules: configuration.blockingRules))
      if let columns, columns.of(a).contains(where: columns.of(b).contains) { s.insert(.init(.otherColumns)) }
      if configuration.blockingRules.contains(.sortedNames) && s.isEmpty { s.insert(.init(.sortedNames)) }
    }
    return s
  }
}
