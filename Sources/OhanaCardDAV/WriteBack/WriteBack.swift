import Foundation

/// Carries out a ``WriteBackPlan`` on its address book, and undoes it
/// (README "Live address books: writing back").
///
/// Per cluster, in the plan's order:
/// 1. every card of the cluster must still have its planned ETag (one
///    listing of the book before the first write); else the cluster is
///    reported as changed since planning and nothing of it is touched;
/// 2. `PUT` the merged card on the survivor with `If-Match` its planned
///    ETag;
/// 3. read it back (`GET`) and check that every planned property is there
///    with its value; a server that rewrote one stops the cluster (its
///    other cards are kept);
/// 4. `DELETE` each merged-away card with `If-Match` its planned ETag; a
///    card whose ETag moved is kept.
/// A 412 is never retried with a fresh ETag. A 412 or 403 while the card
/// still has its planned ETag is the server refusing the card itself, not
/// a conflict: "refused", with what the server said (a CardDAV
/// precondition of RFC 6352 §6.3.2.1 such as `valid-address-data` or
/// `no-uid-conflict`, else its answer's text; ``Refusal``). "Too large"
/// only for a 413 or an answer that names a size limit (`max-resource-size`;
/// Radicale 3.9 answers 413 for a card over its `max_content_length`).
/// Before any request every planned merged card is checked against its
/// version's cardinalities (``VCardCardinality``); a cluster whose card
/// fails is "invalid" and none of it is sent. Then the group cards that
/// name a merged-away UID are pointed at the survivor (`If-Match`).
public struct WriteBack {
  public let client: CardDAVClient
  public let book: URL

  public init(client: CardDAVClient, book: URL) {
    self.client = client
    self.book = book
  }

  /// What happened to one cluster.
  public struct ClusterOutcome: Sendable {
    public var id: Int
    /// merged, partial (some merged-away cards changed since planning and
    /// were kept), changed, rewritten, refused (by the server, with its
    /// words), too-large, invalid (the planned card breaks the vCard
    /// rules: not sent), failed.
    public var result: String
    public var detail: String
    public var deleted: Int
    /// The hrefs this cluster's deletes removed.
    public var deletedHrefs: [String] = []
  }

  public struct Report: Sendable {
    public var clusters: [ClusterOutcome] = []
    public var groupsUpdated = 0
    public var groupsChanged = 0
    public var resumed = false
    public var deleted: Int { clusters.reduce(0) { $0 + $1.deleted } }
    public func count(_ result: String) -> Int { clusters.filter { $0.result == result }.count }
  }

  /// Refuses any href that is not a card inside the book: no request ever
  /// goes to the collection itself or outside it.
  func card(_ href: String) throws(CardDAVError) -> URL {
    guard let url = URL(string: href), CardDAVClient.origin(url) == CardDAVClient.origin(book) else {
      throw CardDAVError(.refused, "the plan names a card on another server; refused")
    }
    let base = book.path.hasSuffix("/") ? book.path : book.path + "/"
    guard url.path.hasPrefix(base), url.path.count > base.count, !url.path.dropFirst(base.count).contains("/") else {
      throw CardDAVError(.refused, "the plan names \(HTTPClientTransport.redacted(url)), which is not a card in the book; refused")
    }
    return url
  }

  static func now() -> String { ISO8601DateFormatter().string(from: Date()) }

  static func etag(_ r: HTTPResponse) -> String? { r.headers["etag"] }

  /// The planned properties missing from what the server serves (names),
  /// PRODID and REV aside (servers stamp them).
  public static func lost(planned: String, served: String) -> [String] {
    guard let p = VCardText(planned), let s = VCardText(served) else { return ["the whole card"] }
    var have: [String: Int] = [:]
    for l in s.lines { have[l.group + "." + l.name + ":" + l.value, default: 0] += 1 }
    var missing: [String] = []
    for l in p.lines where l.name != "PRODID" && l.name != "REV" {
      let k = l.group + "." + l.name + ":" + l.value
      if let n = have[k], n > 0 {
        have[k] = n - 1
      } else if !missing.contains(l.name) {
        missing.append(l.name)
      }
    }
    return missing
  }

