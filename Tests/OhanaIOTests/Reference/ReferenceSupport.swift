import OhanaCore

/// SplitMix64: a small seeded generator, so a failing seed replays exactly
/// on any machine (the standard library's generator is not seedable).
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
  mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
}

/// Random contact-like text with the characters that trip parsers.
enum RandomText {
  static let words = [
    "Ada", "Lovelace", "O'Brien", "Smith-Jones", "van der Berg", "Mr.", "Jr.", "Acme Inc.", "+1 555 0100",
    "ada@example.com", "https://example.org/a?b=c&d", "12 Main St", "Springfield", "62701", "x",
  ]
  static let foreign = [
    "José", "Zoë", "Ærøskøbing", "Müller", "François", "Łódź", "Ελένη", "Дмитрий", "山田", "太郎", "北京市",
    "김민준", "עברית", "مرحبا", "ﬁ", "e\u{301}",
  ]
  static let emoji = ["😀", "👩‍💻", "🇩🇪", "❤️", "🎉", "𝄞", "🏳️‍🌈"]
  static let punctuation = [",", "\"", ";", "\\", ":", "^", "'", "/", "&", "<", ">", "=", "#", "%", "*", "-"]
  static let breaks = ["\n", "\r\n", "\r"]

  /// A non-empty text: words, foreign scripts, emoji, punctuation; line
  /// breaks and tabs when `breaks`; sometimes padded with spaces.
  static func text(_ r: inout SplitMix64, breaks allowBreaks: Bool = true) -> String {
    var s = ""
    for k in 0..<(1 + r.below(4)) {
      if k > 0 { s += r.chance(0.8) ? " " : "" }
      switch r.below(10) {
      case 0...3: s += r.pick(words)
      case 4, 5: s += r.pick(foreign)
      case 6: s += r.pick(emoji)
      case 7, 8: s += r.pick(punctuation)
      default: s += allowBreaks ? r.pick(breaks + ["\t"]) : r.pick(words)
      }
    }
    if r.chance(0.1) { s = " " + s }
    if r.chance(0.1) { s += "  " }
    return s
  }
}

/// Field-by-field differences between two contact lists, one line each:
/// record index, source line, property and both values.
enum ContactDiff {
  static func show(_ s: String?) -> String { s.map { $0.debugDescription } ?? "nil" }

  /// A property value as bytes with its type, for byte-exact comparison.
  static func bytes(_ v: PropertyValue?) -> [UInt8]? {
    switch v {
    case .none: nil
    case .string(let s): [0] + Array(s.utf8)
    case .int(let n): [1] + Array(String(n).utf8)
    case .bool(let b): [2, b ? 1 : 0]
    }
  }

  static func differences(fast: [Contact], reference: [Contact]) -> [String] {
    var out: [String] = []
    if fast.count != reference.count {
      out.append("contact count: fast=\(fast.count) reference=\(reference.count)")
    }
    for (i, (f, r)) in zip(fast, reference).enumerated() {
      let at = "record \(i) (reference line \(r.sourceLine))"
      func check(_ what: String, _ a: String?, _ b: String?) {
        // Bytes, not String ==, which would equate canonically equivalent text.
        if a.map({ Array($0.utf8) }) != b.map({ Array($0.utf8) }) { out.append("\(at): \(what): fast=\(show(a)) reference=\(show(b))") }
      }
      if f.sourceLine != r.sourceLine { out.append("\(at): sourceLine: fast=\(f.sourceLine) reference=\(r.sourceLine)") }
      for a in ContactAttribute.allCases { check(a.name, f[a], r[a]) }
      if f.photo != r.photo {
        out.append("\(at): photo: fast=\(String(describing: f.photo)) reference=\(String(describing: r.photo))")
      }
      if f.fields.count != r.fields.count {
        out.append("\(at): field count: fast=\(f.fields.count) reference=\(r.fields.count)")
      }
      for (k, (a, b)) in zip(f.fields, r.fields).enumerated() {
        if a.kind != b.kind { out.append("\(at): field \(k) kind: fast=\(a.kind) reference=\(b.kind)") }
        check("field \(k) label", a.label, b.label)
        check("field \(k) value", a.value, b.value)
        check("field \(k) group", a.group, b.group)
        check("field \(k) parameters", a.parameters, b.parameters)
      }
      if f.addresses.count != r.addresses.count {
        out.append("\(at): address count: fast=\(f.addresses.count) reference=\(r.addresses.count)")
      }
      for (k, (a, b)) in zip(f.addresses, r.addresses).enumerated() {
        for p in AddressAttribute.allCases { check("address \(k) \(p)", a[p], b[p]) }
      }
      if f.extras.count != r.extras.count {
        out.append("\(at): extra count: fast=\(f.extras.count) reference=\(r.extras.count)")
      }
      for (k, (a, b)) in zip(f.extras, r.extras).enumerated() {
        check("extra \(k) name", a.name, b.name)
        check("extra \(k) group", a.group, b.group)
        check("extra \(k) parameters", a.parameters, b.parameters)
        check("extra \(k) value", a.value, b.value)
      }
      for name in Set(f.properties.keys).union(r.properties.keys).sorted() where bytes(f.properties[name]) != bytes(r.properties[name]) {
        out.append(
          "\(at): property \(name.debugDescription): fast=\(String(describing: f.properties[name])) "
            + "reference=\(String(describing: r.properties[name]))")
      }
      if f.tags.map({ Array($0.utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) })
        != r.tags.map({ Array($0.utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) })
      { out.append("\(at): tags: fast=\(f.tags.sorted()) reference=\(r.tags.sorted())") }
    }
    return out
  }
}
