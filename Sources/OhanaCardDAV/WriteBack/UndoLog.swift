import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The write-back's journal (`--undo-log`, NDJSON): before the first
/// request, the full original text of every card the plan touches; then
/// each request's intent before it is sent and its outcome after, each
/// line flushed to disk (fsync) before the run goes on. A run killed at
/// any point can so be resumed (`--apply` again with the same log) or
/// undone (`--undo`).
///
/// Kinds: `start` (the plan's SHA-256 and book), `original` (href, role
/// survivor/delete/group, planned ETag, text), `intent` and `outcome`
/// (op PUT/DELETE/GET, href, status, the ETag the server gave), `verified`
/// (the survivor read back: its ETag, `result` same or rewritten),
/// `cluster` (a cluster's result), `undone` (a card restored or refused).
public struct UndoEntry: Codable, Sendable {
  public var kind: String
  public var plan: String? = nil
  public var book: String? = nil
  public var time: String? = nil
  public var cluster: Int? = nil
  public var role: String? = nil
  public var op: String? = nil
  public var href: String? = nil
  public var etag: String? = nil
  /// The SHA-256 of the text a PUT sends.
  public var sha256: String? = nil
  public var text: String? = nil
  public var status: Int? = nil
  public var result: String? = nil
  public var detail: String? = nil

  public init(kind: String) { self.kind = kind }
}

/// An undo log open for appending; every line reaches the disk before
/// `append` returns.
public final class UndoLog: @unchecked Sendable {
  // Safe: one thread writes a log (the write-back is sequential).
  private let fd: Int32
  public let path: String
  private let encoder: JSONEncoder = {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return e
  }()

  public init(path: String) throws(CardDAVError) {
    self.path = path
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    if fd < 0 {
      throw CardDAVError(.refused, "\(path): cannot open the undo log (\(String(cString: strerror(errno))))")
    }
  }

  deinit { close(fd) }

  public func append(_ entries: [UndoEntry]) throws(CardDAVError) {
    var bytes: [UInt8] = []
    for e in entries {
      guard let line = try? encoder.encode(e) else { continue }
      bytes.append(contentsOf: line)
      bytes.append(0x0A)
    }
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
      if n < 0 {
        if errno == EINTR { continue }
        throw CardDAVError(.refused, "\(path): cannot write the undo log (\(String(cString: strerror(errno)))); stopped before the next request")
      }
      done += n
    }
    if fsync(fd) != 0 {
      throw CardDAVError(.refused, "\(path): cannot flush the undo log to disk (\(String(cString: strerror(errno)))); stopped before the next request")
    }
  }

  public func append(_ entry: UndoEntry) throws(CardDAVError) { try append([entry]) }

  /// The entries of a log; a last line cut short by a killed run is left
  /// out (`torn` says so); any other line that does not read is an error.
  public static func read(_ path: String) throws(CardDAVError) -> (entries: [UndoEntry], torn: Bool) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CardDAVError(.refused, "\(path): cannot read the undo log")
    }
    let d = JSONDecoder()
    var entries: [UndoEntry] = []
    let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
    var torn = false
    for (i, line) in lines.enumerated() where !line.isEmpty {
      if let e = try? d.decode(UndoEntry.self, from: Data(line)) {
        entries.append(e)
      } else if i == lines.count - 1 {
        torn = true
      } else {
        throw CardDAVError(.refused, "\(path): line \(i + 1) is not an undo log entry")
      }
    }
    return (entries, torn)
  }
}
