import COhanaCore
import OhanaCore

/// Writes contacts as vCard 3.0 or 4.0, straight from the table's columns.
///
/// Lines end with CRLF and are folded at 75 octets, never inside a UTF-8
/// character. Text values are escaped (`\\ \, \; \n`); list-valued and
/// structured components (N, ADR, NICKNAME) keep their commas as list
/// separators. Field values (URIs, numbers) escape only `\` and newlines.
/// Parameters are written in their stored canonical form (see
/// `VCardParameters`), which is already RFC 6868-encoded.
struct VCardWriter {
  let table: ContactTable
  let bytes: PoolBytes
  let version4: Bool
  // The table's columns, taken out once: reading them through `table` per
  // row retained and released each array. String columns through readers.
  private let r: StringColumnReaders
  private let fields: FieldTable
  private let uuids: UUIDColumn
  /// The card being written, line after line, handed to the caller's array
  /// in one append at its end. Lines are built in place; only a line longer
  /// than 75 octets is copied (to `spill`) to be folded.
  private var line = ByteBuffer()
  /// Where the line being built starts in `line`.
  private var lineStart = 0
  private var spill: [UInt8] = []
  private var ids: [StringID] = []

  init(table: ContactTable, bytes: PoolBytes, readers: StringColumnReaders, version4: Bool) {
    self.table = table
    self.bytes = bytes
    self.version4 = version4
    r = readers
    fields = table.fields
    uuids = table.uuids
    spill.reserveCapacity(256)
  }

  /// How many rows ahead ``prefetch(row:)`` is called: far enough that a
  /// row's values are in cache when it is written.
  static let prefetchDistance = 12

  /// Starts loading the first bytes of `row`'s values (names, fields,
  /// addresses), which lie scattered over the pool: written one after the
  /// other, each value's first byte would be a cache miss. A hint only.
  func prefetch(row: Int) {
    let a = r.attributes
    @inline(__always) func touch(_ id: StringID) {
      let i = id.index
      guard i > 0 && i < bytes.ends.count, let base = bytes.arena.baseAddress else { return }
      let start = bytes.ends[i - 1]
      if start < bytes.arena.count { ohana_prefetch(base + start) }
    }
    touch(a[ContactAttribute.uid.rawValue][row])
    touch(a[ContactAttribute.fullName.rawValue][row])
    touch(a[ContactAttribute.familyName.rawValue][row])
    touch(a[ContactAttribute.givenName.rawValue][row])
    touch(a[ContactAttribute.birthday.rawValue][row])
    for i in table.fieldRange(of: row) { touch(r.fields.value[i]) }
    for i in table.addressRange(of: row) {
      touch(r.addresses[AddressAttribute.street.rawValue][i])
      touch(r.addresses[AddressAttribute.locality.rawValue][i])
      touch(r.addresses[AddressAttribute.postalCode.rawValue][i])
    }
    for i in table.extraRange(of: row) { touch(r.extras.value[i]) }
  }

