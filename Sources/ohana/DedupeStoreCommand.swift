import ArgumentParser
import Ohana
import OhanaCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

extension OhanaCommand.Dedupe {
  /// `ohana dedupe INPUT --store entities.sqlite ...`: link INPUT to the
  /// entity store (made by the first run), then write its merged
  /// contacts, cluster ids and changes.
  func runWithStore() throws {
    try CLIError.reporting {
      guard let storePath = store else { return }
      let start = Clock.seconds()
      let format = try output.format()
      let removing = try remove.map { try Self.readUIDs($0) } ?? []
      let decided = try decisions.map { try Self.readDecisions($0, quiet: global.quiet) } ?? []
      let exists = EntityStore.exists(at: storePath)
      if exists && (matching.threshold != nil || matching.weights != nil || matching.em || matching.blocking != nil || matching.maxBlock != nil || matching.region != nil) {
        throw CLIError(
          "\(storePath) keeps the dedupe settings it was made with, and every run uses them: "
            + "drop --threshold, --weights, --em, --blocking, --max-block and --region, or make a new store")
      }
      // The golden records' rules too: every run merges by the rules the
      // store was made with, so that its records stay one kind of record.
      if exists && (survivorship != nil || prefer != nil) {
        throw CLIError(
          "\(storePath) keeps the survivorship rules it was made with, and every run merges by them: "
            + "drop --survivorship and --prefer, or make a new store")
      }
      if !exists && !removing.isEmpty { throw CLIError("--remove: there is no store at \(storePath) yet") }
      // An address book: a later run reads only what changed since the
      // sync token the store kept (README "Live address books").
      let fromServer = input.inputs.contains(where: CardDAVInput.isURL)
      var early: EntityStore? = nil
      if fromServer && exists {
        do throws(StoreError) { early = try EntityStore.open(at: storePath) } catch {
          throw CLIError("\(storePath): \(error.description)", exitCode: CLIError.cannotCreate)
        }
      }
      var providerStates: [(String, String)] = []
      var removingAll = removing
      let read: ReadResult
      if fromServer {
        let changes = try CardDAVInput.readChanges(input, store: early, quiet: global.quiet)
        read = changes.read
        removingAll += changes.removing
        providerStates = changes.states
      } else {
        read = try ContactFiles.read(input, quiet: global.quiet)
      }
      let readDone = Clock.seconds()

      // The first run builds the store beside its path and renames it into
      // place when done, so a run killed half-way leaves no store behind;
      // a later run is one SQLite transaction.
      let partial = storePath + ".partial-\(getpid())"
      // Removed if Ctrl-C or SIGTERM stops the run (with SQLite's journal),
      // and a partial store of a run killed outright is removed once its
      // process is gone.
      var slots: [Int32] = []
      if !exists {
        let slash = storePath.lastIndex(of: "/")
        Interrupts.removeLeftovers(
          in: slash.map { String(storePath[...$0]) } ?? "",
          stem: (slash.map { String(storePath[storePath.index(after: $0)...]) } ?? storePath) + ".partial-")
        slots = [partial, partial + "-journal"].map { Interrupts.register($0) }
      }
      defer { slots.forEach { Interrupts.forget($0) } }
      let entityStore: EntityStore
      let run: StoreRun
      do {
        if exists {
          entityStore = try early ?? EntityStore.open(at: storePath)
        } else {
          unlink(partial)
          entityStore = try EntityStore.create(at: partial, configuration: configuration(), unjournaled: true)
        }
        run = try entityStore.link(
          read.table, source: input.sourceLabel, removing: removingAll, decisions: decided, recordChanges: changes != nil)
        // Kept once the run is in: a run that fails reads the same changes again.
        for (key, state) in providerStates { try entityStore.setProviderState(key, state) }
      } catch let error as StoreError {
        if !exists { unlink(partial) }
        throw CLIError("\(storePath): \(error.description)", exitCode: CLIError.cannotCreate)
      }
      if !exists {
        guard rename(partial, storePath) == 0 else {
          let reason = OutputFile.reason(errno)
          unlink(partial)
          throw CLIError("cannot move the new store into place at \(storePath): \(reason)", exitCode: CLIError.cannotCreate)
        }
      }
      let linkDone = Clock.seconds()
      let only = changedOnly ? run.changedClusters : nil
      try entityStore.reading {
        try writeOutputs(entityStore, run, format: format, only: only, start: start, readDone: readDone, linkDone: linkDone)
      }
    }
  }

