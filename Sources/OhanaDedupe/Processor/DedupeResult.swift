import OhanaCore
/// A candidate pair the model accepted, with its evidence.
public struct MatchedPair: Sendable, Hashable {
  /// Rows of the input table, `first < second`.
  public var first: Int
  public var second: Int
  /// The match weight (log2 Bayes factor) of the pair.
  public var weight: Double
  /// The level of every comparison.
  public var vector: ComparisonVector
  /// Which blocking keys the pair shares (see ``BlockingKey``).
  public var sharedKeys: BlockingKey.Set

  public init(first: Int, second: Int, weight: Double, vector: ComparisonVector, sharedKeys: BlockingKey.Set) {
    self.first = first
    self.second = second
    self.weight = weight
    self.vector = vector
    self.sharedKeys = sharedKeys
  }
}

/// What ``Deduplicator/findDuplicates(in:)`` found.
public struct DedupeResult: Sendable {
  /// For every input row, the row that names its cluster (the cluster's
  /// first row; a contact alone is its own cluster).
  public var clusterOf: [Int32]
  /// Accepted pairs that joined clusters (after the chaining guard), by weight.
  public var pairs: [MatchedPair]
  /// The model that scored the pairs (the defaults, or the EM estimate).
  public var model: FellegiSunterModel
  /// EM's fit when it was not plausible and the defaults scored instead
  /// (see ``DedupeResult/Statistics/estimateRejected``).
  public var rejectedModel: FellegiSunterModel? = nil
  public var statistics: Statistics
  /// The table's other columns compared beside the model's comparisons,
  /// with their weights (``AttributeComparisons``), when any weighed: the
  /// explanation shows each as a comparison of its own.
  package var columns: AttributeComparisons? = nil

  public struct Statistics: Sendable, Hashable {
    /// Blocking keys computed (rows × keys).
    public var blockingKeys = 0
    /// Distinct candidate pairs compared.
    public var pairsCompared = 0
    /// Of ``pairsCompared``, those only the rule `column+name`
    /// (``BlockingKey/otherColumns``) found, after EM's first fit.
    public var pairsByColumns = 0
    /// Whether `column+name` was in the rules and had columns to block
    /// on, but was not used: most contacts have a phone or an e-mail, and
    /// the rule was not named (see ``DedupeConfiguration/columnRuleAlways``).
    public var columnRuleWithheld = false
    /// What the pairs of ``pairsByColumns`` were given besides their
    /// Bayes factor: the log2 odds of their own share of matches less the
    /// candidates' (see ``Deduplicator/populationShift(lambda:factors:)``).
    public var columnPairsShift = 0.0
    /// Of ``pairsCompared``, those that share no blocking key but a
    /// mailbox (rule ``BlockingKey/mailbox``), when weights are fitted:
    /// left out of EM and scored as a population of their own.
    public var pairsByMailbox = 0
    /// What the pairs of ``pairsByMailbox`` were given in place of their
    /// e-mail level's weight: the log2 odds of their own share of matches
    /// less the candidates'.
    public var mailboxPairsShift = 0.0
    /// Pairs at or above the threshold.
    public var pairsAccepted = 0
    /// Accepted pairs the chaining guard refused (cluster too big, or a
    /// cross pair below the link threshold).
    public var pairsRefusedByGuard = 0
    /// Of ``pairsRefusedByGuard``, those refused because the cluster would
    /// pass the cap (``DedupeConfiguration/maxClusterSize``); the rest the
    /// cross pairs refused.
    public var pairsRefusedForSize = 0
    /// With a truth file (``Deduplicator/truth``): the true pairs among the
    /// accepted pairs, and among those the guard refused (for the cap, and
    /// in all). True pairs compared but not accepted are
    /// ``trueCandidatePairs`` less ``trueAccepted``.
    public var trueAccepted = 0
    public var trueRefusedByGuard = 0
    public var trueRefusedForSize = 0
    /// Accepted pairs a reviewer's `different` decision refused (the pair
    /// itself, or a cross pair of the clusters it would have joined).
    public var pairsRefusedByDecision = 0
    /// Decisions obeyed, and those skipped (a uid no contact has, or a
    /// contradiction of an earlier decision), each with its line and why.
    public var decisionsApplied = 0
    public var decisionsSkipped: [InputError] = []
    /// Blocks skipped for being larger than the cap, and the rows they held.
    public var cappedBlocks = 0
    public var rowsInCappedBlocks = 0
    /// The largest block seen (capped or not).
    public var largestBlock = 0
    /// Clusters of two or more contacts, and the contacts in them.
    public var clusters = 0
    public var contactsInClusters = 0
    /// Whether the weights were estimated from the data (EM), and the
    /// contacts with a phone or an e-mail (what the automatic choice reads).
    public var weightsEstimated = false
    /// EM ran but its fit was not plausible (``FellegiSunterModel/isPlausible``),
    /// so the built-in weights were used.
    public var estimateRejected = false
    /// The comparisons whose fitted weights were not monotone in their
    /// levels and were pooled (``FellegiSunterModel/monotone(for:)``).
    public var weightsPooled: [String] = []
    /// The columns beyond the model's own comparisons that were compared
    /// (``AttributeComparisons``), with their weights.
    public var attributes: [AttributeWeight] = []
    /// The other columns not compared because they restate the name
    /// (``AttributeComparisons/restatedNameShare``), with the share of
    /// rows on which they did.
    public var restatedColumns: [RestatedColumn] = []
    public var contactsWithPhoneOrEmail = 0
    /// With a truth (``Deduplicator/truth``): the true pairs (two contacts
    /// of one entity) and how many of them were candidate pairs (compared
    /// at all): the recall of blocking, which bounds the recall of dedupe.
    public var truePairs = 0
    public var trueCandidatePairs = 0
    /// With a truth: per blocking rule (its ``BlockingKey/description``),
    /// how many of ``truePairsByRuleOf`` true pairs share a key of it (the
    /// rule's recall on its own, before blocks are capped; the sorted
    /// neighbourhood, which has no key, is not counted). At most
    /// ``Deduplicator/ruleRecallPairs`` true pairs are looked at, the
    /// entities' in the order of their first rows.
    public var truePairsByRule: [String: Int] = [:]
    public var truePairsByRuleOf = 0
    /// Seconds per stage (keys, blocking, scoring, em, clustering, merge).
    public var timings: [String: Double] = [:]
    /// CPU seconds of the whole process (every thread) per stage, for
    /// judging a stage on a shared machine where wall time is noisy.
    public var cpuTimings: [String: Double] = [:]
  }

