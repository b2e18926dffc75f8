import ArgumentParser
import Ohana
import OhanaCardDAV
import Foundation

extension OhanaCommand {
  struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write one HTML page to look at a dedupe's clusters and decide on them.",
      discussion: """
        INPUT is the book that was deduped (the same files as for ohana dedupe). With
        --clusters (and --explain for each pair's evidence) the page shows that run;
        without --clusters, review runs the dedupe itself with its default settings
        (and --decisions). --since names the clusters of an earlier run: the page
        marks the clusters that changed. With --store (and no INPUT) the page shows
        an entity store's clusters (--changed-only: those its last run made or
        changed), each pair within a cluster scored again with the store's model. The page is one file with everything in it:
        it makes no request, and it keeps nothing in the browser. A reviewer's
        decisions are downloaded from it as decisions.ndjson, for
        ohana dedupe --decisions (README "Review the clusters").
        """
    )

    @Argument(
      help: ArgumentHelp(
        "The deduped book: files (.vcf, .csv, .ndjson), directories, globs, or - (none with --store).",
        valueName: "input"))
    var inputs: [String] = []

    @Option(name: .customLong("from"), help: "Input format when the extension does not say: vcard, csv, ndjson.")
    var from: FormatName?

    @Option(
      name: .customLong("source"),
      help: ArgumentHelp("Name an input's contacts as their source, as for ohana dedupe.", valueName: "NAME=PATH"))
    var sourceNames: [String] = []

    @Option(help: ArgumentHelp("An address book URL as INPUT: the user to log in as (README \"Live address books\").", valueName: "name"))
    var user: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("An address book URL as INPUT: a file whose first line is the password.", valueName: "path"))
    var passwordFile: String?

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("An address book URL as INPUT: trust these certificate authorities (PEM).", valueName: "path"))
    var caFile: String?

    @Flag(name: .customLong("insecure-http"), help: "An address book URL as INPUT: allow plain http to another machine.")
    var insecureHTTP = false

    @Option(name: .customLong("address-book"), help: ArgumentHelp("An address book URL as INPUT: only the book of this name.", valueName: "name"))
    var addressBook: String?

    @Option(help: ArgumentHelp("Show this entity store's clusters (no INPUT).", valueName: "entities.sqlite"))
    var store: String?

    @Flag(name: .customLong("changed-only"), help: "With --store: only the clusters its last run made or changed.")
    var changedOnly = false

    @Option(name: .shortAndLong, help: ArgumentHelp("The HTML page to write.", valueName: "review.html"))
    var output: String

    @Option(help: ArgumentHelp("uid,cluster_id of every contact, as ohana dedupe --clusters writes it.", valueName: "clusters.csv"))
    var clusters: String?

    @Option(help: ArgumentHelp("The accepted pairs with their evidence, as ohana dedupe --explain writes them.", valueName: "explain.ndjson"))
    var explain: String?

    @Option(help: ArgumentHelp("The clusters of an earlier run (uid,cluster_id): mark what changed since.", valueName: "clusters.csv"))
    var since: String?

    @Option(help: ArgumentHelp("Without --clusters: obey these decisions in the dedupe review runs.", valueName: "decisions.ndjson"))
    var decisions: String?

    @Option(help: "The page's title (default: review of INPUT).")
    var title: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if store != nil {
        if !inputs.isEmpty { throw ValidationError("--store shows the store's own contacts: give no INPUT") }
        if clusters != nil || explain != nil || decisions != nil || since != nil {
          throw ValidationError("--clusters, --explain, --since and --decisions do not go with --store (it keeps its own)")
        }
      } else {
        if inputs.isEmpty { throw ValidationError("give the deduped book as INPUT, or --store") }
        if changedOnly { throw ValidationError("--changed-only needs --store") }
      }
      if explain != nil && clusters == nil {
        throw ValidationError("--explain needs --clusters (the run it explains)")
      }
      if decisions != nil && clusters != nil {
        throw ValidationError("--decisions applies when review runs the dedupe itself (no --clusters); give them to ohana dedupe instead")
      }
      if output == "-" { throw ValidationError("--output must be a file (the page is written whole, then moved in place)") }
    }

    func run() throws {
      try CLIError.reporting {
        let start = Clock.seconds()
        if let store { return try writeStorePage(store, start: start) }
        var arguments = inputs
        if let from { arguments += ["--from", from.rawValue] }
        for s in sourceNames { arguments += ["--source", s] }
        if let user { arguments += ["--user", user] }
        if let passwordFile { arguments += ["--password-file", passwordFile] }
        if let caFile { arguments += ["--ca-file", caFile] }
        if insecureHTTP { arguments.append("--insecure-http") }
        if let addressBook { arguments += ["--address-book", addressBook] }
        let input = try InputOptions.parse(arguments)
        let read = try ContactFiles.read(input, quiet: global.quiet)
        let table = read.table
        let uids = UIDIndex(table)
        var page: ReviewPage
        if let clusters {
          let (clusterOf, names, unknown) = try ClusterFile.read(clusters, option: "--clusters", uids: uids)
          if unknown > 0 && !global.quiet {
            StandardError.write("warning: \(clusters): \(unknown) uids are not contacts of the input; ignored\n")
          }
          var pairs: [ReviewPair] = []
          var comparisons: [String] = []
          var prior: Double? = nil
          if let explain {
            let bytes = try readWholeFile(explain, option: "--explain")
            let (explained, errors) = ExplainedPair.read(ndjson: bytes)
            if !global.quiet {
              for e in errors.prefix(20) { StandardError.write("warning: \(explain):\(e.line): \(e.reason); line skipped\n") }
              if errors.count > 20 { StandardError.write("warning: \(explain): \(errors.count - 20) more lines skipped\n") }
            }
            comparisons = explained.first?.levels.map(\.comparison) ?? []
            prior = explained.first?.prior
            var missing = 0
            for e in explained {
              guard let a = uids.row(e.a), let b = uids.row(e.b) else {
                missing += 1
                continue
              }
              let levels = comparisons.map { c in e.levels.first { $0.comparison == c }?.level ?? "null" }
              let parts: [Double]? =
                e.parts.isEmpty ? nil : comparisons.map { c in e.parts.first { $0.comparison == c }?.weight ?? 0 }
              pairs.append(
                ReviewPair(a: a, b: b, weight: e.weight, levels: levels, parts: parts, adjust: e.adjust, keys: e.keys))
            }
            if missing > 0 && !global.quiet {
              StandardError.write("warning: \(explain): \(missing) pairs name a uid that is not a contact of the input; left out\n")
            }
          }
          page = ReviewPage(
            table: table, clusterOf: clusterOf, clusterName: { names[Int($0)] }, comparisons: comparisons, pairs: pairs,
            prior: prior, previous: nil, title: "", inputs: [])
        } else {
          var config = DedupeConfiguration()
          if let decisions { config.decisions = try Dedupe.readDecisions(decisions, quiet: global.quiet) }
          let result = Deduplicator(configuration: config).findDuplicates(in: table)
          if !global.quiet && !config.decisions.isEmpty {
            let s = result.statistics
            for e in s.decisionsSkipped { StandardError.write("warning: \(decisions ?? "decisions"):\(e.line): \(e.reason)\n") }
            StandardError.write("decisions: \(s.decisionsApplied) obeyed, \(s.decisionsSkipped.count) skipped\n")
          }
          let weights = result.explanationWeights
          let pairs = result.pairs.map { ReviewPair($0, weights: weights) }
          page = ReviewPage(
            table: table, clusterOf: result.clusterOf, clusterName: { uids.name(Int($0)) },
            comparisons: ReviewPair.comparisons(weights), pairs: pairs, prior: weights.prior, previous: nil,
            title: "", inputs: [])
          let s = result.statistics
          page.guardRefusals = (s.pairsRefusedByGuard - s.pairsRefusedForSize, s.pairsRefusedForSize)
        }
        if let since { page.previous = try ClusterFile.read(since, option: "--since", uids: uids).clusterOf }
        // The inputs by file name only: a page is shared, its reader need
        // not learn the folders of the machine it was made on.
        let names =
          inputs.contains(where: CardDAVInput.isURL)
          ? inputs.map { URL(string: $0).map { HTTPClientTransport.redacted($0) } ?? $0 }
          : try ContactFiles.inputs(input).map { String($0.name.split(separator: "/").last ?? Substring($0.name)) }
        page.inputs = names
        page.title = title ?? "Review of \(names.joined(separator: ", "))"
        try write(page, start: start)
      }
    }

    /// The page of an entity store's clusters.
    func writeStorePage(_ path: String, start: Double) throws {
      let review: StoreReview
      let total: Int
      do {
        let entityStore = try EntityStore.open(at: path)
        review = try entityStore.review(changedOnly: changedOnly)
        total = try entityStore.counts().contacts
      } catch {
        throw CLIError("\(path): \(error.description)", exitCode: CLIError.noInput)
      }
      let table = review.table
      let weights = ExplanationWeights(review.model)
      let pairs = review.pairs.map { ReviewPair($0, weights: weights) }
      let storeName = String(path.split(separator: "/").last ?? Substring(path))
      // Cluster numbers: the store's ids (they fit: one per contact at most).
      let clusterOf = review.clusterIDs.map { Int32(truncatingIfNeeded: $0) }
      var page = ReviewPage(
        table: table, clusterOf: clusterOf, clusterName: { String($0) },
        comparisons: Comparison.allCases.map(\.description), pairs: pairs, prior: weights.prior, previous: nil,
        title: title ?? "Review of \(storeName)" + (changedOnly ? " (what its last run changed)" : ""), inputs: [storeName])
      page.contactCount = total
      if let set = review.changedByLastRun {
        page.changed = { set.contains(Int64($0)) }
      } else {
        page.changed = { _ in true }
      }
      try write(page, start: start)
    }

    func write(_ page: ReviewPage, start: Double) throws {
      let (bytes, counts) = page.html()
      let out = try OutputFile(path: output)
      try out.write(bytes)
      try out.commit()
      let table = page.table
      if !global.quiet {
          if counts.pairsOutside > 0 {
            StandardError.write("warning: \(counts.pairsOutside) pairs join contacts of different clusters; left out\n")
          }
          StandardError.write(
            "review: \(counts.clusters) clusters of 2 or more (\(counts.members) of \(page.contactCount ?? table.rowCount) contacts), "
              + "\(counts.pairs) pairs"
              + (page.previous != nil || page.changed != nil ? ", \(counts.changed) changed since the earlier run" : "")
              + "; \(bytes.count) bytes written to \(output) in \(formatSeconds(Clock.seconds() - start)) s\n")
      }
    }
  }
}

