import OhanaCore
import OhanaDedupe
import OhanaIO

/// What one run of ``EntityStore/link(_:source:removing:)`` did.
public struct StoreRun: Sendable {
  /// The run's id (`runs.id`).
  public var id: Int64 = 0
  /// Contacts stored for the first time, replaced (same uid), removed.
  public var added = 0, updated = 0, removed = 0
  /// Input contacts whose uid is stored with the very same vCard text:
  /// left out of the run (nothing about them changed).
  public var unchanged = 0
  /// Uids given to remove that the store does not hold.
  public var removeNotFound = 0
  /// Input contacts left out because a later contact of the same input has
  /// the same uid (the later one is the update).
  public var repeatedInInput = 0
  public var clustersCreated = 0, clustersMerged = 0, clustersSplit = 0, clustersDeleted = 0
  /// Stored contacts met through a shared block or name order whose
  /// phones and e-mails let the pair reach the threshold.
  public var storedCandidates = 0
  /// Whether this run folded the key log into the key buckets (an
  /// occasional run does; ``EntityStore/BucketCache``).
  public var keyLogCompacted = false
  /// Key entries in the log after this run (0 after a compaction).
  public var keyLogEntries = 0
  /// Whether this run folded the cluster log into `cluster_base` (an
  /// occasional run does; ``EntityStore/foldClusterLog(limit:)``).
  public var clusterLogFolded = false
  /// Clusters in the cluster log after this run (0 after a fold).
  public var clusterLogRows = 0
  /// Stored contacts read back to be compared (the candidates with their
  /// whole clusters).
  public var storedLoaded = 0
  public var pairsCompared = 0, pairsAccepted = 0, pairsRefusedByGuard = 0
  /// A reviewer's decisions given to this run and kept (obeyed by every
  /// later run too), and those skipped, each with its line and why.
  public var decisionsKept = 0
  public var decisionsSkipped: [InputError] = []
  /// Accepted pairs not joined because a kept decision keeps their
  /// contacts apart.
  public var pairsRefusedByDecision = 0
  /// Stored clusters clustered again because a decision names their
  /// contacts (a new one, or one that a contact of this batch meets).
  public var clustersReopened = 0
  /// Every change, in the order of ``StoreChange``'s kinds per cluster.
  public var changes: [StoreChange] = []
  /// The ids of the clusters this run made or changed (sorted).
  public var changedClusters: [Int64] = []
  /// Seconds per stage.
  public var timings: [String: Double] = [:]
  /// The first run only: the merged contacts, one per cluster in id order
  /// (later runs read them from the store).
  public var merged: ContactTable? = nil
  /// The first run only: ``merged`` as vCard 4.0, cards end to end (what
  /// `-o merged.vcf` writes, encoded while the store was written).
  public var mergedVCards: [UInt8]? = nil
  /// A later run: the merged contacts of ``changedClusters`` as vCard 4.0,
  /// in that order, cards end to end (what `-o --changed-only` writes,
  /// made by the run's own merge, so not read back from the store).
  public var changedVCards: [UInt8]? = nil
}

/// One change to the store's clusters.
public struct StoreChange: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    /// A contact stored for the first time, in `cluster`.
    case added
    /// A contact replaced by a new version (same uid), now in `cluster`.
    case updated
    /// A contact taken out (it was in `cluster`).
    case removed
    /// A cluster made from new contacts only.
    case created
    /// `other` was merged into `cluster` (it stays as an alias of it).
    case merged
    /// Part of `cluster` split off as the new cluster `other`.
    case split
    /// Every contact of `cluster` was removed.
    case deleted
  }
  public var kind: Kind
  public var cluster: Int64
  public var uid: String? = nil
  public var other: Int64? = nil
  /// The accepted pairs behind the change, as `--explain` writes them (a
  /// JSON array, `[]` when there are none).
  public var evidence: String = "[]"
  /// The kept decisions (`decisions.id`) that name a contact of the
  /// changed cluster (or, for a split, of the cluster it split from).
  public var decisions: [Int64] = []
}

extension EntityStore {
  /// A contact's name in evidence: its uid, else `contact-N` (its id in
  /// the store, as ``forEachAssignment(only:_:)`` names it).
  static func name(_ table: ContactTable, row: Int, id: Int64) -> [UInt8] {
    table.hasUID(at: row) ? table.withUID(at: row) { Array($0) } : Array("contact-\(id)".utf8)
  }

  /// Pairs as `--explain` writes them, in a JSON array; rows named by
  /// `name`, and with `source` their inputs (a read of several).
  static func evidenceJSON(_ pairs: [MatchedPair], name: (Int) -> [UInt8], source: ((Int) -> [UInt8])?) -> String {
    var buf: [UInt8] = [0x5B]
    for (i, p) in pairs.enumerated() {
      if i > 0 { buf.append(0x2C) }
      DedupeResult.appendExplanation(
        p, a: name(p.first), b: name(p.second), sources: source.map { ($0(p.first), $0(p.second)) }, cluster: nil, to: &buf)
    }
    buf.append(0x5D)
    return String(decoding: buf, as: UTF8.self)
  }
}


/// Wall time per stage (``StoreRun/timings``, `--verbose`).
struct StageClock {
  private let clock = ContinuousClock()
  private var last: ContinuousClock.Instant

  init() { last = clock.now }

  /// Adds the time since the last lap to `timings[name]`.
  mutating func lap(_ name: String, _ timings: inout [String: Double]) {
    let now = clock.now
    timings[name, default: 0] += EntityStore.seconds(now - last)
    last = now
  }
}
