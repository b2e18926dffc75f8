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

        With --store FILE the clusters persist in an SQLite entity store: the first
        run makes it from INPUT; a later run links INPUT's contacts to the stored
        clusters (a contact whose uid is stored replaces it; --remove takes contacts
        out), keeps cluster ids stable, and writes what changed to --changes. Then
        -o writes the merged contacts of the whole store (--changed-only: of the
        clusters this run changed) and --clusters writes uid,cluster_id with the
        store's integer cluster ids. The dedupe settings (--threshold, --weights,
        --blocking, --max-block, --region) are fixed when the store is made.
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

    @OptionGroup var matching: MatchingOptions

    @Option(
      help: ArgumentHelp(
        "A CSV of uid,entity (header first) with the true entity of each contact: report blocking recall and pairwise precision, recall and F1.",
        valueName: "truth.csv"))
    var truth: String?

    @Option(help: ArgumentHelp("Keep contacts and clusters in this SQLite entity store (made on the first run).", valueName: "entities.sqlite"))
    var store: String?

    @Option(help: ArgumentHelp("With --store: write every change of this run (contacts added, updated, removed; clusters created, merged, split, deleted; with evidence) to this NDJSON file.", valueName: "changes.ndjson"))
    var changes: String?

    @Flag(name: .customLong("changed-only"), help: "With --store: -o and --clusters cover only the clusters this run made or changed.")
    var changedOnly = false

    @Option(help: ArgumentHelp("With --store: take out the stored contacts whose uids this file lists, one a line.", valueName: "uids.txt"))
    var remove: String?

    @Option(help: ArgumentHelp("Obey a reviewer's decisions (NDJSON: {\"kind\": \"same\", \"uids\": [...]} or {\"kind\": \"different\", \"uids\": [...], \"from\": [...]}, one a line; README \"Review decisions\").", valueName: "decisions.ndjson"))
    var decisions: String?

    @Option(help: ArgumentHelp("With an address book URL: write the plan of a safe write-back (per cluster the surviving card, the card it becomes, the cards to delete, with their ETags) to this JSON file; nothing is written to the server.", valueName: "plan.json"))
    var plan: String?

    @Option(help: ArgumentHelp("Carry out a plan on its address book: If-Match on every write, each survivor read back, a cluster changed since planning left alone (needs --undo-log; the same log resumes a run that was stopped).", valueName: "plan.json"))
    var apply: String?

    @Option(name: .customLong("undo-log"), help: ArgumentHelp("With --apply: the journal written before the first request (every touched card's original text) and after each one.", valueName: "undo.ndjson"))
    var undoLog: String?

    @Option(help: ArgumentHelp("Undo a write-back from its undo log: deleted cards put back, survivors and groups given their original text; a card changed since is left and reported.", valueName: "undo.ndjson"))
    var undo: String?

    @Option(name: .customLong("max-delete-share"), help: ArgumentHelp("With --apply: refuse a plan that deletes more than this share of the book (default 0.5).", valueName: "share"))
    var maxDeleteShare: Double?

    @Flag(help: "With --apply: carry out a plan the guards refuse (more than --max-delete-share of the book, or a UID on two cards).")
    var force = false

    @Flag(help: "A table's input (CSV with its own columns): write the merged contacts in ohana's CSV header instead of the table's rows with their cluster columns.")
    var merged = false

    @Option(help: ArgumentHelp("A table's input: also write one row per cluster, in the table's own columns (its first row's cells, or with --survivorship each ruled field's from the member its rule chose, named in golden_sources; with cluster_id and cluster_size), to this file.", valueName: "golden.csv"))
    var golden: String?

    @Flag(name: .customLong("value-sources"), help: "vCard output: give each phone, e-mail, address... of a merged card the parameter X-OHANA-SOURCE=\"SOURCE:UID\" naming the member it came from (NDJSON carries it always, as each value's origin).")
    var valueSources = false

    @Option(help: ArgumentHelp("Which member gives each attribute of a merged contact: a file of FIELD=RULE lines (default=most-recent, name=source:crm,phonebook, birthday=most-frequent; README \"Golden records\").", valueName: "rules.txt"))
    var survivorship: String?

    @Option(help: ArgumentHelp("Take every attribute of a merged contact from the first of these sources that has it (--source NAME=PATH names them); the same as a survivorship file's default=source:A,B.", valueName: "A,B"))
    var prefer: String?

    @Flag(help: "Also print the time of every stage.")
    var verbose = false

    @Option(help: "Write a JSON report (counts, every read warning and skip with its line) to this file (- for standard output).")
    var report: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      try validateWriteBack()
      if store == nil && (changes != nil || changedOnly || remove != nil) {
        throw ValidationError("--changes, --changed-only and --remove need --store")
      }
      if store != nil && (explain != nil || explainCandidates != nil || truth != nil) {
        throw ValidationError("--explain and --truth are not available with --store (--changes gives each change's evidence)")
      }
      if report == "-" && output.outputPath == "-" {
        throw ValidationError("--report and --output cannot both be standard output")
      }
      if valueSources && (store != nil || plan != nil || apply != nil || undo != nil) {
        throw ValidationError("--value-sources is for a merged vCard output (not with --store, --plan, --apply or --undo)")
      }
    }

    /// The configuration the options ask for.
    func configuration() throws -> DedupeConfiguration {
      var config = try matching.configuration()
      if let survivorship {
        guard let data = FileManagerBytes.contents(survivorship) else {
          throw CLIError("cannot read \(survivorship)", exitCode: CLIError.noInput)
        }
        do {
          config.survivorship = try Survivorship(text: String(decoding: data, as: UTF8.self))
        } catch {
          throw CLIError("\(survivorship): \(error)", exitCode: CLIError.usage)
        }
      }
      if let prefer {
        guard let rule = Survivorship.Rule(text: "source:" + prefer) else {
          throw CLIError("--prefer: give the sources' names, comma-separated", exitCode: CLIError.usage)
        }
        config.survivorship.defaultRule = rule
      }
      return config
    }

    func run() throws {
      if let apply { return try runApply(apply) }
      if let undo { return try runUndo(undo) }
      if let plan { return try runPlan(plan) }
      if store != nil { return try runWithStore() }
      try CLIError.reporting {
        let start = Clock.seconds()
        // `-o FILE.parquet`: the table's rows, in Parquet (RowsBack).
        let parquetOut = output.to == nil && RowsBack.isParquet(output: output.output)
        let format = parquetOut ? ContactFormat.csv : try output.format()
        let read = try ContactFiles.read(input, quiet: global.quiet)
        try ContactFiles.requireIdentifying(read.columns, path: input.input)
        let table = read.table
        let readDone = Clock.seconds()
        PhaseTrace.mark("read")
        var config = try configuration()
        // A table in its own columns: weights fitted under auto, its title
        // column compared (DedupeConfiguration.adapt).
        if TableOutput.isUserTable(read) {
          config.adapt(
            toTableOf: table.rowCount, titleColumn: read.columns.contains { $0.role == .title },
            weights: matching.weightsSetting)
        }
        if let decisions { config.decisions = try Self.readDecisions(decisions, quiet: global.quiet) }
        var dedupe = Deduplicator(configuration: config)
        if let truth { dedupe.truth = try TruthFile.read(truth, table: table) }
        // A vCard or CSV output writes none of the merge's derived columns
        // (source uids, reason, merged count): only NDJSON needs them built;
        // the pairs' evidence, NDJSON and --explain.
        // A table of the user's, written to CSV: its own rows again, with
        // the cluster columns (README "Tables"); no merged contacts needed.
        let tablePath = input.inputs.count == 1 && input.inputs[0] != "-" ? input.inputs[0] : nil
        let rowsOut = format == .csv && !self.merged && TableOutput.isUserTable(read) && tablePath != nil
        if golden != nil && (tablePath == nil || read.tableDelimiter == nil) {
          throw CLIError("--golden writes a table's rows: give one CSV, TSV or Parquet file as the input", exitCode: CLIError.usage)
        }
        if parquetOut && !rowsOut {
          throw CLIError(
            "\(output.output): Parquet is written as a table's own rows with their cluster columns: "
              + "give one table (CSV, TSV or Parquet, in its own columns) as the input, without --merged",
            exitCode: CLIError.usage)
        }
        if valueSources && !format.isVCard && format != .ndjson {
          throw CLIError(
            "--value-sources writes vCard parameters: give a .vcf output (NDJSON carries each value's origin without it)",
            exitCode: CLIError.usage)
        }
        let (result, merged): (DedupeResult, ContactTable)
        if rowsOut {
          (result, merged) = (dedupe.findDuplicates(in: table, evidence: explain != nil), ContactTable())
        } else if valueSources && format.isVCard {
          // The origins are built with the merge's provenance, then moved
          // into each value's parameters (ValueOrigins).
          var (r, m) = dedupe.deduplicate(table, provenance: true, evidence: explain != nil)
          ValueOrigins.originParameters(&m)
          (result, merged) = (r, m)
        } else {
          (result, merged) = dedupe.deduplicate(
            table, provenance: format == .ndjson, evidence: format == .ndjson || explain != nil)
        }
        let mergedCount = rowsOut ? result.mergedCount : merged.rowCount
        let dedupeDone = Clock.seconds()
        PhaseTrace.mark("dedupe")
        // Every output written, then all committed: a failure leaves them
        // all as they were, and each file's flush overlaps the next's writing.
        // The clusters file is written beside the merged output when it
        // goes to a temporary file of its own (alone, after it, its writes
        // wait between rounds of encoding); both are waited for before
        // anything is committed.
        let clustersFile = try clusters.map { try OutputFile(path: $0) }
        let beside = clustersFile.flatMap { file in
          WrittenBeside(file) { try Self.writeClusters(table, result, into: $0) }
        }
        let mergedFile = Result {
          if rowsOut, let tablePath, let delimiter = read.tableDelimiter {
            let out = try OutputFile(path: output.output)
            try TableOutput.write(path: tablePath, delimiter: delimiter, table: table, result: result, golden: false, to: out)
            return out
          }
          return try ContactFiles.writePending(Frame(table: merged), format: format, to: output.output, quiet: global.quiet)
        }
        PhaseTrace.mark("write.merged")
        let clustersWritten = try beside?.wait()
        var outputs = [try mergedFile.get()]
        if let clustersFile {
          if clustersWritten == nil { try Self.writeClusters(table, result, into: clustersFile) }
          outputs.append(clustersFile)
        }
        PhaseTrace.mark("write.clusters")
        if let golden, let tablePath, let delimiter = read.tableDelimiter {
          let out = try OutputFile(path: golden)
          try TableOutput.write(
            path: tablePath, delimiter: delimiter, table: table, result: result, golden: true, to: out,
            roles: read.columns.map(\.role), survivorship: config.survivorship, threads: config.threads)
          outputs.append(out)
        }
        if let explain {
          outputs.append(try writeExplain(table, result.pairs, result.clusterOf, weights: result.explanationWeights, to: explain))
        }
        if let explainCandidates {
          outputs.append(
            try writeExplain(
              table, dedupe.candidatePairs(in: table), result.clusterOf, weights: ExplanationWeights(result.model),
              to: explainCandidates))
        }
        try OutputFile.commit(outputs)
        PhaseTrace.mark("commit")
        if let report {
          try JSON.write(
            ReadReport(
              command: "dedupe", path: input.input, result: read,
              output: .init(path: output.output, format: format.rawValue, contacts: mergedCount),
              dedupe: DedupeSummary(result, rows: table.rowCount, truth: dedupe.truth),
              seconds: Clock.seconds() - start), to: report)
        }
        if !global.quiet {
          let s = result.statistics
          StandardError.write(
            "deduped \(table.rowCount) contacts into \(mergedCount) (\(s.clusters) clusters); "
              + "\(s.pairsCompared) pairs compared, \(s.pairsAccepted) accepted, "
              + "\(s.pairsRefusedByGuard) refused by the chaining guard, \(s.cappedBlocks) blocks capped; "
              + "read \(formatSeconds(readDone - start)) s, dedupe \(formatSeconds(dedupeDone - readDone)) s, "
              + "total \(formatSeconds(Clock.seconds() - start)) s\n")
          Self.announce(
            result, rows: table.rowCount, decisions: config.decisions.isEmpty ? nil : decisions ?? "decisions",
            truth: dedupe.truth, verbose: verbose)
        }
      }
    }

    /// What a run found, on standard error: the decisions obeyed, pooled
    /// weights, with `verbose` the stages' times and the weights, with a
    /// `truth` blocking recall and pairwise F1 (across the sides, linking).
    static func announce(
      _ result: DedupeResult, rows: Int, decisions: String?, truth: [Int32]?, verbose: Bool, link: LinkSides? = nil
    ) {
      let s = result.statistics
      if let decisions {
        for e in s.decisionsSkipped { StandardError.write("warning: \(decisions):\(e.line): \(e.reason)\n") }
        StandardError.write(
          "decisions: \(s.decisionsApplied) obeyed, \(s.decisionsSkipped.count) skipped; "
            + "\(s.pairsRefusedByDecision) accepted pairs refused by them\n")
      }
      if !s.weightsPooled.isEmpty {
        StandardError.write(
          "warning: EM's weights for \(s.weightsPooled.joined(separator: ", ")) were not monotone in their levels "
            + "(a stronger agreement weighed less than a weaker one); those levels were pooled to one weight\n")
      }
      if verbose {
        let stages = ["keys", "blocking", "scoring", "em", "columns", "clustering", "merge"].compactMap { name in
          s.timings[name].map { wall in
            "\(name) \(formatSeconds(wall)) s" + (s.cpuTimings[name].map { " (cpu \(formatSeconds($0)) s)" } ?? "")
          }
        }
        StandardError.write("stages: " + stages.joined(separator: ", ") + "\n")
        StandardError.write(
          "weights: \(s.weightsEstimated ? "estimated (EM)" : s.estimateRejected ? "built-in defaults (EM's fit was not plausible: an exact name, birth date or address did not weigh for a match)" : "built-in defaults") "
            + "(\(s.contactsWithPhoneOrEmail) of \(rows) contacts have a phone or an e-mail)\n")
        if s.weightsEstimated { StandardError.write(Self.describe(result.model)) }
        if !s.attributes.isEmpty {
          StandardError.write("other columns compared (weight of a typical agreement, of a disagreement):\n")
          for a in s.attributes {
            StandardError.write(
              "  \(a.name): same \(formatWeight(a.same)), different \(formatWeight(a.different)) "
                + "(m \(formatRatio(a.m)) on \(a.pairs) sure pairs, u \(formatRatio(a.u)))\n")
          }
        }
        for r in s.restatedColumns {
          StandardError.write(
            "column \(r.name): not compared, it restates the name (on \(Int((r.share * 100).rounded()))% of the rows looked at)\n")
        }
        if s.pairsByColumns > 0 {
          StandardError.write(
            "column+name: \(s.pairsByColumns) more pairs compared (sharing a column above and a name part), "
              + "scored with their own share of matches (\(formatWeight(s.columnPairsShift)) against the candidates')\n")
        }
        if s.columnRuleWithheld {
          StandardError.write(
            "column+name: not used (\(s.contactsWithPhoneOrEmail) of \(rows) contacts have a phone or an e-mail; "
              + "--blocking all,column+name uses it)\n")
        }
        if s.pairsByMailbox > 0 {
          StandardError.write(
            "mailbox: \(s.pairsByMailbox) pairs shared only a mailbox (left out of EM), "
              + "scored with their own share of matches (\(formatWeight(s.mailboxPairsShift)) against the candidates', "
              + "in place of the e-mail's weight)\n")
        }
        if let rejected = result.rejectedModel { StandardError.write("not used: " + Self.describe(rejected)) }
        if s.pairsRefusedByGuard > 0 {
          StandardError.write(
            "chaining guard: \(s.pairsRefusedByGuard) accepted pairs refused: "
              + "\(s.pairsRefusedByGuard - s.pairsRefusedForSize) by the cross pairs of the clusters they would join "
              + "(their mean weight below the link threshold, or one kept apart), "
              + "\(s.pairsRefusedForSize) for the cluster cap (--max-cluster)\n")
        }
      }
      if let truth {
        let recall = s.truePairs == 0 ? 1 : Double(s.trueCandidatePairs) / Double(s.truePairs)
        let score = TruthFile.pairwise(truth: truth, clusterOf: result.clusterOf, link: link)
        StandardError.write(
          "truth: blocking recall \(formatRatio(recall)) (\(s.trueCandidatePairs) of \(s.truePairs) true pairs compared); "
            + "pairwise precision \(formatRatio(score.precision)), recall \(formatRatio(score.recall)), "
            + "F1 \(formatRatio(score.f1))\n")
        if s.truePairs > 0 {
          // Where the true pairs went: never compared (blocking), compared
          // and below the threshold (scoring), accepted and refused by the
          // guard; the rest were joined (pairwise recall counts more: the
          // pairs that clusters join through others).
          let lost = s.trueCandidatePairs - s.trueAccepted
          StandardError.write(
            "truth: of \(s.truePairs) true pairs, \(s.truePairs - s.trueCandidatePairs) never compared, "
              + "\(lost) compared and below the threshold, \(s.trueRefusedByGuard) accepted and refused by the guard "
              + "(\(s.trueRefusedForSize) for the cap), \(s.trueAccepted - s.trueRefusedByGuard) joined\n")
        }
        if s.truePairsByRuleOf > 0 {
          let of = Double(s.truePairsByRuleOf)
          let rules = BlockingKey.allCases.compactMap { k in
            s.truePairsByRule[k.description].map { "\(k.description) \(formatRatio(Double($0) / of))" }
          }
          StandardError.write(
            "truth: true pairs sharing a key of each rule (of \(s.truePairsByRuleOf), before caps): "
              + rules.joined(separator: ", ") + "; \(formatRatio(Double(s.pairsCompared) / Double(max(1, rows)))) "
              + "pairs compared per record\n")
        }
      }
    }

    /// The decisions of `--decisions`; a line that is not one is reported
    /// (file, line, reason) and skipped.
    static func readDecisions(_ path: String, quiet: Bool) throws -> [DedupeDecision] {
      let bytes = try readWholeFile(path, option: "--decisions")
      let (decisions, errors) = DedupeDecision.read(ndjson: bytes)
      if !quiet {
        for e in errors { StandardError.write("warning: \(path):\(e.line): \(e.reason); line skipped\n") }
      }
      return decisions
    }

    /// `weights (log2 m/u): given exact 2.00, jw>=0.92 1.50, ...` a line per comparison.
    static func describe(_ model: FellegiSunterModel) -> String {
      let w = model.weights
      var text = "estimated weights (log2 m/u), lambda \(formatRatio(model.lambda)):\n"
      for c in Comparison.allCases {
        let levels = (1..<c.levelCount).map { l in "\(c.levelName(l)) \(formatWeight(w[c.rawValue][l]))" }
        text += "  \(c): " + levels.joined(separator: ", ") + "\n"
      }
      return text
    }

    /// Writes `--clusters` (not committed).
    private static func writeClusters(_ table: ContactTable, _ result: DedupeResult, into out: OutputFile) throws {
      try result.writeClustersCSV(table: table) { try out.write($0) }
      out.startFlush()
    }

    /// Writes `--explain` or `--explain-candidates` (not committed).
    private func writeExplain(
      _ table: ContactTable, _ pairs: [MatchedPair], _ clusterOf: [Int32], weights: ExplanationWeights, to path: String
    ) throws
      -> OutputFile
    {
      let out = try OutputFile(path: path)
      try DedupeResult.writeExplanation(pairs, clusterOf: clusterOf, table: table, weights: weights) { try out.write($0) }
      out.startFlush()
      return out
    }
  }
}

extension GuardLinkage: ExpressibleByArgument {}
