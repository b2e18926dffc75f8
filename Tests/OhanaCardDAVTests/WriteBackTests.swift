import Foundation
import OhanaDedupe
import OhanaCore
import Testing

@testable import OhanaCardDAV

/// The write-back against an in-memory CardDAV server: the races a real
/// server cannot be made to produce on demand (a card edited between the
/// check and the write, a lost answer, a server that rewrites a card or
/// refuses it for its size). Real servers: Tests/OhanaCLITests/
/// CardDAVWriteBackServerTests.swift.
@Suite struct WriteBackTests {
  /// A book of cards with ETags that honours If-Match and If-None-Match,
  /// as RFC 7232 says; `hook` runs before each request is served and may
  /// change the book (another client) or drop the answer.
  final class Server: HTTPTransport, @unchecked Sendable {
    // Safe: the client sends one request at a time.
    var cards: [String: (text: String, etag: String)] = [:]
    var requests: [HTTPRequest] = []
    var version = 0
    var hook: (HTTPRequest, Server) -> Void = { _, _ in }
    /// Answers lost after the request was carried out (the index of the request).
    var loseAnswerOf: Set<Int> = []
    /// How the server stores a PUT body (a rewriting server changes it).
    var store: (String) -> String = { $0 }
    /// PUT bodies longer than this are refused with `refusal`.
    var maxSize = Int.max
    /// The status and body of that refusal (a 412 with a precondition, a 413).
    var refusal = (status: 412, body: "")
    let book = "/ab/"

    func put(_ path: String, _ text: String) {
      version += 1
      cards[path] = (store(text), "\"v\(version)\"")
    }

    func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse {
      requests.append(request)
      hook(request, self)
      let r = serve(request)
      if loseAnswerOf.contains(requests.count - 1) { throw CardDAVError(.unavailable, "connection reset") }
      return r
    }

    func header(_ r: HTTPRequest, _ name: String) -> String? { r.headers.first { $0.0.lowercased() == name }?.1 }

    func serve(_ r: HTTPRequest) -> HTTPResponse {
      let path = r.url.path
      switch r.method {
      case "REPORT":
        let body = String(decoding: r.body ?? Data(), as: UTF8.self)
        let multiget = body.contains("addressbook-multiget")
        var xml = "<multistatus xmlns=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\">"
        for (p, c) in cards.sorted(by: { $0.key < $1.key }) where !multiget || body.contains("<d:href>\(p)</d:href>") {
          let data = multiget ? "<C:address-data>\(c.text.replacingOccurrences(of: "\r", with: "&#13;"))</C:address-data>" : ""
          xml += "<response><href>\(p)</href><propstat><prop><getetag>\(c.etag)</getetag>\(data)</prop><status>HTTP/1.1 200 OK</status></propstat></response>"
        }
        xml += "<sync-token>t\(version)</sync-token></multistatus>"
        return HTTPResponse(status: 207, body: Data(xml.utf8))
      case "GET":
        guard let c = cards[path] else { return HTTPResponse(status: 404) }
        return HTTPResponse(status: 200, headers: ["etag": c.etag], body: Data(c.text.utf8))
      case "PUT":
        if path == book { return HTTPResponse(status: 405) }
        let current = cards[path]
        if let m = header(r, "if-match"), current?.etag != m { return HTTPResponse(status: 412) }
        if header(r, "if-none-match") == "*", current != nil { return HTTPResponse(status: 412) }
        let text = String(decoding: r.body ?? Data(), as: UTF8.self)
        if text.utf8.count > maxSize { return HTTPResponse(status: refusal.status, body: Data(refusal.body.utf8)) }
        put(path, text)
        return HTTPResponse(status: current == nil ? 201 : 204, headers: ["etag": cards[path]?.etag ?? ""])
      case "DELETE":
        guard let current = cards[path] else { return HTTPResponse(status: 404) }
        if let m = header(r, "if-match"), current.etag != m { return HTTPResponse(status: 412) }
        cards[path] = nil
        return HTTPResponse(status: 204)
      default:
        return HTTPResponse(status: 405)
      }
    }
  }

