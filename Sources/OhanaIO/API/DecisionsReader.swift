import OhanaCore

extension DedupeDecision {
  /// The decision as one line of a decisions file (no line end), which
  /// ``read(ndjson:)`` reads back as the same decision (but its line).
  public var ndjsonLine: String {
    var out: [UInt8] = []
    func strings(_ list: [String]) {
      out.append(UInt8(ascii: "["))
      for (i, u) in list.enumerated() {
        if i > 0 { out.append(ASCII.comma) }
        JSONWriter.string(Array(u.utf8), into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    out.append(contentsOf: "{\"kind\":\"\(kind.rawValue)\",\"uids\":".utf8)
    strings(uids)
    if kind == .different {
      out.append(contentsOf: ",\"from\":".utf8)
      strings(from)
    }
    if let time {
      out.append(contentsOf: ",\"time\":".utf8)
      JSONWriter.string(Array(time.utf8), into: &out)
    }
    if let note {
      out.append(contentsOf: ",\"note\":".utf8)
      JSONWriter.string(Array(note.utf8), into: &out)
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  /// The decisions of a decisions file (NDJSON, see ``DedupeDecision``),
  /// in file order. A line that is not a decision (not JSON, an unknown
  /// `kind`, a `same` with fewer than two uids, a `different` without
  /// both sides, a uid on both sides) is reported with its line and reason
  /// and skipped; blank lines are skipped silently. Unknown keys are
  /// ignored, so a later version can add some. No uid is ever put in a
  /// reason (they may be personal data).
  public static func read(ndjson bytes: [UInt8]) -> (decisions: [DedupeDecision], errors: [InputError]) {
    JSONScanner.lines(bytes) { range, line throws(JSONScanner.Failure) in try parse(bytes, range, line: line) }
  }

  private static func parse(_ bytes: [UInt8], _ range: Range<Int>, line: Int) throws(JSONScanner.Failure) -> DedupeDecision {
    var s = JSONScanner(bytes, range: range)
    guard try s.peekKind() == .object else { throw .init(reason: "a decision is a JSON object") }
    try s.beginObject()
    var key: [UInt8] = []
    var text: [UInt8] = []
    var kind: Kind? = nil
    var uids: [String]? = nil
    var from: [String]? = nil
    var time: String? = nil
    var note: String? = nil
    func strings(_ s: inout JSONScanner, _ what: String) throws(JSONScanner.Failure) -> [String] {
      guard try s.peekKind() == .array else { throw .init(reason: "\"\(what)\" is not an array of strings") }
      try s.beginArray()
      var out: [String] = []
      var t: [UInt8] = []
      while try s.nextElement() {
        guard try s.peekKind() == .string else { throw .init(reason: "\"\(what)\" is not an array of strings") }
        t.removeAll(keepingCapacity: true)
        try s.readString(into: &t)
        out.append(String(decoding: t, as: UTF8.self))
      }
      return out
    }
    while try s.nextKey(into: &key) {
      switch String(decoding: key, as: UTF8.self) {
      case "kind":
        guard try s.peekKind() == .string else { throw .init(reason: "\"kind\" is not a string") }
        text.removeAll(keepingCapacity: true)
        try s.readString(into: &text)
        guard let k = Kind(rawValue: String(decoding: text, as: UTF8.self)) else {
          throw .init(reason: "unknown kind (\"same\" or \"different\")")
        }
        kind = k
      case "uids": uids = try strings(&s, "uids")
      case "from": from = try strings(&s, "from")
      case "time", "note":
        let isTime = key == Array("time".utf8)
        text.removeAll(keepingCapacity: true)
        let k = try s.peekKind()
        guard k == .string || k == .null else {
          throw .init(reason: "\"\(isTime ? "time" : "note")\" is not a string")
        }
        if try s.readStringOrNull(into: &text) {
          if isTime { time = String(decoding: text, as: UTF8.self) } else { note = String(decoding: text, as: UTF8.self) }
        }
      default:
        try s.skipValue()
      }
    }
    try s.finish()
    guard let kind else { throw .init(reason: "no \"kind\"") }
    let a = uids ?? []
    switch kind {
    case .same:
      guard Set(a).count >= 2 else { throw .init(reason: "a \"same\" decision names at least two uids") }
      return DedupeDecision(kind: .same, uids: a, time: time, note: note, line: line)
    case .different:
      let b = from ?? []
      guard !a.isEmpty, !b.isEmpty else { throw .init(reason: "a \"different\" decision names \"uids\" and \"from\"") }
      guard Set(a).isDisjoint(with: b) else { throw .init(reason: "a uid is on both sides of a \"different\" decision") }
      return DedupeDecision(kind: .different, uids: a, from: b, time: time, note: note, line: line)
    }
  }
}
