import Foundation

/// A user and password for HTTP basic authentication, sent only to the
/// origin (scheme, host, port) the run started at.
public struct CardDAVCredentials: Sendable {
  public var user: String
  public var password: String

  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }

  /// The login for `host` in a netrc file (`machine HOST login U password
  /// P`, or `default`), if any.
  public static func netrc(_ text: String, host: String) -> CardDAVCredentials? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map(String.init)
    var i = 0
    var fallback: CardDAVCredentials? = nil
    while i < words.count {
      let isDefault = words[i] == "default"
      guard words[i] == "machine" || isDefault else {
        i += 1
        continue
      }
      let machine = isDefault ? nil : (i + 1 < words.count ? words[i + 1] : nil)
      i += isDefault ? 1 : 2
      var login: String? = nil, password: String? = nil
      while i < words.count && words[i] != "machine" && words[i] != "default" {
        if i + 1 < words.count {
          if words[i] == "login" { login = words[i + 1] }
          if words[i] == "password" { password = words[i + 1] }
        }
        i += 2
      }
      if let login, let password {
        if machine == host { return CardDAVCredentials(user: login, password: password) }
        if isDefault { fallback = CardDAVCredentials(user: login, password: password) }
      }
    }
    return fallback
  }
}

/// One card as the server keeps it.
public struct CardDAVCard: Sendable {
  /// The card's URL (absolute).
  public var url: URL
  public var etag: String?
  /// The vCard text, as served.
  public var data: Data
}

/// A CardDAV client (RFC 6352 over WebDAV, RFC 4918; sync-collection, RFC
/// 6578): finds the address books from a server, principal or address
/// book URL, lists them, and fetches their cards whole.
public struct CardDAVClient: Sendable {
  public let transport: any HTTPTransport
  public let credentials: CardDAVCredentials?
  /// Hrefs fetched per `addressbook-multiget` (its response is held whole).
  public var batchSize = 200
  /// Whether the next batch is asked for before this one is read (on a second
  /// connection). Off: against Xandikos (Benchmarks/compare/carddav) two
  /// batches in flight cost the server more CPU and made reading slower than
  /// one batch at a time. A server with several workers may gain.
  public var fetchAhead = false
  /// Where the run started: credentials go to this origin only.
  private let origin: String

  public init(start: URL, transport: any HTTPTransport, credentials: CardDAVCredentials?) {
    self.transport = transport
    self.credentials = credentials
    origin = Self.origin(start)
  }

  static func origin(_ url: URL) -> String {
    "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? (url.scheme == "https" ? 443 : 80))"
  }

  /// Whether `url` may be fetched without TLS: plain HTTP only to a
  /// loopback host.
  public static func isLoopback(_ url: URL) -> Bool {
    guard let host = url.host?.lowercased() else { return false }
    return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
  }

  func request(_ method: String, _ url: URL, depth: String? = nil, body: String? = nil) throws(CardDAVError) -> HTTPResponse {
    try request(
      method, url, headers: depth.map { [("Depth", $0)] } ?? [], body: body.map { Data($0.utf8) },
      contentType: "application/xml; charset=utf-8")
  }

  func request(
    _ method: String, _ url: URL, headers extra: [(String, String)], body: Data?, contentType: String
  ) throws(CardDAVError) -> HTTPResponse {
    try checked(try start(method, url, headers: extra, body: body, contentType: contentType).wait(), url)
  }

  /// Sends a request (with the login, to the run's origin only) without
  /// waiting for its answer.
  func start(
    _ method: String, _ url: URL, headers extra: [(String, String)], body: Data?, contentType: String
  ) -> PendingResponse {
    var headers: [(String, String)] = [("User-Agent", "ohana-carddav")] + extra
    if body != nil { headers.append(("Content-Type", contentType)) }
    if let credentials, Self.origin(url) == origin {
      let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
      headers.append(("Authorization", "Basic \(token)"))
    }
    return transport.start(HTTPRequest(method: method, url: url, headers: headers, body: body))
  }