  /// What the log says of each cluster and card so far.
  struct State {
    var results: [Int: UndoEntry] = [:]
    var intents: [String: UndoEntry] = [:]  // "op href"
    var outcomes: [String: UndoEntry] = [:]
    var verified: [String: UndoEntry] = [:]  // href
    var groupResults: [String: UndoEntry] = [:]  // href

    init(_ entries: [UndoEntry]) {
      for e in entries {
        switch e.kind {
        case "cluster":
          if let c = e.cluster { results[c] = e } else if let h = e.href { groupResults[h] = e }
        case "intent": intents["\(e.op ?? "") \(e.href ?? "")"] = e
        case "outcome": outcomes["\(e.op ?? "") \(e.href ?? "")"] = e
        case "verified": if let h = e.href { verified[h] = e }
        default: break
        }
      }
    }
  }

  /// Carries out `plan`, journaling to `log`: `entries` are the log's
  /// entries when it resumes a run (its `start` names this plan).
  public func apply(
    _ plan: WriteBackPlan, planDigest: String, log: UndoLog, entries: [UndoEntry], force: Bool, maxDeleteShare: Double
  ) throws(CardDAVError) -> Report {
    // Every href a card in the book, before anything.
    for c in plan.clusters {
      _ = try card(c.survivor.href)
      for d in c.delete { _ = try card(d.href) }
    }
    for g in plan.groups { _ = try card(g.group.href) }
    if !plan.duplicateUids.isEmpty && !force {
      throw CardDAVError(
        .refused,
        "the book has \(plan.duplicateUids.count) UID(s) carried by more than one card; clients tell cards apart by UID, so the plan is refused (--force to go on)")
    }
    let listing = try client.list(book)
    let current = Dictionary(listing.cards.map { ($0.url.path, $0.etag) }, uniquingKeysWith: { a, _ in a })
    let share = current.isEmpty ? 1 : Double(plan.deleteCount) / Double(current.count)
    if share > maxDeleteShare && !force {
      throw CardDAVError(
        .refused,
        "the plan deletes \(plan.deleteCount) of the book's \(current.count) cards (\(Int((share * 100).rounded()))%), more than \(Int((maxDeleteShare * 100).rounded()))%; refused (--max-delete-share or --force to go on)"
      )
    }
    // Every planned card checked before the first request.
    var invalid: [Int: [String]] = [:]
    for c in plan.clusters {
      let problems = VCardText(c.merged).map(CardMerge.violations) ?? ["the merged text is not one vCard"]
      if !problems.isEmpty { invalid[c.id] = problems }
    }
    var report = Report()
    let state = State(entries)
    if entries.isEmpty {
      var start = UndoEntry(kind: "start")
      start.plan = planDigest
      start.book = plan.book
      start.time = Self.now()
      var originals = [start]
      func original(_ c: WriteBackPlan.Card, _ role: String, _ cluster: Int?) {
        var e = UndoEntry(kind: "original")
        e.cluster = cluster
        e.role = role
        e.href = c.href
        e.etag = c.etag
        e.sha256 = c.sha256
        e.text = c.text
        originals.append(e)
      }
      for c in plan.clusters {
        original(c.survivor, "survivor", c.id)
        for d in c.delete { original(d, "delete", c.id) }
      }
      for g in plan.groups { original(g.group, "group", nil) }
      try log.append(originals)
    } else {
      report.resumed = true
    }

    var survivorOf: [String: String] = [:]  // merged-away UID -> survivor UID, of cards deleted
    for c in plan.clusters {
      let outcome: ClusterOutcome
      if let done = state.results[c.id] {
        let gone = c.delete.map(\.href).filter { Self.isDeleted(state.outcomes["DELETE \($0)"]?.status) }
        outcome = ClusterOutcome(
          id: c.id, result: done.result ?? "", detail: done.detail ?? "", deleted: gone.count, deletedHrefs: gone)
      } else if let problems = invalid[c.id] {
        outcome = ClusterOutcome(
          id: c.id, result: "invalid",
          detail: "the planned merged card breaks the vCard rules (\(problems.joined(separator: "; "))); nothing of this cluster was sent",
          deleted: 0)
        var e = UndoEntry(kind: "cluster")
        e.cluster = c.id
        e.result = outcome.result
        e.detail = outcome.detail
        try log.append(e)
      } else {
        outcome = try applyCluster(c, current: current, state: state, log: log)
        var e = UndoEntry(kind: "cluster")
        e.cluster = c.id
        e.result = outcome.result
        e.detail = outcome.detail
        e.status = outcome.deleted
        try log.append(e)
      }
      report.clusters.append(outcome)
      if outcome.result == "merged" || outcome.result == "partial", let su = c.survivor.uid {
        let gone = Set(outcome.deletedHrefs)
        for d in c.delete where gone.contains(d.href) { if let u = d.uid { survivorOf[u] = su } }
      }
    }
    for g in plan.groups {
      if let done = state.groupResults[g.group.href] {
        if done.result == "updated" { report.groupsUpdated += 1 } else if done.result == "changed" { report.groupsChanged += 1 }
        continue
      }
      guard let text = VCardText(g.group.text) else { continue }
      let (updated, replaced) = WriteBackPlan.updatedGroup(text, survivorOf)
      var result = UndoEntry(kind: "cluster")
      result.href = g.group.href
      if replaced.isEmpty {
        result.result = "unchanged"
        try log.append(result)
        continue
      }
      let url = try card(g.group.href)
      let r = try put(url, updated.text, ifMatch: g.group.etag, log: log, cluster: nil)
      if (200..<300).contains(r.status) {
        let back = try client.get(url)
        var v = UndoEntry(kind: "verified")
        v.href = g.group.href
        v.etag = Self.etag(back) ?? Self.etag(r)
        v.result = "same"
        try log.append(v)
        result.result = "updated"
        report.groupsUpdated += 1
      } else {
        result.result = r.status == 412 ? "changed" : "failed"
        result.detail = "HTTP \(r.status)"
        report.groupsChanged += 1
      }
      try log.append(result)
    }
    return report
  }

