import Foundation
import OhanaCore

/// A JSON value, parsed whole (RFC 8259). Object members keep their order
/// and duplicates; strings are decoded UTF-8 bytes; numbers keep their text.
indirect enum ReferenceJSON: Equatable {
  case object([(key: [UInt8], value: ReferenceJSON)])
  case array([ReferenceJSON])
  case string([UInt8])
  case number(String)
  case bool(Bool)
  case null

  static func == (a: ReferenceJSON, b: ReferenceJSON) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.array(let x), .array(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.null, .null): return true
    default: return false
    }
  }
}

/// A recursive-descent JSON parser written for clarity, not speed (no code
/// shared with OhanaIO's `JSONScanner`). Nesting deeper than `maxDepth`
/// containers is refused, as the fast reader documents (64).
struct ReferenceJSONParser {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let bytes: [UInt8]
  var i = 0
  var depth = 0
  let maxDepth: Int

  init(_ bytes: [UInt8], maxDepth: Int = 64) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// Parses one JSON text: a value with optional whitespace around it.
  static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(Failure) -> ReferenceJSON {
    var p = ReferenceJSONParser(bytes, maxDepth: maxDepth)
    p.skipWhitespace()
    let v = try p.value()
    p.skipWhitespace()
    guard p.i == bytes.count else { throw Failure(description: "text after the value") }
    return v
  }

  var current: UInt8? { i < bytes.count ? bytes[i] : nil }

  /// RFC 8259 whitespace: space, tab, LF, CR.
  mutating func skipWhitespace() {
    while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 }
  }

  mutating func expect(_ c: Character) throws(Failure) {
    guard let b = current, b == c.asciiValue else { throw Failure(description: "expected \(c) at \(i)") }
    i += 1
  }

  mutating func value() throws(Failure) -> ReferenceJSON {
    guard let b = current else { throw Failure(description: "missing value at \(i)") }
    switch b {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try word("true"); return .bool(true)
    case UInt8(ascii: "f"): try word("false"); return .bool(false)
    case UInt8(ascii: "n"): try word("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw Failure(description: "unexpected byte \(b) at \(i)")
    }
  }

  mutating func word(_ w: String) throws(Failure) {
    for c in w.utf8 {
      guard current == c else { throw Failure(description: "bad literal at \(i)") }
      i += 1
    }
  }

  mutating func enter() throws(Failure) {
    depth += 1
    if depth > maxDepth { throw Failure(description: "nested too deeply") }
  }

  mutating func object() throws(Failure) -> ReferenceJSON {
    try expect("{")
    try enter()
    var members: [(key: [UInt8], value: ReferenceJSON)] = []
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw Failure(description: "expected a key at \(i)") }
      let key = try string()
      skipWhitespace()
      try expect(":")
      skipWhitespace()
      let v = try value()
      members.append((key, v))
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        i += 1
        continue
      }
      try expect("}")
      depth -= 1
      return .object(members)
    }
  }

  mutating func array() throws(Failure) -> ReferenceJSON {
    try expect("[")
    try enter()
    var elements: [ReferenceJSON] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value())
      skipWhitespace()
      if current == UInt8(ascii: ",") {
        i += 1
        continue
      }
      try expect("]")
      depth -= 1
      return .array(elements)
    }
  }

  static func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as text.
  mutating func number() throws(Failure) -> String {
    let start = i
    if current == UInt8(ascii: "-") { i += 1 }
    if current == UInt8(ascii: "0") {
      i += 1
    } else if Self.isDigit(current) {
      while Self.isDigit(current) { i += 1 }
    } else {
      throw Failure(description: "bad number at \(start)")
    }
    if current == UInt8(ascii: ".") {
      i += 1
      guard Self.isDigit(current) else { throw Failure(description: "bad fraction at \(start)") }
      while Self.isDigit(current) { i += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      i += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
      guard Self.isDigit(current) else { throw Failure(description: "bad exponent at \(start)") }
      while Self.isDigit(current) { i += 1 }
    }
    return String(decoding: bytes[start..<i], as: UTF8.self)
  }

  mutating func hex4() throws(Failure) -> UInt32 {
    var v: UInt32 = 0
    for _ in 0..<4 {
      guard let b = current else { throw Failure(description: "short \\u escape") }
      let d: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
      default: throw Failure(description: "bad hex digit in \\u escape")
      }
      v = v * 16 + d
      i += 1
    }
    return v
  }

  /// A string token, decoded to UTF-8 bytes.
  mutating func string() throws(Failure) -> [UInt8] {
    try expect("\"")
    var out: [UInt8] = []
    while true {
      guard let b = current else { throw Failure(description: "unterminated string") }
      i += 1
      if b == UInt8(ascii: "\"") { return out }
      if b < 0x20 { throw Failure(description: "raw control character in a string") }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        continue
      }
      guard let e = current else { throw Failure(description: "unterminated escape") }
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        let first = try hex4()
        var scalar = first
        if first >= 0xD800 && first <= 0xDBFF {
          // A high surrogate must be followed by an escaped low surrogate.
          guard current == UInt8(ascii: "\\") else { throw Failure(description: "lone high surrogate") }
          i += 1
          guard current == UInt8(ascii: "u") else { throw Failure(description: "lone high surrogate") }
          i += 1
          let second = try hex4()
          guard second >= 0xDC00 && second <= 0xDFFF else { throw Failure(description: "high surrogate without low") }
          scalar = 0x10000 + (first - 0xD800) * 0x400 + (second - 0xDC00)
        } else if first >= 0xDC00 && first <= 0xDFFF {
          throw Failure(description: "lone low surrogate")
        }
        guard let u = Unicode.Scalar(scalar) else { throw Failure(description: "bad scalar") }
        out.append(contentsOf: Array(String(Character(u)).utf8))
      default:
        throw Failure(description: "bad escape \\\(Character(Unicode.Scalar(e)))")
      }
    }
  }
}

