import OhanaCore

/// How ``Dedupe`` finds, scores and merges duplicates.
///
/// The defaults come from measurements on the generator's data (see
/// `Benchmarks/compare/dedupe`): they are a starting point, not a law.
public struct DedupeConfiguration: Sendable, Hashable {
  /// Region (ISO 3166 alpha-2) used to read national phone numbers when the
  /// contact has no address country and no country-code e-mail domain.
  public var defaultRegion: String
  /// Blocks (rows sharing one blocking key) larger than this are skipped and
  /// reported, so that no key (a switchboard number, a common name) makes the
  /// job quadratic. Pairs in a skipped block can still meet through another key.
  public var maxBlockSize: Int
  /// A candidate pair whose match weight (log2 of the Bayes factor) reaches
  /// this is accepted, under the built-in weights (3: measured on address
  /// books).
  public var threshold: Double
  /// The same under weights EM fitted to the table's candidate pairs (see
  /// ``threshold(for:)``): 1, a Bayes factor of 2 against the
  /// candidates. Chosen on the tuning tables (the independent generator's
  /// web 10k, web heavy, CRM 10k and census 10k, Splink's fake 20k, FEBRL
  /// 1, 2 and 4 as tables), where 1 beat 0, 2 and 3 in summed F1, and
  /// checked on the held-out ones: held-out web 0.9606 → 0.9622, census
  /// 0.9421 → 0.9538, Splink's historical figures 0.8733 → 0.8848, FEBRL3
  /// 0.9992 → 0.9993, CRM 0.9988 → 0.9986 (Benchmarks/HISTORY.md, session
  /// 39). EM's weights are measured against the candidates, most of which
  /// share a name part, so an agreement weighs less there than against
  /// random pairs, and 3 asked more than the data can give.
  /// ``setThreshold(_:)`` (the command line's `--threshold`) sets both.
  public var estimatedThreshold: Double = 1
  /// Chaining guard: two groups join only if every cross pair of their
  /// members scores at least this (complete linkage on a lower bar).
  public var linkThreshold: Double
  /// Chaining guard: no cluster grows past this many contacts (32: a
  /// person with 10-20 records is normal in a CRM; a join compares at most
  /// 32² / 4 cross pairs).
  public var maxClusterSize: Int
  /// Chaining guard: how the cross pairs of two clusters are judged
  /// (``GuardLinkage``).
  public var guardLinkage: GuardLinkage = .average
  /// Estimate the m/u probabilities from the candidate pairs (EM, no labels)
  /// instead of using the built-in defaults.
  public var estimateWeights: Bool
  /// With `estimateWeights` off: estimate anyway when fewer than half the
  /// contacts have a phone number or an e-mail address (and there are at
  /// least ``Deduplicator/automaticEMMinimum`` contacts). The built-in
  /// weights were measured on address books, where duplicates nearly always
  /// share a phone or an e-mail; on member and customer records (names,
  /// addresses, birth dates) they reject most true pairs, and EM fits them
  /// (measured on FEBRL, Benchmarks/HISTORY.md "Dedupe without phones").
  public var automaticWeights: Bool
  /// With estimated weights: u from random pairs of the table's rows
  /// (``RandomPairs``) rather than from EM over the candidate pairs, and
  /// the prior of a random pair in every weight.
  public var uFromRandomPairs = false
  /// Block on full-name keys (transliterated, folded, nickname-canonical,
  /// token order ignored).
  public var blockOnNames: Bool
  /// Block on postal code + street.
  public var blockOnAddresses: Bool
  /// Term-frequency adjustments of exact name agreements (``TermFrequency``),
  /// applied when the weights are estimated (EM, asked for or automatic).
  public var termFrequencies = true
  /// Compare the columns the model has no comparison of its own for (a
  /// table's gender, birthplace, occupation; ``AttributeComparisons``),
  /// applied when the weights are estimated, as term frequencies are.
  public var compareAttributes = true
  /// Compare the job title among them: set by the command line when a
  /// table's column (an occupation) maps to it. Off for cards, where a
  /// title is a position held for a while, not who someone is (and the
  /// distributed job, which compares none of the other columns yet, gives
  /// the one machine's clusters on cards).
  public var compareJobTitle = false
  /// Block on phone numbers and on e-mail addresses.
  public var blockOnPhones = true
  public var blockOnEmails = true
  /// The blocking rules beyond phones, e-mails, names and addresses (which
  /// the switches above govern): by default every typo-tolerant rule
  /// (``BlockingKey/Set/typoTolerant``), so that records without phones
  /// or e-mails, keyed by hand, still meet their duplicates.
  public var blockingRules: BlockingKey.Set
  /// Use `column+name` (``BlockingKey/otherColumns``, when in
  /// ``blockingRules``) whatever the table holds. Off (the default, and
  /// `--blocking all`): it is used where fewer than half the contacts
  /// have a phone or an e-mail. Where most have one, records of one
  /// person meet through it, and on a CRM table of 1M rows the rule found
  /// 4.5 million pairs, none of them a match (its sample check dropped
  /// them), for 0.44 s; on tables without (census, Splink's historical
  /// figures, FEBRL) it raised blocking recall by 0.04-0.10 and F1 by up
  /// to 0.003 (Benchmarks/HISTORY.md, session 39). Naming the rule in
  /// `--blocking` sets it.
  public var columnRuleAlways = false

  /// Worker threads for the column passes (0 = one per core).
  public var threads: Int
  /// A reviewer's decisions (``DedupeDecision``), obeyed whatever the
  /// scores: `same` contacts are always in one cluster, `different` ones
  /// never. A decision naming a uid no contact has, or contradicting an
  /// earlier one, is skipped and reported
  /// (``DedupeResult/Statistics/decisionsSkipped``).
  public var decisions: [DedupeDecision] = []
  /// Which member gives each attribute of a merged contact
  /// (``Survivorship``); by default the most complete member, as before.
  public var survivorship = Survivorship()

