import Foundation
import OhanaCardDAV
import OhanaDatasets
import Testing
import _OhanaTestSupport

/// `ohana dedupe URL --plan`, `--apply` and `--undo` against real servers
/// (issue 35): Xandikos keeps every card byte for byte in git, so its log
/// shows each write; Radicale rewrites what it stores. The servers come
/// from `$OHANA_DAV_PYTHON` as in CardDAVServerTests.
@Suite(.serialized) struct CardDAVWriteBackServerTests {
  typealias Server = CardDAVServerTests.Server

  static func card(_ uid: String, _ lines: [String], version: String = "3.0") -> String {
    (["BEGIN:VCARD", "VERSION:\(version)", "UID:\(uid)"] + lines + ["END:VCARD"]).map { $0 + "\r\n" }.joined()
  }

  /// Three cards of Ana (vCard 3.0, with X- properties and categories),
  /// two of Paulo, and five other people; a group naming Ana's a3 and
  /// Paulo's p2.
  static let book: [String: String] = [
    "a1": card("a1", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL;TYPE=CELL:+1 415 555 0101", "EMAIL:ana@example.com", "CATEGORIES:friends", "X-CUSTOM:one"]),
    "a2": card("a2", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL;TYPE=CELL:(415) 555-0101", "TEL;TYPE=HOME:(415) 555-0199", "EMAIL:ana@example.com", "CATEGORIES:work,friends", "item1.EMAIL:ana.lima@work.example", "item1.X-ABLabel:office"]),
    "a3": card("a3", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL:+14155550101", "EMAIL:ana.l@example.org", "X-OTHER:two"]),
    "p1": card("p1", ["FN:Paulo Reis", "N:Reis;Paulo;;;", "TEL:+1 212 555 0177", "EMAIL:paulo@example.com", "NOTE:met at the fair"]),
    "p2": card("p2", ["FN:Paulo Reis", "N:Reis;Paulo;;;", "TEL:+1 212 555 0177", "EMAIL:paulo@example.com"]),
    "b1": card("b1", ["FN:Bruno Costa", "N:Costa;Bruno;;;", "TEL:+1 312 555 0142"]),
    "c1": card("c1", ["FN:Clara Nunes", "N:Nunes;Clara;;;", "EMAIL:clara@example.net"]),
    "d1": card("d1", ["FN:Davi Rocha", "N:Rocha;Davi;;;", "TEL:+1 617 555 0190"]),
    "e1": card("e1", ["FN:Elisa Prado", "N:Prado;Elisa;;;", "EMAIL:elisa@example.org"]),
    "f1": card("f1", ["FN:Fabio Lopes", "N:Lopes;Fabio;;;", "TEL:+1 206 555 0111"]),
    "g1": card("g1", ["FN:Family", "N:Family;;;;", "X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a3", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p2", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:b1"]),
  ]

  /// A book on a running server: PUT and GET with an optional login.
  struct Book {
    let url: URL
    let auth: String?
    var transport = HTTPClientTransport()

    func headers(_ extra: [(String, String)] = []) -> [(String, String)] { extra + (auth.map { [("Authorization", $0)] } ?? []) }

    func put(_ name: String, _ text: String) throws {
      let r = try transport.send(
        HTTPRequest(method: "PUT", url: url.appendingPathComponent("\(name).vcf"), headers: headers([("Content-Type", "text/vcard")]), body: Data(text.utf8)))
      try #require((200..<300).contains(r.status), "PUT \(name): HTTP \(r.status)")
    }

    /// The card's text, nil when it is gone.
    func get(_ name: String) throws -> String? {
      let r = try transport.send(HTTPRequest(method: "GET", url: url.appendingPathComponent("\(name).vcf"), headers: headers()))
      return r.status == 404 ? nil : String(decoding: r.body, as: UTF8.self)
    }

    func all() throws -> [String: String] {
      var out: [String: String] = [:]
      for name in CardDAVWriteBackServerTests.book.keys { if let t = try get(name) { out[name] = t } }
      return out
    }
  }

  /// The commits in Xandikos's git repository of the book.
  static func commits(_ dir: String) throws -> Int {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["git", "-C", dir, "rev-list", "--count", "--all"]
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    try p.run()
    let out = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Int(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// Every TEL's digits (a 10-digit number counted with its country code 1)
  /// and every EMAIL without case: the oracle for what a merge must hold.
  static func phonesAndEmails(_ text: String) -> (Set<String>, Set<String>) {
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

  static func plan(_ dir: TempDir, _ name: String) throws -> [String: Any] {
    try CLI.json(try dir.read(name))
  }

  /// Radicale with user ann (password in `dir/pw`) and an empty address
  /// book `ann/contacts/`, made as a client makes one (MKCOL); `extra`
  /// arguments, and TLS with `caFile` trusted when given.
  static func radicale(_ python: String, _ dir: TempDir, extra: [String] = [], caFile: String? = nil) throws
    -> (Server, Book, String)
  {
    try dir.write("users", "ann:right-pass\n")
    try dir.write("pw", "right-pass\n")
    let server = try Server(python: python, scheme: caFile == nil ? "http" : "https", caFile: caFile) { port in
      [
        "-m", "radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)", "--storage-filesystem-folder",
        dir.path("collections"), "--auth-type", "htpasswd", "--auth-htpasswd-filename", dir.path("users"),
        "--auth-htpasswd-encryption", "plain",
      ] + extra
    }
    let base = "\(caFile == nil ? "http" : "https")://127.0.0.1:\(server.port)/"
    let book = Book(
      url: URL(string: base + "ann/contacts/")!, auth: "Basic " + Data("ann:right-pass".utf8).base64EncodedString(),
      transport: HTTPClientTransport(caFile: caFile))
    let mk = try book.transport.send(
      HTTPRequest(
        method: "MKCOL", url: book.url, headers: book.headers([("Content-Type", "application/xml")]),
        body: Data("""
          <?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>
          <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop></d:set></d:mkcol>
          """.utf8)))
    try #require(mk.status == 201, "MKCOL: HTTP \(mk.status)")
    return (server, book, base)
  }

  static func xandikos(_ python: String, _ dir: TempDir) throws -> (Server, Book, String) {
    let server = try Server(python: python) { port in
      ["-m", "xandikos", "serve", "--defaults", "-d", dir.path("dav"), "-l", "127.0.0.1", "-p", "\(port)"]
    }
    let book = Book(url: URL(string: "http://127.0.0.1:\(server.port)/user/contacts/addressbook/")!, auth: nil)
    for (name, text) in Self.book.sorted(by: { $0.key < $1.key }) { try book.put(name, text) }
    return (server, book, dir.path("dav/user/contacts/addressbook"))
  }

  /// Plan (a dry run: no commit), apply (three Ana cards become one
  /// holding all their phones, e-mails, X- properties and categories, in
  /// vCard 3.0; the group points to the survivor), undo (every card as
  /// uploaded, byte for byte).
  @Test func xandikosPlanApplyUndo() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let (server, book, git) = try Self.xandikos(python, dir)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(server.port)/"
    let commitsBefore = try Self.commits(git)
    let planned = try CLI.run(["dedupe", base, "--plan", dir.path("plan.json")])
    #expect(planned.status == 0, "\(planned.stderr)")
    #expect(try Self.commits(git) == commitsBefore, "a plan wrote to the server")
    let plan = try Self.plan(dir, "plan.json")
    let clusters = try #require(plan["clusters"] as? [[String: Any]])
    #expect(clusters.count == 2)
    let ana = try #require(clusters.first { (($0["survivor"] as? [String: Any])?["uid"] as? String)?.hasPrefix("a") == true })
    let survivor = try #require((ana["survivor"] as? [String: Any])?["href"] as? String)
    #expect(survivor.hasSuffix("/a2.vcf"))
    #expect(Set((ana["delete"] as? [[String: Any]] ?? []).compactMap { $0["href"] as? String }.map { URL(string: $0)!.lastPathComponent }) == ["a1.vcf", "a3.vcf"])
    // A plan naming the collection itself is refused before any request.
    var tampered = plan
    var c0 = clusters[0]
    var d0 = (c0["delete"] as? [[String: Any]]) ?? []
    d0[0]["href"] = book.url.absoluteString
    c0["delete"] = d0
    tampered["clusters"] = [c0] + clusters.dropFirst()
    try JSONSerialization.data(withJSONObject: tampered).write(to: dir.url.appendingPathComponent("bad.json"))
    let bad = try CLI.run(["dedupe", "--apply", dir.path("bad.json"), "--undo-log", dir.path("bad-undo.ndjson")])
    #expect(bad.status == 64 && bad.stderr.contains("not a card in the book"), "\(bad.stderr)")
    #expect(try Self.commits(git) == commitsBefore)

    let applied = try CLI.run(["dedupe", "--apply", dir.path("plan.json"), "--undo-log", dir.path("undo.ndjson")])
    #expect(applied.status == 0, "\(applied.stderr)")
    #expect(applied.stderr.contains("2 clusters merged") && applied.stderr.contains("3 cards deleted"), "\(applied.stderr)")
    // One PUT for Ana (Paulo's p2 adds nothing to p1: not written), one
    // DELETE per merged-away card, one for the group: five commits.
    let commitsAfter = try Self.commits(git)
    #expect(commitsAfter == commitsBefore + 5, "\(commitsBefore) commits before, \(commitsAfter) after")
    let after = try book.all()
    #expect(after["a1"] == nil && after["a3"] == nil && after["p2"] == nil)
    let merged = try #require(after["a2"])
    #expect(merged == ana["merged"] as? String)  // byte for byte what was planned
    var phones = Set<String>(), emails = Set<String>()
    for n in ["a1", "a2", "a3"] {
      let (p, e) = Self.phonesAndEmails(Self.book[n] ?? "")
      phones.formUnion(p)
      emails.formUnion(e)
    }
    let (gotPhones, gotEmails) = Self.phonesAndEmails(merged)
    #expect(gotPhones == phones && gotEmails == emails)
    let lines = merged.components(separatedBy: "\r\n")
    #expect(lines.filter { $0.uppercased().hasPrefix("TEL") }.count == phones.count)
    #expect(lines.contains("VERSION:3.0") && lines.contains("UID:a2"))
    #expect(lines.contains("X-CUSTOM:one") && lines.contains("X-OTHER:two") && lines.contains("CATEGORIES:work,friends"))
    // Paulo's note survives the merge whichever card survives.
    #expect((after["p1"] ?? "").contains("NOTE:met at the fair"))
    let group = try #require(after["g1"])
    #expect(group.contains("urn:uuid:a2") && group.contains("urn:uuid:p1") && !group.contains("urn:uuid:a3") && !group.contains("urn:uuid:p2"))
    #expect(group.contains("urn:uuid:b1"))
    // Undo: every card as uploaded, byte for byte.
    let undone = try CLI.run(["dedupe", "--undo", dir.path("undo.ndjson")])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try book.all() == Self.book)
  }

  /// Clusters changed since planning are left whole; a run killed between
  /// the PUT and the DELETEs, resumed, ends with no duplicate and nothing
  /// lost; undo then restores every body.
  @Test func xandikosChangedClustersAndAKilledRun() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let (server, book, _) = try Self.xandikos(python, dir)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(server.port)/"
    #expect(try CLI.run(["dedupe", base, "--plan", dir.path("plan.json"), "-q"]).status == 0)
    // Another client edits Ana's survivor after planning.
    let edited = (Self.book["a2"] ?? "").replacingOccurrences(of: "END:VCARD", with: "NOTE:edited elsewhere\r\nEND:VCARD")
    try book.put("a2", edited)
    let applied = try CLI.run(["dedupe", "--apply", dir.path("plan.json"), "--undo-log", dir.path("undo.ndjson")])
    #expect(applied.status == 75, "\(applied.stderr)")
    #expect(applied.stderr.contains("1 changed since planning") && applied.stderr.contains("1 clusters merged"), "\(applied.stderr)")
    var now = try book.all()
    #expect(now["a1"] == Self.book["a1"] && now["a3"] == Self.book["a3"] && now["a2"] == edited)
    #expect(now["p2"] == nil)  // Paulo's cluster went through
    #expect(try CLI.run(["dedupe", "--undo", dir.path("undo.ndjson"), "-q"]).status == 0)
    now = try book.all()
    var expected = Self.book
    expected["a2"] = edited
    #expect(now == expected)

    // A merged-away card edited after planning is not deleted.
    #expect(try CLI.run(["dedupe", base, "--plan", dir.path("plan2.json"), "-q"]).status == 0)
    let editedA3 = (Self.book["a3"] ?? "").replacingOccurrences(of: "X-OTHER:two", with: "X-OTHER:three")
    try book.put("a3", editedA3)
    let second = try CLI.run(["dedupe", "--apply", dir.path("plan2.json"), "--undo-log", dir.path("undo2.ndjson")])
    #expect(second.status == 75, "\(second.stderr)")
    #expect(try book.get("a3") == editedA3 && (try book.get("a1")) != nil)
    #expect(try CLI.run(["dedupe", "--undo", dir.path("undo2.ndjson"), "-q"]).status == 0)
    expected["a3"] = editedA3
    #expect(try book.all() == expected)

    // Killed right after the first PUT was answered, before it was logged.
    for (name, text) in Self.book { try book.put(name, text) }
    #expect(try CLI.run(["dedupe", base, "--plan", dir.path("plan3.json"), "-q"]).status == 0)
    let killed = try CLI.run(
      ["dedupe", "--apply", dir.path("plan3.json"), "--undo-log", dir.path("undo3.ndjson"), "-q"],
      environment: ["OHANA_TEST_KILL_AFTER_WRITES": "1"])
    #expect(killed.status != 0)
    now = try book.all()
    #expect(now["a1"] != nil && now["a3"] != nil)  // nothing deleted yet
    let resumed = try CLI.run(["dedupe", "--apply", dir.path("plan3.json"), "--undo-log", dir.path("undo3.ndjson")])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("resumed"))
    now = try book.all()
    #expect(Set(now.keys) == Set(Self.book.keys).subtracting(["a1", "a3", "p2"]))
    let plan3 = try Self.plan(dir, "plan3.json")
    let mergedTexts = Set(((plan3["clusters"] as? [[String: Any]]) ?? []).compactMap { $0["merged"] as? String })
    #expect(now["a2"].map { mergedTexts.contains($0) } == true && now["p1"].map { mergedTexts.contains($0) } == true)
    let undone = try CLI.run(["dedupe", "--undo", dir.path("undo3.ndjson")])
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try book.all() == Self.book)
  }

  /// Radicale, with a login and over TLS with a private CA (--ca-file):
  /// it stores cards rewritten (properties reordered, names upper-cased),
  /// which the read-back accepts; a vCard 4 photo it cuts short is caught
  /// and the cluster's other card kept.
  @Test func radicaleOverTLS() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    // A private CA and a certificate for 127.0.0.1 signed by it.
    func openssl(_ args: [String]) throws {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      p.arguments = ["openssl"] + args
      p.standardOutput = FileHandle.nullDevice
      p.standardError = FileHandle.nullDevice
      try p.run()
      p.waitUntilExit()
      try #require(p.terminationStatus == 0, "openssl \(args.first ?? "")")
    }
    try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.path("ca.key"), "-out", dir.path("ca.pem"), "-days", "2", "-subj", "/CN=ohana test CA"])
    try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.path("server.key"), "-out", dir.path("server.csr"), "-subj", "/CN=127.0.0.1"])
    try dir.write("ext", "subjectAltName=IP:127.0.0.1\n")
    try openssl(["x509", "-req", "-in", dir.path("server.csr"), "-CA", dir.path("ca.pem"), "-CAkey", dir.path("ca.key"), "-CAcreateserial", "-out", dir.path("server.pem"), "-days", "2", "-extfile", dir.path("ext")])
    let (server, book, base) = try Self.radicale(
      python, dir, extra: ["--server-ssl", "--server-certificate", dir.path("server.pem"), "--server-key", dir.path("server.key")],
      caFile: dir.path("ca.pem"))
    defer { server.stop() }
    for (name, text) in Self.book.sorted(by: { $0.key < $1.key }) { try book.put(name, text) }
    let stored = try book.all()
    let login = ["--user", "ann", "--password-file", dir.path("pw"), "--ca-file", dir.path("ca.pem")]
    // Without the CA the server is not trusted.
    let untrusted = try CLI.run(["stats", base, "--user", "ann", "--password-file", dir.path("pw"), "-q"])
    #expect(untrusted.status == 69, "\(untrusted.stderr)")
    let planned = try CLI.run(["dedupe", base, "--plan", dir.path("plan.json")] + login)
    #expect(planned.status == 0, "\(planned.stderr)")
    let applied = try CLI.run(["dedupe", "--apply", dir.path("plan.json"), "--undo-log", dir.path("undo.ndjson")] + login)
    #expect(applied.status == 0, "\(applied.stderr)")
    let after = try book.all()
    #expect(after["a1"] == nil && after["a3"] == nil && after["p2"] == nil)
    let (phones, emails) = Self.phonesAndEmails(after["a2"] ?? "")
    #expect(phones == ["14155550101", "14155550199"] && emails == ["ana@example.com", "ana.lima@work.example", "ana.l@example.org"])
    #expect((after["a2"] ?? "").contains("X-OTHER:two") && (after["g1"] ?? "").contains("urn:uuid:a2"))
    let undone = try CLI.run(["dedupe", "--undo", dir.path("undo.ndjson")] + login)
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(try book.all() == stored)

    // Radicale cuts a vCard 4 data: photo at its comma. Cards it stored
    // itself are cut already, so the test plans a merge whose card keeps
    // a whole photo (as a plan edited by a reviewer would): the read-back
    // sees the cut, and the other card of the cluster stays.
    try book.put("v1", Self.card("v1", ["FN:Vera Luz", "N:Luz;Vera;;;", "TEL:+1 702 555 0155", "EMAIL:vera@example.com"], version: "4.0"))
    try book.put("v2", Self.card("v2", ["FN:Vera Luz", "N:Luz;Vera;;;", "TEL:+1 702 555 0155", "EMAIL:vera@example.com", "NOTE:x"], version: "4.0"))
    #expect(try CLI.run(["dedupe", base, "--plan", dir.path("photo.json"), "-q"] + login).status == 0)
    var photoPlan = try Self.plan(dir, "photo.json")
    var clusters = (photoPlan["clusters"] as? [[String: Any]]) ?? []
    let vera = try #require(clusters.firstIndex { (($0["survivor"] as? [String: Any])?["uid"] as? String)?.hasPrefix("v") == true })
    clusters[vera]["merged"] = ((clusters[vera]["merged"] as? String) ?? "").replacingOccurrences(
      of: "END:VCARD", with: "PHOTO:data:image/png;base64,iVBORw0KGgo=\r\nEND:VCARD")
    photoPlan["clusters"] = clusters
    try JSONSerialization.data(withJSONObject: photoPlan).write(to: dir.url.appendingPathComponent("photo.json"))
    let photo = try CLI.run(["dedupe", "--apply", dir.path("photo.json"), "--undo-log", dir.path("photo-undo.ndjson")] + login)
    #expect(photo.status == 75, "\(photo.stderr)")
    #expect(photo.stderr.contains("rewritten") && photo.stderr.contains("PHOTO"), "\(photo.stderr)")
    let kept = ((clusters[vera]["delete"] as? [[String: Any]]) ?? []).compactMap { $0["href"] as? String }
    for href in kept { #expect(try book.get(URL(string: href)!.deletingPathExtension().lastPathComponent) != nil) }
  }

  /// With --store, a later run reads only what changed since the sync
  /// token the store kept: another client's add, edit and delete are the
  /// three changes; a token the server no longer knows reads everything
  /// again, with nothing lost and nothing twice.
  static func storeFollowsTheBook(_ base: String, _ book: Book, _ login: [String], _ dir: TempDir) throws {
    let store = dir.path("s.sqlite")
    let first = try CLI.run(["dedupe", base, "--store", store, "-o", dir.path("m.vcf")] + login)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("\(Self.book.count) cards"), "\(first.stderr)")
    try book.put("n1", Self.card("n1", ["FN:Nina Melo", "N:Melo;Nina;;;", "EMAIL:nina@example.com"]))
    try book.put("b1", (Self.book["b1"] ?? "").replacingOccurrences(of: "END:VCARD", with: "NOTE:edited\r\nEND:VCARD"))
    let gone = try book.transport.send(HTTPRequest(method: "DELETE", url: book.url.appendingPathComponent("c1.vcf"), headers: book.headers()))
    try #require((200..<300).contains(gone.status))
    let later = try CLI.run(["dedupe", base, "--store", store, "-o", dir.path("m.vcf"), "--changes", dir.path("changes.ndjson")] + login)
    #expect(later.status == 0, "\(later.stderr)")
    #expect(later.stderr.contains("2 cards changed since the last run, 1 deleted"), "\(later.stderr)")
    let changes = try String(contentsOfFile: dir.path("changes.ndjson"), encoding: .utf8).split(separator: "\n").map {
      try CLI.json(Data($0.utf8))
    }
    var byUID: [String: String] = [:]
    for c in changes { if let uid = c["uid"] as? String { byUID[uid] = c["change"] as? String } }
    #expect(byUID == ["n1": "added", "b1": "updated", "c1": "removed"])
    // Nothing changed: nothing read.
    let quiet = try CLI.run(["dedupe", base, "--store", store, "-o", dir.path("m.vcf")] + login)
    #expect(quiet.stderr.contains("0 cards changed since the last run, 0 deleted"), "\(quiet.stderr)")
    // A damaged token: every card again, none lost, none twice.
    let sql = "UPDATE meta SET value = json_set(value, '$.token', 'http://ohana.invalid/damaged') WHERE key LIKE 'provider:%'"
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sqlite3", store, sql]
    try p.run()
    p.waitUntilExit()
    try #require(p.terminationStatus == 0)
    let again = try CLI.run(["dedupe", base, "--store", store, "-o", dir.path("m.vcf"), "--clusters", dir.path("c.csv")] + login)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("no longer knows the sync token") && again.stderr.contains("0 added, 0 updated, 0 removed"), "\(again.stderr)")
    let uids = try String(contentsOfFile: dir.path("c.csv"), encoding: .utf8).split(separator: "\n").dropFirst().map {
      String($0.split(separator: ",")[0])
    }
    var expected = Set(Self.book.keys)
    expected.remove("c1")
    expected.insert("n1")
    #expect(uids.count == expected.count && Set(uids) == expected)
  }

  @Test func xandikosStoreFollowsTheBook() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let (server, book, _) = try Self.xandikos(python, dir)
    defer { server.stop() }
    try Self.storeFollowsTheBook("http://127.0.0.1:\(server.port)/", book, [], dir)
  }

  @Test func radicaleStoreFollowsTheBook() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let (server, book, base) = try Self.radicale(python, dir)
    defer { server.stop() }
    for (name, text) in Self.book.sorted(by: { $0.key < $1.key }) { try book.put(name, text) }
    try Self.storeFollowsTheBook(base, book, ["--user", "ann", "--password-file", dir.path("pw")], dir)
  }

  /// Radicale refuses a merged card over its size limit (HTTP 413): the
  /// cluster is reported too large, nothing of it is deleted, exit 75.
  @Test func radicaleSizeLimit() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let (server, book, base) = try Self.radicale(python, dir, extra: ["--server-max-content-length", "700"])
    defer { server.stop() }
    // Each card under the limit; the two notes together over it.
    let a1 = Self.card("a1", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL:+1 415 555 0101", "EMAIL:ana@example.com", "NOTE:" + String(repeating: "x", count: 300)])
    let a2 = Self.card("a2", ["FN:Ana Lima", "N:Lima;Ana;;;", "TEL:+1 415 555 0101", "EMAIL:ana@example.com", "NOTE:" + String(repeating: "y", count: 300)])
    try book.put("a1", a1)
    try book.put("a2", a2)
    let stored = [try book.get("a1"), try book.get("a2")]
    let login = ["--user", "ann", "--password-file", dir.path("pw")]
    #expect(try CLI.run(["dedupe", base, "--plan", dir.path("plan.json"), "-q"] + login).status == 0)
    let applied = try CLI.run(["dedupe", "--apply", dir.path("plan.json"), "--undo-log", dir.path("undo.ndjson"), "--force"] + login)
    #expect(applied.status == 75, "\(applied.stderr)")
    #expect(applied.stderr.contains("1 too large") && applied.stderr.contains("HTTP 413"), "\(applied.stderr)")
    #expect([try book.get("a1"), try book.get("a2")] == stored)
  }

  // MARK: A book of 1,500 cards (issue 43)

  /// 1,500 generated vCard 3.0 cards (a third of them duplicates of
  /// another), uploaded one by one: a plan merges every cluster into a card
  /// that the independent RFC checker accepts, the apply merges every
  /// planned cluster (exit 0), and the undo gives back every card as the
  /// server held it before, byte for byte.
  static func bigBook(_ book: Book, base: String, login: [String], dir: TempDir) throws {
    var vcf: [UInt8] = []
    try DatasetGenerator(options: GeneratorOptions(contacts: 1500, seed: 4343, version: .fixed(.v30), dupRate: 0.45))
      .generate(threads: 2, vcard: { vcf += $0 })
    let cards = VCardRFCChecker.cards(String(decoding: vcf, as: UTF8.self))
    try #require(cards.count == 1500)
    var names: [String] = []
    for (i, c) in cards.enumerated() {
      let name = String(format: "c%04d", i)
      try book.put(name, c)
      names.append(name)
    }
    var before: [String: String] = [:]
    for n in names { before[n] = try book.get(n) }
    let planned = try CLI.run(["dedupe", base, "--plan", dir.path("plan.json")] + login)
    #expect(planned.status == 0, "\(planned.stderr)")
    let plan = try Self.plan(dir, "plan.json")
    let clusters = try #require(plan["clusters"] as? [[String: Any]])
    let skipped = (plan["skipped"] as? [[String: Any]]) ?? []
    #expect(clusters.count >= 150, "\(clusters.count) clusters planned")
    #expect(skipped.isEmpty, "skipped: \(skipped.map { $0["reason"] ?? "" })")
    for c in clusters {
      let merged = try #require(c["merged"] as? String)
      #expect(VCardRFCChecker.problems(merged).isEmpty, "\(VCardRFCChecker.problems(merged)): \(merged)")
    }
    let applied = try CLI.run(["dedupe", "--apply", dir.path("plan.json"), "--undo-log", dir.path("undo.ndjson")] + login)
    #expect(applied.status == 0, "\(applied.stderr)")
    #expect(applied.stderr.contains("\(clusters.count) clusters merged"), "\(applied.stderr)")
    let deletes = clusters.reduce(0) { $0 + (($1["delete"] as? [Any])?.count ?? 0) }
    var left = 0
    for n in names where try book.get(n) != nil { left += 1 }
    #expect(left == 1500 - deletes)
    let undone = try CLI.run(["dedupe", "--undo", dir.path("undo.ndjson")] + login)
    #expect(undone.status == 0, "\(undone.stderr)")
    var after: [String: String] = [:]
    for n in names { after[n] = try book.get(n) }
    #expect(after == before)
  }

  @Test func xandikosFifteenHundredCards() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let server = try Server(python: python) { port in
      ["-m", "xandikos", "serve", "--defaults", "-d", dir.path("dav"), "-l", "127.0.0.1", "-p", "\(port)"]
    }
    defer { server.stop() }
    let book = Book(url: URL(string: "http://127.0.0.1:\(server.port)/user/contacts/addressbook/")!, auth: nil)
    try Self.bigBook(book, base: "http://127.0.0.1:\(server.port)/", login: [], dir: dir)
  }

  @Test func radicaleFifteenHundredCards() throws {
    guard let python = try CardDAVServerTests.serverPython() else { return }
    let dir = try TempDir()
    let (server, book, base) = try Self.radicale(python, dir)
    defer { server.stop() }
    try Self.bigBook(book, base: base, login: ["--user", "ann", "--password-file", dir.path("pw")], dir: dir)
  }
}
