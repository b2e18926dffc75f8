/// A reviewer's decision about who is the same person (issue 34): one line
/// of a decisions file, obeyed by every dedupe that is given it.
///
/// Two kinds say everything a review does:
/// - `same`: the contacts of `uids` are one person (confirm a cluster,
///   join two clusters). They are always in one cluster.
/// - `different`: no contact of `uids` is the same person as any of
///   `from` (take a member out, split a cluster in two). They are never
///   in one cluster, whatever their scores.
///
/// In a file (NDJSON, one decision a line):
/// `{"kind": "same", "uids": ["a", "b"]}` and
/// `{"kind": "different", "uids": ["a"], "from": ["b", "c"]}`, each with
/// an optional `"time"` and `"note"` (kept, not interpreted).
public struct DedupeDecision: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable {
    case same
    case different
  }

  public var kind: Kind
  public var uids: [String]
  /// For `different`: the other side. Empty for `same`.
  public var from: [String]
  public var time: String?
  public var note: String?
  /// The decision's 1-based line in its file; 0 when made in code.
  public var line: Int

  public init(kind: Kind, uids: [String], from: [String] = [], time: String? = nil, note: String? = nil, line: Int = 0) {
    self.kind = kind
    self.uids = uids
    self.from = from
    self.time = time
    self.note = note
    self.line = line
  }

  /// `uids` are one person.
  public static func same(_ uids: [String]) -> DedupeDecision { DedupeDecision(kind: .same, uids: uids) }
  /// No contact of `uids` is the same person as any of `from`.
  public static func different(_ uids: [String], from: [String]) -> DedupeDecision {
    DedupeDecision(kind: .different, uids: uids, from: from)
  }

  public var description: String {
    let where_ = line > 0 ? "line \(line): " : ""
    switch kind {
    case .same: return "\(where_)same \(uids.count) contacts"
    case .different: return "\(where_)different: \(uids.count) from \(from.count) contacts"
    }
  }
}
