import OhanaCore

/// The dedupe processor: finds the same person across the frame's visible
/// contacts, merges each cluster into one contact, and says why
/// (``Deduplicator/sourceUIDsColumn``, ``Deduplicator/reasonColumn``).
///
/// A row-changing processor: the result is a new table of merged contacts
/// in the order of each cluster's first visible row, with no selection.
/// Counters: `dedupe.pairsCompared`, `dedupe.pairsAccepted`,
/// `dedupe.clusters`, `dedupe.mergedContacts` (contacts merged into
/// others), `dedupe.cappedBlocks`, `dedupe.guardRefused`.
public struct Dedupe: PostProcessor {
  public let configuration: DedupeConfiguration
  public let role: StageRole
  /// Whether the merged table gets the derived columns (source uids,
  /// reason, merged count) and the pairs their evidence. A caller whose
  /// output writes none of them (vCard, CSV) turns this off: they are
  /// strings for every merged contact and pair.
  public var provenance: Bool

  public init(configuration: DedupeConfiguration = DedupeConfiguration(), role: StageRole = .core, provenance: Bool = true) {
    self.configuration = configuration
    self.role = role
    self.provenance = provenance
  }

  public var name: String { "dedupe" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    let table = frame.materialized()
    let dedupe = Deduplicator(configuration: configuration)
    let (result, merged) = dedupe.deduplicate(table, provenance: provenance, evidence: provenance)
    Self.report(result, to: context)
    return Frame(table: merged)
  }

  static func report(_ result: DedupeResult, to context: ProcessingContext) {
    let s = result.statistics
    context.count("dedupe.pairsCompared", s.pairsCompared)
    context.count("dedupe.pairsAccepted", s.pairsAccepted)
    context.count("dedupe.clusters", s.clusters)
    context.count("dedupe.mergedContacts", s.contactsInClusters - s.clusters)
    context.count("dedupe.cappedBlocks", s.cappedBlocks)
    context.count("dedupe.guardRefused", s.pairsRefusedByGuard)
  }
}
