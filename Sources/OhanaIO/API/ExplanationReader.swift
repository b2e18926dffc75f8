import OhanaCore

/// One line of `ohana dedupe --explain`: an accepted pair and its evidence
/// (see `DedupeResult.writeExplanation`), as the review page reads it back.
public struct ExplainedPair: Sendable, Equatable {
  public var a: String
  public var b: String
  public var cluster: String?
  public var weight: Double
  /// The shared blocking keys, in the file's order.
  public var keys: [String]
  /// Each comparison's level name, in the file's order: the model's
  /// (`levels`), then the table's other columns compared (`columns`).
  public var levels: [(comparison: String, level: String)]
  /// Each comparison's weight, when the file says how the weight was
  /// built (`parts`, then `column_parts`).
  public var parts: [(comparison: String, weight: Double)]
  /// The name-frequency adjustment (`weight = Σ parts + adjust`), if given.
  public var adjust: Double?
  /// log2 of the prior odds of a match, if given.
  public var prior: Double?
  /// The line in the file (1-based).
  public var line: Int

  public static func == (l: ExplainedPair, r: ExplainedPair) -> Bool {
    l.a == r.a && l.b == r.b && l.cluster == r.cluster && l.weight == r.weight && l.keys == r.keys
      && l.levels.elementsEqual(r.levels, by: { $0 == $1 }) && l.parts.elementsEqual(r.parts, by: { $0 == $1 })
      && l.adjust == r.adjust && l.prior == r.prior && l.line == r.line
  }

  /// The model's own comparisons (`levels` and `parts` keys).
  public static let builtIn: Set<String> = ["given", "family", "phone", "email", "birthday", "address"]

  /// The name a table's other column (`columns`, `column_parts`) takes
  /// among the comparisons: its own, or `column NAME` when a built-in
  /// comparison bears that name.
  public static func comparisonName(ofColumn name: String) -> String {
    builtIn.contains(name) ? "column " + name : name
  }

  /// The pairs of an `--explain` file, in file order. A line that is not
  /// a pair (not JSON, no `a`, `b` or `weight`, a value of the wrong type)
  /// is reported with its line and reason and skipped; blank lines are
  /// skipped silently; unknown keys are ignored. Reasons name no uid.
  public static func read(ndjson bytes: [UInt8]) -> (pairs: [ExplainedPair], errors: [InputError]) {
    JSONScanner.lines(bytes) { range, line throws(JSONScanner.Failure) in try parse(bytes, range, line: line) }
  }

  private static func parse(_ bytes: [UInt8], _ range: Range<Int>, line: Int) throws(JSONScanner.Failure) -> ExplainedPair {
    var s = JSONScanner(bytes, range: range)
    guard try s.peekKind() == .object else { throw .init(reason: "a pair is a JSON object") }
    try s.beginObject()
    var key: [UInt8] = []
    var a: String? = nil, b: String? = nil, cluster: String? = nil
    var weight: Double? = nil, adjust: Double? = nil, prior: Double? = nil
    var keys: [String] = []
    var levels: [(String, String)] = []
    var parts: [(String, Double)] = []
    func string(_ s: inout JSONScanner, _ what: String) throws(JSONScanner.Failure) -> String {
      guard try s.peekKind() == .string else { throw .init(reason: "\"\(what)\" is not a string") }
      var t: [UInt8] = []
      try s.readString(into: &t)
      return String(decoding: t, as: UTF8.self)
    }
    func number(_ s: inout JSONScanner, _ what: String) throws(JSONScanner.Failure) -> Double {
      guard try s.peekKind() == .number else { throw .init(reason: "\"\(what)\" is not a number") }
      let digits = try s.readNumber()
      guard let v = Double(String(decoding: digits, as: UTF8.self)) else {
        throw .init(reason: "\"\(what)\" is not a number")
      }
      return v
    }
    while try s.nextKey(into: &key) {
      switch String(decoding: key, as: UTF8.self) {
      case "a": a = try string(&s, "a")
      case "b": b = try string(&s, "b")
      case "cluster": cluster = try string(&s, "cluster")
      case "weight": weight = try number(&s, "weight")
      case "adjust": adjust = try number(&s, "adjust")
      case "prior": prior = try number(&s, "prior")
      case "keys":
        guard try s.peekKind() == .array else { throw .init(reason: "\"keys\" is not an array of strings") }
        try s.beginArray()
        while try s.nextElement() { keys.append(try string(&s, "keys")) }
      case "levels", "parts", "columns", "column_parts":
        let what = String(decoding: key, as: UTF8.self)
        let isLevels = what == "levels" || what == "columns"
        guard try s.peekKind() == .object else { throw .init(reason: "\"\(what)\" is not an object") }
        try s.beginObject()
        var name: [UInt8] = []
        while try s.nextKey(into: &name) {
          var n = String(decoding: name, as: UTF8.self)
          if what.hasPrefix("column") { n = Self.comparisonName(ofColumn: n) }
          if isLevels { levels.append((n, try string(&s, what))) } else { parts.append((n, try number(&s, what))) }
        }
      default:
        try s.skipValue()
      }
    }
    try s.finish()
    guard let a, let b else { throw .init(reason: "a pair names \"a\" and \"b\"") }
    guard let weight else { throw .init(reason: "a pair has a \"weight\"") }
    return ExplainedPair(
      a: a, b: b, cluster: cluster, weight: weight, keys: keys, levels: levels, parts: parts, adjust: adjust,
      prior: prior, line: line)
  }
}