/// The rows of a table by uid (the name `--clusters` and `--explain` give:
/// the uid, else `row-N`); where a uid is on two rows, the first.
struct UIDIndex: Sendable {
  let table: ContactTable
  private let rows: [String: Int]

  init(_ table: ContactTable) {
    self.table = table
    var rows: [String: Int] = [:]
    rows.reserveCapacity(table.rowCount)
    for r in 0..<table.rowCount {
      let name = String(decoding: DedupeResult.uid(table, r), as: UTF8.self)
      if rows[name] == nil { rows[name] = r }
    }
    self.rows = rows
  }

  func row(_ uid: String) -> Int? { rows[uid] }
  func name(_ row: Int) -> String { String(decoding: DedupeResult.uid(table, row), as: UTF8.self) }
}

/// A `uid,cluster_id` file (header first), as `ohana dedupe --clusters`
/// writes it.
enum ClusterFile {
  /// For every row of the table, its cluster's number (-1 when the file
  /// does not name the row), the name of every number, and how many of
  /// the file's uids are not rows of the table.
  static func read(_ path: String, option: String, uids: UIDIndex) throws -> (
    clusterOf: [Int32], names: [String], unknown: Int
  ) {
    let bytes = try readWholeFile(path, option: option)
    var numbers: [String: Int32] = [:]
    var names: [String] = []
    var clusterOf = [Int32](repeating: -1, count: uids.table.rowCount)
    var unknown = 0
    var lineNo = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNo += 1
      let f = TruthFile.fields(line)
      if lineNo == 1 {
        guard f.count >= 2 else { throw CLIError("\(option) \(path): expected a header uid,cluster_id", exitCode: CLIError.dataError) }
        continue
      }
      if f.count == 1 && f[0].isEmpty { continue }
      guard f.count >= 2 else { throw CLIError("\(option) \(path):\(lineNo): expected uid,cluster_id", exitCode: CLIError.dataError) }
      guard let r = uids.row(f[0]) else {
        unknown += 1
        continue
      }
      let n: Int32
      if let known = numbers[f[1]] {
        n = known
      } else {
        n = Int32(names.count)
        numbers[f[1]] = n
        names.append(f[1])
      }
      clusterOf[r] = n
    }
    return (clusterOf, names, unknown)
  }
}
