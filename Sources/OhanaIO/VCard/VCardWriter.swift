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
  // row retained and released each array.
  private let attributes: [[StringID]]
  private let fields: FieldTable
  private let addresses: AddressTable
  private let extras: ExtraTable
  private var line: [UInt8] = []
  private var ids: [StringID] = []

  init(table: ContactTable, bytes: PoolBytes, version4: Bool) {
    self.table = table
    self.bytes = bytes
    self.version4 = version4
    attributes = table.attributes
    fields = table.fields
    addresses = table.addresses
    extras = table.extras
    line.reserveCapacity(256)
  }

  /// Appends a literal (no array, so no lazy-initialization check or
  /// retain per use, as a `static let` array costs).
  @inline(__always)
  private static func put(_ s: StaticString, _ out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
  }

  mutating func write(row: Int, into out: inout [UInt8]) {
    Self.put("BEGIN:VCARD\r\n", &out)
    if version4 { Self.put("VERSION:4.0\r\n", &out) } else { Self.put("VERSION:3.0\r\n", &out) }
    let a = attributes
    let uid = a[ContactAttribute.uid.rawValue][row]
    if uid.isPresent { text("UID", uid, commas: false, into: &out) }
    text("FN", a[ContactAttribute.fullName.rawValue][row], commas: true, force: true, into: &out)
    ids.removeAll(keepingCapacity: true)
    // N's order: family; given; middle; prefix; suffix.
    ids.append(a[ContactAttribute.familyName.rawValue][row])
    ids.append(a[ContactAttribute.givenName.rawValue][row])
    ids.append(a[ContactAttribute.middleName.rawValue][row])
    ids.append(a[ContactAttribute.prefix.rawValue][row])
    ids.append(a[ContactAttribute.suffix.rawValue][row])
    if !version4 || ids.contains(where: \.isPresent) {
      structured("N", ids, group: .absent, params: .absent, into: &out)
    }
    let nick = a[ContactAttribute.nickname.rawValue][row]
    if nick.isPresent { text("NICKNAME", nick, commas: false, into: &out) }
    let org = a[ContactAttribute.organization.rawValue][row]
    let dept = a[ContactAttribute.department.rawValue][row]
    if org.isPresent || dept.isPresent {
      // ORG components are text: commas escaped.
      line.removeAll(keepingCapacity: true)
      appendStatic("ORG:")
      appendEscaped(org, commas: true)
      if dept.isPresent {
        line.append(ASCII.semicolon)
        appendEscaped(dept, commas: true, semicolons: false)
      }
      endLine(into: &out)
    }
    let title = a[ContactAttribute.jobTitle.rawValue][row]
    if title.isPresent { text("TITLE", title, commas: true, into: &out) }
    let bday = a[ContactAttribute.birthday.rawValue][row]
    if bday.isPresent { text("BDAY", bday, commas: false, into: &out) }
    let note = a[ContactAttribute.note.rawValue][row]
    if note.isPresent { text("NOTE", note, commas: true, into: &out) }
    let photo = table.photo[row]
    if !photo.isNone { writePhoto(photo, into: &out) }

    for i in table.fieldRange(of: row) {
      line.removeAll(keepingCapacity: true)
      appendGroup(fields.group[i])
      switch fields.kind[i] {
      case .phone: Self.put("TEL", &line)
      case .email: Self.put("EMAIL", &line)
      case .url: Self.put("URL", &line)
      case .impp: Self.put("IMPP", &line)
      case .other: Self.put("X-OHANA-OTHER", &line)
      }
      appendParams(fields.parameters[i], label: fields.label[i])
      line.append(ASCII.colon)
      withPoolBytes(bytes, fields.value[i]) { v in
        VCardEscaping.escapeText(v, commas: false, semicolons: false, into: &line)
      }
      endLine(into: &out)
    }
    for i in table.addressRange(of: row) {
      let c = addresses.columns
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
        label: c[AddressAttribute.label.rawValue][i], into: &out)
    }
    for i in table.extraRange(of: row) {
      line.removeAll(keepingCapacity: true)
      appendGroup(extras.group[i])
      withPoolBytes(bytes, extras.name[i]) { line.append(contentsOf: $0) }
      appendParams(extras.parameters[i], label: .absent)
      line.append(ASCII.colon)
      withPoolBytes(bytes, extras.value[i]) { v in
        if v.contains(ASCII.lf) || v.contains(ASCII.cr) {
          VCardEscaping.escapeNewlinesOnly(Array(v)[...], into: &line)
        } else {
          line.append(contentsOf: v)
        }
      }
      endLine(into: &out)
    }
    Self.put("END:VCARD\r\n", &out)
  }

  // MARK: Pieces

  private mutating func appendStatic(_ s: StaticString) {
    line.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
  }

  private mutating func appendGroup(_ group: StringID) {
    guard group.isPresent else { return }
    withPoolBytes(bytes, group) { line.append(contentsOf: $0) }
    line.append(ASCII.dot)
  }

  /// `;` + stored parameters; with none stored, `;TYPE=label` when there is a label.
  private mutating func appendParams(_ params: StringID, label: StringID) {
    if params.isPresent {
      line.append(ASCII.semicolon)
      withPoolBytes(bytes, params) { line.append(contentsOf: $0) }
    } else if label.isPresent {
      Self.put(";TYPE=", &line)
      withPoolBytes(bytes, label) { VCardEscaping.writeParameterValue($0, into: &line) }
    }
  }

  private mutating func appendEscaped(_ id: StringID, commas: Bool, semicolons: Bool = true) {
    guard id.isPresent else { return }
    withPoolBytes(bytes, id) { VCardEscaping.escapeText($0, commas: commas, semicolons: semicolons, into: &line) }
  }

  private mutating func text(
    _ name: StaticString, _ id: StringID, commas: Bool, force: Bool = false, into out: inout [UInt8]
  ) {
    if id.isAbsent && !force { return }
    line.removeAll(keepingCapacity: true)
    line.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    line.append(ASCII.colon)
    appendEscaped(id, commas: commas)
    endLine(into: &out)
  }

  private mutating func structured(
    _ name: StaticString, _ ids: [StringID], group: StringID, params: StringID, label: StringID = .absent,
    into out: inout [UInt8]
  ) {
    line.removeAll(keepingCapacity: true)
    appendGroup(group)
    line.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    appendParams(params, label: label)
    line.append(ASCII.colon)
    for (k, id) in ids.enumerated() {
      if k > 0 { line.append(ASCII.semicolon) }
      appendEscaped(id, commas: false)
    }
    endLine(into: &out)
  }

  private mutating func writePhoto(_ photo: BlobID, into out: inout [UInt8]) {
    line.removeAll(keepingCapacity: true)
    let media = table.blobs.mediaType(photo)
    if version4 {
      appendStatic("PHOTO:data:")
      withPoolBytes(bytes, media) { line.append(contentsOf: $0) }
      appendStatic(";base64,")
    } else {
      appendStatic("PHOTO;ENCODING=b")
      if media.isPresent {
        Self.put(";TYPE=", &line)
        withPoolBytes(bytes, media) { m in
          let sub = m.split(separator: UInt8(ascii: "/"), maxSplits: 1).last ?? m[...]
          for b in sub { line.append(ASCII.upper(b)) }
        }
      }
      line.append(ASCII.colon)
    }
    table.blobs.withData(photo) { Base64.encode($0, into: &line) }
    endLine(into: &out)
  }

  /// Folds `line` at 75 octets (never inside a UTF-8 sequence) into `out`.
  private mutating func endLine(into out: inout [UInt8]) {
    Self.fold(line, into: &out)
  }

  static func fold(_ line: [UInt8], into out: inout [UInt8]) {
    let n = line.count
    if n <= 75 {
      out.append(contentsOf: line)
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
      }
      if start > 0 { out.append(ASCII.space) }
      out.append(contentsOf: line[start..<end])
      out.append(ASCII.cr)
      out.append(ASCII.lf)
      start = end
      limit = 74
    }
  }
}