  /// `-o`, `--clusters`, `--changes` and the summary of a store run.
  func writeOutputs(
    _ entityStore: EntityStore, _ run: StoreRun, format: ContactFormat, only: [Int64]?, start: Double, readDone: Double,
    linkDone: Double
  ) throws {
    guard let storePath = store else { return }
    do {

      // Every output written, then all committed (as plain `dedupe` does).
      var outputs: [OutputFile] = []
      // The merged contacts.
      if format == .vcard4, let cards = run.mergedVCards ?? (only != nil ? run.changedVCards : nil) {
        // The first run encoded them while it wrote the store; a later
        // run, those of the clusters it changed.
        let out = try OutputFile(path: output.output)
        try out.write(cards)
        out.startFlush()
        outputs.append(out)
      } else if let merged = run.merged {
        outputs.append(try ContactFiles.writePending(Frame(table: merged), format: format, to: output.output, quiet: global.quiet))
      } else {
        var bytes: [UInt8] = []
        try entityStore.forEachMergedCard(only: only) { _, card in bytes.append(contentsOf: card) }
        if format == .vcard4 {
          let out = try OutputFile(path: output.output)
          try out.write(bytes)
          out.startFlush()
          outputs.append(out)
        } else {
          let table = try ContactIO.read(bytes: bytes, format: .vcard4).table
          outputs.append(try ContactFiles.writePending(Frame(table: table), format: format, to: output.output, quiet: global.quiet))
        }
      }
      if let clusters {
        let out = try OutputFile(path: clusters)
        var buf: [UInt8] = Array("uid,cluster_id\n".utf8)
        try entityStore.forEachAssignment(only: only) { uid, cluster in
          Self.appendCSVField(uid, to: &buf)
          buf.append(contentsOf: ",\(cluster)\n".utf8)
          if buf.count >= 1 << 20 {
            try out.write(buf)
            buf.removeAll(keepingCapacity: true)
          }
        }
        try out.write(buf)
        out.startFlush()
        outputs.append(out)
      }
      if let changes {
        let out = try OutputFile(path: changes)
        var buf: [UInt8] = []
        for c in run.changes {
          Self.appendChange(c, run: run.id, to: &buf)
          if buf.count >= 1 << 20 {
            try out.write(buf)
            buf.removeAll(keepingCapacity: true)
          }
        }
        try out.write(buf)
        out.startFlush()
        outputs.append(out)
      }
      try OutputFile.commit(outputs)
      if !global.quiet {
        let (contacts, clusterCount) = try entityStore.counts()
        var st = stat()
        let size = stat(storePath, &st) == 0 ? Int(st.st_size) : 0
        StandardError.write(
          "store \(storePath): \(contacts) contacts in \(clusterCount) clusters, "
            + "\(size / 1_048_576) MiB (\(contacts == 0 ? 0 : size / contacts) bytes a contact); "
            + "run \(run.id): \(run.added) added, \(run.updated) updated, \(run.removed) removed"
            + (run.unchanged > 0 ? ", \(run.unchanged) unchanged" : "")
            + (run.removeNotFound > 0 ? " (\(run.removeNotFound) uids to remove not found)" : "")
            + (run.repeatedInInput > 0 ? " (\(run.repeatedInInput) input contacts replaced by a later one with the same uid)" : "")
            + "; clusters \(run.clustersCreated) created, \(run.clustersMerged) merged, \(run.clustersSplit) split, "
            + "\(run.clustersDeleted) deleted; \(run.storedLoaded) stored contacts compared, \(run.pairsCompared) pairs compared, "
            + "\(run.pairsAccepted) accepted, \(run.pairsRefusedByGuard) refused by the chaining guard; "
            + "read \(formatSeconds(readDone - start)) s, link \(formatSeconds(linkDone - readDone)) s, "
            + "total \(formatSeconds(Clock.seconds() - start)) s\n")
        if let decisions {
          for e in run.decisionsSkipped { StandardError.write("warning: \(decisions):\(e.line): \(e.reason)\n") }
        }
        if decisions != nil || run.pairsRefusedByDecision > 0 || run.clustersReopened > 0 {
          StandardError.write(
            "decisions: \(run.decisionsKept) kept, \(run.decisionsSkipped.count) skipped; "
              + "\(run.pairsRefusedByDecision) accepted pairs refused by the kept decisions, "
              + "\(run.clustersReopened) stored clusters clustered again for them\n")
        }
        if verbose {
          let stages = run.timings.sorted { $0.key < $1.key }.map { "\($0.key) \(formatSeconds($0.value)) s" }
          StandardError.write("stages: " + stages.joined(separator: ", ") + "\n")
          StandardError.write("stored candidates: \(run.storedCandidates) (read back with their clusters: \(run.storedLoaded))\n")
          StandardError.write(
            run.keyLogCompacted
              ? "key log: folded into the key buckets this run\n" : "key log: \(run.keyLogEntries) entries (folded in at 1/8 of the buckets')\n")
          StandardError.write(
            run.clusterLogFolded
              ? "cluster log: folded into cluster_base this run\n"
              : "cluster log: \(run.clusterLogRows) clusters (folded in with the key log, or at 1/\(EntityStore.clusterLogFraction) of the clusters)\n")
        }
      }
    }
  }

