// A reference vCard reader for the differential tests: written for clarity,
// not speed, and sharing no code with OhanaIO (only the standard library).
// One obvious step at a time:
//
//  1. line ends: CRLF, LF and a lone CR all end a line;
//  2. unfold the whole text: a line starting with a space or a tab continues
//     the previous one, without that one blank (on bytes, so a fold inside a
//     multi-byte UTF-8 character is harmless);
//  3. quoted-printable soft breaks: in a property whose ENCODING is
//     QUOTED-PRINTABLE, a line ending in `=` loses the `=` and the next line
//     is joined whole;
//  4. cards: BEGIN:VCARD ... END:VCARD (any case);
//  5. each line: group . name ; parameters : value (the value starts at the
//     first `:` outside double quotes);
//  6. parameters: quoted values, comma lists (a quoted TYPE list in 4.0 is
//     a list, RFC 6350 6.4.1), vCard 2.1 bare values (`TEL;CELL;HOME:`),
//     RFC 6868 carets (`^n ^' ^^`) in 4.0;
//  7. values: quoted-printable and base64 decoded, text unescaped (`\n \N \,
//     \; \\`, and Google's `\:`; vCard 2.1 knows only `\;` inside structured
//     values), N / ADR / ORG split into components;
//  8. the card mapped to ``RefContact``, the same model the fast reader
//     stores (see the type comment of `VCardCardParser`).
//
// Where the fast reader made a choice the RFCs leave open, the reference
// makes the same one and says so (look for "as the fast reader").

/// One parameter list as meaning: upper-cased names to their values
/// (sorted, so spelling and order do not matter, every value counts).
typealias RefParameters = [String: [String]]

struct RefField: Equatable, CustomStringConvertible {
  var kind: String
  /// TYPE values without pref / voice / internet, lower-cased, sorted.
  var label: [String]
  var value: String
  var group: String?
  var parameters: RefParameters

  var description: String {
    "\(kind) \(value.debugDescription) label=\(label) group=\(group ?? "-") params=\(RefText.show(parameters))"
  }
}

struct RefAddress: Equatable, CustomStringConvertible {
  var label: [String]
  var poBox: String?
  var extended: String?
  var street: String?
  var locality: String?
  var region: String?
  var postalCode: String?
  var country: String?
  var group: String?
  var parameters: RefParameters

  var description: String {
    let parts = [poBox, extended, street, locality, region, postalCode, country].map { $0 ?? "" }
    return "\(parts.map(\.debugDescription).joined(separator: ";")) label=\(label) group=\(group ?? "-") "
      + "params=\(RefText.show(parameters))"
  }
}

struct RefExtra: Equatable, CustomStringConvertible {
  var name: String
  var group: String?
  var parameters: RefParameters
  var value: String

  var description: String {
    "\(group.map { $0 + "." } ?? "")\(name) \(value.debugDescription) params=\(RefText.show(parameters))"
  }
}

/// One card as the fast reader's model holds it.
struct RefContact: Equatable {
  /// Attribute columns by name (`fullName`, `familyName`, ...); absent or
  /// empty values are left out.
  var attributes: [String: String] = [:]
  var fields: [RefField] = []
  var addresses: [RefAddress] = []
  var extras: [RefExtra] = []
  var photo: [UInt8]?
  var photoMediaType: String?
}

enum RefText {
  static func show(_ p: RefParameters) -> String {
    "{" + p.keys.sorted().map { "\($0)=\(p[$0] ?? [])" }.joined(separator: " ") + "}"
  }

  /// `nil` for an empty string, as the store keeps no empty strings.
  static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }
}

enum ReferenceVCardReader {
  struct Result {
    var cards: [RefContact] = []
    /// Anything the reference could not read (none for valid input).
    var problems: [String] = []
  }

  enum Version { case v21, v30, v40 }

  // Bytes by name, to keep the steps readable.
  static let cr: UInt8 = 0x0D
  static let lf: UInt8 = 0x0A
  static let space: UInt8 = 0x20
  static let tab: UInt8 = 0x09
  static let quote: UInt8 = 0x22
  static let colon: UInt8 = 0x3A
  static let semicolon: UInt8 = 0x3B
  static let comma: UInt8 = 0x2C
  static let equals: UInt8 = 0x3D
  static let backslash: UInt8 = 0x5C
  static let dot: UInt8 = 0x2E
  static let caret: UInt8 = 0x5E