  /// A response, or the error a refused login is.
  func checked(_ response: HTTPResponse, _ url: URL) throws(CardDAVError) -> HTTPResponse {
    if response.status == 401 {
      throw CardDAVError(
        .authentication,
        credentials == nil
          ? "\(HTTPClientTransport.redacted(url)): the server asks for a login (give --user, and the password by --password-file, OHANA_CARDDAV_PASSWORD or ~/.netrc)"
          : "\(HTTPClientTransport.redacted(url)): the server refused the login of user \(credentials?.user ?? "") (HTTP \(response.status))")
    }
    return response
  }

  /// A multistatus response's parsed body.
  func multistatus(_ response: HTTPResponse, _ what: String) throws(CardDAVError) -> (responses: [DAVResponse], syncToken: String?) {
    guard response.status == 207, let root = DAVElement.parse(response.body) else {
      throw CardDAVError(.protocolError, "\(what): the server answered HTTP \(response.status), not a WebDAV multistatus")
    }
    return DAVResponse.multistatus(root)
  }

  func resolve(_ href: String, against base: URL) -> URL? { URL(string: href, relativeTo: base)?.absoluteURL }

  static let propfindStart = """
    <?xml version="1.0" encoding="utf-8"?>
    <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">
      <d:prop><d:resourcetype/><d:current-user-principal/><card:addressbook-home-set/><d:displayname/></d:prop>
    </d:propfind>
    """

  /// The address books that `start` names or leads to: itself when it is
  /// one; else those in the home set of its principal (the current user's
  /// principal, or `/.well-known/carddav`'s target when `start` says
  /// nothing). `only`: the book whose last path segment or display name it is.
  public func addressBooks(from start: URL, only: String? = nil) throws(CardDAVError) -> [URL] {
    var url = start
    var tried = Set<String>()
    for _ in 0..<6 {
      guard tried.insert(url.absoluteString).inserted else { break }
      let r = try request("PROPFIND", url, depth: "0", body: Self.propfindStart)
      if (301...308).contains(r.status), let location = r.headers["location"], let next = resolve(location, against: url) {
        guard Self.origin(next) == origin else {
          throw CardDAVError(.refused, "\(HTTPClientTransport.redacted(url)) redirects to another server; start there instead")
        }
        url = next
        continue
      }
      if r.status == 404 || r.status == 405 || r.status == 501 {
        // Nothing here: ask the well-known address (RFC 6764) once.
        let wellKnown = resolve("/.well-known/carddav", against: url)!
        if url != wellKnown {
          url = wellKnown
          continue
        }
      }
      let (responses, _) = try multistatus(r, "PROPFIND \(HTTPClientTransport.redacted(url))")
      guard let me = responses.first else { break }
      if me.property(DAVElement.dav, "resourcetype")?.child(DAVElement.carddav, "addressbook") != nil { return [url] }
      if let home = me.property(DAVElement.carddav, "addressbook-home-set")?.child(DAVElement.dav, "href"),
        let homeURL = resolve(trimmedXML(home.text), against: url)
      {
        return try books(in: homeURL, only: only)
      }
      if let principal = me.property(DAVElement.dav, "current-user-principal")?.child(DAVElement.dav, "href"),
        let next = resolve(trimmedXML(principal.text), against: url), next != url
      {
        url = next
        continue
      }
      // A server root with no principal for us: try the well-known address.
      let wellKnown = resolve("/.well-known/carddav", against: url)!
      if !tried.contains(wellKnown.absoluteString) {
        url = wellKnown
        continue
      }
      break
    }
    throw CardDAVError(.protocolError, "\(HTTPClientTransport.redacted(start)): found no address book there")
  }

  /// The address books directly under a home set.
  func books(in home: URL, only: String?) throws(CardDAVError) -> [URL] {
    let r = try request("PROPFIND", home, depth: "1", body: Self.propfindStart)
    let (responses, _) = try multistatus(r, "PROPFIND \(HTTPClientTransport.redacted(home))")
    var out: [URL] = []
    for resp in responses where resp.property(DAVElement.dav, "resourcetype")?.child(DAVElement.carddav, "addressbook") != nil {
      guard let url = resolve(resp.href, against: home) else { continue }
      if let only {
        let name = resp.property(DAVElement.dav, "displayname")?.text ?? ""
        guard url.lastPathComponent == only || name == only else { continue }
      }
      out.append(url)
    }
    if out.isEmpty {
      throw CardDAVError(
        .protocolError,
        only == nil ? "\(HTTPClientTransport.redacted(home)): no address book in this home set"
          : "\(HTTPClientTransport.redacted(home)): no address book named \(only ?? "")")
    }
    return out.sorted { $0.absoluteString < $1.absoluteString }
  }

