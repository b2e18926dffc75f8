import OhanaCore

/// A CSV reader written for clarity, not speed: an oracle for `CSVReader`.
///
/// It shares no code with OhanaIO. It works in obvious steps over the whole
/// text: drop a UTF-8 byte order mark, cut the text into records (RFC 4180),
/// read the first record as the header and classify each column (our own
/// header, Google Contacts, Outlook, as `CSVHeader` documents), then turn
/// every later record into a `Contact`.
///
/// Rules taken from the fast reader's documentation:
/// - `,` separates cells, LF or CR LF ends a record; a cell that starts with
///   `"` is quoted: `""` is a quote, commas and line breaks are text; text
///   after the closing quote (up to the separator) is kept; a quote inside
///   an unquoted cell is text.
/// - A record whose cells are all empty is skipped silently; a record with
///   more cells than the header is skipped with an error; an unterminated
///   quote swallows the rest of the input and is one skipped record.
/// - Line numbers are 1-based and count LF bytes before the record.
struct ReferenceCSVReader {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  struct Output {
    var contacts: [Contact] = []
    /// Skipped records: the line where each starts and why.
    var errors: [(line: Int, reason: String)] = []
  }

  // MARK: Step 1: records

  struct Record {
    var line: Int
    var cells: [[UInt8]]
  }

  enum Piece {
    case record(Record)
    case unterminated(line: Int)
  }

  static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf: UInt8 = 10, cr: UInt8 = 13

  /// Cuts `text` (BOM already removed) into records.
  static func records(_ text: [UInt8]) -> [Piece] {
    var pieces: [Piece] = []
    var i = 0
    var line = 1
    let n = text.count
    while i < n {
      let recordLine = line
      var cells: [[UInt8]] = []
      var cell: [UInt8] = []
      var endOfRecord = false
      while !endOfRecord {
        // One cell.
        cell = []
        if i < n && text[i] == quote {
          i += 1
          var closed = false
          while i < n {
            if text[i] == quote {
              if i + 1 < n && text[i + 1] == quote {
                cell.append(quote)
                i += 2
              } else {
                i += 1
                closed = true
                break
              }
            } else {
              if text[i] == lf { line += 1 }
              cell.append(text[i])
              i += 1
            }
          }
          if !closed {
            pieces.append(.unterminated(line: recordLine))
            return pieces
          }
        }
        // The unquoted cell, or what follows a closing quote.
        while i < n && text[i] != comma && text[i] != lf && text[i] != cr {
          cell.append(text[i])
          i += 1
        }
        cells.append(cell)
        if i >= n {
          endOfRecord = true
        } else if text[i] == comma {
          i += 1
        } else if text[i] == lf {
          i += 1
          line += 1
          endOfRecord = true
        } else {
          // CR: a record ends at CR LF (a lone CR outside quotes is not generated).
          i += 1
          if i < n && text[i] == lf {
            i += 1
            line += 1
          }
          endOfRecord = true
        }
      }
      pieces.append(.record(Record(line: recordLine, cells: cells)))
    }
    return pieces
  }

  // MARK: Step 2: the header

  enum Column: Equatable {
    case attribute(ContactAttribute)
    case value(slot: Int)
    case label(slot: Int)
    case addressPart(slot: Int, AddressAttribute)
    case extra
    case ignored
  }

  struct Slot {
    var key: String
    var isAddress: Bool
    var kind: FieldKind
    var label: String?
  }

  struct Header {
    var columns: [Column] = []
    var names: [String] = []
    var slots: [Slot] = []

    mutating func slot(_ key: String, address: Bool, kind: FieldKind = .other, label: String? = nil) -> Int {
      if let s = slots.firstIndex(where: { $0.key == key }) { return s }
      slots.append(Slot(key: key, isAddress: address, kind: kind, label: label))
      return slots.count - 1
    }
  }

  /// Header words (lower case) that name a contact attribute.
  static let attributeNames: [String: ContactAttribute] = [
    "uid": .uid, "fullname": .fullName, "givenname": .givenName, "familyname": .familyName,
    "middlename": .middleName, "prefix": .prefix, "suffix": .suffix, "nickname": .nickname,
    "organization": .organization, "department": .department, "jobtitle": .jobTitle,
    "birthday": .birthday, "note": .note,
    // Google
    "name": .fullName, "given name": .givenName, "first name": .givenName, "additional name": .middleName,
    "middle name": .middleName, "family name": .familyName, "last name": .familyName,
    "name prefix": .prefix, "name suffix": .suffix, "notes": .note,
    "organization 1 - name": .organization, "organization name": .organization,
    "organization 1 - title": .jobTitle, "organization title": .jobTitle,
    "organization 1 - department": .department, "organization department": .department,
    "display name": .fullName, "full name": .fullName,
    // Outlook
    "title": .prefix, "company": .organization, "job title": .jobTitle,
  ]

