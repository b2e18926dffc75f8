import ArgumentParser
import Foundation
import Ohana
import OhanaCardDAV
import OhanaCore

#if canImport(Glibc)
  import Glibc
#endif

/// `ohana dedupe URL --plan`, `--apply` and `--undo`: dedupe written back
/// to a CardDAV address book, safely (README "Writing back").
extension OhanaCommand.Dedupe {
  /// Exit status of an `--apply` or `--undo` that left some cluster or
  /// card alone (changed since planning, rewritten by the server, too
  /// large): sysexits' EX_TEMPFAIL; plan again and run again.
  static let notAllDone: Int32 = 75

  func validateWriteBack() throws {
    let modes = [plan, apply, undo].compactMap { $0 }.count
    if modes > 1 { throw ValidationError("--plan, --apply and --undo are three separate runs: give one") }
    if apply != nil || undo != nil {
      if !input.inputs.isEmpty { throw ValidationError("--apply and --undo take no INPUT: the plan or the log names the address book") }
      if output.outputPath != nil || clusters != nil || explain != nil || store != nil {
        throw ValidationError("--apply and --undo write only to the address book: no -o, --clusters, --explain or --store")
      }
      if apply != nil && undoLog == nil {
        throw ValidationError("--apply needs --undo-log FILE: the journal that lets a stopped run be resumed or undone")
      }
    } else {
      try input.requireInputs()
      if plan == nil { try output.require() }
    }
    if undoLog != nil && apply == nil { throw ValidationError("--undo-log goes with --apply (undo with --undo LOG)") }
    if (maxDeleteShare != nil || force) && apply == nil { throw ValidationError("--max-delete-share and --force go with --apply") }
    if let maxDeleteShare, !(maxDeleteShare > 0 && maxDeleteShare <= 1) {
      throw ValidationError("--max-delete-share must be above 0 and at most 1")
    }
    if plan != nil {
      if input.inputs.count != 1 || !CardDAVInput.isURL(input.inputs[0]) {
        throw ValidationError("--plan takes one address book URL as its INPUT")
      }
      if output.outputPath != nil || store != nil {
        throw ValidationError("--plan writes the plan only (the merged cards are in it): no -o or --store")
      }
    }
  }