/// An NDJSON reader written for clarity, not speed: an oracle for
/// `NDJSONReader`. Each line is parsed whole with ``ReferenceJSONParser``,
/// then mapped to a `Contact` by the keys `NDJSONWriter` documents.
///
/// Rules taken from the fast reader's documentation and writer:
/// - A UTF-8 byte order mark at the start is dropped. Lines end at LF; a line
///   of blanks (space, tab, CR) is skipped; any other line that is not a
///   JSON object with the documented shape fails alone (1-based line number).
/// - Attribute keys take a string or null (null leaves the value as it was;
///   an empty string is no value; a later key wins). `fields`, `addresses`,
///   `extras`, `tags` take arrays, `photo` an object or null, `properties` an
///   object. Unknown keys (anywhere) are ignored.
/// - A field `type` must be a known kind (`phone` / `tel`, `email`, `url`,
///   `impp`, `other`, any case; missing: other); an extra needs a name; photo
///   data must be base64.
/// - `properties` values: an integer that fits Int64 is an int, true / false
///   a bool, a string a string, any other number its text; null, objects and
///   arrays are dropped. A property name whose values are not all ints (or
///   all bools) over the file is a string column: ints and bools become
///   their text, an empty string no value.
struct ReferenceNDJSONReader {
  struct Output {
    var contacts: [Contact] = []
    var errors: [(line: Int, reason: String)] = []
  }

  struct LineFailure: Error {
    var reason: String
  }

  static let attributeKeys: [String: ContactAttribute] = [
    "uid": .uid, "fullName": .fullName, "givenName": .givenName, "familyName": .familyName,
    "middleName": .middleName, "prefix": .prefix, "suffix": .suffix, "nickname": .nickname,
    "organization": .organization, "department": .department, "jobTitle": .jobTitle,
    "birthday": .birthday, "note": .note,
  ]