  /// Uids to remove: one a line; blank lines and surrounding spaces ignored.
  static func readUIDs(_ path: String) throws -> [String] {
    let bytes = try readWholeFile(path, option: "--remove")
    var uids: [String] = []
    for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
      var s = line[...]
      while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
      while let l = s.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
      if !s.isEmpty { uids.append(String(decoding: s, as: UTF8.self)) }
    }
    return uids
  }

  static func appendCSVField(_ s: String, to buf: inout [UInt8]) {
    if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
      buf.append(0x22)
      for b in s.utf8 {
        if b == 0x22 { buf.append(0x22) }
        buf.append(b)
      }
      buf.append(0x22)
    } else {
      buf.append(contentsOf: s.utf8)
    }
  }

  /// `{"run":2,"change":"added","cluster":7,"uid":"…","evidence":[…]}`:
  /// merged names the absorbed id (`absorbed`), split the new part (`into`).
  static func appendChange(_ c: StoreChange, run: Int64, to buf: inout [UInt8]) {
    buf.append(contentsOf: "{\"run\":\(run),\"change\":\"\(c.kind.rawValue)\",\"cluster\":\(c.cluster)".utf8)
    if let other = c.other {
      buf.append(contentsOf: (c.kind == .merged ? ",\"absorbed\":" : ",\"into\":").utf8)
      buf.append(contentsOf: "\(other)".utf8)
    }
    if let uid = c.uid {
      buf.append(contentsOf: ",\"uid\":".utf8)
      DedupeResult.appendJSONText(uid, to: &buf)
    }
    if c.evidence != "[]" { buf.append(contentsOf: ",\"evidence\":\(c.evidence)".utf8) }
    if !c.decisions.isEmpty {
      buf.append(contentsOf: ",\"decisions\":[\(c.decisions.map(String.init).joined(separator: ","))]".utf8)
    }
    buf.append(contentsOf: "}\n".utf8)
  }
}


/// The bytes of an input file an option names (`--remove`, `--decisions`,
/// `--clusters`, `--explain`); exit 66 with the system's reason (`no such
/// file or directory`) when it cannot be read.
func readWholeFile(_ path: String, option: String) throws -> [UInt8] {
  guard let file = fopen(path, "rb") else {
    throw CLIError("cannot read \(option) \(path): \(OutputFile.reason(errno))", exitCode: CLIError.noInput)
  }
  defer { fclose(file) }
  var out: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = fread(&buffer, 1, buffer.count, file)
    if n > 0 { out.append(contentsOf: buffer[0..<n]) }
    if n < buffer.count {
      if ferror(file) != 0 {
        throw CLIError("cannot read \(option) \(path): \(OutputFile.reason(errno))", exitCode: CLIError.noInput)
      }
      return out
    }
  }
}
