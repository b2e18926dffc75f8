import Foundation

/// A vCard's text as content lines (RFC 6350 3.3, RFC 2426 2.4), kept as
/// written: the write-back edits a card line by line, so every line it
/// does not touch goes back to the server byte for byte.
struct VCardText: Sendable {
  struct Line: Sendable {
    /// The line as written, folds and line end included.
    var raw: String
    /// The group (`item1` of `item1.TEL`), upper-cased; "" when none.
    var group: String
    /// The property name, upper-cased.
    var name: String
    /// The property name as written.
    var nameAsWritten: String
    /// The parameters, as written (between the name and the colon).
    var parameters: String
    /// The value, unfolded.
    var value: String
  }

  var lines: [Line]

  /// The version the card says (`3.0`, `4.0`, `2.1`), "" when none.
  var version: String { lines.first { $0.name == "VERSION" }?.value.trimmingCharacters(in: .whitespaces) ?? "" }
  var uid: String? { lines.first { $0.name == "UID" }.map { Self.memberUID($0.value) } }

  /// Whether the card is a group (vCard 4 `KIND:group`, or Apple's
  /// `X-ADDRESSBOOKSERVER-KIND:group` in vCard 3).
  var isGroup: Bool {
    lines.contains {
      ($0.name == "KIND" || $0.name == "X-ADDRESSBOOKSERVER-KIND") && $0.value.lowercased() == "group"
    }
  }

  /// Parses one card; nil when the text is not one `BEGIN:VCARD` ...
  /// `END:VCARD`.
  init?(_ text: String) {
    var out: [Line] = []
    var current = ""
    func flush() {
      guard !current.isEmpty else { return }
      out.append(Self.line(current))
      current = ""
    }
    // Physical lines split at LF (a CR before it stays in the line); a
    // line starting with a space or tab continues the one before.
    let scalars = text.unicodeScalars
    var start = scalars.startIndex
    while start < scalars.endIndex {
      var end = start
      while end < scalars.endIndex && scalars[end] != "\n" { end = scalars.index(after: end) }
      if end < scalars.endIndex { end = scalars.index(after: end) }
      let physical = String(scalars[start..<end])
      let first = scalars[start]
      start = end
      if (first == " " || first == "\t") && !current.isEmpty {
        current += physical
      } else {
        flush()
        current = physical
      }
    }
    flush()
    guard out.first?.name == "BEGIN", out.first?.value.uppercased() == "VCARD",
      out.last?.name == "END", out.last?.value.uppercased() == "VCARD"
    else { return nil }
    lines = out
  }

  init(lines: [Line]) { self.lines = lines }

  static func line(_ raw: String) -> Line {
    // Unfold: a line end followed by one space or tab is removed, and
    // the line's own end.
    var unfolded = String.UnicodeScalarView()
    var afterBreak = false
    for c in raw.unicodeScalars {
      if c == "\r" { continue }
      if c == "\n" {
        afterBreak = true
        continue
      }
      if afterBreak && (c == " " || c == "\t") {
        afterBreak = false
        continue
      }
      afterBreak = false
      unfolded.append(c)
    }
    let unfoldedText = String(unfolded)
    return parsed(unfoldedText, raw: raw)
  }

  static func parsed(_ unfolded: String, raw: String) -> Line {
    // The name ends at the first ';' or ':'; the value after the first
    // ':' outside a quoted parameter value. Scalars, not characters: a
    // value that starts with a combining mark (`N:ाथपा`) makes one
    // character of the colon and the mark.
    let scalars = unfolded.unicodeScalars
    var inQuotes = false
    var nameEnd: String.UnicodeScalarView.Index? = nil
    var colon: String.UnicodeScalarView.Index? = nil
    var i = scalars.startIndex
    while i < scalars.endIndex {
      let c = scalars[i]
      if c == "\"" { inQuotes.toggle() }
      if !inQuotes && nameEnd == nil && (c == ";" || c == ":") { nameEnd = i }
      if !inQuotes && c == ":" {
        colon = i
        break
      }
      i = scalars.index(after: i)
    }
    let colonAt = colon ?? scalars.endIndex
    let fullName = String(scalars[..<(nameEnd ?? colonAt)])
    let parameters = nameEnd.map { String(scalars[$0..<colonAt]) } ?? ""
    let value = colon.map { String(scalars[scalars.index(after: $0)...]) } ?? ""
    var group = ""
    var name = fullName
    if let dot = fullName.lastIndex(of: ".") {
      group = String(fullName[..<dot]).uppercased()
      name = String(fullName[fullName.index(after: dot)...])
    }
    return Line(raw: raw, group: group, name: name.uppercased(), nameAsWritten: name, parameters: parameters, value: value)
  }

  /// The card's text: every line as written, with CRLF line ends.
  var text: String {
    var s = ""
    for l in lines {
      s += l.raw
      if l.raw.unicodeScalars.last != "\n" { s += "\r\n" }
    }
    return s
  }

  /// A new line `group.NAME;parameters:value`, folded at 75 octets
  /// (RFC 6350 3.2) without splitting a UTF-8 character.
  static func written(group: String, name: String, parameters: String, value: String) -> Line {
    let logical = (group.isEmpty ? "" : group.lowercased() + ".") + name + parameters + ":" + value
    var raw = ""
    var lineBytes = 0
    for c in logical {
      let n = String(c).utf8.count
      if lineBytes + n > 75 {
        raw += "\r\n "
        lineBytes = 1
      }
      raw.append(c)
      lineBytes += n
    }
    raw += "\r\n"
    return Line(
      raw: raw, group: group.uppercased(), name: name.uppercased(), nameAsWritten: name, parameters: parameters, value: value)
  }

  /// The UID a `MEMBER` or `X-ADDRESSBOOKSERVER-MEMBER` value names
  /// (`urn:uuid:` taken off), and a UID as compared.
  static func memberUID(_ value: String) -> String {
    let v = value.trimmingCharacters(in: .whitespaces)
    return v.lowercased().hasPrefix("urn:uuid:") ? String(v.dropFirst(9)) : v
  }
}
