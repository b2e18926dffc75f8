import ArgumentParser
import Ohana

extension OhanaCommand {
  struct Dedupe: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find the same person across contacts, merge, and say why.",
      discussion: """
        Contacts sharing a blocking key (phone, e-mail, folded name, postcode and
        street) are compared on names (Jaro-Winkler, nicknames), phones, e-mails,
        birthdays and addresses; a Fellegi-Sunter weight at or above --threshold
        links them, and each cluster becomes one contact with every field, the
        source uids (dedupe.sourceUIDs) and the reason (dedupe.reason).
        --clusters writes uid,cluster_id for every input contact (the cluster id is
        the uid of the cluster's first contact; a contact alone has its own);
        --explain writes one JSON line per accepted pair with its evidence (uids,
        weight, comparison levels; no other personal data).
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Also write uid,cluster_id for every input contact to this CSV file.")
    var clusters: String?

    @Option(help: "Also write the accepted pairs with their evidence to this NDJSON file.")
    var explain: String?

    @Option(name: .customLong("explain-candidates"), help: ArgumentHelp("Write every candidate pair with its evidence (tuning).", visibility: .hidden))
    var explainCandidates: String?

    @Option(help: "Match weight (log2 Bayes factor) at or above which a pair is a match.")
    var threshold: Double?

    @Option(help: "Region for national phone numbers when a contact's country is unknown.")
    var region: String = "US"

    @Flag(help: "Estimate the model's m/u probabilities from the data (EM) instead of the defaults.")
    var em = false

    @Option(name: .customLong("max-block"), help: "Largest block compared; larger ones are skipped and reported.")
    var maxBlock: Int = 50

    @Flag(help: "Also print the time of every stage.")
    var verbose = false

    @Option(help: "Write a JSON report (counts, every read warning and skip with its line) to this file (- for standard output).")
    var report: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard region.count == 2, region.allSatisfy({ $0.isLetter && $0.isASCII }) else {
        throw ValidationError("--region must be a two-letter region code such as US")
      }
      guard maxBlock >= 2 else { throw ValidationError("--max-block must be 2 or more") }
      if report == "-" && output.output == "-" {
        throw ValidationError("--report and --output cannot both be standard output")
      }
    }

    func run() throws {
      try CLIError.reporting {
        let start = Clock.seconds()
        let format = try output.format()
        let read = try ContactFiles.read(input, quiet: global.quiet)
        let table = read.table
        let readDone = Clock.seconds()
        var config = DedupeConfiguration(defaultRegion: region.uppercased(), maxBlockSize: maxBlock, estimateWeights: em)
        if let threshold { config.threshold = threshold }
        let dedupe = Deduplicator(configuration: config)
        let (result, merged) = dedupe.deduplicate(table)
        let dedupeDone = Clock.seconds()
        try ContactFiles.write(Frame(table: merged), format: format, to: output.output, quiet: global.quiet)
        if let clusters { try writeClusters(table, result, to: clusters) }
        if let explain { try writeExplain(table, result.pairs, result.clusterOf, to: explain) }
        if let explainCandidates {
          try writeExplain(table, dedupe.candidatePairs(in: table), result.clusterOf, to: explainCandidates)
        }
        if let report {
          try JSON.write(
            ReadReport(
              command: "dedupe", path: input.input, result: read,
              output: .init(path: output.output, format: format.rawValue, contacts: merged.rowCount),
              seconds: Clock.seconds() - start), to: report)
        }
        if !global.quiet {
          let s = result.statistics
          StandardError.write(
            "deduped \(table.rowCount) contacts into \(merged.rowCount) (\(s.clusters) clusters); "
              + "\(s.pairsCompared) pairs compared, \(s.pairsAccepted) accepted, "
              + "\(s.pairsRefusedByGuard) refused by the chaining guard, \(s.cappedBlocks) blocks capped; "
              + "read \(formatSeconds(readDone - start)) s, dedupe \(formatSeconds(dedupeDone - readDone)) s, "
              + "total \(formatSeconds(Clock.seconds() - start)) s\n")
          if verbose {
            let stages = ["keys", "blocking", "scoring", "em", "clustering", "merge"].compactMap { name in
              s.timings[name].map { wall in
                "\(name) \(formatSeconds(wall)) s" + (s.cpuTimings[name].map { " (cpu \(formatSeconds($0)) s)" } ?? "")
              }
            }
            StandardError.write("stages: " + stages.joined(separator: ", ") + "\n")
          }
        }
      }
    }

    private func writeClusters(_ table: ContactTable, _ result: DedupeResult, to path: String) throws {
      let out = try OutputFile(path: path)
      try result.writeClustersCSV(table: table) { try out.write($0) }
      try out.commit()
    }

    private func writeExplain(_ table: ContactTable, _ pairs: [MatchedPair], _ clusterOf: [Int32], to path: String) throws {
      let out = try OutputFile(path: path)
      try DedupeResult.writeExplanation(pairs, clusterOf: clusterOf, table: table) { try out.write($0) }
      try out.commit()
    }
  }
}