  /// The number of contacts after merging.
  public var mergedCount: Int {
    var n = 0
    for (i, c) in clusterOf.enumerated() where Int(c) == i { n += 1 }
    return n
  }
}

/// The weights of one column compared beyond the model's own comparisons
/// (a table's gender, birthplace, occupation...; ``AttributeComparisons``).
public struct AttributeWeight: Sendable, Hashable, Codable {
  /// `title`, `GENDER`, or the table's header.
  public var name: String
  /// The agreement weight of a value of typical frequency (rarer values
  /// weigh more), and the disagreement weight.
  public var same: Double
  public var different: Double
  /// P(agree | match), measured on the pairs the other comparisons make
  /// sure of; P(agree | random pair), from the value frequencies.
  public var m: Double
  public var u: Double
  /// Those sure pairs where both sides had a value.
  public var pairs: Int
}

/// A table's column left out of the comparisons because its value is the
/// contact's name again (`first_and_surname` beside `first_name` and
/// `surname`).
public struct RestatedColumn: Sendable, Hashable, Codable {
  /// The column's header.
  public var name: String
  /// The share of the rows looked at (with a value and a name) on which
  /// the value was the name.
  public var share: Double
}

/// The kinds of blocking keys (blocking rules): two contacts are compared
/// when they share a key of any kind (the union of the rules, as Splink's
/// list of blocking rules), each block capped (see ``Blocking``).
public enum BlockingKey: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// A phone number (normalized key).
  case phone = 0
  /// An e-mail address (normalized).
  case email = 1
  /// The whole folded name, token order and nicknames ignored.
  case name = 2
  /// Postcode and street.
  case address = 3
  /// Family name (its sound, ``Phonetic``) and full birth date.
  case familyBirthday = 4
  /// Given name (nickname-canonical, its sound) and full birth date.
  case givenBirthday = 5
  /// The sound (``Phonetic``) of the family name, or of the given name, and
  /// postcode (so names written the other way round meet).
  case phoneticPostcode = 6
  /// Birth date and postcode.
  case birthdayPostcode = 7
  /// Given-name initial, first three letters of the family name, birth year.
  case initialsYear = 8
  /// House number and postcode.
  case housePostcode = 9
  /// Sorted neighbourhood: neighbours in the order of folded family then
  /// given name (each contact with the next ``Blocking/windowNeighbours``).
  case sortedNames = 10
  /// House number and locality (a postcode typed wrong).
  case houseLocality = 11
  /// Birth date and locality.
  case birthdayLocality = 12
  /// The sounds of both names, in either order: a typo that keeps the
  /// sound, with no date or place in common (or none given).
  case namesSound = 13
  /// Full birth date and the initial of the given name as written: a
  /// family name changed or mistyped beyond its sound.
  case birthdayInitial = 14
  /// A selective other column of a table (a birthplace, an occupation:
  /// see ``Blocking/columnKeys(_:_:threads:)``) with the sound of the
  /// family name or with the birth year. Only where weights are fitted
  /// (the other columns are compared only then). In `all` it is used
  /// where fewer than half the contacts have a phone or an e-mail
  /// (``DedupeConfiguration/columnRuleAlways``: named in `--blocking`,
  /// always). The entity store and the distributed job do not block on
  /// it.
  case otherColumns = 15
  /// An e-mail's mailbox (its local part in lower case, `+tag` cut, dots,
  /// hyphens and underscores dropped): the same
  /// handle at another provider, or with the domain mistyped
  /// (`j.smith@gmial.com`). Role handles (`info@`) give no key.
  case mailbox = 16

  public var description: String {
    switch self {
    case .phone: "phone"
    case .email: "email"
    case .name: "name"
    case .address: "address"
    case .familyBirthday: "family+birthday"
    case .givenBirthday: "given+birthday"
    case .phoneticPostcode: "phonetic-name+postcode"
    case .birthdayPostcode: "birthday+postcode"
    case .initialsYear: "initials+birth-year"
    case .housePostcode: "house+postcode"
    case .sortedNames: "sorted-names"
    case .houseLocality: "house+locality"
    case .birthdayLocality: "birthday+locality"
    case .namesSound: "names-sound"
    case .birthdayInitial: "birthday+initial"
    case .otherColumns: "column+name"
    case .mailbox: "mailbox"
    }
  }

  /// The rule named `text` (its ``description``), if any.
  public init?(named text: String) {
    guard let k = BlockingKey.allCases.first(where: { $0.description == text }) else { return nil }
    self = k
  }

  /// A set of key kinds, one bit each.
  public struct Set: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ key: BlockingKey) { rawValue = 1 << key.rawValue }
    /// Every rule.
    public static let all = Set(rawValue: UInt32.max >> (32 - UInt32(BlockingKey.allCases.count)))
    /// The rules that need no phone or e-mail in common: names, birth
    /// dates, addresses, an e-mail's mailbox at another domain, and a
    /// table's own selective columns with a name part (`column+name`,
    /// used where fewer than half the contacts have a phone or an e-mail:
    /// see ``DedupeConfiguration/columnRuleAlways``). `names-sound` is not among them (name it in `--blocking`
    /// to use it): measured on the independent generator's tables it
    /// raised blocking recall (census 0.860 to 0.900) but lowered F1 (web
    /// 0.951 to 0.908, census 0.942 to 0.929 on held-out seeds): the
    /// namesakes it brings in move EM's fit more than the pairs it finds
    /// add.
    public static let typoTolerant: Set = [
      .init(.familyBirthday), .init(.givenBirthday), .init(.phoneticPostcode), .init(.birthdayPostcode),
      .init(.initialsYear), .init(.housePostcode), .init(.sortedNames), .init(.houseLocality),
      .init(.birthdayLocality), .init(.birthdayInitial), .init(.mailbox), .init(.otherColumns),
    ]
    /// Every rule beyond phone, e-mail, name and address: the typo-tolerant
    /// ones and `names-sound`, only named in `--blocking`.
    public static let beyondBasic: Set = typoTolerant.union([.init(.namesSound)])
    public func contains(_ key: BlockingKey) -> Bool { contains(.init(key)) }
    public var description: String {
      BlockingKey.allCases.filter { contains(.init($0)) }.map(\.description).joined(separator: ",")
    }
  }
}