  /// Reads the one address book, dedupes it, writes the plan.
  func runPlan(_ path: String) throws {
    try CLIError.reporting {
      let url = try CardDAVInput.url(input.inputs[0], input)
      let client = try CardDAVInput.client(url, input)
      let book: CardDAVReader.Book
      do {
        let books = try client.addressBooks(from: url, only: input.addressBook)
        guard books.count == 1 else {
          throw CLIError(
            "\(HTTPClientTransport.redacted(url)) leads to \(books.count) address books; a plan is for one: name it with --address-book",
            exitCode: CLIError.usage)
        }
        book = try CardDAVReader.readBook(
          books[0], client: client, options: ReadOptions(strict: input.strict, declaredCharset: input.charset))
      } catch let error as CardDAVError {
        throw CardDAVInput.cliError(error)
      } catch let error as ContactIOError {
        throw CLIError(error.description, exitCode: CLIError.dataError)
      }
      if !global.quiet { ContactFiles.announce(book.read.errors) }
      let table = book.read.table
      var config = try configuration()
      if let decisions { config.decisions = try Self.readDecisions(decisions, quiet: global.quiet) }
      let (result, _) = Deduplicator(configuration: config).deduplicate(table, provenance: false, evidence: explain != nil)
      // Clusters as cards; one with a row that is not a card of its own
      // (a card holding two contacts, or none) cannot be written back.
      var rowsOf: [Int: [Int]] = [:]
      for (row, c) in result.clusterOf.enumerated() { rowsOf[Int(c), default: []].append(row) }
      var cardClusters: [[Int]] = []
      var unplaced: [[Int]] = []
      for rows in rowsOf.values where rows.count >= 2 {
        if rows.contains(where: { book.cardOfRow[$0] < 0 }) {
          unplaced.append(rows)
        } else {
          cardClusters.append(rows.map { book.cardOfRow[$0] })
        }
      }
      // Survivorship rules: which card gives each ruled field, per card.
      var fieldChoices: [Int: [Survivorship.Field: Int]] = [:]
      if !config.survivorship.isDefault {
        let choices = config.survivorship.choices(input: table, result: result, threads: config.threads)
        // `choices` is in the order of each cluster's first row.
        var seen = Set<Int32>()
        var k = 0
        var rowsOfCluster: [Int32: [Int]] = [:]
        for (row, c) in result.clusterOf.enumerated() { rowsOfCluster[c, default: []].append(row) }
        for c in result.clusterOf where seen.insert(c).inserted {
          defer { k += 1 }
          guard k < choices.count, let rows = rowsOfCluster[c], rows.count >= 2,
            rows.allSatisfy({ book.cardOfRow[$0] >= 0 })
          else { continue }
          let byCard = choices[k].mapValues { book.cardOfRow[$0] }
          for r in rows { fieldChoices[book.cardOfRow[r]] = byCard }
        }
      }
      var plan = WriteBackPlan.make(
        book: book, clusters: cardClusters, region: config.defaultRegion, fieldChoices: fieldChoices)
      for rows in unplaced {
        let hrefs = Set(rows.compactMap { book.cardOfRow[$0] >= 0 ? book.cards[book.cardOfRow[$0]].url.absoluteString : nil })
        plan.skip(hrefs: hrefs.sorted(), reason: "a card of the cluster holds more than one contact")
      }
      var outputs: [OutputFile] = []
      let out = try OutputFile(path: path)
      let json: Data
      do { json = try plan.json() } catch { throw CLIError("cannot encode the plan: \(error)") }
      try out.write(Array(json))
      outputs.append(out)
      if let clustersPath = clusters {
        let file = try OutputFile(path: clustersPath)
        try result.writeClustersCSV(table: table) { try file.write($0) }
        outputs.append(file)
      }
      if let explainPath = explain {
        let file = try OutputFile(path: explainPath)
        try DedupeResult.writeExplanation(result.pairs, clusterOf: result.clusterOf, table: table, weights: result.explanationWeights) {
          try file.write($0)
        }
        outputs.append(file)
      }
      try OutputFile.commit(outputs)
      if !global.quiet {
        StandardError.write(
          "plan: \(plan.clusters.count) clusters to merge in \(plan.book) (\(plan.cardsInBook) cards): "
            + "\(plan.deleteCount) cards to delete, \(plan.groups.count) groups to update, \(plan.skipped.count) clusters skipped, "
            + "\(plan.clusters.reduce(0) { $0 + $1.setAside.count }) values set aside (listed in the plan); "
            + "nothing was written to the server\n")
        for s in plan.skipped { StandardError.write("skipped: a cluster of \(s.hrefs.count) cards: \(s.reason)\n") }
        let share = maxDeleteShare ?? 0.5
        if plan.deleteShare > share {
          StandardError.write(
            "warning: the plan deletes \(Int((plan.deleteShare * 100).rounded()))% of the book; --apply refuses it unless --force\n")
        }
        if !plan.duplicateUids.isEmpty {
          StandardError.write(
            "warning: \(plan.duplicateUids.count) UID(s) are on more than one card; --apply refuses the plan unless --force\n")
        }
        StandardError.write("carry it out with: ohana dedupe --apply \(path) --undo-log UNDO.ndjson\n")
      }
    }
  }

  /// The client for a plan's or log's book, with the login the options
  /// give; `OHANA_TEST_KILL_AFTER_WRITES=N` (tests only) kills the
  /// process right after the N-th PUT or DELETE is answered, before the
  /// answer is logged: a run stopped at the worst moment.
  func writeBackClient(_ bookText: String) throws -> (CardDAVClient, URL) {
    let url = try CardDAVInput.url(bookText, input)
    var transport: any HTTPTransport = HTTPClientTransport(caFile: input.caFile)
    if let n = ProcessInfo.processInfo.environment["OHANA_TEST_KILL_AFTER_WRITES"].flatMap(Int.init) {
      transport = KillAfterWrites(inner: transport, writes: n)
    }
    return (try CardDAVInput.client(url, input, transport: transport), url)
  }

