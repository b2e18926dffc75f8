import Foundation
import OhanaCardDAV
import Testing

/// The CardDAV provider against real servers (issue 35): Xandikos, which
/// keeps each card byte for byte in git, and Radicale with basic auth.
/// They come from PyPI; `$OHANA_DAV_PYTHON` names a Python that has both
/// (.ci/run makes one). Without it the tests are skipped, loudly; with
/// `OHANA_REQUIRE_DAV=1` (CI) that is a failure.
@Suite(.serialized) struct CardDAVServerTests {
  static var python: String? {
    let env = ProcessInfo.processInfo.environment
    if let p = env["OHANA_DAV_PYTHON"], FileManager.default.isExecutableFile(atPath: p) { return p }
    return nil
  }

  /// The Python with the servers, or nil after saying why the test did not run.
  static func serverPython() throws -> String? {
    if let p = python { return p }
    let message = "CardDAV server tests NOT RUN: set OHANA_DAV_PYTHON to a Python with xandikos and radicale (pip)"
    if ProcessInfo.processInfo.environment["OHANA_REQUIRE_DAV"] == "1" {
      Issue.record(Comment(rawValue: message + " (OHANA_REQUIRE_DAV=1)"))
    } else {
      print(message)
    }
    return nil
  }

  /// A free TCP port on 127.0.0.1 (bound, read, released).
  static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
  }

  /// A server process, stopped when the test ends whatever happens.
  final class Server {
    let process = Process()
    let port: Int
    init(python: String, scheme: String = "http", caFile: String? = nil, arguments: (Int) -> [String]) throws {
      port = CardDAVServerTests.freePort()
      process.executableURL = URL(fileURLWithPath: python)
      process.arguments = arguments(port)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Up when it answers.
      let transport = HTTPClientTransport(caFile: caFile, timeout: 2)
      for _ in 0..<100 {
        if (try? transport.send(HTTPRequest(method: "OPTIONS", url: URL(string: "\(scheme)://127.0.0.1:\(port)/")!))) != nil { return }
        usleep(100_000)
      }
      throw TestFailure("the server on port \(port) did not start")
    }
    /// Stops the server (also when the test fails: `defer`).
    func stop() {
      guard process.isRunning else { return }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    deinit { stop() }
  }

  static func cards(_ text: String) -> [String] {
    var out: [String] = []
    var current = ""
    for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
      current += line + "\r\n"
      if line == "END:VCARD" {
        out.append(current)
        current = ""
      }
    }
    return out
  }

  /// Discovery from the bare server URL; every card read whole, byte for
  /// byte what was uploaded, with its ETag; the command line reads the
  /// same contacts as from the file.
  @Test func xandikosBookReadWhole() throws {
    guard let python = try Self.serverPython() else { return }
    let dir = try TempDir()
    let server = try Server(python: python) { port in
      ["-m", "xandikos", "serve", "--defaults", "-d", dir.path("dav"), "-l", "127.0.0.1", "-p", "\(port)"]
    }
    defer { server.stop() }
    let base = URL(string: "http://127.0.0.1:\(server.port)/")!
    let book = dir.path("book.vcf")
    #expect(try CLI.run(["generate", "--contacts", "1000", "--seed", "5", "--dup-rate", "0.2", "--version", "4.0", "-o", book, "-q"]).status == 0)
    let uploaded = Self.cards(try String(contentsOfFile: book, encoding: .utf8))
    #expect(uploaded.count == 1000)
    let transport = HTTPClientTransport()
    let bookURL = base.appendingPathComponent("user/contacts/addressbook/")
    for (i, card) in uploaded.enumerated() {
      let put = try transport.send(
        HTTPRequest(method: "PUT", url: bookURL.appendingPathComponent("c\(i).vcf"), headers: [("Content-Type", "text/vcard")], body: Data(card.utf8)))
      try #require((200..<300).contains(put.status), "PUT \(i): HTTP \(put.status)")
    }
    let client = CardDAVClient(start: base, transport: transport, credentials: nil)
    let books = try client.addressBooks(from: base)
    #expect(books.map(\.absoluteString) == [base.absoluteString + "user/contacts/addressbook/"])
    let listing = try client.list(books[0])
    #expect(listing.cards.count == 1000)
    #expect(listing.syncToken != nil)
    let fetched = try client.fetch(books[0], listing.cards.map(\.url))
    var byName: [String: String] = [:]
    for c in fetched { byName[c.url.lastPathComponent] = String(decoding: c.data, as: UTF8.self) }
    for (i, card) in uploaded.enumerated() { #expect(byName["c\(i).vcf"] == card, "card \(i) differs") }
    #expect(fetched.allSatisfy { $0.etag != nil })
    // The command line: the same contacts as the file gives.
    let fromServer = try CLI.run(["convert", base.absoluteString, "-o", dir.path("server.ndjson"), "-q"])
    #expect(fromServer.status == 0, "\(fromServer.stderr)")
    let fromFile = try CLI.run(["convert", book, "-o", dir.path("file.ndjson"), "-q"])
    #expect(fromFile.status == 0)
    func uids(_ name: String) throws -> [String] {
      try String(contentsOfFile: dir.path(name), encoding: .utf8).split(separator: "\n").map { line in
        (try CLI.json(Data(line.utf8))["uid"] as? String) ?? ""
      }.sorted()
    }
    #expect(try uids("server.ndjson") == (try uids("file.ndjson")))
    // The review page reads the book too.
    let review = try CLI.run(["review", base.absoluteString, "-o", dir.path("review.html"), "-q"])
    #expect(review.status == 0, "\(review.stderr)")
    let page = try String(contentsOfFile: dir.path("review.html"), encoding: .utf8)
    #expect(page.contains("<title>Review of \(base.absoluteString)user/contacts/addressbook/</title>") || page.contains("<title>Review of \(base.absoluteString)</title>"))
    // A run of its own sees another client's add, edit and delete.
    let token = try #require(listing.syncToken)
    _ = try transport.send(HTTPRequest(method: "DELETE", url: bookURL.appendingPathComponent("c0.vcf")))
    _ = try transport.send(
      HTTPRequest(method: "PUT", url: bookURL.appendingPathComponent("c1.vcf"), headers: [("Content-Type", "text/vcard")],
        body: Data(uploaded[1].replacingOccurrences(of: "END:VCARD", with: "NOTE:edited\r\nEND:VCARD").utf8)))
    _ = try transport.send(
      HTTPRequest(method: "PUT", url: bookURL.appendingPathComponent("new.vcf"), headers: [("Content-Type", "text/vcard")],
        body: Data("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:new-1\r\nFN:New One\r\nEND:VCARD\r\n".utf8)))
    let changes = try client.list(books[0], token: token)
    #expect(Set(changes.cards.map(\.url.lastPathComponent)) == ["c1.vcf", "new.vcf"])
    #expect(changes.removed.map(\.lastPathComponent) == ["c0.vcf"])
    // A damaged token: a full listing, nothing lost, nothing twice.
    let full = try client.list(books[0], token: "http://xandikos.invalid/damaged")
    #expect(full.cards.count == 1000 && Set(full.cards.map(\.url)).count == 1000)
  }

  /// Radicale with basic auth: the right password reads, a wrong one is one
  /// clear error (exit 77), with no retry and without the password in it.
  @Test func radicaleLogin() throws {
    guard let python = try Self.serverPython() else { return }
    let dir = try TempDir()
    try dir.write("users", "ann:right-pass\n")
    let server = try Server(python: python) { port in
      [
        "-m", "radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)", "--storage-filesystem-folder",
        dir.path("collections"), "--auth-type", "htpasswd", "--auth-htpasswd-filename", dir.path("users"),
        "--auth-htpasswd-encryption", "plain",
      ]
    }
    defer { server.stop() }
    let base = URL(string: "http://127.0.0.1:\(server.port)/")!
    let transport = HTTPClientTransport()
    let auth = "Basic " + Data("ann:right-pass".utf8).base64EncodedString()
    // An address book for ann, made as a client makes one (MKCOL).
    let mk = try transport.send(
      HTTPRequest(
        method: "MKCOL", url: base.appendingPathComponent("ann/contacts/"),
        headers: [("Authorization", auth), ("Content-Type", "application/xml")],
        body: Data("""
          <?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>
          <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop></d:set></d:mkcol>
          """.utf8)))
    try #require(mk.status == 201, "MKCOL: HTTP \(mk.status)")
    for i in 0..<3 {
      let put = try transport.send(
        HTTPRequest(
          method: "PUT", url: base.appendingPathComponent("ann/contacts/\(i).vcf"),
          headers: [("Authorization", auth), ("Content-Type", "text/vcard")],
          body: Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:r\(i)\r\nFN:Person \(i)\r\nN:\(i);Person;;;\r\nEND:VCARD\r\n".utf8)))
      try #require((200..<300).contains(put.status))
    }
    try dir.write("right", "right-pass\n")
    try dir.write("wrong", "wrong-pass\n")
    let ok = try CLI.run(["stats", base.absoluteString, "--user", "ann", "--password-file", dir.path("right"), "-q"])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(try CLI.json(ok.stdout)["contacts"] as? Int == 3)
    let bad = try CLI.run(["stats", base.absoluteString, "--user", "ann", "--password-file", dir.path("wrong")])
    #expect(bad.status == 77, "\(bad.stderr)")
    #expect(bad.stderr.contains("refused the login of user ann"))
    #expect(!bad.stderr.contains("wrong-pass") && !bad.stderr.contains("right-pass"))
    let none = try CLI.run(["stats", "http://192.0.2.1/", "-q"])
    #expect(none.status == 64 && none.stderr.contains("plain http"))
  }
}