  static let base = URL(string: "http://127.0.0.1:1/ab/")!

  static func card(_ uid: String, _ lines: [String], version: String = "3.0") -> String {
    (["BEGIN:VCARD", "VERSION:\(version)", "UID:\(uid)"] + lines + ["END:VCARD"]).map { $0 + "\r\n" }.joined()
  }

  /// Three cards of one person and one of another; a group naming one of
  /// the three.
  static func server() -> Server {
    let s = Server()
    s.put("/ab/a1.vcf", card("a1", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL;TYPE=CELL:+1 415 555 0101", "EMAIL:ana@example.com", "CATEGORIES:friends", "X-CUSTOM:one"]))
    s.put("/ab/a2.vcf", card("a2", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL:(415) 555-0101", "TEL;TYPE=HOME:415 555 0199", "EMAIL:ANA@example.com", "CATEGORIES:work,Friends", "item1.EMAIL:ana@work.example", "item1.X-ABLabel:office", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ"]))
    s.put("/ab/a3.vcf", card("a3", ["FN:Ana Lima", "TEL:4155550101", "EMAIL:ana.l@example.org", "item1.URL:https://ana.example", "X-OTHER:two"]))
    s.put("/ab/b1.vcf", card("b1", ["FN:Bruno Costa", "TEL:+1 212 555 0142"]))
    s.put("/ab/g1.vcf", card("g1", ["FN:Family", "X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a3", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:b1"]))
    return s
  }

  /// The plan for the three Ana cards, as `--plan` makes it.
  static func plan(_ s: Server) throws -> WriteBackPlan {
    let client = CardDAVClient(start: base, transport: s, credentials: nil)
    let book = try CardDAVReader.readBook(base, client: client)
    let index = Dictionary(uniqueKeysWithValues: book.cards.enumerated().map { ($1.url.lastPathComponent, $0) })
    return WriteBackPlan.make(book: book, clusters: [["a1.vcf", "a2.vcf", "a3.vcf"].compactMap { index[$0] }])
  }

  static func log() throws -> (UndoLog, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-undo-\(UUID().uuidString).ndjson").path
    return (try UndoLog(path: path), path)
  }

  static func apply(_ s: Server, _ plan: WriteBackPlan, entries: [UndoEntry] = [], log: (UndoLog, String)? = nil) throws
    -> (WriteBack.Report, String)
  {
    let (l, path) = try log ?? Self.log()
    let report = try WriteBack(client: CardDAVClient(start: base, transport: s, credentials: nil), book: base).apply(
      plan, planDigest: "d", log: l, entries: entries, force: false, maxDeleteShare: 0.9)
    return (report, path)
  }

  /// Digits of every phone and lower-cased e-mails of a card: the oracle
  /// for what a merge must hold (a national number counted in its
  /// international form).
  static func phonesAndEmails(_ text: String) -> (phones: Set<String>, emails: Set<String>) {
    var phones = Set<String>(), emails = Set<String>()
    for line in text.components(separatedBy: "\r\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].split(separator: ";")[0].split(separator: ".").last.map { $0.uppercased() } ?? ""
      let value = line[line.index(after: colon)...]
      if name == "TEL" {
        let d = value.filter(\.isNumber)
        phones.insert(d.count == 10 ? "1" + d : String(d))
      }
      if name == "EMAIL" { emails.insert(value.lowercased()) }
    }
    return (phones, emails)
  }

  @Test func mergedCardHoldsEveryValueOnceAndKeepsTheSurvivorAsWritten() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    try #require(plan.clusters.count == 1)
    let c = plan.clusters[0]
    // The survivor: the card with the most properties.
    #expect(c.survivor.href.hasSuffix("/a2.vcf"))
    #expect(Set(c.delete.map { URL(string: $0.href)!.lastPathComponent }) == ["a1.vcf", "a3.vcf"])
    let originals = ["a1", "a2", "a3"].compactMap { s.cards["/ab/\($0).vcf"]?.text }
    var want = (phones: Set<String>(), emails: Set<String>())
    for o in originals {
      let pe = Self.phonesAndEmails(o)
      want.phones.formUnion(pe.phones)
      want.emails.formUnion(pe.emails)
    }
    let got = Self.phonesAndEmails(c.merged)
    #expect(got.phones == want.phones)
    #expect(got.emails == want.emails)
    // Each number and address once.
    let lines = c.merged.components(separatedBy: "\r\n")
    #expect(lines.filter { $0.uppercased().hasPrefix("TEL") }.count == want.phones.count)
    #expect(lines.filter { $0.uppercased().contains("EMAIL") && !$0.uppercased().contains("X-AB") }.count == want.emails.count)
    // The survivor's text is the merged card's beginning, line for line.
    let survivor = try #require(s.cards["/ab/a2.vcf"]?.text)
    let kept = survivor.components(separatedBy: "\r\n").filter { !$0.isEmpty && $0 != "END:VCARD" && !$0.hasPrefix("CATEGORIES") }
    #expect(Array(lines.filter { !$0.hasPrefix("CATEGORIES") }.prefix(kept.count)) == kept)
    #expect(lines.first == "BEGIN:VCARD" && lines.dropLast().last == "END:VCARD")
    #expect(lines.filter { $0.hasPrefix("VERSION:") } == ["VERSION:3.0"] && lines.filter { $0.hasPrefix("UID:") } == ["UID:a2"])
    // X- properties of every card; categories joined without case doubles.
    #expect(lines.contains("X-CUSTOM:one") && lines.contains("X-OTHER:two"))
    #expect(lines.contains("CATEGORIES:work,Friends"))
    // a3's item1 moves under a group the survivor does not use.
    #expect(lines.contains("item2.URL:https://ana.example"))
    #expect(WriteBackPlan.hex(c.merged) == c.mergedSha256)
    // The group naming a3 will name a2.
    try #require(plan.groups.count == 1)
    #expect(plan.groups[0].members == ["a3": "a2"])
    #expect(plan.groups[0].updated.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a2\r\n"))
    #expect(!plan.groups[0].updated.contains("urn:uuid:a3"))
  }

  /// Survivorship rules in the write-back (issue 46): the field a rule
  /// takes from another card comes from that card's lines; the survivor's
  /// own value is kept beside it, as any other card's differing value is.
  @Test func aRuledFieldComesFromTheCardItsRuleChose() throws {
    let s = Server()
    s.put("/ab/p1.vcf", Self.card("p1", ["FN:Robert Smith", "N:Smith;Robert;;;", "BDAY:1980-02-03", "ORG:Acme", "TEL:+1 312 644 3332", "EMAIL:bob@example.org", "NOTE:met at the fair"]))
    s.put("/ab/p2.vcf", Self.card("p2", ["FN:Bob Smith", "N:Smith;Bob;;;", "BDAY:1980-03-02", "TEL:+1 312 644 3332"]))
    let client = CardDAVClient(start: Self.base, transport: s, credentials: nil)
    let book = try CardDAVReader.readBook(Self.base, client: client)
    let index = Dictionary(uniqueKeysWithValues: book.cards.enumerated().map { ($1.url.lastPathComponent, $0) })
    let (p1, p2) = (try #require(index["p1.vcf"]), try #require(index["p2.vcf"]))
    // p1 has the more lines: the survivor. The rules choose p2's name and birthday.
    let choices: [Survivorship.Field: Int] = [.name: p2, .birthday: p2, .organization: p1]
    let plan = WriteBackPlan.make(book: book, clusters: [[p1, p2]], fieldChoices: [p1: choices, p2: choices])
    let merged = try #require(plan.clusters.first).merged
    let lines = merged.components(separatedBy: "\r\n")
    #expect(lines.contains("FN:Bob Smith") && lines.contains("N:Smith;Bob;;;") && lines.contains("BDAY:1980-03-02"))
    #expect(!lines.contains("FN:Robert Smith") && !lines.contains("BDAY:1980-02-03"))
    // The survivor's own values are not lost: its birthday as an
    // alternative, its other given name as a nickname.
    #expect(lines.contains { $0.hasPrefix("X-OHANA-ALT-BDAY") && $0.hasSuffix(":1980-02-03") })
    #expect(lines.contains { $0.hasPrefix("NICKNAME") && $0.contains("Robert") })
    #expect(lines.contains("ORG:Acme") && lines.contains("UID:p1") && lines.contains("NOTE:met at the fair"))
    // One of each single-valued property.
    #expect(lines.filter { $0.hasPrefix("FN:") }.count == 1 && lines.filter { $0.hasPrefix("BDAY:") }.count == 1)
    // Without rules: the survivor's.
    let plain = try #require(WriteBackPlan.make(book: book, clusters: [[p1, p2]]).clusters.first).merged
    #expect(plain.contains("FN:Robert Smith\r\n") && plain.contains("BDAY:1980-02-03\r\n"))
  }

  @Test func planAppliedThenUndoneRestoresEveryCardExactly() throws {
    let s = Self.server()
    let before = s.cards.mapValues(\.text)
    let plan = try Self.plan(s)
    let (report, path) = try Self.apply(s, plan)
    #expect(report.count("merged") == 1 && report.deleted == 2 && report.groupsUpdated == 1)
    #expect(s.cards["/ab/a2.vcf"]?.text == plan.clusters[0].merged)
    #expect(s.cards["/ab/a1.vcf"] == nil && s.cards["/ab/a3.vcf"] == nil)
    #expect(s.cards["/ab/g1.vcf"]?.text == plan.groups[0].updated)
    // No request to the book itself with a write method.
    #expect(!s.requests.contains { $0.url.path == "/ab/" && $0.method != "REPORT" })
    let entries = try UndoLog.read(path).entries
    let undo = try WriteBack.undo(entries: entries, client: CardDAVClient(start: Self.base, transport: s, credentials: nil), log: try UndoLog(path: path))
    #expect(undo.restored == 4 && undo.refused.isEmpty)
    #expect(s.cards.mapValues(\.text) == before)
  }

  /// The survivor edited after the check and before the PUT: 412, nothing
  /// of the cluster deleted, the edit kept.
  @Test func survivorEditedBeforeThePutIsNeverOverwritten() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.hook = { r, s in
      if r.method == "PUT" && r.url.path == "/ab/a2.vcf" && s.cards["/ab/a2.vcf"]?.text.contains("NOTE:edited") == false {
        s.put("/ab/a2.vcf", (s.cards["/ab/a2.vcf"]?.text ?? "").replacingOccurrences(of: "END:VCARD", with: "NOTE:edited\r\nEND:VCARD"))
      }
    }
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["changed"])
    #expect(s.cards["/ab/a1.vcf"] != nil && s.cards["/ab/a3.vcf"] != nil)
    #expect(s.cards["/ab/a2.vcf"]?.text.contains("NOTE:edited") == true)
    #expect(s.requests.filter { $0.method == "PUT" }.count == 1)  // never retried
    #expect(!s.requests.contains { $0.method == "DELETE" })
    // The group still names a3: its cluster was not merged.
    #expect(s.cards["/ab/g1.vcf"]?.text.contains("urn:uuid:a3") == true)
  }

  /// A merged-away card edited between the PUT and its DELETE is kept; the
  /// other is deleted.
  @Test func mergedAwayCardEditedIsKept() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.hook = { r, s in
      if r.method == "DELETE" && r.url.path == "/ab/a1.vcf", let t = s.cards["/ab/a1.vcf"]?.text, !t.contains("NOTE:") {
        s.put("/ab/a1.vcf", t.replacingOccurrences(of: "END:VCARD", with: "NOTE:edited\r\nEND:VCARD"))
      }
    }
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["partial"])
    #expect(s.cards["/ab/a1.vcf"]?.text.contains("NOTE:edited") == true)
    #expect(s.cards["/ab/a3.vcf"] == nil)
  }