  /// The threshold a pair's weight under `model` is judged against:
  /// ``estimatedThreshold`` for weights EM fitted over the candidate pairs
  /// (a model other than the built-in one), ``threshold`` for the built-in
  /// weights and for a model whose weights count the prior
  /// (``FellegiSunterModel/includesPrior``: u from random pairs), whose
  /// weight is the posterior log-odds (3: p ≥ 8/9).
  public func threshold(for model: FellegiSunterModel) -> Double {
    model == .defaults || model.includesPrior ? threshold : estimatedThreshold
  }

  /// Sets one threshold for built-in and fitted weights alike (a user's
  /// `--threshold`).
  public mutating func setThreshold(_ value: Double) {
    threshold = value
    estimatedThreshold = value
  }

  /// Whether `column+name` is used (when in ``blockingRules``) for
  /// `contacts` of which `withPhoneOrEmail` have a phone or an e-mail.
  public func usesColumnRule(contacts: Int, withPhoneOrEmail: Int) -> Bool {
    blockingRules.contains(.otherColumns) && (columnRuleAlways || 2 * withPhoneOrEmail < contacts)
  }

  public init(
    defaultRegion: String = "US",
    maxBlockSize: Int = 50,
    threshold: Double = 3,
    linkThreshold: Double = 0,
    maxClusterSize: Int = 32,
    estimateWeights: Bool = false,
    automaticWeights: Bool = true,
    blockOnNames: Bool = true,
    blockOnAddresses: Bool = true,
    blockingRules: BlockingKey.Set = .typoTolerant,
    threads: Int = 0
  ) {
    self.defaultRegion = defaultRegion
    self.maxBlockSize = maxBlockSize
    self.threshold = threshold
    self.linkThreshold = linkThreshold
    self.maxClusterSize = maxClusterSize
    self.estimateWeights = estimateWeights
    self.automaticWeights = automaticWeights
    self.blockOnNames = blockOnNames
    self.blockOnAddresses = blockOnAddresses
    self.blockingRules = blockingRules
    self.threads = threads
  }
}

extension DedupeConfiguration {
  /// This configuration with no blocking key or rule: blocking then pairs
  /// only on the keys handed to it (``BlockingKey/otherColumns``').
  var withoutBlockingKeys: DedupeConfiguration {
    var only = self
    only.blockingRules = []
    only.blockOnNames = false
    only.blockOnAddresses = false
    only.blockOnPhones = false
    only.blockOnEmails = false
    return only
  }

  /// Sets the blocking switches from `spec` (the command line's
  /// `--blocking`): `all` (every key and typo-tolerant rule), `basic`
  /// (phone, email, name, address) or a comma-separated list of rule names
  /// (``BlockingKey/init(named:)``), which may hold `all` or `basic`
  /// (`all,column+name`). Returns the first unknown name, or nil.
  public mutating func setBlocking(_ spec: String) -> String? {
    var rules = BlockingKey.Set()
    columnRuleAlways = false
    let basic: BlockingKey.Set = [.init(.phone), .init(.email), .init(.name), .init(.address)]
    // `all` and `basic` may head a list: `all,column+name`.
    for part in spec.split(separator: ",") {
      let name = String(part.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
      switch name {
      case "all": rules.formUnion(basic.union(.typoTolerant))
      case "basic": rules.formUnion(basic)
      default:
        guard let k = BlockingKey(named: name) else { return name }
        rules.insert(.init(k))
        if k == .otherColumns { columnRuleAlways = true }
      }
    }
    blockOnNames = rules.contains(.name)
    blockOnAddresses = rules.contains(.address)
    blockOnPhones = rules.contains(.phone)
    blockOnEmails = rules.contains(.email)
    blockingRules = rules.intersection(.beyondBasic)
    return nil
  }
}

/// The model's weights as a user names them (`--weights`, the library,
/// Python's `weights=`): one parse for every driver.
public enum WeightsSetting: String, Sendable, CaseIterable {
  /// Fitted (EM) where the built-in weights were not measured: fewer than
  /// half the contacts with a phone or an e-mail, or a table in its own
  /// columns (``DedupeConfiguration/adapt(toTableOf:titleColumn:weights:)``).
  case auto
  /// The built-in weights, measured on address books.
  case defaults
  /// Fitted from this data's candidate pairs (EM, no labels).
  case em
}

extension DedupeConfiguration {
  /// The switches `weights` sets (``estimateWeights``, ``automaticWeights``).
  public mutating func setWeights(_ weights: WeightsSetting) {
    estimateWeights = weights == .em
    automaticWeights = weights == .auto
  }

  /// For a table in its own columns (a CRM export, a warehouse extract: not
  /// a synced address book), read through a column mapping: under `auto`
  /// the weights are fitted from ``Deduplicator/automaticEMMinimum`` rows
  /// (the built-in weights were measured on address books, where
  /// duplicates nearly always share a phone or an e-mail; on tables they
  /// lost recall: independent generator, crm profile, 10k rows, F1 0.954
  /// with them and 0.999 fitted; web profile 0.780 and 0.960), and a
  /// column mapped to the job title (an occupation) is compared with the
  /// other columns (a card's TITLE is not: see ``compareJobTitle``).
  /// The command line's `dedupe` and `link`, and the C interface that
  /// Python calls, decide it here.
  public mutating func adapt(toTableOf rows: Int, titleColumn: Bool, weights: WeightsSetting) {
    compareJobTitle = titleColumn
    if weights == .auto && rows >= Deduplicator.automaticEMMinimum { estimateWeights = true }
  }
}
