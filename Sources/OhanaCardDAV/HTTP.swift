import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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

/// Where requests go: a real server through ``URLSessionTransport``, or a
/// fake one in tests (the cases a real server cannot be made to produce).
public protocol HTTPTransport: Sendable {
  func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse
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

/// HTTP through Foundation's URLSession (FoundationNetworking, which ships
/// with the Swift toolchain and runs on libcurl: HTTPS with the system's
/// trust store, any method). Chosen over async-http-client, which the
/// package mirror also has, because it costs no build time (async-http-
/// client and SwiftNIO add 2.5-4.5 minutes to a first build on 2 cores, on
/// every CI run) and the client's requests are sequential and small; see
/// README "Live address books". Redirects are not followed by the session:
/// the client follows them itself, so that credentials never go to
/// another origin.
public final class URLSessionTransport: NSObject, HTTPTransport, URLSessionTaskDelegate, @unchecked Sendable {
  // Safe: `session` is made once in init and URLSession is thread-safe;
  // `refused` is touched under `refusedLock`.
  private var session: URLSession!
  private let timeout: TimeInterval

  /// `caFile`: a PEM file of the certificate authorities to trust instead
  /// of the system's (a private CA).
  public init(caFile: String? = nil, timeout: TimeInterval = 60) {
    self.timeout = timeout
    super.init()
    if let caFile {
      // swift-corelibs-foundation hands this to libcurl's CURLOPT_CAINFO.
      setenv("URLSessionCertificateAuthorityInfoFile", caFile, 1)
    }
    let config = URLSessionConfiguration.ephemeral
    config.timeoutIntervalForRequest = timeout
    config.httpCookieStorage = nil
    config.urlCache = nil
    config.httpShouldSetCookies = false
    session = URLSession(configuration: config, delegate: self, delegateQueue: nil)
  }

  public func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  /// A 401 comes back as a response (the client reports it as a refused
  /// login, once): no credential is ever offered from a store or retried.
  /// (FoundationNetworking turns a 401 into a challenge: the task is
  /// cancelled and the 401 noted here, to be returned as the response.)
  public func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
    refusedLock.lock()
    refused[task.taskIdentifier] = status
    refusedLock.unlock()
    completionHandler(.cancelAuthenticationChallenge, nil)
  }

  private let refusedLock = NSLock()
  private var refused: [Int: Int] = [:]

  private final class Box: @unchecked Sendable {
    // Safe: written by the completion handler before the semaphore is
    // signalled, read after the wait.
    var data: Data?
    var response: URLResponse?
    var error: Error?
  }

  public func send(_ request: HTTPRequest) throws(CardDAVError) -> HTTPResponse {
    var r = URLRequest(url: request.url)
    r.httpMethod = request.method
    r.timeoutInterval = timeout
    for (name, value) in request.headers { r.setValue(value, forHTTPHeaderField: name) }
    r.httpBody = request.body
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let task = session.dataTask(with: r) { data, response, error in
      box.data = data
      box.response = response
      box.error = error
      done.signal()
    }
    task.resume()
    done.wait()
    refusedLock.lock()
    let refusal = refused.removeValue(forKey: task.taskIdentifier)
    refusedLock.unlock()
    if let refusal { return HTTPResponse(status: refusal) }
    if let error = box.error {
      throw CardDAVError(.unavailable, "\(request.method) \(Self.redacted(request.url)): \(error.localizedDescription)")
    }
    guard let http = box.response as? HTTPURLResponse else {
      throw CardDAVError(.unavailable, "\(request.method) \(Self.redacted(request.url)): no HTTP response")
    }
    var headers: [String: String] = [:]
    for (k, v) in http.allHeaderFields {
      if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: box.data ?? Data())
  }

  /// A URL as logs show it: no user or password in it.
  public static func redacted(_ url: URL) -> String {
    guard var c = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(a URL)" }
    c.user = nil
    c.password = nil
    return c.string ?? "(a URL)"
  }
}
