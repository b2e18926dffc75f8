import OhanaCore
import OhanaDedupe
import OhanaIO

/// A reviewer's decisions kept in the store (README "Review decisions"):
/// one row each in `decisions`, its text the decision's line of a
/// decisions file, obeyed by every run from the one that took it.
extension EntityStore {
  static let decisionTable =
    "decisions(id INTEGER PRIMARY KEY, run INTEGER NOT NULL, kind TEXT NOT NULL, decision TEXT NOT NULL)"

  /// The kept decisions in the order taken, each with its id as its `line`.
  public func keptDecisions() throws(StoreError) -> [DedupeDecision] {
    let q = try db.prepare("SELECT id, decision FROM decisions ORDER BY id")
    var out: [DedupeDecision] = []
    while try q.step() {
      let id = q.int64(0)
      let (read, errors) = DedupeDecision.read(ndjson: q.bytes(1))
      guard errors.isEmpty, var d = read.first, read.count == 1 else {
        throw StoreError("kept decision \(id) cannot be read: the store is damaged")
      }
      d.line = Int(id)
      out.append(d)
    }
    return out
  }

  /// Checks `new` against the contacts (the store's, and the batch's by
  /// `inBatch`) and the decisions kept before, keeps those that hold
  /// (in `decisions`, for run `run.id`) and reports the others in
  /// `run.decisionsSkipped` with their lines. Returns every kept
  /// decision, the new ones last, each with its id as its `line`.
  func keepDecisions(
    _ new: [DedupeDecision], run: inout StoreRun, inBatch: (String) -> Bool
  ) throws(StoreError) -> (all: [DedupeDecision], new: [DedupeDecision]) {
    let old = try keptDecisions()
    guard !new.isEmpty else { return (old, []) }
    // The uids the decisions name that are contacts, as rows of their own.
    var named: [String] = []
    var seen = Set<String>()
    for d in old + new {
      for u in d.uids + d.from where !seen.contains(u) {
        seen.insert(u)
        if inBatch(u) {
          named.append(u)
        } else if try cluster(ofUID: u) != nil {
          named.append(u)
        }
      }
    }
    // The new ones numbered -1, -2, ... so that their skips are told apart.
    var numbered = old
    for (i, d) in new.enumerated() {
      var e = d
      e.line = -(i + 1)
      numbered.append(e)
    }
    let check = DecisionConstraints(numbered, rowCount: named.count) { named[$0] }
    var skippedNew = Set<Int>()
    for e in check.skipped where e.line < 0 {
      let i = -e.line - 1
      skippedNew.insert(i)
      run.decisionsSkipped.append(InputError(line: new[i].line, reason: e.reason, severity: .warning))
    }
    let add = try db.prepare("INSERT INTO decisions(run, kind, decision) VALUES(?, ?, ?)")
    var kept: [DedupeDecision] = []
    for (i, d) in new.enumerated() where !skippedNew.contains(i) {
      add.bind(1, run.id)
      add.bind(2, text: d.kind.rawValue)
      var plain = d
      plain.line = 0
      add.bind(3, text: plain.ndjsonLine)
      try add.run()
      plain.line = Int(try scalar("SELECT last_insert_rowid()"))
      kept.append(plain)
    }
    run.decisionsKept = kept.count
    return (old + kept, kept)
  }

  /// For each row named by `decisions` (`uid(row)` nil for the others):
  /// the ids of the decisions naming it.
  static func decisionsOfRows(_ decisions: [DedupeDecision], rows: [Int: String]) -> [Int: [Int64]] {
    var byUID: [String: [Int64]] = [:]
    for d in decisions {
      for u in Set(d.uids + d.from) { byUID[u, default: []].append(Int64(d.line)) }
    }
    var out: [Int: [Int64]] = [:]
    for (r, u) in rows { if let ids = byUID[u] { out[r] = ids } }
    return out
  }
}