  static func read(_ input: [UInt8]) -> Result {
    let physical = splitLines(input)
    let unfolded = unfold(physical)
    let logical = joinSoftBreaks(unfolded)
    var result = Result()
    for (index, cardLines) in splitCards(logical, problems: &result.problems).enumerated() {
      switch readCard(cardLines) {
      case .success(let contact): result.cards.append(contact)
      case .failure(let problem): result.problems.append("card \(index): \(problem.text)")
      }
    }
    return result
  }

  // MARK: 1. Line ends

  /// The physical lines, without their ends (CRLF, LF or CR).
  static func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == cr {
        lines.append(current)
        current = []
        if i + 1 < bytes.count && bytes[i + 1] == lf { i += 1 }
      } else if b == lf {
        lines.append(current)
        current = []
      } else {
        current.append(b)
      }
      i += 1
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  // MARK: 2. Unfolding

  static func unfold(_ lines: [[UInt8]]) -> [[UInt8]] {
    var out: [[UInt8]] = []
    for line in lines {
      if let first = line.first, first == space || first == tab, !out.isEmpty {
        out[out.count - 1].append(contentsOf: line.dropFirst())
      } else {
        out.append(line)
      }
    }
    return out
  }

  // MARK: 3. Quoted-printable soft breaks

  static func joinSoftBreaks(_ lines: [[UInt8]]) -> [[UInt8]] {
    var out: [[UInt8]] = []
    var i = 0
    while i < lines.count {
      var line = lines[i]
      i += 1
      if isQuotedPrintable(line) {
        while line.last == equals && i < lines.count && !isMarker(lines[i], "END:VCARD") {
          line.removeLast()
          line.append(contentsOf: lines[i])
          i += 1
        }
      }
      out.append(line)
    }
    return out
  }