  static let kinds: [String: FieldKind] = [
    "phone": .phone, "e-mail": .email, "email": .email, "website": .url, "url": .url,
    "im": .impp, "impp": .impp, "other": .other,
  ]

  static let addressPartNames: [String: AddressAttribute] = [
    "label": .label, "type": .label, "street": .street, "city": .locality, "locality": .locality,
    "region": .region, "postal code": .postalCode, "postalcode": .postalCode, "country": .country,
    "po box": .poBox, "pobox": .poBox, "extended address": .extended, "extended": .extended,
  ]

  /// Outlook phone columns and the label they give (not the assistant's
  /// phone, another person's number, nor telex: those stay extras).
  static let outlookPhoneLabels: [String: String] = [
    "primary phone": "pref", "home phone": "home", "home phone 2": "home", "mobile phone": "cell",
    "pager": "pager", "home fax": "home,fax", "business phone": "work", "business phone 2": "work",
    "business fax": "work,fax", "company main phone": "work",
    "other phone": "other", "other fax": "fax", "car phone": "car", "callback": "callback", "isdn": "isdn",
    "radio phone": "radio", "tty/tdd phone": "textphone",
  ]

  static let outlookAddressParts: [String: AddressAttribute] = [
    "street": .street, "street 2": .extended, "street 3": .extended, "city": .locality, "state": .region,
    "postal code": .postalCode, "country": .country, "country/region": .country, "address po box": .poBox,
  ]

  /// Spaces and tabs off both ends.
  static func trimBlanks(_ s: String) -> String {
    var chars = Array(s)
    while let f = chars.first, f == " " || f == "\t" { chars.removeFirst() }
    while let l = chars.last, l == " " || l == "\t" { chars.removeLast() }
    return String(chars)
  }

  static func header(_ cells: [[UInt8]]) -> Header {
    var h = Header()
    for cell in cells {
      let name = trimBlanks(String(decoding: cell, as: UTF8.self))
      h.names.append(name)
      h.columns.append(classify(name.lowercased(), &h))
    }
    return h
  }

  static func classify(_ name: String, _ h: inout Header) -> Column {
    if name.isEmpty { return .ignored }
    if let a = attributeNames[name] { return .attribute(a) }
    let words = name.split(separator: " ").map(String.init)

    // Our own: "<kind> <n> label|type|value", "address <n> <part words>".
    if words.count >= 3, let n = Int(words[1]) {
      if words[0] == "address" {
        if let part = addressPartNames[words[2...].joined(separator: " ")] {
          return .addressPart(slot: h.slot("address \(n)", address: true), part)
        }
      } else if words.count == 3, let kind = kinds[words[0]] {
        let s = h.slot("\(words[0]) \(n)", address: false, kind: kind)
        switch words[2] {
        case "label", "type": return .label(slot: s)
        case "value": return .value(slot: s)
        default: break  // falls through to the other styles
        }
      }
    }

    // Google: "<Kind> <n> - <part>".
    if let dash = name.range(of: " - ") {
      let left = name[..<dash.lowerBound].split(separator: " ").map(String.init)
      let part = String(name[dash.upperBound...])
      guard left.count == 2, let n = Int(left[1]) else { return .extra }
      if left[0] == "address" {
        guard let p = addressPartNames[part] else { return .extra }
        return .addressPart(slot: h.slot("address \(n)", address: true), p)
      }
      guard let kind = kinds[left[0]] else { return .extra }
      let s = h.slot("\(left[0]) \(n)", address: false, kind: kind)
      switch part {
      case "type", "label": return .label(slot: s)
      case "value": return .value(slot: s)
      default: return .extra
      }
    }

    // Outlook.
    if let label = outlookPhoneLabels[name] {
      return .value(slot: h.slot(name, address: false, kind: .phone, label: label))
    }
    if name == "e-mail address" || (name.hasPrefix("e-mail ") && name.hasSuffix(" address")) {
      return .value(slot: h.slot(name, address: false, kind: .email))
    }
    if name == "web page" || name == "personal web page" {
      return .value(slot: h.slot(name, address: false, kind: .url))
    }
    for (prefix, label) in [("home", "home"), ("business", "work"), ("other", "other")] {
      guard name.hasPrefix(prefix + " ") else { continue }
      if let p = outlookAddressParts[String(name.dropFirst(prefix.count + 1))] {
        return .addressPart(slot: h.slot("outlook \(prefix)", address: true, label: label), p)
      }
    }
    return .extra
  }

  // MARK: Step 3: contacts

