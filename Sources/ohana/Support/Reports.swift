#if canImport(FoundationEssentials)
  // JSON and trimming only: FoundationEssentials, which the argument parser
  // loads anyway, not all of Foundation (more resident memory).
  import FoundationEssentials
#else
  import Foundation
#endif
import Ohana

/// The JSON report `ohana process --report` writes. Counts, stage names,
/// line numbers and reasons only: no contact values.
struct ProcessReport: Encodable {
  typealias Input = InputSummary
  typealias Output = OutputSummary
  struct Timings: Encodable {
    var read: Double
    var pipeline: Double
    var write: Double
    var total: Double
  }
  var tool = "ohana " + VersionInfo.tool
  var input: Input
  var errors: [ErrorEntry]
  var errorsTruncated: Bool
  var stages: [StageReport]
  var output: Output
  var timings: Timings
  var peakMemoryBytes: Int
}

/// How undeclared 8-bit text was decoded (see `UndeclaredCharset`).
struct CharsetEntry: Encodable {
  var name: String
  /// declared (--charset), detected or fallback.
  var source: String
  var values: Int
  var detected: String?
  var confidence: Int?
  var couldNotReread: Bool?
  var firstChunkOnly: Bool?

  init?(_ c: UndeclaredCharset?) {
    guard let c else { return nil }
    name = c.name
    source = c.source.rawValue
    values = c.values
    detected = c.detection?.name
    confidence = c.detection?.confidence
    couldNotReread = c.couldNotReread ? true : nil
    firstChunkOnly = c.firstChunkOnly ? true : nil
  }
}

/// One warning or skip, as the reports list it: where and why, never a
/// contact value.
struct ErrorEntry: Encodable {
  var source: String?
  var line: Int
  /// `warning` (imported, part kept verbatim) or `skipped`.
  var severity: String
  var property: String?
  var reason: String

  /// At most `limit` entries, and whether more were left out.
  static func list(_ errors: [InputError], limit: Int = .max) -> ([ErrorEntry], Bool) {
    (
      errors.prefix(limit).map {
        ErrorEntry(
          source: $0.source, line: $0.line, severity: $0.severity.rawValue, property: $0.property, reason: $0.reason)
      }, errors.count > limit
    )
  }
}

/// The JSON report of `convert`, `dedupe` and `stats` (`--report FILE`):
/// what was read, every warning and skip with its line, what was written.
struct ReadReport: Encodable {
  typealias Output = OutputSummary
  var tool = "ohana " + VersionInfo.tool
  var command: String
  var input: InputSummary
  /// Every warning and skip, in input order.
  var problems: [ErrorEntry]
  var output: Output?
  /// `dedupe`: what was found and with which model.
  var dedupe: DedupeSummary?
  var seconds: Double

  init(command: String, path: String, result: ReadResult, output: Output?, dedupe: DedupeSummary? = nil, seconds: Double) {
    self.command = command
    input = InputSummary(path: path, result: result)
    problems = ErrorEntry.list(result.errors).0
    self.output = output
    self.dedupe = dedupe
    self.seconds = seconds
  }
}

/// What `dedupe --report` says of the dedupe: counts, the weights used
/// and the other columns compared (never a contact value); with
/// `--truth`, the recall of blocking (per rule too) and pairwise F1.
struct DedupeSummary: Encodable {
  var clusters: Int
  var contactsInClusters: Int
  var pairsCompared: Int
  var pairsPerRecord: Double
  var pairsAccepted: Int
  var pairsRefusedByGuard: Int
  /// Of those, refused for the cluster cap (the rest by the cross pairs).
  var pairsRefusedForSize: Int
  var blocksCapped: Int
  /// `estimated` (EM), `defaults`, or `defaults (EM's fit was not plausible)`.
  var weights: String
  /// The comparisons whose fitted levels were pooled to be monotone.
  var weightsPooled: [String]
  /// log2(m/u) per comparison and level.
  var model: [String: [String: Double]]
  var otherColumns: [AttributeWeight]
  /// Columns not compared because they restate the name.
  var restatedColumns: [RestatedColumn]
  var truth: Truth?

  struct Truth: Encodable {
    var truePairs: Int
    var trueCandidatePairs: Int
    var blockingRecall: Double
    /// Per rule: the share of the true pairs looked at that share a key of it.
    var blockingRecallByRule: [String: Double]
    var truePairsLookedAtByRule: Int
    /// True pairs accepted (at or above the threshold), and of those the
    /// ones the chaining guard refused (for the cap among them).
    var trueAccepted: Int
    var trueRefusedByGuard: Int
    var trueRefusedForSize: Int
    var precision: Double
    var recall: Double
    var f1: Double
  }