  mutating func write(row: Int, into out: inout [UInt8]) {
    line.truncate(to: 0)
    defer { out.append(contentsOf: line.bytes) }
    line.append("BEGIN:VCARD\r\n")
    if version4 { line.append("VERSION:4.0\r\n") } else { line.append("VERSION:3.0\r\n") }
    let a = r.attributes
    // The single-valued properties written so far (VCardCardinality): a
    // repeat among the extras is written as X-OHANA-ALT-NAME.
    var written: UInt16 = VCardCardinality.fnBit
    let uid = a[ContactAttribute.uid.rawValue][row]
    if uid.isPresent || uuids.form(at: row) != .none { written |= VCardCardinality.uidBit }
    if uid.isPresent {
      text("UID", uid, commas: false)
    } else if uuids.form(at: row) != .none {
      // A UUID (hex digits and hyphens): nothing to escape.
      beginLine()
      line.append("UID")
      line.append(ASCII.colon)
      uuids.withText(at: row) { line.append(bytes: $0) }
      endLine()
    }
    text("FN", a[ContactAttribute.fullName.rawValue][row], commas: true, force: true)
    ids.removeAll(keepingCapacity: true)
    // N's order: family; given; middle; prefix; suffix.
    ids.append(a[ContactAttribute.familyName.rawValue][row])
    ids.append(a[ContactAttribute.givenName.rawValue][row])
    ids.append(a[ContactAttribute.middleName.rawValue][row])
    ids.append(a[ContactAttribute.prefix.rawValue][row])
    ids.append(a[ContactAttribute.suffix.rawValue][row])
    if !version4 || ids.contains(where: \.isPresent) {
      structured("N", ids, group: .absent, params: .absent)
      written |= VCardCardinality.nBit
    }
    let nick = a[ContactAttribute.nickname.rawValue][row]
    if nick.isPresent { text("NICKNAME", nick, commas: false) }
    let org = a[ContactAttribute.organization.rawValue][row]
    let dept = a[ContactAttribute.department.rawValue][row]
    if org.isPresent || dept.isPresent {
      // ORG components are text: commas escaped.
      beginLine()
      line.append("ORG:")
      appendEscaped(org, commas: true)
      if dept.isPresent {
        line.append(ASCII.semicolon)
        appendEscaped(dept, commas: true, semicolons: false)
      }
      endLine()
    }
    let title = a[ContactAttribute.jobTitle.rawValue][row]
    if title.isPresent { text("TITLE", title, commas: true) }
    let bday = a[ContactAttribute.birthday.rawValue][row]
    if bday.isPresent {
      text("BDAY", bday, commas: false)
      written |= VCardCardinality.bdayBit
    }
    let note = a[ContactAttribute.note.rawValue][row]
    if note.isPresent { text("NOTE", note, commas: true) }
    let photo = table.photo[row]
    if !photo.isNone { writePhoto(photo) }

    for i in table.fieldRange(of: row) {
      beginLine()
      appendGroup(r.fields.group[i])
      switch fields.kind[i] {
      case .phone: line.append("TEL")
      case .email: line.append("EMAIL")
      case .url: line.append("URL")
      case .impp: line.append("IMPP")
      case .other: line.append("X-OHANA-OTHER")
      }
      appendParams(r.fields.parameters[i], label: r.fields.label[i])
      line.append(ASCII.colon)
      withPoolBytes(bytes, r.fields.value[i]) { v in
        VCardEscaping.escapeText(v, commas: false, semicolons: false, into: &line)
      }
      endLine()
    }
    for i in table.addressRange(of: row) {
      let c = r.addresses
      ids.removeAll(keepingCapacity: true)
      // ADR's order: pobox; extended; street; locality; region; code; country.
      ids.append(c[AddressAttribute.poBox.rawValue][i])
      ids.append(c[AddressAttribute.extended.rawValue][i])
      ids.append(c[AddressAttribute.street.rawValue][i])
      ids.append(c[AddressAttribute.locality.rawValue][i])
      ids.append(c[AddressAttribute.region.rawValue][i])
      ids.append(c[AddressAttribute.postalCode.rawValue][i])
      ids.append(c[AddressAttribute.country.rawValue][i])
      structured(
        "ADR", ids, group: c[AddressAttribute.group.rawValue][i], params: c[AddressAttribute.parameters.rawValue][i],
        label: c[AddressAttribute.label.rawValue][i])
    }
    for i in table.extraRange(of: row) {
      beginLine()
      if r.extras.name[i].isAbsent {
        // A line the reader could not read as a property (no name or no
        // `:`), kept verbatim: written back as it was.
        withPoolBytes(bytes, r.extras.value[i]) { line.append(bytes: $0) }
        endLine()
        continue
      }
      let bit = withPoolBytes(bytes, r.extras.name[i]) { VCardCardinality.singleValuedBit($0, version4: version4) }
      let repeated = bit & written != 0
      written |= bit
      if r.extras.group[i].isPresent {
        appendGroup(r.extras.group[i])
      } else if !repeated {
        guardLineStart(r.extras.name[i])
      }
      if repeated { line.append("X-OHANA-ALT-") }
      withPoolBytes(bytes, r.extras.name[i]) { line.append(bytes: $0) }
      appendParams(r.extras.parameters[i], label: .absent)
      line.append(ASCII.colon)
      var endsWithEquals = false
      withPoolBytes(bytes, r.extras.value[i]) { v in
        endsWithEquals = v.last == ASCII.equals
        if repeated {
          // A structured value as an X- property's text: `;` and `,` escaped.
          spill.removeAll(keepingCapacity: true)
          VCardEscaping.escapeNewlinesOnly(Array(v)[...], into: &spill)
          var escaped = false
          for b in spill {
            if escaped {
              escaped = false
            } else if b == ASCII.backslash {
              escaped = true
            } else if b == ASCII.semicolon || b == ASCII.comma {
              line.append(ASCII.backslash)
            }
            line.append(b)
          }
        } else if v.contains(ASCII.lf) || v.contains(ASCII.cr) {
          spill.removeAll(keepingCapacity: true)
          VCardEscaping.escapeNewlinesOnly(Array(v)[...], into: &spill)
          spill.withUnsafeBytes { line.append(bytes: $0) }
        } else {
          line.append(bytes: v)
        }
      }
      // A quoted-printable value kept verbatim (it did not decode) that
      // ends in `=`: a reader drops an `=` at the end of a line as a soft
      // break. One more `=` (the one dropped) and an empty line (the end of
      // the value, the Android / Evolution way) make it read back as it
      // was. (Not before a line kept verbatim, which an empty line cannot
      // keep apart: that rare case stays open, Tests/Fuzz/README.md.)
      let next = i + 1
      let guardEquals = endsWithEquals && Self.namesQuotedPrintable(r.extras.parameters[i], bytes)
        && (next >= table.extraRange(of: row).upperBound || r.extras.name[next].isPresent)
      if guardEquals { line.append(ASCII.equals) }
      endLine()
      if guardEquals { line.append("\r\n") }
    }
    line.append("END:VCARD\r\n")
  }