  /// A card edited after planning and before the run: the cluster is left
  /// whole, without a single write.
  @Test func clusterChangedSincePlanningIsLeftAlone() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.put("/ab/a3.vcf", (s.cards["/ab/a3.vcf"]?.text ?? "").replacingOccurrences(of: "X-OTHER:two", with: "X-OTHER:three"))
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["changed"])
    #expect(!s.requests.contains { $0.method == "PUT" || $0.method == "DELETE" })
  }

  /// A server that rewrites the card (a vCard 4 photo, as Radicale does):
  /// the read-back sees it; the other cards stay.
  @Test func serverRewriteStopsTheCluster() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.store = { $0.replacingOccurrences(of: "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ", with: "PHOTO:data:image/jpeg;base64,/9j/4AAQ") }
    let (report, path) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["rewritten"])
    #expect(report.clusters[0].detail.contains("PHOTO"))
    #expect(s.cards["/ab/a1.vcf"] != nil && s.cards["/ab/a3.vcf"] != nil)
    // Undo puts the survivor back as it was (the ETag read back is ours).
    s.store = { $0 }
    let undo = try WriteBack.undo(
      entries: try UndoLog.read(path).entries, client: CardDAVClient(start: Self.base, transport: s, credentials: nil),
      log: try UndoLog(path: path))
    #expect(undo.restored == 1)
    #expect(s.cards["/ab/a2.vcf"]?.text.contains("PHOTO;ENCODING=b") == true)
  }

  /// 412 while the card keeps its ETag is the server refusing the card,
  /// not a conflict: reported with what the server said, never guessed as
  /// a size limit.
  @Test func refusalIsNotAConflictAndNotGuessedAsSize() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.maxSize = 100
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["refused"])
    #expect(report.clusters.first?.detail.contains("HTTP 412") == true)
    #expect(report.clusters.first?.detail.contains("size") == false)
    #expect(!s.requests.contains { $0.method == "DELETE" })
  }

  /// A 412 with a CardDAV precondition (RFC 6352 §6.3.2.1) in its body, as
  /// Xandikos answers an invalid card: the precondition is named.
  @Test func preconditionRefusalNamesThePrecondition() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.maxSize = 100
    s.refusal = (
      412,
      "<?xml version='1.0' encoding='utf-8'?>\n<ns0:error xmlns:ns0=\"DAV:\"><ns1:valid-address-data xmlns:ns1=\"urn:ietf:params:xml:ns:carddav\" /></ns0:error>"
    )
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["refused"])
    #expect(report.clusters.first?.detail.contains("precondition valid-address-data") == true)
    #expect(!s.requests.contains { $0.method == "DELETE" })
  }

  /// A 413 is a size limit, with the server's words.
  @Test func sizeRefusalIsTooLarge() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    s.maxSize = 100
    s.refusal = (413, "<html><body><h1>Request Entity Too Large</h1></body></html>")
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["too-large"])
    #expect(report.clusters.first?.detail.contains("HTTP 413: \"Request Entity Too Large\"") == true)
    #expect(!s.requests.contains { $0.method == "DELETE" })
  }

  /// A planned card that breaks the vCard rules (a plan edited by hand, or
  /// made by an older version) is not sent: no request of its cluster.
  @Test func invalidPlannedCardIsNeverSent() throws {
    let s = Self.server()
    var plan = try Self.plan(s)
    plan.clusters[0].merged = plan.clusters[0].merged.replacingOccurrences(
      of: "END:VCARD", with: "N:Lima;Anna;;;\r\nEND:VCARD")
    let before = s.requests.count
    let (report, _) = try Self.apply(s, plan)
    #expect(report.clusters.map(\.result) == ["invalid"])
    #expect(report.clusters.first?.detail.contains("N occurs 2 times") == true)
    #expect(!s.requests.dropFirst(before).contains { $0.method == "PUT" || $0.method == "DELETE" })
  }

  /// The answer to the PUT lost (the run stops there); the same plan
  /// resumed with the log ends merged, each card deleted once.
  @Test func lostAnswerThenResumeFinishes() throws {
    let s = Self.server()
    let before = s.cards.mapValues(\.text)
    let plan = try Self.plan(s)
    let putIndex = s.requests.count + 2  // the listing, the first PUT
    s.loseAnswerOf = [putIndex - 1]
    let log = try Self.log()
    #expect(throws: CardDAVError.self) { try Self.apply(s, plan, log: log) }
    #expect(s.cards["/ab/a2.vcf"]?.text == plan.clusters[0].merged)  // done, though the answer was lost
    #expect(s.cards["/ab/a1.vcf"] != nil)
    s.loseAnswerOf = []
    let entries = try UndoLog.read(log.1).entries
    let (report, _) = try Self.apply(s, plan, entries: entries, log: (try UndoLog(path: log.1), log.1))
    #expect(report.resumed && report.clusters.map(\.result) == ["merged"])
    #expect(s.cards["/ab/a1.vcf"] == nil && s.cards["/ab/a3.vcf"] == nil)
    #expect(s.requests.filter { $0.method == "PUT" && $0.url.path == "/ab/a2.vcf" }.count == 1)
    // Undo, with the answer to a create lost: undone again, exactly.
    let undoStart = s.requests.count
    s.loseAnswerOf = [undoStart + 1]  // GET a1, PUT a1 (its answer lost)
    let client = CardDAVClient(start: Self.base, transport: s, credentials: nil)
    #expect(throws: CardDAVError.self) {
      try WriteBack.undo(entries: try UndoLog.read(log.1).entries, client: client, log: try UndoLog(path: log.1))
    }
    s.loseAnswerOf = []
    let undo = try WriteBack.undo(entries: try UndoLog.read(log.1).entries, client: client, log: try UndoLog(path: log.1))
    #expect(undo.refused.isEmpty)
    #expect(s.cards.mapValues(\.text) == before)
  }

  /// A plan naming the book itself, or a card elsewhere, is refused before
  /// any request.
  @Test func hrefsOutsideTheBookAreRefused() throws {
    let s = Self.server()
    var plan = try Self.plan(s)
    let count = s.requests.count
    plan.clusters[0].delete[0].href = Self.base.absoluteString
    #expect(throws: CardDAVError.self) { try Self.apply(s, plan) }
    plan.clusters[0].delete[0].href = "http://127.0.0.1:1/other/x.vcf"
    #expect(throws: CardDAVError.self) { try Self.apply(s, plan) }
    plan.clusters[0].delete[0].href = "http://evil.example/ab/x.vcf"
    #expect(throws: CardDAVError.self) { try Self.apply(s, plan) }
    #expect(s.requests.count == count)
  }

  /// More than the allowed share deleted, or a UID on two cards: refused
  /// unless forced.
  @Test func guardsRefuseUnlessForced() throws {
    let s = Self.server()
    let plan = try Self.plan(s)
    let wb = WriteBack(client: CardDAVClient(start: Self.base, transport: s, credentials: nil), book: Self.base)
    let (l, _) = try Self.log()
    // 2 of 5 cards = 40%.
    #expect(throws: CardDAVError.self) { try wb.apply(plan, planDigest: "d", log: l, entries: [], force: false, maxDeleteShare: 0.3) }
    #expect(!s.requests.contains { $0.method == "PUT" || $0.method == "DELETE" })
    s.put("/ab/b2.vcf", Self.card("b1", ["FN:Bruno Costa"]))
    let twice = try Self.plan(s)
    #expect(twice.duplicateUids == ["b1"])
    #expect(throws: CardDAVError.self) { try wb.apply(twice, planDigest: "d", log: l, entries: [], force: false, maxDeleteShare: 0.9) }
    let forced = try wb.apply(twice, planDigest: "d", log: l, entries: [], force: true, maxDeleteShare: 0.9)
    #expect(forced.count("merged") == 1)
  }
}
