import Foundation
import Testing

@testable import OhanaCardDAV

/// The CardDAV client against a fake server: the cases a real server
/// cannot be made to produce on demand (a 507 page, a card that vanishes
/// between listing and fetching, a token the server forgot), and what it
/// must never do (send the password to another origin). Real servers:
/// Tests/OhanaCLITests/CardDAVServerTests.swift.
@Suite struct CardDAVClientTests {
  /// A server as a function of the request; every request is recorded.
  final class Fake: HTTPTransport, @unchecked Sendable {
    // Safe: the client sends one request at a time.
    var requests: [HTTPRequest] = []
    let handle: (HTTPRequest, Int) -> HTTPResponse
    init(_ handle: @escaping (HTTPRequest, Int) -> HTTPResponse) { self.handle = handle }
    func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse {
      requests.append(request)
      return handle(request, requests.count - 1)
    }
  }

  static func xml(_ s: String) -> HTTPResponse { HTTPResponse(status: 207, body: Data(s.utf8)) }
  static func body(_ r: HTTPRequest) -> String { String(decoding: r.body ?? Data(), as: UTF8.self) }

  @Test func multistatusIsReadWhateverThePrefixes() throws {
    let doc = """
      <?xml version="1.0"?><x:multistatus xmlns:x="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
      <x:response><x:href>/ab/1.vcf</x:href><x:propstat><x:prop><x:getetag>"e1"</x:getetag>
      <c:address-data>BEGIN:VCARD&#13;
      END:VCARD&#13;
      </c:address-data></x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat></x:response>
      <x:response><x:href>/ab/2.vcf</x:href><x:status>HTTP/1.1 404 Not Found</x:status></x:response>
      <x:sync-token>tok-2</x:sync-token></x:multistatus>
      """
    let root = try #require(DAVElement.parse(Data(doc.utf8)))
    let (responses, token) = DAVResponse.multistatus(root)
    #expect(token == "tok-2")
    #expect(responses.map(\.href) == ["/ab/1.vcf", "/ab/2.vcf"])
    #expect(responses[0].property(DAVElement.dav, "getetag")?.text == "\"e1\"")
    #expect(responses[0].property(DAVElement.carddav, "address-data")?.text == "BEGIN:VCARD\r\nEND:VCARD\r\n")
    #expect(responses[1].status == 404)
  }

  /// A 507 page is followed with the token it gave; a card deleted between
  /// the listing and the multiget is left out, not an error.
  @Test func pagesAreFollowedAndVanishedCardsSkipped() throws {
    let book = URL(string: "http://127.0.0.1:1/ab/")!
    let fake = Fake { r, _ in
      let b = Self.body(r)
      if b.contains("sync-collection") {
        if b.contains("<d:sync-token></d:sync-token>") {
          return Self.xml("""
            <multistatus xmlns="DAV:"><response><href>/ab/1.vcf</href><propstat><prop><getetag>"a"</getetag></prop>
            <status>HTTP/1.1 200 OK</status></propstat></response>
            <response><href>/ab/</href><status>HTTP/1.1 507 Insufficient Storage</status></response>
            <sync-token>page-2</sync-token></multistatus>
            """)
        }
        #expect(b.contains("page-2"))
        return Self.xml("""
          <multistatus xmlns="DAV:"><response><href>/ab/2.vcf</href><propstat><prop><getetag>"b"</getetag></prop>
          <status>HTTP/1.1 200 OK</status></propstat></response><sync-token>done</sync-token></multistatus>
          """)
      }
      // multiget: 2.vcf vanished meanwhile.
      return Self.xml("""
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
        <response><href>/ab/1.vcf</href><propstat><prop><getetag>"a"</getetag><C:address-data>BEGIN:VCARD
        UID:1
        END:VCARD
        </C:address-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>
        <response><href>/ab/2.vcf</href><status>HTTP/1.1 404 Not Found</status></response></multistatus>
        """)
    }
    let client = CardDAVClient(start: book, transport: fake, credentials: nil)
    let listing = try client.list(book)
    #expect(listing.cards.map(\.url.path) == ["/ab/1.vcf", "/ab/2.vcf"])
    #expect(listing.cards.map(\.etag) == ["\"a\"", "\"b\""])
    #expect(listing.syncToken == "done")
    let cards = try client.fetch(book, listing.cards.map(\.url))
    #expect(cards.map(\.url.path) == ["/ab/1.vcf"])
    #expect(fake.requests.allSatisfy { $0.url == book }, "every request goes to the book, none elsewhere")
  }