  /// vCard TEXT escaping of an extra property's value (RFC 6350 3.4):
  /// `\` `,` `;` escaped, a line break (CR LF, LF or CR) becomes `\n`.
  static func vcardText(_ s: [UInt8]) -> String {
    var out: [UInt8] = []
    var i = 0
    while i < s.count {
      let b = s[i]
      switch b {
      case UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: ";"):
        out += [UInt8(ascii: "\\"), b]
      case cr:
        out += Array("\\n".utf8)
        if i + 1 < s.count && s[i + 1] == lf { i += 1 }
      case lf:
        out += Array("\\n".utf8)
      default:
        out.append(b)
      }
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A vCard parameter value (RFC 6868 caret escapes; quoted when it holds `,` `;` `:`).
  static func vcardParameterValue(_ s: String) -> String {
    let bytes = Array(s.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      switch b {
      case UInt8(ascii: "^"): out += Array("^^".utf8)
      case quote: out += Array("^'".utf8)
      case cr:
        out += Array("^n".utf8)
        if i + 1 < bytes.count && bytes[i + 1] == lf { i += 1 }
      case lf: out += Array("^n".utf8)
      default: out.append(b)
      }
      i += 1
    }
    let text = String(decoding: out, as: UTF8.self)
    return s.contains(where: { $0 == "," || $0 == ";" || $0 == ":" }) ? "\"\(text)\"" : text
  }

  /// Splits on " ::: " (Google's several values in one cell), left to right.
  static func splitValues(_ v: [UInt8]) -> [[UInt8]] {
    let sep = Array(" ::: ".utf8)
    var parts: [[UInt8]] = []
    var current: [UInt8] = []
    var i = 0
    while i < v.count {
      if i + sep.count <= v.count && Array(v[i..<(i + sep.count)]) == sep {
        parts.append(current)
        current = []
        i += sep.count
      } else {
        current.append(v[i])
        i += 1
      }
    }
    parts.append(current)
    return parts
  }

  static func text(_ b: [UInt8]) -> String? { b.isEmpty ? nil : String(decoding: b, as: UTF8.self) }

  static func contact(_ record: Record, _ h: Header) -> Contact {
    var c = Contact()
    c.sourceLine = record.line
    var values = [[UInt8]?](repeating: nil, count: h.slots.count)
    var labels = [[UInt8]?](repeating: nil, count: h.slots.count)
    var parts = [[AddressAttribute: [UInt8]]](repeating: [:], count: h.slots.count)
    for (column, cell) in zip(h.columns, record.cells) where !cell.isEmpty {
      switch column {
      case .attribute(let a):
        // Outlook's empty date: zeros and separators only ("0/0/00", "0.0.00").
        let outlookNoDate = cell.count <= 10 && cell.filter { $0 == UInt8(ascii: "0") }.count >= 3
          && cell.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") }
        if a == .birthday && outlookNoDate { break }
        if c[a] == nil { c[a] = text(cell) }
      case .value(let s): values[s] = cell  // the last column wins
      case .label(let s): labels[s] = cell
      case .addressPart(let s, let p): if parts[s][p] == nil { parts[s][p] = cell }
      case .extra, .ignored: break  // extras are added after the fields, in column order
      }
    }
    for (s, slot) in h.slots.enumerated() {
      if slot.isAddress {
        guard !parts[s].isEmpty else { continue }
        var a = PostalAddress()
        for (p, v) in parts[s] { a[p] = text(v) }
        if a.label == nil { a.label = slot.label }
        c.addresses.append(a)
      } else if let v = values[s] {
        let label = labels[s].flatMap(text) ?? slot.label
        for piece in splitValues(v) {
          c.fields.append(ContactField(kind: slot.kind, label: label, value: String(decoding: piece, as: UTF8.self)))
        }
      }
    }
    // No full-name column (Google's and Outlook's exports): the parts, in
    // reading order, joined by one space.
    if c.fullName == nil {
      let parts = [c.prefix, c.givenName, c.middleName, c.familyName, c.suffix].compactMap { $0 }
      if !parts.isEmpty { c.fullName = parts.joined(separator: " ") }
    }
    for (k, (column, cell)) in zip(h.columns, record.cells).enumerated() where column == .extra && !cell.isEmpty {
      c.extras.append(
        ExtraProperty(name: "X-CSV", parameters: "HEADER=" + vcardParameterValue(h.names[k]), value: vcardText(cell)))
    }
    return c
  }

  // MARK: The whole reader

  /// Reads `bytes`; throws when there is no complete header record.
  static func read(_ bytes: [UInt8]) throws(Failure) -> Output {
    var text = bytes
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
    var pieces = records(text)[...]
    guard let first = pieces.popFirst() else { return Output() }
    guard case .record(let headerRecord) = first else { throw Failure(description: "unterminated quote in the header") }
    let h = header(headerRecord.cells)
    var out = Output()
    for piece in pieces {
      switch piece {
      case .unterminated(let line):
        out.errors.append((line, "unterminated quoted cell"))
      case .record(let r):
        if r.cells.allSatisfy(\.isEmpty) { continue }
        if r.cells.count > h.columns.count {
          out.errors.append((r.line, "record has \(r.cells.count) cells, header has \(h.columns.count)"))
          continue
        }
        out.contacts.append(contact(r, h))
      }
    }
    return out
  }
}
