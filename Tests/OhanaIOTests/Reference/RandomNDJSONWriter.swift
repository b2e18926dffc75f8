/// Writes random NDJSON contact files: every JSON escape (`\" \\ \/ \b \f
/// \n \r \t \uXXXX`, surrogate pairs for characters beyond the BMP, raw
/// UTF-8), keys in shuffled order (sometimes escaped themselves), unknown
/// keys holding nested objects, arrays and numbers no machine type holds,
/// whitespace between tokens, LF or CR LF line ends, blank lines and a byte
/// order mark now and then.
///
/// Each line is first built as a ``ReferenceJSON`` tree, then printed with
/// random spelling; `value(_:)` gives the tree back for a self-check of the
/// reference parser.
struct RandomNDJSONWriter {
  var r: SplitMix64
  /// Which of `score` (ints) and `vip` (bools) now and then take a value of
  /// another type in this file: one or the other, by the seed's parity, so
  /// every pair of seeds has a file-wide int column, a file-wide bool column
  /// and one of them turned text by a few values (usually in some chunks
  /// only: the merge of chunks must give the same text).
  let mixScore: Bool

  init(seed: UInt64) {
    r = SplitMix64(seed: seed)
    mixScore = seed % 2 == 1
  }

  /// A value of any property type: an integer, a boolean, text or a number
  /// that is text.
  mutating func anyProperty() -> ReferenceJSON {
    switch r.below(4) {
    case 0: .number(String(Int64(r.below(200)) - 100))
    case 1: .bool(r.chance(0.5))
    case 2: r.chance(0.1) ? .string([]) : .string(text())
    default: .number(r.pick(Self.bigNumbers))
    }
  }

  static let attributeKeys = [
    "uid", "fullName", "givenName", "familyName", "middleName", "prefix", "suffix", "nickname", "organization",
    "department", "jobTitle", "birthday", "note",
  ]
  static let unknownKeys = ["FullName", "x-meta", "version", "_id", "emails", "sourceProvider", "", "fields2", "é"]
  static let numbers = [
    "123456789012345678901234567890", "1e400", "-0.0", "-0", "0", "3.14159", "2E+10", "-1e-10", "6.02214076e23",
    "9223372036854775808", "-9223372036854775809", "1E-400", "0.000000000000000000000000001",
  ]
  /// Numbers that are not Int64 integers: a property that holds only these is text.
  static let bigNumbers = [
    "123456789012345678901234567890", "1e400", "-0.0", "1.5", "-1E-7", "9223372036854775808",
    "-9223372036854775809", "0.0", "1e2",
  ]

  // MARK: Trees

  mutating func text() -> [UInt8] {
    var s = RandomText.text(&r)
    if r.chance(0.1) { s += r.pick(["\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{FEFF}"]) }
    return Array(s.utf8)
  }

  mutating func stringOrNull(empty: Double = 0.05, null: Double = 0.05) -> ReferenceJSON {
    if r.chance(null) { return .null }
    if r.chance(empty) { return .string([]) }
    return .string(text())
  }

  mutating func uid() -> ReferenceJSON {
    let hex = "0123456789abcdef"
    var u = String((0..<32).map { _ in hex.randomElement(using: &r) ?? "0" })
    for p in [8, 13, 18, 23] { u.insert("-", at: u.index(u.startIndex, offsetBy: p)) }
    switch r.below(6) {
    case 0: return .string(Array(u.utf8))
    case 1: return .string(Array(u.uppercased().utf8))
    case 2: return .string(Array(("urn:uuid:" + u).utf8))
    case 3: return .string(Array(("URN:UUID:" + u.uppercased()).utf8))
    case 4: return .string(Array(("urn:uuid:" + u.prefix(20).uppercased() + u.dropFirst(20)).utf8))
    default: return stringOrNull()
    }
  }

  /// Anything, for unknown keys: nested containers, big numbers, literals.
  mutating func junk(depth: Int = 0) -> ReferenceJSON {
    switch r.below(depth > 3 ? 4 : 6) {
    case 0: return .number(r.pick(Self.numbers))
    case 1: return .string(text())
    case 2: return r.pick([.bool(true), .bool(false), .null])
    case 3: return .number(String(Int64.random(in: Int64.min...Int64.max, using: &r)))
    case 4: return .array((0..<r.below(4)).map { _ in junk(depth: depth + 1) })
    default:
      var keys = Set<String>()
      var members: [(key: [UInt8], value: ReferenceJSON)] = []
      for _ in 0..<r.below(4) {
        let k = r.pick(["a", "b", "fields", "value", "type", "日本", "big", "n"])
        if keys.insert(k).inserted { members.append((Array(k.utf8), junk(depth: depth + 1))) }
      }
      return .object(members)
    }
  }