  static func isDeleted(_ status: Int?) -> Bool { status.map { (200..<300).contains($0) || $0 == 404 } ?? false }

  private func put(_ url: URL, _ text: String, ifMatch: String?, log: UndoLog, cluster: Int?)
    throws(CardDAVError) -> HTTPResponse
  {
    try journaled("PUT", url, ifMatch: ifMatch, sha256: WriteBackPlan.hex(text), log: log, cluster: cluster) {
      () throws(CardDAVError) in try client.put(url, text, ifMatch: ifMatch)
    }
  }

  private func delete(_ url: URL, ifMatch: String, log: UndoLog, cluster: Int?) throws(CardDAVError) -> HTTPResponse {
    try journaled("DELETE", url, ifMatch: ifMatch, sha256: nil, log: log, cluster: cluster) {
      () throws(CardDAVError) in try client.delete(url, ifMatch: ifMatch)
    }
  }

  /// One write: its intent logged (and on disk) before it is sent, its
  /// outcome after.
  private func journaled(
    _ op: String, _ url: URL, ifMatch: String?, sha256: String?, log: UndoLog, cluster: Int?,
    _ send: () throws(CardDAVError) -> HTTPResponse
  ) throws(CardDAVError) -> HTTPResponse {
    var intent = UndoEntry(kind: "intent")
    intent.cluster = cluster
    intent.op = op
    intent.href = url.absoluteString
    intent.etag = ifMatch
    intent.sha256 = sha256
    try log.append(intent)
    let r = try send()
    var outcome = UndoEntry(kind: "outcome")
    outcome.cluster = cluster
    outcome.op = op
    outcome.href = url.absoluteString
    outcome.status = r.status
    outcome.etag = Self.etag(r)
    try log.append(outcome)
    return r
  }

