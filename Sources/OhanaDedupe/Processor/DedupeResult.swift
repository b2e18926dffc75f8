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
  public var statistics: Statistics

  public struct Statistics: Sendable, Hashable {
    /// Blocking keys computed (rows × keys).
    public var blockingKeys = 0
    /// Distinct candidate pairs compared.
    public var pairsCompared = 0
    /// Pairs at or above the threshold.
    public var pairsAccepted = 0
    /// Accepted pairs the chaining guard refused (cluster too big, or a
    /// cross pair below the link threshold).
    public var pairsRefusedByGuard = 0
    /// Blocks skipped for being larger than the cap, and the rows they held.
    public var cappedBlocks = 0
    public var rowsInCappedBlocks = 0
    /// The largest block seen (capped or not).
    public var largestBlock = 0
    /// Clusters of two or more contacts, and the contacts in them.
    public var clusters = 0
    public var contactsInClusters = 0
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

/// The kinds of blocking keys.
public enum BlockingKey: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case phone = 0
  case email = 1
  case name = 2
  case address = 3

  public var description: String {
    switch self {
    case .phone: "phone"
    case .email: "email"
    case .name: "name"
    case .address: "address"
    }
  }

  /// A set of key kinds, one bit each.
  public struct Set: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ key: BlockingKey) { rawValue = 1 << key.rawValue }
    public var description: String {
      BlockingKey.allCases.filter { contains(.init($0)) }.map(\.description).joined(separator: "+")
    }
  }
}