  mutating func object(_ pairs: [(String, ReferenceJSON)]) -> ReferenceJSON {
    var p = pairs
    p.shuffle(using: &r)
    return .object(p.map { (Array($0.0.utf8), $0.1) })
  }

  mutating func field() -> ReferenceJSON {
    var m: [(String, ReferenceJSON)] = []
    if r.chance(0.9) {
      m.append(("type", r.chance(0.05) ? .null : .string(Array(r.pick(["phone", "email", "url", "impp", "other", "tel", "PHONE", "Email"]).utf8))))
    }
    if r.chance(0.6) { m.append(("label", stringOrNull())) }
    if r.chance(0.95) { m.append(("value", stringOrNull())) }
    if r.chance(0.2) { m.append(("group", stringOrNull())) }
    if r.chance(0.2) { m.append(("parameters", .string(Array(r.pick(["TYPE=CELL", "TYPE=\"home,voice\"", "PREF=1"]).utf8)))) }
    if r.chance(0.15) { m.append(("properties", .object([(Array("phone.e164".utf8), .string(Array("+1555".utf8)))]))) }
    if r.chance(0.1) { m.append(("x", junk())) }
    return object(m)
  }

  mutating func address() -> ReferenceJSON {
    var m: [(String, ReferenceJSON)] = []
    for k in ["label", "street", "locality", "region", "postalCode", "country", "poBox", "extended", "group", "parameters"]
    where r.chance(0.4) {
      m.append((k, stringOrNull()))
    }
    if r.chance(0.1) { m.append(("Street", junk())) }
    return object(m)
  }

  mutating func extra() -> ReferenceJSON {
    var m: [(String, ReferenceJSON)] = [("name", .string(Array(r.pick(["X-FOO", "X-ÄÖ", "NOTE", "X-😀"]).utf8)))]
    if r.chance(0.3) { m.append(("group", stringOrNull())) }
    if r.chance(0.3) { m.append(("parameters", stringOrNull())) }
    if r.chance(0.9) { m.append(("value", stringOrNull())) }
    if r.chance(0.1) { m.append(("other", junk())) }
    return object(m)
  }

  static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func base64(_ d: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    while i < d.count {
      let n = min(3, d.count - i)
      let v = (UInt32(d[i]) << 16) | (n > 1 ? UInt32(d[i + 1]) << 8 : 0) | (n > 2 ? UInt32(d[i + 2]) : 0)
      for k in 0..<4 {
        out.append(k <= n ? base64Alphabet[Int((v >> (18 - 6 * UInt32(k))) & 63)] : UInt8(ascii: "="))
      }
      i += 3
    }
    return out
  }

  mutating func contact() -> ReferenceJSON {
    var m: [(String, ReferenceJSON)] = []
    for k in Self.attributeKeys where r.chance(0.4) { m.append((k, k == "uid" ? uid() : stringOrNull())) }
    if r.chance(0.7) { m.append(("fields", .array((0..<r.below(5)).map { _ in field() }))) }
    if r.chance(0.4) { m.append(("addresses", .array((0..<r.below(3)).map { _ in address() }))) }
    if r.chance(0.2) { m.append(("extras", .array((0..<r.below(3)).map { _ in extra() }))) }
    if r.chance(0.15) {
      if r.chance(0.2) {
        m.append(("photo", .null))
      } else {
        let data = (0..<r.below(40)).map { _ in UInt8.random(in: 0...255, using: &r) }
        var p: [(String, ReferenceJSON)] = [("data", .string(Self.base64(data)))]
        if r.chance(0.7) { p.append(("mediaType", .string(Array(r.pick(["image/jpeg", "image/png"]).utf8)))) }
        m.append(("photo", object(p)))
      }
    }
    if r.chance(0.2) {
      m.append(("tags", .array((0..<r.below(4)).map { _ in .string(Array(r.pick(["vip", "friend", "ünïcödé", "家族", "😀", "a\"b"]).utf8)) })))
    }
    if r.chance(0.3) {
      var p: [(String, ReferenceJSON)] = []
      if r.chance(0.5) {
        let n: Int64 = r.chance(0.2) ? r.pick([Int64.min, Int64.max, 0, -1]) : Int64(r.below(2000)) - 1000
        let other = mixScore && r.chance(0.02)
        p.append(("score", other ? anyProperty() : .number(r.chance(0.05) && n == 0 ? "-0" : String(n))))
      }
      if r.chance(0.5) { p.append(("vip", !mixScore && r.chance(0.02) ? anyProperty() : .bool(r.chance(0.5)))) }
      if r.chance(0.5) {
        p.append(("nick", r.chance(0.1) ? anyProperty() : r.chance(0.1) ? .string([]) : .string(text())))
      }
      if r.chance(0.3) { p.append(("big", .number(r.pick(Self.bigNumbers)))) }
      // Any type on every value: text over the file, each chunk typed its own way.
      if r.chance(0.2) { p.append(("mixed", anyProperty())) }
      if r.chance(0.2) { p.append(("nothing", .null)) }
      // Values a property drops.
      if r.chance(0.2) { p.append(("nested", r.chance(0.3) ? .null : .array([junk()]))) }
      if r.chance(0.2) { p.append(("object", .object([(Array("k".utf8), junk())]))) }
      m.append(("properties", object(p)))
    }
    var used = Set(m.map(\.0))
    for k in Self.unknownKeys where r.chance(0.1) && used.insert(k).inserted { m.append((k, junk())) }
    return object(m)
  }