  private func applyCluster(
    _ c: WriteBackPlan.Cluster, current: [String: String?], state: State, log: UndoLog
  ) throws(CardDAVError) -> ClusterOutcome {
    var outcome = ClusterOutcome(id: c.id, result: "merged", detail: "", deleted: 0)
    let survivor = try card(c.survivor.href)
    let putDone = state.outcomes["PUT \(c.survivor.href)"].map { (200..<300).contains($0.status ?? 0) } ?? false
    let putStarted = state.intents["PUT \(c.survivor.href)"] != nil
    // A survivor the others add nothing to is not written (nor read back:
    // the check above saw its planned ETag).
    let unchanged = c.merged == c.survivor.text
    var needPut = !putDone && !unchanged
    if !putStarted {
      // Nothing of this cluster done yet: every card as planned?
      for p in [c.survivor] + c.delete {
        guard let url = URL(string: p.href) else { continue }
        guard let now = current[url.path] else {
          return ClusterOutcome(id: c.id, result: "changed", detail: "a card was deleted since planning", deleted: 0)
        }
        if now != p.etag {
          return ClusterOutcome(id: c.id, result: "changed", detail: "a card was changed since planning", deleted: 0)
        }
      }
    } else if !putDone {
      // Resumed after the PUT was sent but before its answer was logged:
      // the server's copy says whether it was done.
      let r = try client.get(survivor)
      let served = String(decoding: r.body, as: UTF8.self)
      if r.status == 200 && Self.etag(r) == c.survivor.etag {
        needPut = true
      } else if r.status == 200 && Self.lost(planned: c.merged, served: served).isEmpty {
        needPut = false
      } else {
        return ClusterOutcome(id: c.id, result: "changed", detail: "the survivor was changed by someone else", deleted: 0)
      }
    }
    if needPut {
      let r = try put(survivor, c.merged, ifMatch: c.survivor.etag, log: log, cluster: c.id)
      if !(200..<300).contains(r.status) {
        if r.status == 412 || r.status == 403 {
          let now = try client.get(survivor)
          if now.status == 200 && Self.etag(now) == c.survivor.etag {
            let refusal = Refusal(status: r.status, body: r.body)
            return ClusterOutcome(
              id: c.id, result: refusal.isSizeLimit ? "too-large" : "refused",
              detail: "the server refused the merged card: \(refusal)", deleted: 0)
          }
          if r.status == 412 {
            return ClusterOutcome(
              id: c.id, result: "changed", detail: "the survivor was changed since planning (HTTP 412)", deleted: 0)
          }
        }
        if r.status == 413 {
          return ClusterOutcome(
            id: c.id, result: "too-large",
            detail: "the server refused the merged card: \(Refusal(status: r.status, body: r.body))", deleted: 0)
        }
        return ClusterOutcome(id: c.id, result: "failed", detail: "PUT of the survivor: \(Refusal(status: r.status, body: r.body))", deleted: 0)
      }
    }
    if unchanged {
      // Nothing to verify.
    } else if state.verified[c.survivor.href] == nil {
      let back = try client.get(survivor)
      let missing =
        back.status == 200 ? Self.lost(planned: c.merged, served: String(decoding: back.body, as: UTF8.self)) : ["the whole card"]
      var v = UndoEntry(kind: "verified")
      v.cluster = c.id
      v.href = c.survivor.href
      v.etag = Self.etag(back)
      v.result = missing.isEmpty ? "same" : "rewritten"
      v.detail = missing.isEmpty ? nil : missing.joined(separator: ",")
      try log.append(v)
      if !missing.isEmpty {
        return ClusterOutcome(
          id: c.id, result: "rewritten",
          detail: "the server changed the merged card (\(missing.joined(separator: ", "))); its other cards were kept", deleted: 0)
      }
    } else if state.verified[c.survivor.href]?.result == "rewritten" {
      return ClusterOutcome(id: c.id, result: "rewritten", detail: "the server changed the merged card", deleted: 0)
    }
    var kept = 0
    for d in c.delete {
      if let done = state.outcomes["DELETE \(d.href)"], let s = done.status {
        if Self.isDeleted(s) {
          outcome.deleted += 1
          outcome.deletedHrefs.append(d.href)
        } else {
          kept += 1
        }
        continue
      }
      let r = try delete(try card(d.href), ifMatch: d.etag, log: log, cluster: c.id)
      if Self.isDeleted(r.status) {
        outcome.deleted += 1
        outcome.deletedHrefs.append(d.href)
      } else {
        kept += 1
      }
    }
    if kept > 0 {
      outcome.result = "partial"
      outcome.detail = "\(kept) merged-away card(s) changed since planning were kept"
    }
    return outcome
  }

