import ArgumentParser
import Foundation
import Ohana

extension OhanaCommand {
  /// `ohana link LEFT RIGHT`: the records of one table matched against
  /// another's, as Splink's `link_only` (DESIGN §15: a mode of dedupe's
  /// machinery, ``LinkSides``). Each side is read with its own mapping;
  /// the model, blocking and the chaining guard are dedupe's.
  struct Link: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Match the records of one table against another's (no dedupe within either).",
      discussion: """
        Two inputs, LEFT then RIGHT (CSV or TSV with any header, vCard, NDJSON), each read \
        with its own column mapping: --map and --columns map both, unless --right-map or \
        --right-columns are given, which then map RIGHT alone (a "Phone" matched against a \
        "CellPhone"). Only pairs with one record on each side are compared, fitted and \
        joined; --link-and-dedupe compares the pairs within each side too.

        -o writes LEFT's rows again, every cell as it was, with cluster_id, match_id (the \
        RIGHT record whose pair with this row weighed most; else the first RIGHT record of \
        its cluster), match_weight (that pair's weight; empty when the row joined through \
        another) and match_count (RIGHT records in its cluster). --pairs writes the pairs \
        that joined (uid_l,uid_r,source_l,source_r,match_weight,cluster_id), strongest \
        first; --clusters writes uid,cluster_id,source for every record of both. A record \
        without an id column is named row-N, N its row in its own table; when an id occurs \
        on both sides, a cluster named by a RIGHT record has RIGHT's source name and a colon \
        in front of its id. --truth (uid,entity) scores the pairs across the sides.
        """
    )

    @OptionGroup var input: InputOptions

    @Option(
      name: [.short, .customLong("output")],
      help: ArgumentHelp("Write LEFT's rows with their match (LEFT must be a CSV or TSV table).", valueName: "output"))
    var output: String?

    @Option(help: ArgumentHelp("Write the pairs that joined, with their weights, to this CSV file.", valueName: "pairs.csv"))
    var pairs: String?

    @Option(help: ArgumentHelp("Write uid,cluster_id,source for every record of both tables to this CSV file.", valueName: "clusters.csv"))
    var clusters: String?

    @Flag(name: .customLong("link-and-dedupe"), help: "Compare the pairs within each table too, not only across.")
    var linkAndDedupe = false

    @Option(
      name: .customLong("right-map"),
      help: ArgumentHelp("RIGHT's column roles, ROLE=COLUMN[,COLUMN...] (repeatable); then --map maps LEFT alone.", valueName: "role=column"))
    var rightMap: [String] = []

    @Option(
      name: .customLong("right-columns"),
      help: ArgumentHelp("RIGHT's column roles from a file; then --columns maps LEFT alone.", valueName: "path"))
    var rightColumns: String?

    @OptionGroup var matching: MatchingOptions

    @Option(
      help: ArgumentHelp(
        "A CSV of uid,entity (header first) for the records of both: report blocking recall and precision, recall and F1 of the pairs across.",
        valueName: "truth.csv"))
    var truth: String?

    @Flag(help: "Also print the time of every stage and the weights.")
    var verbose = false

    @Option(help: "Write a JSON report (counts, both mappings, every read warning and skip with its line) to this file (- for standard output).")
    var report: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard input.inputs.count == 2 else {
        throw ValidationError("give two inputs: the left table, then the right table")
      }
      if input.inputs.contains("-") || input.inputs.contains(where: CardDAVInput.isURL) {
        throw ValidationError("link reads two files (not standard input or an address book)")
      }
      if output == nil && pairs == nil && clusters == nil && report == nil && truth == nil && !input.showMapping {
        throw ValidationError("nothing to write: give -o, --pairs, --clusters or --report")
      }
      if report == "-" && output == "-" {
        throw ValidationError("--report and --output cannot both be standard output")
      }
    }

    /// The options that read side `i` (0 left, 1 right): the one input,
    /// and RIGHT's own mapping when one was given.
    func sideOptions(_ i: Int) -> InputOptions {
      var o = input
      o.inputs = [input.inputs[i]]
      o.sourceNames = []
      o.showMapping = false
      if i == 1 && (!rightMap.isEmpty || rightColumns != nil) {
        o.map = rightMap
        o.columnsFile = rightColumns
      }
      return o
    }

    /// Each side's source name: `--source NAME=PATH`, else the path.
    func sourceName(_ i: Int) -> String {
      let path = input.inputs[i]
      for s in input.sourceNames {
        if let eq = s.firstIndex(of: "="), String(s[s.index(after: eq)...]) == path { return String(s[..<eq]) }
      }
      return path
    }

    func run() throws {
      try CLIError.reporting {
        let start = Clock.seconds()
        let sides = try [0, 1].map { try ContactFiles.read(sideOptions($0), quiet: global.quiet || input.showMapping) }
        if input.showMapping {
          let text = [0, 1].map { ContactFiles.mappingText(sides[$0].columns, path: input.inputs[$0]) }.joined()
          FileHandle.standardOutput.write(Data(text.utf8))
          throw ExitCode.success
        }
        for i in 0..<2 { try ContactFiles.requireIdentifying(sides[i].columns, path: input.inputs[i]) }
        let readDone = Clock.seconds()
        let table = ContactTable.concatenate([sides[0].table, sides[1].table])
        let link = LinkSides(rightStart: sides[0].table.rowCount, withinSides: linkAndDedupe)
        var config = try matching.configuration()
        // As dedupe decides for one table (DedupeConfiguration.adapt);
        // the title compared when both tables have one.
        if sides.allSatisfy(TableOutput.isUserTable) {
          config.adapt(
            toTableOf: table.rowCount, titleColumn: sides.allSatisfy { $0.columns.contains { $0.role == .title } },
            weights: matching.weightsSetting)
        }
        var dedupe = Deduplicator(configuration: config)
        dedupe.link = link
        if let truth { dedupe.truth = try TruthFile.read(truth, table: table) }
        let result = dedupe.findDuplicates(in: table, evidence: false)
        let linkDone = Clock.seconds()
        let rows = LinkRows(table: table, result: result, link: link, names: [sourceName(0), sourceName(1)])

        var outputs: [OutputFile] = []
        if let output {
          guard let delimiter = sides[0].tableDelimiter else {
            throw CLIError(
              "-o writes \(input.inputs[0])'s rows with their match, so it must be a CSV, TSV or Parquet table; "
                + "for vCard and NDJSON use --pairs or --clusters", exitCode: CLIError.usage)
          }
          let out = try OutputFile(path: output)
          try rows.writeLeftRows(path: input.inputs[0], delimiter: delimiter, to: out)
          outputs.append(out)
        }
        if let pairs {
          let out = try OutputFile(path: pairs)
          try out.write(rows.pairsCSV())
          out.startFlush()
          outputs.append(out)
        }
        if let clusters {
          let out = try OutputFile(path: clusters)
          try out.write(rows.clustersCSV())
          out.startFlush()
          outputs.append(out)
        }
        try OutputFile.commit(outputs)
        if let report {
          try JSON.write(
            LinkReport(
              left: InputSummary(path: input.inputs[0], result: sides[0]),
              right: InputSummary(path: input.inputs[1], result: sides[1]),
              problems: ErrorEntry.list(sides[0].errors).0 + ErrorEntry.list(sides[1].errors).0,
              linkAndDedupe: linkAndDedupe, leftMatched: rows.leftMatched, rightMatched: rows.rightMatched,
              link: DedupeSummary(result, rows: table.rowCount, truth: dedupe.truth, link: link),
              seconds: Clock.seconds() - start), to: report)
        }
        if !global.quiet {
          let s = result.statistics
          StandardError.write(
            "linked \(link.rightStart) left and \(table.rowCount - link.rightStart) right records: "
              + "\(rows.leftMatched) left and \(rows.rightMatched) right records matched; "
              + "\(s.pairsCompared) pairs compared, \(s.pairsAccepted) accepted, "
              + "\(s.pairsRefusedByGuard) refused by the chaining guard, \(s.cappedBlocks) blocks capped; "
              + "read \(formatSeconds(readDone - start)) s, link \(formatSeconds(linkDone - readDone)) s, "
              + "total \(formatSeconds(Clock.seconds() - start)) s\n")
          Dedupe.announce(result, rows: table.rowCount, decisions: nil, truth: dedupe.truth, verbose: verbose, link: link)
        }
      }
    }
  }
}