  /// Does the property on this line have ENCODING=QUOTED-PRINTABLE (or the
  /// vCard 2.1 bare `;QUOTED-PRINTABLE`)?
  static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
    guard let property = splitProperty(line, version: .v21) else { return false }
    return property.parameters.contains { p in
      p.name == "ENCODING" && p.values.contains { upper($0) == "QUOTED-PRINTABLE" }
    }
  }

  // MARK: 4. Cards

  static func isMarker(_ line: [UInt8], _ marker: String) -> Bool {
    var text = String(decoding: line, as: UTF8.self)
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return upper(text) == marker
  }

  static func isBlank(_ line: [UInt8]) -> Bool { line.allSatisfy { $0 == space || $0 == tab } }

  static func splitCards(_ lines: [[UInt8]], problems: inout [String]) -> [[[UInt8]]] {
    var cards: [[[UInt8]]] = []
    var current: [[UInt8]]? = nil
    for (n, line) in lines.enumerated() {
      if current == nil {
        if isMarker(line, "BEGIN:VCARD") {
          current = []
        } else if !isBlank(line) {
          problems.append("logical line \(n): text outside a card")
        }
        continue
      }
      if isMarker(line, "END:VCARD") {
        cards.append(current ?? [])
        current = nil
      } else if isMarker(line, "BEGIN:VCARD") {
        problems.append("logical line \(n): BEGIN:VCARD inside a card")
        current = []
      } else if !isBlank(line) {
        current?.append(line)
      }
    }
    if current != nil { problems.append("input ends inside a card") }
    return cards
  }

  // MARK: 5. Property lines

  struct Parameter {
    var name: String
    var values: [String]
  }

  struct Property {
    var group: String?
    var name: String
    var parameters: [Parameter]
    var value: [UInt8]
  }

  static func upper(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { c in
      ("a"..."z").contains(c) ? Unicode.Scalar(c.value - 32) ?? c : c
    }))
  }

  static func lower(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { c in
      ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32) ?? c : c
    }))
  }

  /// Splits at `separator` where it is not inside double quotes.
  static func splitOutsideQuotes(_ bytes: ArraySlice<UInt8>, _ separator: UInt8) -> [ArraySlice<UInt8>] {
    var parts: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var inQuotes = false
    for i in bytes.indices {
      if bytes[i] == quote {
        inQuotes.toggle()
      } else if bytes[i] == separator && !inQuotes {
        parts.append(bytes[start..<i])
        start = i + 1
      }
    }
    parts.append(bytes[start..<bytes.endIndex])
    return parts
  }

  static func splitProperty(_ line: [UInt8], version: Version) -> Property? {
    // The value starts after the first colon outside double quotes.
    var colonAt: Int? = nil
    var inQuotes = false
    for i in line.indices {
      if line[i] == quote {
        inQuotes.toggle()
      } else if line[i] == colon && !inQuotes {
        colonAt = i
        break
      }
    }
    guard let colonIndex = colonAt else { return nil }
    let head = line[..<colonIndex]
    let segments = splitOutsideQuotes(head, semicolon)
    let nameText = String(decoding: segments[0], as: UTF8.self)
    var group: String? = nil
    var name = nameText
    if let dot = nameText.firstIndex(of: ".") {
      group = String(nameText[..<dot])
      name = String(nameText[nameText.index(after: dot)...])
    }
    if name.isEmpty { return nil }
    var parameters: [Parameter] = []
    for segment in segments.dropFirst() where !segment.isEmpty {
      parameters.append(parseParameter(segment, version: version))
    }
    return Property(group: group, name: name, parameters: parameters, value: Array(line[(colonIndex + 1)...]))
  }

  // MARK: 6. Parameters

  static let bareEncodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "7BIT", "8BIT"]

  static func parseParameter(_ segment: ArraySlice<UInt8>, version: Version) -> Parameter {
    let parts = splitOutsideQuotes(segment, equals)
    if parts.count == 1 {
      // vCard 2.1 bare value: an encoding or a type.
      let bare = String(decoding: segment, as: UTF8.self)
      return Parameter(name: bareEncodings.contains(upper(bare)) ? "ENCODING" : "TYPE", values: [bare])
    }
    let name = upper(String(decoding: parts[0], as: UTF8.self))
    // Everything after the first '=' (outside quotes) is the value list.
    let valueText = segment[(parts[0].endIndex + 1)...]
    var values: [String] = []
    for raw in splitOutsideQuotes(valueText, comma) {
      var text = Array(raw)
      var wasQuoted = false
      if text.count >= 2 && text.first == quote && text.last == quote {
        text = Array(text.dropFirst().dropLast())
        wasQuoted = true
      }
      let value = version == .v40 ? decodeCarets(text) : String(decoding: text, as: UTF8.self)
      if wasQuoted && name == "TYPE" && version == .v40 {
        // RFC 6350 6.4.1: type values "can be specified as a parameter list
        // (e.g., TYPE=text;TYPE=voice) or as a value list (e.g.,
        // TYPE="text,voice")": quoted, still a list of types. (3.0 keeps a
        // quoted value whole, as RFC 2425's `"COMMA,SEPARATED:INSIDE.DQUOTE"`.)
        values.append(contentsOf: value.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
      } else {
        values.append(value)
      }
    }
    return Parameter(name: name, values: values)
  }

  /// RFC 6868: `^n` (or `^N`) newline, `^'` double quote, `^^` caret.
  static func decodeCarets(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if bytes[i] == caret && i + 1 < bytes.count {
        let next = bytes[i + 1]
        if next == UInt8(ascii: "n") || next == UInt8(ascii: "N") {
          out.append(lf)
          i += 2
          continue
        }
        if next == UInt8(ascii: "'") {
          out.append(quote)
          i += 2
          continue
        }
        if next == caret {
          out.append(caret)
          i += 2
          continue
        }
      }
      out.append(bytes[i])
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The parameters as the store keeps them: ENCODING (when applied:
  /// quoted-printable, 7bit, 8bit) and CHARSET dropped, as the fast reader
  /// does; TYPE entries merged by the multimap.
  static func meaning(_ parameters: [Parameter]) -> RefParameters {
    var map: RefParameters = [:]
    for p in parameters {
      if p.name == "CHARSET" { continue }
      if p.name == "ENCODING", let v = p.values.first,
        ["QUOTED-PRINTABLE", "7BIT", "8BIT"].contains(upper(v))
      {
        continue
      }
      map[p.name, default: []].append(contentsOf: p.values)
    }
    for k in map.keys { map[k]?.sort() }
    return map
  }

  static func label(_ parameters: [Parameter]) -> [String] {
    var out: [String] = []
    for p in parameters where p.name == "TYPE" {
      for v in p.values {
        let l = lower(v)
        if l.isEmpty || l == "pref" || l == "voice" || l == "internet" { continue }
        out.append(l)
      }
    }
    return out.sorted()
  }

  /// Reads the canonical parameter text the fast reader stores (`NAME=v,v;
  /// NAME=v`, RFC 6868 carets, values quoted when they hold `,;:`) with the
  /// reference's own parser, into the same meaning.
  static func meaning(ofStored text: String?) -> RefParameters {
    guard let text, !text.isEmpty else { return [:] }
    var map: RefParameters = [:]
    for segment in splitOutsideQuotes(Array(text.utf8)[...], semicolon) where !segment.isEmpty {
      // Parsed as 3.0 (no list splitting inside quotes), then carets decoded.
      let p = parseParameter(segment, version: .v30)
      map[p.name, default: []].append(contentsOf: p.values.map { decodeCarets(Array($0.utf8)) })
    }
    for k in map.keys { map[k]?.sort() }
    return map
  }

  // MARK: 7. Values

  struct Problem: Error { var text: String }

  static func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    default: return nil
    }
  }

  static func decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8]? {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b != equals {
        out.append(b)
        i += 1
        continue
      }
      if i + 1 == bytes.count { break }  // a soft break with nothing after it
      guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else {
        return nil
      }
      out.append(high * 16 + low)
      i += 3
    }
    return out
  }

  static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Base64; blanks and line breaks are skipped, `=` ends the data.
  static func decodeBase64(_ bytes: [UInt8]) -> [UInt8]? {
    var sextets: [UInt8] = []
    var padded = false
    for b in bytes {
      if b == space || b == tab || b == cr || b == lf { continue }
      if b == equals {
        padded = true
        continue
      }
      guard !padded, let v = base64Alphabet.firstIndex(of: b) else { return nil }
      sextets.append(UInt8(v))
    }
    var out: [UInt8] = []
    var i = 0
    while i + 1 < sextets.count {
      let a = sextets[i], b = sextets[i + 1]
      out.append(a << 2 | b >> 4)
      if i + 2 < sextets.count {
        let c = sextets[i + 2]
        out.append((b & 0x0F) << 4 | c >> 2)
        if i + 3 < sextets.count { out.append((c & 0x03) << 6 | sextets[i + 3]) }
      }
      i += 4
    }
    return out
  }

  /// CR LF (which quoted-printable produces) becomes LF.
  static func crlfToLF(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if bytes[i] == cr && i + 1 < bytes.count && bytes[i + 1] == lf {
        i += 1
        continue
      }
      out.append(bytes[i])
      i += 1
    }
    return out
  }

  /// A text value. 3.0 / 4.0: `\n` `\N` newline, `\,` `\;` `\\` and `\:`
  /// (Google writes `http\://`) stand for themselves; any other backslash is
  /// kept. 2.1 has no escapes.
  static func unescapeText(_ bytes: [UInt8], version: Version) -> String {
    let bytes = crlfToLF(bytes)
    if version == .v21 { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if bytes[i] == backslash && i + 1 < bytes.count {
        let next = bytes[i + 1]
        if next == UInt8(ascii: "n") || next == UInt8(ascii: "N") {
          out.append(lf)
        } else if next == comma || next == semicolon || next == backslash || next == colon {
          out.append(next)
        } else {
          out.append(bytes[i])
          out.append(next)
        }
        i += 2
        continue
      }
      out.append(bytes[i])
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// One component of N / ADR / ORG: in 2.1 only `\;` is an escape.
  static func unescapeComponent(_ bytes: [UInt8], version: Version) -> String {
    if version != .v21 { return unescapeText(bytes, version: version) }
    let bytes = crlfToLF(bytes)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if bytes[i] == backslash && i + 1 < bytes.count && bytes[i + 1] == semicolon {
        out.append(semicolon)
        i += 2
        continue
      }
      out.append(bytes[i])
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Splits a structured value at `;` that no backslash escapes, into at
  /// most `count` raw components (the last keeps the rest, `;` and all, as
  /// the fast reader's model has no room for more).
  static func components(_ bytes: [UInt8], count: Int, version: Version) -> [[UInt8]] {
    var parts: [[UInt8]] = []
    var current: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let escapes = version == .v21 ? (i + 1 < bytes.count && bytes[i + 1] == semicolon) : true
      if b == backslash && i + 1 < bytes.count && escapes {
        current.append(b)
        current.append(bytes[i + 1])
        i += 2
        continue
      }
      if b == semicolon && parts.count + 1 < count {
        parts.append(current)
        current = []
      } else {
        current.append(b)
      }
      i += 1
    }
    parts.append(current)
    return parts
  }

  /// An extra property's value: kept as written (escapes untouched); when
  /// quoted-printable was decoded, its line breaks become `\n`.
  static func extraValue(_ bytes: [UInt8], decoded: Bool) -> String {
    guard decoded else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == cr || b == lf {
        out.append(backslash)
        out.append(UInt8(ascii: "n"))
        if b == cr && i + 1 < bytes.count && bytes[i + 1] == lf { i += 1 }
      } else {
        out.append(b)
      }
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: 8. The card

  static let attributeOf: [String: String] = [
    "FN": "fullName", "NICKNAME": "nickname", "TITLE": "jobTitle", "BDAY": "birthday", "NOTE": "note",
    "UID": "uid",
  ]
  static let fieldKindOf: [String: String] = [
    "TEL": "phone", "EMAIL": "email", "URL": "url", "IMPP": "impp", "X-OHANA-OTHER": "other",
  ]
  static let nameParts = ["familyName", "givenName", "middleName", "prefix", "suffix"]

  static func readCard(_ lines: [[UInt8]]) -> Swift.Result<RefContact, Problem> {
    // The version decides the escapes; VERSION may come anywhere.
    var version = Version.v30
    for line in lines {
      if let p = splitProperty(line, version: .v21), p.group == nil, upper(p.name) == "VERSION" {
        let v = String(decoding: p.value, as: UTF8.self)
        version = v == "2.1" ? .v21 : v == "4.0" ? .v40 : .v30
      }
    }
    var contact = RefContact()
    var taken = Set<String>()  // columns set by an earlier property
    for line in lines {
      guard let p = splitProperty(line, version: version) else {
        return .failure(Problem(text: "malformed line \(String(decoding: line, as: UTF8.self).debugDescription)"))
      }
      let name = upper(p.name)
      if name == "VERSION" { continue }
      // Decoding.
      var value = p.value
      var isBase64 = false
      var decoded = false
      if let encoding = p.parameters.first(where: { $0.name == "ENCODING" })?.values.first {
        switch upper(encoding) {
        case "QUOTED-PRINTABLE":
          guard let v = decodeQuotedPrintable(value) else { return .failure(Problem(text: "bad quoted-printable")) }
          value = v
          decoded = true
        case "B", "BASE64": isBase64 = true
        case "7BIT", "8BIT": break
        default: return .failure(Problem(text: "unknown encoding \(encoding)"))
        }
      }
      if !isBase64 && String(validating: value, as: UTF8.self) == nil {
        return .failure(Problem(text: "value of \(p.name) is not UTF-8"))
      }
      let parameters = meaning(p.parameters)

      if let attribute = attributeOf[name], p.group == nil, !taken.contains(attribute) {
        taken.insert(attribute)
        contact.attributes[attribute] = RefText.nonEmpty(unescapeText(value, version: version))
        continue
      }
      if name == "N", p.group == nil, !taken.contains("N") {
        taken.insert("N")
        for (k, part) in components(value, count: 5, version: version).enumerated() {
          contact.attributes[nameParts[k]] = RefText.nonEmpty(unescapeComponent(part, version: version))
        }
        continue
      }
      if name == "ORG", p.group == nil, !taken.contains("ORG") {
        taken.insert("ORG")
        for (k, part) in components(value, count: 2, version: version).enumerated() {
          contact.attributes[k == 0 ? "organization" : "department"] = RefText.nonEmpty(
            unescapeComponent(part, version: version))
        }
        continue
      }
      if let kind = fieldKindOf[name] {
        contact.fields.append(
          RefField(
            kind: kind, label: label(p.parameters), value: unescapeText(value, version: version), group: p.group,
            parameters: parameters))
        continue
      }
      if name == "ADR" {
        let c = components(value, count: 7, version: version).map {
          RefText.nonEmpty(unescapeComponent($0, version: version))
        }
        func at(_ k: Int) -> String? { k < c.count ? c[k] : nil }
        contact.addresses.append(
          RefAddress(
            label: label(p.parameters), poBox: at(0), extended: at(1), street: at(2), locality: at(3),
            region: at(4), postalCode: at(5), country: at(6), group: p.group, parameters: parameters))
        continue
      }
      if name == "PHOTO", p.group == nil, contact.photo == nil {
        if isBase64 {
          guard let data = decodeBase64(value) else { return .failure(Problem(text: "bad base64")) }
          contact.photo = data
          if let type = p.parameters.first(where: { $0.name == "TYPE" })?.values.first, !type.isEmpty {
            contact.photoMediaType = type.contains("/") ? lower(type) : "image/" + lower(type)
          }
          continue
        }
        let text = String(decoding: value, as: UTF8.self)
        if upper(String(text.prefix(5))) == "DATA:", let comma = text.firstIndex(of: ",") {
          let head = text[text.index(text.startIndex, offsetBy: 5)..<comma]
          if upper(String(head.suffix(7))) == ";BASE64" {
            guard let data = decodeBase64(Array(text[text.index(after: comma)...].utf8)) else {
              return .failure(Problem(text: "bad base64 in data: URI"))
            }
            contact.photo = data
            contact.photoMediaType = RefText.nonEmpty(lower(String(head.dropLast(7))))
            continue
          }
        }
      }
      // Everything else, second occurrences and grouped FN / N / ... :
      // an extra property, name as written.
      contact.extras.append(
        RefExtra(name: p.name, group: p.group, parameters: parameters, value: extraValue(value, decoded: decoded)))
    }
    return .success(contact)
  }
}