  // MARK: Undo

  public struct UndoReport: Sendable {
    public var restored = 0
    public var refused: [(href: String, reason: String)] = []
    public var unchanged = 0
  }

  /// Restores what the log says was done: deleted cards are put back
  /// (`If-None-Match: *`), updated survivors and groups get their
  /// original text (`If-Match` the ETag they had after the write-back); a
  /// card someone changed since is refused, by card.
  public static func undo(entries: [UndoEntry], client: CardDAVClient, log: UndoLog) throws(CardDAVError) -> UndoReport {
    guard let start = entries.first(where: { $0.kind == "start" }), let bookText = start.book, let book = URL(string: bookText)
    else { throw CardDAVError(.refused, "not an ohana undo log (no start line)") }
    let wb = WriteBack(client: client, book: book)
    let state = State(entries)
    var undone = Set<String>()
    for e in entries where e.kind == "undone" && e.result == "restored" { if let h = e.href { undone.insert(h) } }
    var report = UndoReport()
    let originals = entries.filter { $0.kind == "original" }
    // Deleted cards first, then what was rewritten.
    let ordered = originals.filter { $0.role == "delete" } + originals.filter { $0.role != "delete" }
    for o in ordered {
      guard let href = o.href, let text = o.text, !undone.contains(href) else { continue }
      let url = try wb.card(href)
      var record = UndoEntry(kind: "undone")
      record.href = href
      func refuse(_ why: String) throws(CardDAVError) {
        record.result = "refused"
        record.detail = why
        report.refused.append((href, why))
        try log.append(record)
      }
      let now = try client.get(url)
      let served = String(decoding: now.body, as: UTF8.self)
      let r: HTTPResponse
      if o.role == "delete" {
        // Ours to restore: a delete the server confirmed, or one sent
        // whose answer was never logged (the card is gone now).
        let outcome = state.outcomes["DELETE \(href)"]
        let sent = state.intents["DELETE \(href)"] != nil
        let deletedByUs = outcome.map { (200..<300).contains($0.status ?? 0) } ?? sent
        if now.status == 200 {
          if served == text || !deletedByUs {
            report.unchanged += 1
          } else {
            try refuse("a card is at this href again")
          }
          continue
        }
        guard now.status == 404, deletedByUs else {
          if now.status == 404 { report.unchanged += 1 } else { try refuse("GET answered HTTP \(now.status)") }
          continue
        }
        r = try client.put(url, text, ifNoneMatch: true)
      } else {
        guard let intent = state.intents["PUT \(href)"], now.status == 200, served != text, Self.etag(now) != o.etag else {
          if now.status == 404 { try refuse("the card was deleted since the write-back") } else { report.unchanged += 1 }
          continue
        }
        // Written by the run: the text it sent is there, or the ETag the
        // card had when read back after the write.
        let after = state.verified[href]?.etag ?? state.outcomes["PUT \(href)"]?.etag
        guard WriteBackPlan.hex(served) == intent.sha256 || (after != nil && Self.etag(now) == after), let tag = Self.etag(now)
        else {
          try refuse("the card was changed since the write-back")
          continue
        }
        r = try client.put(url, text, ifMatch: tag)
      }
      record.status = r.status
      if (200..<300).contains(r.status) {
        record.result = "restored"
        report.restored += 1
      } else {
        record.result = "refused"
        record.detail = r.status == 412 ? "the card was changed at the same moment (HTTP 412)" : "HTTP \(r.status)"
        report.refused.append((href, record.detail ?? ""))
      }
      try log.append(record)
    }
    return report
  }
}
