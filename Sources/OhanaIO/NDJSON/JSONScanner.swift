import OhanaCore

/// A small pull parser for one JSON text held in bytes (RFC 8259).
///
/// It never builds a tree: the caller walks objects and arrays with
/// ``nextKey(into:)`` / ``nextElement()`` and reads scalars, or skips values
/// it does not want. Strings are decoded into a caller's byte buffer
/// (escapes, `\uXXXX` with surrogate pairs). Errors are thrown as
/// `JSONScanner.Failure` with a short reason; nesting is limited to 64.
struct JSONScanner {
  struct Failure: Error {
    var reason: String
  }

  let bytes: [UInt8]
  var i: Int
  let end: Int
  private var depth = 0

  init(_ bytes: [UInt8], range: Range<Int>) {
    self.bytes = bytes
    self.i = range.lowerBound
    self.end = range.upperBound
  }

  enum Kind { case object, array, string, number, bool, null }

  mutating func skipSpace() {
    while i < end {
      let b = bytes[i]
      if b == ASCII.space || b == ASCII.tab || b == ASCII.cr || b == ASCII.lf { i += 1 } else { break }
    }
  }

  mutating func peekKind() throws(Failure) -> Kind {
    skipSpace()
    guard i < end else { throw Failure(reason: "unexpected end of JSON") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case ASCII.quote: return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    default: throw Failure(reason: "unexpected character in JSON")
    }
  }

  private mutating func expect(_ b: UInt8) throws(Failure) {
    skipSpace()
    guard i < end, bytes[i] == b else { throw Failure(reason: "expected '\(Character(Unicode.Scalar(b)))' in JSON") }
    i += 1
  }

  // MARK: Containers

  private var needsComma: [Bool] = []

  mutating func beginObject() throws(Failure) {
    try expect(UInt8(ascii: "{"))
    depth += 1
    if depth > 64 { throw Failure(reason: "JSON nested too deeply") }
    needsComma.append(false)
  }

  mutating func beginArray() throws(Failure) {
    try expect(UInt8(ascii: "["))
    depth += 1
    if depth > 64 { throw Failure(reason: "JSON nested too deeply") }
    needsComma.append(false)
  }

  /// Reads the next key of the current object into `key` (cleared first);
  /// false at the closing brace.
  mutating func nextKey(into key: inout [UInt8]) throws(Failure) -> Bool {
    skipSpace()
    guard i < end else { throw Failure(reason: "unterminated JSON object") }
    if bytes[i] == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      needsComma.removeLast()
      return false
    }
    if needsComma.last == true { try expect(ASCII.comma) }
    needsComma[needsComma.count - 1] = true
    key.removeAll(keepingCapacity: true)
    try readString(into: &key)
    try expect(ASCII.colon)
    return true
  }

  /// Moves to the next element of the current array; false at `]`.
  mutating func nextElement() throws(Failure) -> Bool {
    skipSpace()
    guard i < end else { throw Failure(reason: "unterminated JSON array") }
    if bytes[i] == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      needsComma.removeLast()
      return false
    }
    if needsComma.last == true { try expect(ASCII.comma) }
    needsComma[needsComma.count - 1] = true
    return true
  }

  // MARK: Scalars

  /// Appends the decoded string to `out`.
  mutating func readString(into out: inout [UInt8]) throws(Failure) {
    try expect(ASCII.quote)
    while i < end {
      let b = bytes[i]
      if b == ASCII.quote {
        i += 1
        return
      }
      if b < 0x20 { throw Failure(reason: "control character in JSON string") }
      if b != ASCII.backslash {
        out.append(b)
        i += 1
        continue
      }
      guard i + 1 < end else { break }
      let e = bytes[i + 1]
      i += 2
      switch e {
      case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"): out.append(e)
      case UInt8(ascii: "n"): out.append(ASCII.lf)
      case UInt8(ascii: "r"): out.append(ASCII.cr)
      case UInt8(ascii: "t"): out.append(ASCII.tab)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
          // A surrogate pair.
          guard i + 1 < end, bytes[i] == ASCII.backslash, bytes[i + 1] == UInt8(ascii: "u") else {
            throw Failure(reason: "unpaired surrogate in JSON string")
          }
          i += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw Failure(reason: "unpaired surrogate in JSON string") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
          throw Failure(reason: "unpaired surrogate in JSON string")
        }
        guard let u = Unicode.Scalar(scalar) else { throw Failure(reason: "invalid \\u escape") }
        if let encoded = UTF8.encode(u) { out.append(contentsOf: encoded) }
      default:
        throw Failure(reason: "invalid escape in JSON string")
      }
    }
    throw Failure(reason: "unterminated JSON string")
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard i + 4 <= end else { throw Failure(reason: "invalid \\u escape") }
    var v: UInt32 = 0
    for k in 0..<4 {
      guard let h = ASCII.hexValue(bytes[i + k]) else { throw Failure(reason: "invalid \\u escape") }
      v = v << 4 | UInt32(h)
    }
    i += 4
    return v
  }

  /// Reads a string, or null (returns false, nothing appended).
  mutating func readStringOrNull(into out: inout [UInt8]) throws(Failure) -> Bool {
    if try peekKind() == .null {
      try skipValue()
      return false
    }
    try readString(into: &out)
    return true
  }

  /// The bytes of a number token, as RFC 8259 spells one:
  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. A token that
  /// breaks it (`01`, `1.`, `1e`, `-`, `1.2.3`, `1-2`) is an error, here or
  /// at the byte after the longest valid prefix.
  mutating func readNumber() throws(Failure) -> ArraySlice<UInt8> {
    skipSpace()
    let s = i
    if i < end && bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < end, Self.isDigit(bytes[i]) else { throw Failure(reason: "invalid JSON number") }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < end && Self.isDigit(bytes[i]) { i += 1 }
    }
    if i < end && bytes[i] == ASCII.dot {
      i += 1
      guard i < end, Self.isDigit(bytes[i]) else { throw Failure(reason: "invalid JSON number") }
      while i < end && Self.isDigit(bytes[i]) { i += 1 }
    }
    if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
      i += 1
      if i < end && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
      guard i < end, Self.isDigit(bytes[i]) else { throw Failure(reason: "invalid JSON number") }
      while i < end && Self.isDigit(bytes[i]) { i += 1 }
    }
    // A digit right after a leading zero (`01`) would be read as a second token.
    if i < end && (Self.isDigit(bytes[i]) || bytes[i] == ASCII.dot || bytes[i] == UInt8(ascii: "-")
      || bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E"))
    {
      throw Failure(reason: "invalid JSON number")
    }
    return bytes[s..<i]
  }

  @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  mutating func readBool() throws(Failure) -> Bool {
    skipSpace()
    if literal("true") { return true }
    if literal("false") { return false }
    throw Failure(reason: "invalid JSON literal")
  }

  private mutating func literal(_ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard i + n <= end else { return false }
    let p = word.utf8Start
    for k in 0..<n where bytes[i + k] != p[k] { return false }
    i += n
    return true
  }

  /// Skips one value of any kind.
  mutating func skipValue() throws(Failure) {
    switch try peekKind() {
    case .object:
      try beginObject()
      var key: [UInt8] = []
      while try nextKey(into: &key) { try skipValue() }
    case .array:
      try beginArray()
      while try nextElement() { try skipValue() }
    case .string:
      var sink: [UInt8] = []
      try readString(into: &sink)
    case .number:
      _ = try readNumber()
    case .bool:
      _ = try readBool()
    case .null:
      guard literal("null") else { throw Failure(reason: "invalid JSON literal") }
    }
  }

  /// After the top-level value: only blanks may follow.
  mutating func finish() throws(Failure) {
    skipSpace()
    if i != end { throw Failure(reason: "text after the JSON value") }
  }
}