  // MARK: Printing

  mutating func space() -> [UInt8] {
    r.chance(0.8) ? [] : Array(r.pick([" ", "\t", "\r", "  ", " \t "]).utf8)
  }

  static let hexDigits = Array("0123456789abcdef".utf8)

  mutating func escapeU(_ v: UInt32, into out: inout [UInt8]) {
    out += Array("\\u".utf8)
    let upper = r.chance(0.3)
    for shift in stride(from: 12, through: 0, by: -4) {
      var d = Self.hexDigits[Int((v >> UInt32(shift)) & 15)]
      if upper && d >= UInt8(ascii: "a") { d -= 32 }
      out.append(d)
    }
  }

  /// A string token: each scalar raw or escaped, at random.
  mutating func printString(_ bytes: [UInt8], into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      let v = u.value
      let short: [UInt32: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x2F: "\\/", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"]
      let mustEscape = v < 0x20 || v == 0x22 || v == 0x5C
      if let s = short[v], mustEscape || r.chance(0.5) {
        if r.chance(0.8) { out += Array(s.utf8) } else { escapeU(v, into: &out) }
      } else if mustEscape || r.chance(0.1) {
        if v > 0xFFFF {
          let x = v - 0x10000
          escapeU(0xD800 + (x >> 10), into: &out)
          escapeU(0xDC00 + (x & 0x3FF), into: &out)
        } else {
          escapeU(v, into: &out)
        }
      } else {
        out += Array(String(Character(u)).utf8)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  mutating func print(_ v: ReferenceJSON, into out: inout [UInt8]) {
    switch v {
    case .null: out += Array("null".utf8)
    case .bool(let b): out += Array((b ? "true" : "false").utf8)
    case .number(let t): out += Array(t.utf8)
    case .string(let s): printString(s, into: &out)
    case .array(let a):
      out.append(UInt8(ascii: "["))
      out += space()
      for (k, e) in a.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")); out += space() }
        print(e, into: &out)
        out += space()
      }
      out.append(UInt8(ascii: "]"))
    case .object(let m):
      out.append(UInt8(ascii: "{"))
      out += space()
      for (k, (key, value)) in m.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")); out += space() }
        printString(key, into: &out)
        out += space()
        out.append(UInt8(ascii: ":"))
        out += space()
        print(value, into: &out)
        out += space()
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A file of `records` lines (plus blank ones); also the trees, in order.
  /// `bom` nil: a byte order mark 30% of the time.
  mutating func file(records: Int, bom: Bool? = nil) -> (bytes: [UInt8], trees: [ReferenceJSON]) {
    let crlf = r.chance(0.3)
    var out: [UInt8] = (bom ?? r.chance(0.3)) ? [0xEF, 0xBB, 0xBF] : []
    var trees: [ReferenceJSON] = []
    for k in 0..<records {
      if r.chance(0.02) { out += Array(r.pick(["", " ", "\t", "\r", " \r"]).utf8) + [0x0A] }
      let t = contact()
      trees.append(t)
      out += space()
      print(t, into: &out)
      out += space()
      if k < records - 1 || r.chance(0.8) { out += crlf ? [0x0D, 0x0A] : [0x0A] }
    }
    return (out, trees)
  }
}