  // MARK: Pieces

  /// A group starts its line (always written first).
  private mutating func appendGroup(_ group: StringID) {
    guard group.isPresent else { return }
    guardLineStart(group)
    withPoolBytes(bytes, group) { line.append(bytes: $0) }
    line.append(ASCII.dot)
  }

  /// Before a group or name that starts a line: an empty group (`.`) when
  /// the text starts with `#` or a blank. A reader takes a line that starts
  /// with `#` for a comment and one that starts with a blank for a fold of
  /// the line before; behind a `.` (an empty group, which our reader drops)
  /// it is a property again. The reader keeps such names and groups
  /// (`.#x:y` is the property `#x`; blanks around names it drops).
  private mutating func guardLineStart(_ id: StringID) {
    let first = withPoolBytes(bytes, id) { $0.first }
    if let first, first == ASCII.hash || ASCII.isSpace(first) { line.append(ASCII.dot) }
  }

  /// Do the stored (canonical) parameters hold `ENCODING=QUOTED-PRINTABLE`
  /// as a whole parameter (any case), as the reader's lexer recognizes it?
  private static func namesQuotedPrintable(_ params: StringID, _ bytes: PoolBytes) -> Bool {
    guard params.isPresent else { return false }
    return withPoolBytes(bytes, params) { p in
      let needle = quotedPrintable
      var start = 0
      while start < p.count {
        var end = start
        while end < p.count && p[end] != ASCII.semicolon { end += 1 }
        if end - start == needle.count
          && (0..<needle.count).allSatisfy({ ASCII.upper(p[start + $0]) == needle[$0] })
        {
          return true
        }
        start = end + 1
      }
      return false
    }
  }
  private static let quotedPrintable: [UInt8] = Array("ENCODING=QUOTED-PRINTABLE".utf8)

  /// `;` + stored parameters; with none stored, `;TYPE=label` when there is a label.
  private mutating func appendParams(_ params: StringID, label: StringID) {
    if params.isPresent {
      line.append(ASCII.semicolon)
      withPoolBytes(bytes, params) { line.append(bytes: $0) }
    } else if label.isPresent {
      line.append(";TYPE=")
      withPoolBytes(bytes, label) { VCardEscaping.writeParameterValue($0, into: &line) }
    }
  }

  private mutating func appendEscaped(_ id: StringID, commas: Bool, semicolons: Bool = true) {
    guard id.isPresent else { return }
    withPoolBytes(bytes, id) { VCardEscaping.escapeText($0, commas: commas, semicolons: semicolons, into: &line) }
  }

