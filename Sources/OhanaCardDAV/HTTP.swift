import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

/// One HTTP request of the CardDAV client.
public struct HTTPRequest: Sendable {
  public var method: String
  public var url: URL
  public var headers: [(String, String)]
  public var body: Data?

  public init(method: String, url: URL, headers: [(String, String)] = [], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: [String: String]  // names lower-cased
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// Where requests go: a real server through ``HTTPClientTransport``, or a
/// fake one in tests (the cases a real server cannot be made to produce).
public protocol HTTPTransport: Sendable {
  func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse
  /// Sends a request and returns at once; the answer is waited for with
  /// ``PendingResponse/wait()`` (the client overlaps a batch's fetching
  /// with the reading of the one before). By default: sent and answered
  /// here.
  func start(_ request: HTTPRequest) -> PendingResponse
}

extension HTTPTransport {
  public func start(_ request: HTTPRequest) -> PendingResponse {
    let answer: Result<HTTPResponse, CardDAVError>
    do throws(CardDAVError) { answer = .success(try send(request)) } catch { answer = .failure(error) }
    return PendingResponse { () throws(CardDAVError) in try answer.get() }
  }
}

/// A request on its way.
public struct PendingResponse: Sendable {
  let answer: @Sendable () throws(CardDAVError) -> HTTPResponse

  public init(_ answer: @escaping @Sendable () throws(CardDAVError) -> HTTPResponse) { self.answer = answer }

  public func wait() throws(CardDAVError) -> HTTPResponse { try answer() }
}

/// What went wrong, in words a user can act on; never a contact value
/// and never a password.
public struct CardDAVError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable { case authentication, unavailable, protocolError, refused }
  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}

/// HTTP through swift-server's async-http-client (on SwiftNIO, TLS by
/// swift-nio-ssl's BoringSSL with the system's trust store, or only the
/// authorities of `--ca-file`). Chosen over FoundationNetworking's
/// URLSession, which costs no build time, because URLSession on Linux
/// (libcurl underneath) has no way to trust a private CA: its CA bundle
/// is fixed to the system's, and `URLSessionCertificateAuthorityInfoFile`
/// is read on Android only; measured in README "Live address books".
/// Redirects are not followed by the client: CardDAVClient follows them
/// itself, so that credentials never go to another origin. A 401 is
/// returned as it is (never answered from a credential store).
public final class HTTPClientTransport: HTTPTransport {
  private let client: HTTPClient
  private let timeout: TimeAmount

  /// `caFile`: a PEM file of the certificate authorities to trust instead
  /// of the system's (a private CA).
  public init(caFile: String? = nil, timeout: TimeInterval = 60) {
    var tls = TLSConfiguration.makeClientConfiguration()
    if let caFile { tls.trustRoots = .file(caFile) }
    self.timeout = .milliseconds(Int64(timeout * 1000))
    let configuration = HTTPClient.Configuration(
      tlsConfiguration: tls, redirectConfiguration: .disallow,
      timeout: .init(connect: .seconds(10), read: self.timeout), ignoreUncleanSSLShutdown: false)
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  deinit { try? client.syncShutdown() }

  public func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse { try start(request).wait() }

  public func start(_ request: HTTPRequest) -> PendingResponse {
    let what = "\(request.method) \(Self.redacted(request.url))"
    let future: EventLoopFuture<HTTPClient.Response>
    do {
      var headers = HTTPHeaders()
      for (name, value) in request.headers { headers.add(name: name, value: value) }
      let r = try HTTPClient.Request(
        url: request.url, method: .RAW(value: request.method), headers: headers, body: request.body.map { .bytes($0) })
      future = client.execute(request: r, deadline: .now() + timeout)
    } catch {
      let message = "\(what): \(Self.describe(error))"
      return PendingResponse { () throws(CardDAVError) in throw CardDAVError(.unavailable, message) }
    }
    return PendingResponse { () throws(CardDAVError) in
      do {
        let response = try future.wait()
        var out: [String: String] = [:]
        for (name, value) in response.headers { out[name.lowercased()] = value }
        return HTTPResponse(
          status: Int(response.status.code), headers: out, body: response.body.map { Data(buffer: $0) } ?? Data())
      } catch {
        throw CardDAVError(.unavailable, "\(what): \(Self.describe(error))")
      }
    }
  }

  /// An error of the HTTP or TLS layer in words.
  static func describe(_ error: any Error) -> String {
    if let e = error as? NIOSSLError { return "TLS: \(e)" }
    if let e = error as? BoringSSLError { return "TLS: \(e)" }
    if let e = error as? HTTPClientError { return "\(e)" }
    return String(describing: error)
  }

  /// A URL as logs show it: no user or password in it.
  public static func redacted(_ url: URL) -> String {
    guard var c = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(a URL)" }
    c.user = nil
    c.password = nil
    return c.string ?? "(a URL)"
  }
}