  static let addressKeys: [String: AddressAttribute] = [
    "label": .label, "street": .street, "locality": .locality, "region": .region,
    "postalCode": .postalCode, "country": .country, "poBox": .poBox, "extended": .extended,
    "group": .group, "parameters": .parameters,
  ]

  static func kind(_ name: String) -> FieldKind? {
    switch name.lowercased() {
    case "phone", "tel": .phone
    case "email": .email
    case "url": .url
    case "impp": .impp
    case "other": .other
    default: nil
    }
  }

  /// A property value before the file-wide typing.
  enum RawProperty {
    case int(Int64)
    case bool(Bool)
    case text(String)
  }

  static func read(_ bytes: [UInt8]) -> Output {
    var text = bytes
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
    let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
    var out = Output()
    var rawProperties: [(contact: Int, name: String, value: RawProperty)] = []
    for (index, line) in lines.enumerated() {
      let lineNumber = index + 1
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      do {
        let json = try ReferenceJSONParser.parse(Array(line))
        var props: [(String, RawProperty)] = []
        var c = try contact(json, properties: &props)
        c.sourceLine = lineNumber
        for (n, v) in props { rawProperties.append((out.contacts.count, n, v)) }
        out.contacts.append(c)
      } catch let e as ReferenceJSONParser.Failure {
        out.errors.append((lineNumber, e.description))
      } catch let e as LineFailure {
        out.errors.append((lineNumber, e.reason))
      } catch {
        out.errors.append((lineNumber, "\(error)"))
      }
    }
    // File-wide typing of each property name.
    var byName: [String: [(Int, RawProperty)]] = [:]
    for (c, n, v) in rawProperties { byName[n, default: []].append((c, v)) }
    for (name, cells) in byName {
      let allInt = cells.allSatisfy { if case .int = $0.1 { true } else { false } }
      let allBool = cells.allSatisfy { if case .bool = $0.1 { true } else { false } }
      for (c, v) in cells {
        let value: PropertyValue?
        switch v {
        case .int(let n): value = allInt ? .int(n) : .string(String(n))
        case .bool(let b): value = allBool ? .bool(b) : .string(b ? "true" : "false")
        case .text(let s): value = s.isEmpty ? nil : .string(s)
        }
        out.contacts[c].properties[name] = value
      }
    }
    return out
  }

  static func string(_ b: [UInt8]) -> String? { b.isEmpty ? nil : String(decoding: b, as: UTF8.self) }

  /// A string value, or nil for null; anything else fails the line.
  static func stringOrNull(_ v: ReferenceJSON, _ what: String) throws(LineFailure) -> [UInt8]? {
    switch v {
    case .string(let s): return s
    case .null: return nil
    default: throw LineFailure(reason: "\(what) is not a string")
    }
  }

  static func members(_ v: ReferenceJSON, _ what: String) throws(LineFailure) -> [(key: [UInt8], value: ReferenceJSON)] {
    guard case .object(let m) = v else { throw LineFailure(reason: "\(what) is not an object") }
    return m
  }

  static func elements(_ v: ReferenceJSON, _ what: String) throws(LineFailure) -> [ReferenceJSON] {
    guard case .array(let e) = v else { throw LineFailure(reason: "\(what) is not an array") }
    return e
  }