  /// A token the server no longer knows gives a full listing (no loss, no
  /// duplicate).
  @Test func aForgottenTokenGivesAFullListing() throws {
    let book = URL(string: "http://127.0.0.1:1/ab/")!
    let fake = Fake { r, _ in
      if Self.body(r).contains("old-token") {
        return HTTPResponse(
          status: 403, body: Data(#"<d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>"#.utf8))
      }
      return Self.xml("""
        <multistatus xmlns="DAV:"><response><href>/ab/1.vcf</href><propstat><prop><getetag>"a"</getetag></prop>
        <status>HTTP/1.1 200 OK</status></propstat></response><sync-token>new</sync-token></multistatus>
        """)
    }
    let listing = try CardDAVClient(start: book, transport: fake, credentials: nil).list(book, token: "old-token")
    #expect(listing.cards.map(\.url.path) == ["/ab/1.vcf"])
    #expect(listing.syncToken == "new")
    #expect(fake.requests.count == 2)
  }

  /// Discovery from a server's root: the principal, its home set, the
  /// books in it. The password goes with every request to the origin
  /// and with none to another.
  @Test func discoveryAndCredentialsStayAtTheOrigin() throws {
    let root = URL(string: "https://dav.example:8443/")!
    let fake = Fake { r, _ in
      switch r.url.absoluteString.replacingOccurrences(of: "https://dav.example:8443", with: "") {
      case "/":
        return Self.xml("""
          <multistatus xmlns="DAV:"><response><href>/</href><propstat><prop><current-user-principal><href>/p/ann/</href>
          </current-user-principal></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
          """)
      case "/p/ann/":
        return Self.xml("""
          <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><response><href>/p/ann/</href><propstat><prop>
          <C:addressbook-home-set><href>https://other.example/h/</href></C:addressbook-home-set></prop>
          <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
          """)
      default:
        return Self.xml("""
          <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
          <response><href>/h/</href><propstat><prop><resourcetype><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
          <response><href>/h/work/</href><propstat><prop><resourcetype><collection/><C:addressbook/></resourcetype><displayname>Work</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response>
          <response><href>/h/home/</href><propstat><prop><resourcetype><collection/><C:addressbook/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
          </multistatus>
          """)
      }
    }
    let client = CardDAVClient(start: root, transport: fake, credentials: CardDAVCredentials(user: "ann", password: "s3cret"))
    let books = try client.addressBooks(from: root)
    #expect(books.map(\.absoluteString) == ["https://other.example/h/home/", "https://other.example/h/work/"])
    #expect(try client.addressBooks(from: root, only: "Work").map(\.lastPathComponent) == ["work"])
    for r in fake.requests {
      let auth = r.headers.first { $0.0 == "Authorization" }?.1
      if r.url.host == "dav.example" {
        #expect(auth == "Basic " + Data("ann:s3cret".utf8).base64EncodedString())
      } else {
        #expect(auth == nil, "the password went to \(r.url.host ?? "")")
      }
    }
  }

  @Test func aRefusedLoginIsOneClearError() throws {
    let url = URL(string: "http://127.0.0.1:1/ab/")!
    let fake = Fake { _, _ in HTTPResponse(status: 401) }
    #expect {
      try CardDAVClient(start: url, transport: fake, credentials: CardDAVCredentials(user: "ann", password: "no"))
        .addressBooks(from: url)
    } throws: { e in
      guard let e = e as? CardDAVError else { return false }
      return e.kind == .authentication && e.message.contains("ann") && !e.message.contains("no)")
    }
    #expect(fake.requests.count == 1, "no retry")
  }

  @Test func netrcGivesTheHostsLogin() {
    let text = "machine a.example login ann password one\ndefault login guest password two\nmachine b.example\n  login bob\n  password three\n"
    #expect(CardDAVCredentials.netrc(text, host: "b.example")?.user == "bob")
    #expect(CardDAVCredentials.netrc(text, host: "b.example")?.password == "three")
    #expect(CardDAVCredentials.netrc(text, host: "a.example")?.password == "one")
    #expect(CardDAVCredentials.netrc(text, host: "c.example")?.user == "guest")
    #expect(CardDAVCredentials.netrc("machine a login x password y", host: "z") == nil)
  }

  /// A card whose name holds a percent sign is asked for by its href as
  /// listed (percent-encoded), not decoded; a listed card the server does
  /// not serve is a warning, not a silent loss.
  @Test func hrefsAreSentAsListedAndMissingCardsAreSaid() throws {
    let book = URL(string: "http://127.0.0.1:1/ab/")!
    let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:p1\r\nFN:Per Cent\r\nEND:VCARD\r\n"
    let fake = Fake { r, _ in
      let b = Self.body(r)
      if b.contains("sync-collection") {
        return Self.xml("""
          <multistatus xmlns="DAV:"><response><href>/ab/50%25.vcf</href><propstat><prop><getetag>"a"</getetag></prop>
          <status>HTTP/1.1 200 OK</status></propstat></response>
          <response><href>/ab/gone.vcf</href><propstat><prop><getetag>"b"</getetag></prop>
          <status>HTTP/1.1 200 OK</status></propstat></response><sync-token>t1</sync-token></multistatus>
          """)
      }
      if b.contains("addressbook-multiget") {
        // Served only when asked for exactly as listed.
        let data = b.contains("<d:href>/ab/50%25.vcf</d:href>") ? card.replacingOccurrences(of: "\r", with: "&#13;") : nil
        return Self.xml("""
          <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
          <response><href>/ab/50%25.vcf</href>\(data.map { "<propstat><prop><getetag>\"a\"</getetag><C:address-data>\($0)</C:address-data></prop><status>HTTP/1.1 200 OK</status></propstat>" } ?? "<status>HTTP/1.1 404 Not Found</status>")</response>
          <response><href>/ab/gone.vcf</href><status>HTTP/1.1 404 Not Found</status></response></multistatus>
          """)
      }
      return HTTPResponse(status: 207, body: Data("""
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><response><href>/ab/</href><propstat><prop>
        <resourcetype><collection/><C:addressbook/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """.utf8))
    }
    for ahead in [false, true] {
      var client = CardDAVClient(start: book, transport: fake, credentials: nil)
      client.fetchAhead = ahead
      let result = try CardDAVReader.read(book, client: client)
      #expect(result.read.table.rowCount == 1)
      #expect(result.read.table.uid(at: 0) == "p1")
      #expect(result.refs.first??.url.absoluteString == "http://127.0.0.1:1/ab/50%25.vcf")
      let warning = result.read.errors.first { $0.isWarning && $0.reason.contains("not served") }
      #expect(warning?.reason.hasPrefix("1 of the 2 cards listed") == true)
    }
  }
}