/// What `link --report` writes: both inputs, the link's counts and model.
struct LinkReport: Encodable {
  var tool = "ohana " + VersionInfo.tool
  var command = "link"
  var left: InputSummary
  var right: InputSummary
  /// Every warning and skip of both inputs, LEFT's first.
  var problems: [ErrorEntry]
  var linkAndDedupe: Bool
  /// LEFT records with a RIGHT record in their cluster, and the reverse.
  var leftMatched: Int
  var rightMatched: Int
  var link: DedupeSummary
  var seconds: Double
}

/// The outputs of `link` over the two tables' rows (LEFT's first, then
/// RIGHT's, as ``LinkSides`` lays them).
struct LinkRows {
  let table: ContactTable
  let result: DedupeResult
  let link: LinkSides
  let names: [String]
  /// Per cluster (indexed by the row that names it): its RIGHT records,
  /// and the first of them (-1: none).
  private var rightCount: [Int32]
  private var firstRight: [Int32]
  /// Per LEFT row: the RIGHT row of its strongest joined pair (-1: none).
  private var best: [Int32]
  private var bestWeight: [Double]
  /// Whether some id occurs on both sides (then a cluster named by a
  /// RIGHT record has RIGHT's name in front of its id).
  private let idsOverlap: Bool

  init(table: ContactTable, result: DedupeResult, link: LinkSides, names: [String]) {
    self.table = table
    self.result = result
    self.link = link
    self.names = names
    let n = min(table.rowCount, result.clusterOf.count)
    rightCount = [Int32](repeating: 0, count: n)
    firstRight = [Int32](repeating: -1, count: n)
    for r in link.rightStart..<max(link.rightStart, n) {
      let c = Int(result.clusterOf[r])
      rightCount[c] += 1
      if firstRight[c] < 0 { firstRight[c] = Int32(r) }
    }
    (best, bestWeight) = result.strongestAcross(link, rows: min(n, link.rightStart))
    // (Without id columns both sides are row-1, row-2...: they overlap.)
    let leftIDs = Set((0..<min(n, link.rightStart)).map { Self.uid(table, $0, link) })
    let overlap = (link.rightStart..<max(link.rightStart, n)).contains { leftIDs.contains(Self.uid(table, $0, link)) }
    idsOverlap = overlap
  }