  init(_ result: DedupeResult, rows: Int, truth: [Int32]?, link: LinkSides? = nil) {
    let s = result.statistics
    clusters = s.clusters
    contactsInClusters = s.contactsInClusters
    pairsCompared = s.pairsCompared
    pairsPerRecord = Double(s.pairsCompared) / Double(max(1, rows))
    pairsAccepted = s.pairsAccepted
    pairsRefusedByGuard = s.pairsRefusedByGuard
    pairsRefusedForSize = s.pairsRefusedForSize
    blocksCapped = s.cappedBlocks
    weights = s.weightsEstimated ? "estimated" : s.estimateRejected ? "defaults (EM's fit was not plausible)" : "defaults"
    weightsPooled = s.weightsPooled
    let w = result.model.weights
    var model: [String: [String: Double]] = [:]
    for c in Comparison.allCases {
      var levels: [String: Double] = [:]
      for l in 1..<c.levelCount { levels[c.levelName(l)] = w[c.rawValue][l] }
      model[c.description] = levels
    }
    self.model = model
    otherColumns = s.attributes
    restatedColumns = s.restatedColumns
    if let truth {
      let score = TruthFile.pairwise(truth: truth, clusterOf: result.clusterOf, link: link)
      let of = Double(max(1, s.truePairsByRuleOf))
      self.truth = Truth(
        truePairs: s.truePairs, trueCandidatePairs: s.trueCandidatePairs,
        blockingRecall: s.truePairs == 0 ? 1 : Double(s.trueCandidatePairs) / Double(s.truePairs),
        blockingRecallByRule: s.truePairsByRule.mapValues { Double($0) / of },
        truePairsLookedAtByRule: s.truePairsByRuleOf, trueAccepted: s.trueAccepted,
        trueRefusedByGuard: s.trueRefusedByGuard, trueRefusedForSize: s.trueRefusedForSize, precision: score.precision, recall: score.recall, f1: score.f1)
    }
  }
}

/// What a report says of its input: counts, never contact values.
struct InputSummary: Encodable {
  var path: String
  var bytes: Int
  var records: Int
  var warnings: Int
  var skipped: Int
  /// How undeclared 8-bit text was decoded, when there was any.
  var charset: CharsetEntry?
  /// Several inputs: each one's counts, in order (absent for one input).
  var sources: [SourceEntry]?
  /// A table's columns: each one's role (absent: passed through) and how
  /// it was decided (absent for vCard and NDJSON).
  var columns: [ColumnEntry]?

  struct ColumnEntry: Encodable {
    var column: String
    var role: String?
    var how: String
  }

  init(path: String, result: ReadResult) {
    let counts = ProblemCounts(result.errors)
    self.path = path
    bytes = result.bytesRead
    records = result.recordsRead
    warnings = counts.warnings
    skipped = counts.skipped
    charset = CharsetEntry(result.undeclaredCharset)
    sources = result.sources.isEmpty ? nil : result.sources.map(SourceEntry.init)
    columns = result.columns.isEmpty ? nil : result.columns.map { ColumnEntry(column: $0.column, role: $0.role?.description, how: $0.how) }
  }
}

/// One input of several: its name, path and counts.
struct SourceEntry: Encodable {
  var name: String
  var path: String
  var contacts: Int
  var bytes: Int
  var warnings: Int
  var skipped: Int
  var charset: String?

  init(_ s: SourceSummary) {
    name = s.name
    path = s.path
    contacts = s.contacts
    bytes = s.bytes
    warnings = s.warnings
    skipped = s.skipped
    charset = s.charset
  }
}

/// What a report says of its output.
struct OutputSummary: Encodable {
  var path: String
  var format: String
  var contacts: Int
}

/// Warnings (a record imported with a part kept verbatim) and skips (what
/// could not be a record at all) in a read.
struct ProblemCounts {
  var warnings = 0
  var skipped = 0
  init(_ errors: [InputError]) {
    for e in errors {
      if e.isWarning { warnings += 1 } else { skipped += 1 }
    }
  }

  /// `3 warnings, 1 skipped`.
  var summary: String {
    "\(warnings) warning\(warnings == 1 ? "" : "s"), \(skipped) skipped"
  }
}

enum JSON {
  static func encode(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
    } catch {
      throw CLIError("cannot encode the report")
    }
  }

  /// Writes JSON to a file (an `OutputTarget`: temp file + rename for a regular
  /// file, direct for a device or FIFO) or to standard output.
  static func write(_ value: some Encodable, to path: String) throws {
    let out = try OutputFile(path: path)
    try out.write(try encode(value))
    try out.commit()
  }
}