  static func contact(_ json: ReferenceJSON, properties: inout [(String, RawProperty)]) throws(LineFailure) -> Contact {
    var c = Contact()
    var photoData: [UInt8] = []
    for (rawKey, v) in try members(json, "line") {
      let key = String(decoding: rawKey, as: UTF8.self)
      if let a = attributeKeys[key] {
        if let s = try stringOrNull(v, key) { c[a] = string(s) }
        continue
      }
      switch key {
      case "fields":
        for element in try elements(v, key) {
          var f = ContactField(kind: .other, value: "")
          for (k, fv) in try members(element, "field") {
            switch String(decoding: k, as: UTF8.self) {
            case "type":
              if let s = try stringOrNull(fv, "type") {
                guard let kind = kind(String(decoding: s, as: UTF8.self)) else {
                  throw LineFailure(reason: "unknown field type")
                }
                f.kind = kind
              }
            case "label": if let s = try stringOrNull(fv, "label") { f.label = string(s) }
            case "value": if let s = try stringOrNull(fv, "value") { f.value = String(decoding: s, as: UTF8.self) }
            case "group": if let s = try stringOrNull(fv, "group") { f.group = string(s) }
            case "parameters": if let s = try stringOrNull(fv, "parameters") { f.parameters = string(s) }
            default: break
            }
          }
          c.fields.append(f)
        }
      case "addresses":
        for element in try elements(v, key) {
          var a = PostalAddress()
          for (k, av) in try members(element, "address") {
            if let attr = addressKeys[String(decoding: k, as: UTF8.self)], let s = try stringOrNull(av, "address part") {
              a[attr] = string(s)
            }
          }
          c.addresses.append(a)
        }
      case "extras":
        for element in try elements(v, key) {
          var x = ExtraProperty(name: "", value: "")
          for (k, xv) in try members(element, "extra") {
            switch String(decoding: k, as: UTF8.self) {
            case "name": if let s = try stringOrNull(xv, "name") { x.name = String(decoding: s, as: UTF8.self) }
            case "group": if let s = try stringOrNull(xv, "group") { x.group = string(s) }
            case "parameters": if let s = try stringOrNull(xv, "parameters") { x.parameters = string(s) }
            case "value": if let s = try stringOrNull(xv, "value") { x.value = String(decoding: s, as: UTF8.self) }
            default: break
            }
          }
          guard !x.name.isEmpty else { throw LineFailure(reason: "extra property without a name") }
          c.extras.append(x)
        }
      case "photo":
        if v == .null { continue }
        var media: String? = nil
        var data: [UInt8] = []
        for (k, pv) in try members(v, "photo") {
          switch String(decoding: k, as: UTF8.self) {
          case "mediaType": if let s = try stringOrNull(pv, "mediaType") { media = string(s) }
          case "data":
            if let s = try stringOrNull(pv, "data") {
              guard let d = Data(base64Encoded: Data(s)) else { throw LineFailure(reason: "invalid base64 photo") }
              data = [UInt8](d)
            }
          default: break
          }
        }
        if !data.isEmpty {
          photoData = data
          c.photo = Photo(data: photoData, mediaType: media)
        }
      case "tags":
        for element in try elements(v, key) {
          guard case .string(let s) = element else { throw LineFailure(reason: "tag is not a string") }
          c.tags.insert(String(decoding: s, as: UTF8.self))
        }
      case "properties":
        for (k, pv) in try members(v, key) {
          let name = String(decoding: k, as: UTF8.self)
          switch pv {
          case .string(let s): properties.append((name, .text(String(decoding: s, as: UTF8.self))))
          case .bool(let b): properties.append((name, .bool(b)))
          case .number(let t):
            if let n = integer(t) { properties.append((name, .int(n))) } else { properties.append((name, .text(t))) }
          default: break
          }
        }
      default:
        break
      }
    }
    return c
  }

  /// The value of an integer token (no fraction, no exponent) that fits Int64.
  static func integer(_ t: String) -> Int64? {
    guard !t.contains("."), !t.contains("e"), !t.contains("E") else { return nil }
    var digits = Substring(t)
    let negative = digits.first == "-"
    if negative { digits = digits.dropFirst() }
    var v: Int64 = 0
    for ch in digits {
      guard let d = ch.wholeNumberValue else { return nil }
      let (m, o1) = v.multipliedReportingOverflow(by: 10)
      let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
      if o1 || o2 { return nil }
      v = s
    }
    return v
  }
}