  /// A row's id: its uid, else `row-N` with N its row in its own table.
  static func uid(_ table: ContactTable, _ r: Int, _ link: LinkSides) -> String {
    TableOutput.uid(table, r, number: link.isRight(r) ? r - link.rightStart + 1 : r + 1)
  }

  func uid(_ r: Int) -> String { Self.uid(table, r, link) }

  func clusterID(_ r: Int) -> String {
    let c = Int(result.clusterOf[r])
    return link.isRight(c) && idsOverlap ? names[1] + ":" + uid(c) : uid(c)
  }

  func source(_ r: Int) -> String { names[link.isRight(r) ? 1 : 0] }

  /// LEFT records with a RIGHT record in their cluster, and RIGHT records
  /// with a LEFT one (a cluster is named by its smallest row, so it holds
  /// a LEFT record exactly when that row is LEFT's).
  var leftMatched: Int { (0..<best.count).reduce(0) { $0 + (rightCount[Int(result.clusterOf[$1])] > 0 ? 1 : 0) } }

  var rightMatched: Int {
    (link.rightStart..<max(link.rightStart, rightCount.count)).reduce(0) {
      $0 + (link.isRight(Int(result.clusterOf[$1])) ? 0 : 1)
    }
  }

  /// LEFT's rows again with `cluster_id`, `match_id`, `match_weight` and
  /// `match_count` appended (a name the table uses gets `ohana_` in front).
  func writeLeftRows(path: String, delimiter: UInt8, to out: OutputFile) throws {
    let rows = RowsBack(
      path: path, delimiter: delimiter, lines: Array(table.sourceLine.prefix(link.rightStart)),
      columns: [("cluster_id", .text), ("match_id", .text), ("match_weight", .float64), ("match_count", .int32)],
      values: { row in
        guard row < best.count else { return [] }
        let c = Int(result.clusterOf[row])
        let match = best[row] >= 0 ? Int(best[row]) : Int(firstRight[c])
        return [
          .text(clusterID(row)), match >= 0 ? .text(uid(match)) : .empty,
          best[row] >= 0 ? .double(bestWeight[row]) : .empty, .int(Int(rightCount[c])),
        ]
      })
    try rows.write(to: out)
  }

  /// `uid_l,uid_r,source_l,source_r,match_weight,cluster_id`: each pair
  /// that joined, strongest first (the lower row on the left).
  func pairsCSV() -> [UInt8] {
    var out = Array("uid_l,uid_r,source_l,source_r,match_weight,cluster_id\n".utf8)
    for p in result.pairs {
      for cell in [uid(p.first), uid(p.second), source(p.first), source(p.second)] {
        TableRows.writeCell(cell.utf8, delimiter: 0x2C, into: &out)
        out.append(0x2C)
      }
      out.append(contentsOf: Deduplicator.formatWeight(p.weight).utf8)
      out.append(0x2C)
      TableRows.writeCell(clusterID(p.first).utf8, delimiter: 0x2C, into: &out)
      out.append(0x0A)
    }
    return out
  }

  /// `uid,cluster_id,source` for every record, LEFT's first.
  func clustersCSV() -> [UInt8] {
    var out = Array("uid,cluster_id,source\n".utf8)
    for r in 0..<min(table.rowCount, result.clusterOf.count) {
      for cell in [uid(r), clusterID(r)] {
        TableRows.writeCell(cell.utf8, delimiter: 0x2C, into: &out)
        out.append(0x2C)
      }
      TableRows.writeCell(source(r).utf8, delimiter: 0x2C, into: &out)
      out.append(0x0A)
    }
    return out
  }
}