  private mutating func text(_ name: StaticString, _ id: StringID, commas: Bool, force: Bool = false) {
    if id.isAbsent && !force { return }
    beginLine()
    line.append(name)
    line.append(ASCII.colon)
    appendEscaped(id, commas: commas)
    endLine()
  }

  private mutating func structured(
    _ name: StaticString, _ ids: [StringID], group: StringID, params: StringID, label: StringID = .absent
  ) {
    beginLine()
    appendGroup(group)
    line.append(name)
    appendParams(params, label: label)
    line.append(ASCII.colon)
    for (k, id) in ids.enumerated() {
      if k > 0 { line.append(ASCII.semicolon) }
      appendEscaped(id, commas: false)
    }
    endLine()
  }

  private mutating func writePhoto(_ photo: BlobID) {
    beginLine()
    let media = table.blobs.mediaType(photo)
    if version4 {
      line.append("PHOTO:data:")
      withPoolBytes(bytes, media) { line.append(bytes: $0) }
      line.append(";base64,")
    } else {
      line.append("PHOTO;ENCODING=b")
      if media.isPresent {
        line.append(";TYPE=")
        withPoolBytes(bytes, media) { m in
          let sub = m.split(separator: UInt8(ascii: "/"), maxSplits: 1).last ?? m[...]
          for b in sub { line.append(ASCII.upper(b)) }
        }
      }
      line.append(ASCII.colon)
    }
    spill.removeAll(keepingCapacity: true)
    table.blobs.withData(photo) { Base64.encode($0, into: &spill) }
    spill.withUnsafeBytes { line.append(bytes: $0) }
    endLine()
  }

  private mutating func beginLine() { lineStart = line.count }

  /// Ends the line begun at `lineStart`: CRLF, or, past 75 octets, folds it
  /// (never inside a UTF-8 sequence).
  private mutating func endLine() {
    if line.count - lineStart <= 75 {
      line.append(ASCII.cr)
      line.append(ASCII.lf)
      return
    }
    spill.removeAll(keepingCapacity: true)
    spill.append(contentsOf: UnsafeRawBufferPointer(rebasing: line.bytes[lineStart...]))
    line.truncate(to: lineStart)
    Self.fold(spill, into: &line)
  }

  static func fold<Out: ByteOutput>(_ line: [UInt8], into out: inout Out) {
    let n = line.count
    if n <= 75 {
      line.withUnsafeBytes { out.append(bytes: $0) }
      out.append(ASCII.cr)
      out.append(ASCII.lf)
      return
    }
    var start = 0
    var limit = 75
    while start < n {
      var end = min(n, start + limit)
      if end < n {
        // Back off to a character boundary.
        var e = end
        while e > start && line[e] & 0xC0 == 0x80 { e -= 1 }
        if e > start { end = e }
        // Never end a physical line with `=`: a reader (ours included) takes
        // `=` + line break in a quoted-printable property for a soft break,
        // and values kept verbatim can be quoted-printable. Nor with a CR:
        // a reader drops the CRs before a line break, and a line kept
        // verbatim can hold a lone CR. Back off over every such byte (`==`
        // too); a segment of nothing but them goes on past them instead (a
        // line longer than 75 octets is better than a changed value).
        func guarded(_ i: Int) -> Bool { line[i] == ASCII.equals || line[i] == ASCII.cr }
        var b = end
        while b - 1 > start && guarded(b - 1) { b -= 1 }
        if !guarded(b - 1) {
          end = b
        } else {
          while end < n && guarded(end - 1) { end += 1 }
        }
      }
      // Nor may a first physical line read as a card's marker: a kept
      // property `END:VCARD====…` folded after `END:VCARD` would end the
      // card there. Such a line ends one byte before the marker's end.
      if start == 0 && end < n {
        let marker = line.withUnsafeBufferPointer { b in
          let first = UnsafeBufferPointer(rebasing: b[0..<end])
          return VCardLexer.isEnd(first) ? 8 : VCardLexer.isBegin(first) ? 10 : nil
        }
        if let marker { end = marker }
      }
      if start > 0 { out.append(ASCII.space) }
      line.withUnsafeBytes { out.append(bytes: UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
      out.append(ASCII.cr)
      out.append(ASCII.lf)
      start = end
      limit = 74
    }
  }
}