  /// A book's cards as listed: href and ETag, and the sync token to ask
  /// for changes next time (nil when the server has no sync-collection).
  public struct Listing: Sendable {
    public var cards: [(url: URL, etag: String?)]
    public var syncToken: String?
    /// Hrefs the server says were removed since the token given.
    public var removed: [URL] = []
    /// Whether this lists every card (no token was given, the server
    /// forgot it, or the book has no sync-collection).
    public var full = true
  }

  static func syncBody(_ token: String?) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <d:sync-collection xmlns:d="DAV:">
      <d:sync-token>\(token.map(Self.escape) ?? "")</d:sync-token><d:sync-level>1</d:sync-level>
      <d:prop><d:getetag/></d:prop>
    </d:sync-collection>
    """
  }

  static func escape(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else { return s }
    return s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  /// A URL's path as it is sent: percent-encoded as listed (`URL.path` is
  /// decoded: a card named `50%25.vcf` would be asked for as `50%.vcf`).
  static func wirePath(_ url: URL) -> String {
    URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
  }

  /// Lists `book` by sync-collection (from `token`, or all when nil),
  /// following 507 pages to the end; a token the server no longer knows
  /// (`DAV:valid-sync-token`) gives a full listing. A server without
  /// sync-collection is listed by PROPFIND Depth 1.
  public func list(_ book: URL, token: String? = nil) throws(CardDAVError) -> Listing {
    var listing = Listing(cards: [], syncToken: nil, full: token == nil)
    var seen = Set<String>()
    var current = token
    var full = token == nil
    for _ in 0..<10_000 {
      let r = try request("REPORT", book, depth: "1", body: Self.syncBody(current))
      if (400..<500).contains(r.status), current != nil,
        let root = DAVElement.parse(r.body), root.find(DAVElement.dav, "valid-sync-token") != nil
      {
        // The token is gone: everything again, from nothing.
        listing = Listing(cards: [], syncToken: nil, full: true)
        seen.removeAll()
        current = nil
        full = true
        continue
      }
      if r.status != 207 {
        if full && (r.status == 403 || r.status == 405 || r.status == 501 || r.status == 400) { return try propfindListing(book) }
        throw CardDAVError(.protocolError, "REPORT sync-collection \(HTTPClientTransport.redacted(book)): HTTP \(r.status)")
      }
      let (responses, next) = try multistatus(r, "REPORT \(HTTPClientTransport.redacted(book))")
      var truncated = false
      for resp in responses {
        guard let url = resolve(resp.href, against: book) else { continue }
        if url.absoluteString == book.absoluteString || url.path == book.path {
          if resp.status == 507 { truncated = true }
          continue
        }
        if resp.status == 404 {
          listing.removed.append(url)
          continue
        }
        let etag = resp.property(DAVElement.dav, "getetag").map { trimmedXML($0.text) }
        if seen.insert(url.absoluteString).inserted { listing.cards.append((url, etag)) }
      }
      listing.syncToken = next
      if truncated, let next, next != current {
        current = next
        continue
      }
      return listing
    }
    throw CardDAVError(.protocolError, "REPORT sync-collection \(HTTPClientTransport.redacted(book)): no end to the pages")
  }

  func propfindListing(_ book: URL) throws(CardDAVError) -> Listing {
    let body = """
      <?xml version="1.0" encoding="utf-8"?>
      <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>
      """
    let r = try request("PROPFIND", book, depth: "1", body: body)
    let (responses, _) = try multistatus(r, "PROPFIND \(HTTPClientTransport.redacted(book))")
    var listing = Listing(cards: [], syncToken: nil)
    for resp in responses {
      guard let url = resolve(resp.href, against: book), url.path != book.path else { continue }
      if let type = resp.property(DAVElement.dav, "resourcetype"), !type.children.isEmpty { continue }  // a collection
      listing.cards.append((url, resp.property(DAVElement.dav, "getetag").map { trimmedXML($0.text) }))
    }
    return listing
  }

  /// A card's text with the CRLF line ends vCard has (RFC 6350, 3.2): an
  /// XML parser reads a CRLF in `address-data` as LF (XML 1.0, 2.11)
  /// unless the server wrote the CR as `&#13;`; a card without any CR got
  /// its CRs back so, and is the text that was stored. (Byte by byte, not a
  /// Foundation string replacement, which searches and copies the whole
  /// text as a `String`.)
  static func vCardLineEnds(_ text: String) -> Data {
    let u = text.utf8
    if u.contains(0x0D) { return Data(u) }
    var out = [UInt8]()
    out.reserveCapacity(u.count + u.count / 16)
    for b in u {
      if b == 0x0A { out.append(0x0D) }
      out.append(b)
    }
    return Data(out)
  }

  /// The cards at `urls` (of `book`), by addressbook-multiget in batches;
  /// a card deleted since it was listed is left out (it is gone).
  public func fetch(_ book: URL, _ urls: [URL]) throws(CardDAVError) -> [CardDAVCard] {
    var out: [CardDAVCard] = []
    out.reserveCapacity(urls.count)
    var start = 0
    while start < urls.count {
      let batch = Array(urls[start..<min(urls.count, start + batchSize)])
      start += batch.count
      out.append(contentsOf: try fetched(book, batch, startFetch(book, batch)))
    }
    return out
  }

  /// Sends the addressbook-multiget of one batch; ``fetched(_:_:_:)``
  /// waits for it. Sent before the batch before it is read, so that the
  /// server prepares one batch while the client reads the other.
  public func startFetch(_ book: URL, _ batch: [URL]) -> PendingResponse {
    var body = """
      <?xml version="1.0" encoding="utf-8"?>
      <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">
        <d:prop><d:getetag/><card:address-data/></d:prop>
      """
    for u in batch { body += "<d:href>\(Self.escape(Self.wirePath(u)))</d:href>" }
    body += "</card:addressbook-multiget>"
    return start("REPORT", book, headers: [("Depth", "1")], body: Data(body.utf8), contentType: "application/xml; charset=utf-8")
  }

  /// The cards of a batch sent by ``startFetch(_:_:)``, in the listing's order.
  public func fetched(_ book: URL, _ batch: [URL], _ pending: PendingResponse) throws(CardDAVError) -> [CardDAVCard] {
    let r = try checked(try pending.wait(), book)
    let (responses, _) = try multistatus(r, "REPORT addressbook-multiget \(HTTPClientTransport.redacted(book))")
    var byPath: [String: CardDAVCard] = [:]
    for resp in responses {
      guard let url = resolve(resp.href, against: book), resp.status != 404,
        let data = resp.property(DAVElement.carddav, "address-data")?.text
      else { continue }
      let etag = resp.property(DAVElement.dav, "getetag").map { trimmedXML($0.text) }
      byPath[url.path] = CardDAVCard(url: url, etag: etag, data: Self.vCardLineEnds(data))
    }
    var out: [CardDAVCard] = []
    out.reserveCapacity(batch.count)
    for u in batch { if let c = byPath[u.path] { out.append(c) } }
    return out
  }

  // MARK: Writing cards (the write-back, README "Live address books")

  /// A card's current text and ETag; status 404 when it is gone.
  public func get(_ url: URL) throws(CardDAVError) -> HTTPResponse {
    try request("GET", url, headers: [("Accept", "text/vcard")], body: nil, contentType: "")
  }

  /// Writes a card: `ifMatch` an ETag it must still have, or
  /// `ifNoneMatch` true to create it only where no card is.
  public func put(_ url: URL, _ text: String, ifMatch: String? = nil, ifNoneMatch: Bool = false) throws(CardDAVError)
    -> HTTPResponse
  {
    var headers: [(String, String)] = []
    if let ifMatch { headers.append(("If-Match", ifMatch)) }
    if ifNoneMatch { headers.append(("If-None-Match", "*")) }
    return try request("PUT", url, headers: headers, body: Data(text.utf8), contentType: "text/vcard; charset=utf-8")
  }

  /// Deletes a card only while it has the ETag `ifMatch`.
  public func delete(_ url: URL, ifMatch: String) throws(CardDAVError) -> HTTPResponse {
    try request("DELETE", url, headers: [("If-Match", ifMatch)], body: nil, contentType: "")
  }
}