  func runApply(_ planPath: String) throws {
    try CLIError.reporting {
      let bytes = try readWholeFile(planPath, option: "--apply")
      let plan: WriteBackPlan
      do { plan = try WriteBackPlan.read(Data(bytes)) } catch let error as CardDAVError {
        throw CLIError("\(planPath): \(error.message)", exitCode: CLIError.dataError)
      } catch {
        throw CLIError("\(planPath): not a plan written by ohana dedupe --plan (\(error))", exitCode: CLIError.dataError)
      }
      let digest = SHA256.hash(bytes).map { String(format: "%02x", $0) }.joined()
      let logPath = undoLog ?? ""
      var entries: [UndoEntry] = []
      if let size = (try? FileManager.default.attributesOfItem(atPath: logPath))?[.size] as? Int, size > 0 {
        let read: (entries: [UndoEntry], torn: Bool)
        do throws(CardDAVError) { read = try UndoLog.read(logPath) } catch { throw CardDAVInput.cliError(error) }
        guard read.entries.first?.kind == "start", read.entries.first?.plan == digest else {
          throw CLIError(
            "\(logPath) is the undo log of another plan (or not one); give a new --undo-log, or undo that run first",
            exitCode: CLIError.usage)
        }
        if read.torn && !global.quiet { StandardError.write("note: the undo log's last line was cut short (a run stopped while writing it); it is ignored\n") }
        entries = read.entries
      }
      let (client, book) = try writeBackClient(plan.book)
      let report: WriteBack.Report
      do throws(CardDAVError) {
        let log = try UndoLog(path: logPath)
        report = try WriteBack(client: client, book: book).apply(
          plan, planDigest: digest, log: log, entries: entries, force: force, maxDeleteShare: maxDeleteShare ?? 0.5)
      } catch {
        throw CardDAVInput.cliError(error)
      }
      if !global.quiet {
        for c in report.clusters where c.result != "merged" {
          StandardError.write("cluster \(c.id): \(c.result): \(c.detail)\n")
        }
        StandardError.write(
          "\(report.resumed ? "resumed and applied" : "applied") \(planPath) to \(plan.book): "
            + "\(report.count("merged")) clusters merged, \(report.count("partial")) merged in part, "
            + "\(report.count("changed")) changed since planning, \(report.count("rewritten")) rewritten by the server, "
            + "\(report.count("too-large")) too large, \(report.count("refused")) refused by the server, "
            + "\(report.count("invalid")) invalid (not sent), \(report.count("failed")) failed; "
            + "\(report.deleted) cards deleted, \(report.groupsUpdated) groups updated, \(report.groupsChanged) groups changed since planning; "
            + "undo with: ohana dedupe --undo \(logPath)\n")
      }
      if report.clusters.contains(where: { $0.result != "merged" }) || report.groupsChanged > 0 {
        throw ExitCode(Self.notAllDone)
      }
    }
  }

  func runUndo(_ logPath: String) throws {
    try CLIError.reporting {
      let read: (entries: [UndoEntry], torn: Bool)
      do throws(CardDAVError) { read = try UndoLog.read(logPath) } catch { throw CLIError(error.message, exitCode: CLIError.noInput) }
      guard let bookText = read.entries.first(where: { $0.kind == "start" })?.book else {
        throw CLIError("\(logPath): not an undo log written by ohana dedupe --apply", exitCode: CLIError.dataError)
      }
      let (client, _) = try writeBackClient(bookText)
      let report: WriteBack.UndoReport
      do throws(CardDAVError) {
        let log = try UndoLog(path: logPath)
        report = try WriteBack.undo(entries: read.entries, client: client, log: log)
      } catch {
        throw CardDAVInput.cliError(error)
      }
      if !global.quiet {
        for r in report.refused {
          StandardError.write("refused: \(URL(string: r.href).map(HTTPClientTransport.redacted) ?? r.href): \(r.reason)\n")
        }
        StandardError.write(
          "undo: \(report.restored) cards restored, \(report.refused.count) refused, \(report.unchanged) needed nothing\n")
      }
      if !report.refused.isEmpty { throw ExitCode(Self.notAllDone) }
    }
  }
}

/// A transport that kills the process after `writes` PUTs and DELETEs
/// have been answered (`OHANA_TEST_KILL_AFTER_WRITES`, for the tests of a
/// resumed run).
struct KillAfterWrites: HTTPTransport {
  let inner: any HTTPTransport
  let writes: Int
  private let count = Counter()

  init(inner: any HTTPTransport, writes: Int) {
    self.inner = inner
    self.writes = writes
  }

  final class Counter: @unchecked Sendable {
    // Safe: the write-back sends one request at a time.
    var n = 0
  }

  func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse {
    let r = try inner.send(request)
    if request.method == "PUT" || request.method == "DELETE" {
      count.n += 1
      if count.n >= writes { kill(getpid(), SIGKILL) }
    }
    return r
  }
}