/// Appends JSON text to a byte buffer.
enum JSONWriter {
  static func string<C: Collection>(_ s: C, into out: inout [UInt8]) where C.Element == UInt8 {
    out.append(ASCII.quote)
    for b in s {
      switch b {
      case ASCII.quote: out.append(ASCII.backslash); out.append(ASCII.quote)
      case ASCII.backslash: out.append(ASCII.backslash); out.append(ASCII.backslash)
      case ASCII.lf: out.append(ASCII.backslash); out.append(UInt8(ascii: "n"))
      case ASCII.cr: out.append(ASCII.backslash); out.append(UInt8(ascii: "r"))
      case ASCII.tab: out.append(ASCII.backslash); out.append(UInt8(ascii: "t"))
      case 0..<0x20, 0x7F:
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(ASCII.hexDigits[Int(b >> 4)])
        out.append(ASCII.hexDigits[Int(b & 15)])
      default: out.append(b)
      }
    }
    out.append(ASCII.quote)
  }

  static func key(_ k: StaticString, first: inout Bool, into out: inout [UInt8]) {
    if !first { out.append(ASCII.comma) }
    first = false
    out.append(ASCII.quote)
    out.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
    out.append(ASCII.quote)
    out.append(ASCII.colon)
  }
}

extension JSONScanner {
  /// Each non-blank line of an NDJSON file parsed by `parse` (its byte
  /// range, its 1-based number), in order; a line that fails is reported
  /// with its number and reason instead. Blank lines are skipped.
  static func lines<T>(
    _ bytes: [UInt8], _ parse: (Range<Int>, Int) throws(Failure) -> T
  ) -> ([T], [InputError]) {
    var values: [T] = []
    var errors: [InputError] = []
    var start = 0
    var line = 0
    while start < bytes.count {
      line += 1
      var end = start
      while end < bytes.count && bytes[end] != ASCII.lf { end += 1 }
      defer { start = end + 1 }
      var blank = true
      for b in bytes[start..<end] where b != ASCII.space && b != ASCII.tab && b != ASCII.cr { blank = false; break }
      if blank { continue }
      do {
        values.append(try parse(start..<end, line))
      } catch {
        errors.append(InputError(line: line, reason: error.reason))
      }
    }
    return (values, errors)
  }
}
