import OhanaCore

/// Writes one JSON object per contact, one per line.
///
/// ```json
/// {"uid":"…","fullName":"…","givenName":"…","familyName":"…","middleName":"…",
///  "prefix":"…","suffix":"…","nickname":"…","organization":"…","department":"…",
///  "jobTitle":"…","birthday":"…","note":"…","source":"google.csv",
///  "photo":{"mediaType":"image/jpeg","data":"<base64>"},
///  "fields":[{"type":"phone","label":"cell","value":"+1 555","group":"item1",
///             "parameters":"TYPE=CELL","properties":{"phone.e164":"+1555"}}],
///  "addresses":[{"label":"home","street":"…","locality":"…","region":"…",
///                "postalCode":"…","country":"…","poBox":"…","extended":"…",
///                "group":"…","parameters":"…"}],
///  "extras":[{"name":"X-FOO","group":"…","parameters":"…","value":"…"}],
///  "tags":["vip"],"properties":{"stats.phoneCount":2}}
/// ```
/// Absent values and empty lists are left out. `value` strings are the
/// decoded text (no vCard escapes); extra-property values stay in vCard
/// text syntax, as the store keeps them.
struct NDJSONWriter {
  let table: ContactTable
  let bytes: PoolBytes
  /// The string columns (see `ContactTable.withStringReaders`).
  let r: StringColumnReaders

  init(table: ContactTable, bytes: PoolBytes, readers: StringColumnReaders) {
    self.table = table
    self.bytes = bytes
    r = readers
    uuids = table.uuids
  }

  /// The table's UUID uids, taken out once (like the string readers).
  private let uuids: UUIDColumn

  static let attributeKeys: [(ContactAttribute, StaticString)] = [
    (.uid, "uid"), (.fullName, "fullName"), (.givenName, "givenName"), (.familyName, "familyName"),
    (.middleName, "middleName"), (.prefix, "prefix"), (.suffix, "suffix"), (.nickname, "nickname"),
    (.organization, "organization"), (.department, "department"), (.jobTitle, "jobTitle"),
    (.birthday, "birthday"), (.note, "note"), (.sourceProvider, "source"),
  ]

  static let addressKeys: [(AddressAttribute, StaticString)] = [
    (.label, "label"), (.street, "street"), (.locality, "locality"), (.region, "region"),
    (.postalCode, "postalCode"), (.country, "country"), (.poBox, "poBox"), (.extended, "extended"),
    (.group, "group"), (.parameters, "parameters"),
  ]

  private func str(_ key: StaticString, _ id: StringID, first: inout Bool, into out: inout [UInt8]) {
    guard id.isPresent else { return }
    JSONWriter.key(key, first: &first, into: &out)
    withPoolBytes(bytes, id) { JSONWriter.string($0, into: &out) }
  }

  private func properties(_ values: [String: PropertyValue], first: inout Bool, into out: inout [UInt8]) {
    guard !values.isEmpty else { return }
    JSONWriter.key("properties", first: &first, into: &out)
    out.append(UInt8(ascii: "{"))
    var f = true
    for (name, v) in values.sorted(by: { $0.key < $1.key }) {
      if !f { out.append(ASCII.comma) }
      f = false
      JSONWriter.string(Array(name.utf8), into: &out)
      out.append(ASCII.colon)
      switch v {
      case .string(let s): JSONWriter.string(Array(s.utf8), into: &out)
      case .int(let n): out.append(contentsOf: Array(String(n).utf8))
      case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
      }
    }
    out.append(UInt8(ascii: "}"))
  }

  mutating func write(row: Int, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "{"))
    var first = true
    for (a, key) in Self.attributeKeys {
      if a == .uid && uuids.form(at: row) != .none {
        // A UUID uid (ContactTable.uuids): its text, written as any string.
        JSONWriter.key(key, first: &first, into: &out)
        uuids.withText(at: row) { JSONWriter.string($0, into: &out) }
        continue
      }
      str(key, r.attributes[a.rawValue][row], first: &first, into: &out)
    }
    let photo = table.photo[row]
    if !photo.isNone {
      JSONWriter.key("photo", first: &first, into: &out)
      out.append(UInt8(ascii: "{"))
      var f = true
      str("mediaType", table.blobs.mediaType(photo), first: &f, into: &out)
      JSONWriter.key("data", first: &f, into: &out)
      var b64: [UInt8] = []
      table.blobs.withData(photo) { Base64.encode($0, into: &b64) }
      JSONWriter.string(b64, into: &out)
      out.append(UInt8(ascii: "}"))
    }
    let fr = table.fieldRange(of: row)
    if !fr.isEmpty {
      JSONWriter.key("fields", first: &first, into: &out)
      out.append(UInt8(ascii: "["))
      let f = table.fields
      let annotated = !f.annotations.isEmpty
      for i in fr {
        if i != fr.lowerBound { out.append(ASCII.comma) }
        out.append(UInt8(ascii: "{"))
        var ff = true
        JSONWriter.key("type", first: &ff, into: &out)
        JSONWriter.string(Array(f.kind[i].name.utf8), into: &out)
        str("label", r.fields.label[i], first: &ff, into: &out)
        JSONWriter.key("value", first: &ff, into: &out)
        withPoolBytes(bytes, r.fields.value[i]) { JSONWriter.string($0, into: &out) }
        str("group", r.fields.group[i], first: &ff, into: &out)
        str("parameters", r.fields.parameters[i], first: &ff, into: &out)
        if annotated { properties(f.annotations.properties(at: i, pool: table.pool), first: &ff, into: &out) }
        out.append(UInt8(ascii: "}"))
      }
      out.append(UInt8(ascii: "]"))
    }
    let ar = table.addressRange(of: row)
    if !ar.isEmpty {
      JSONWriter.key("addresses", first: &first, into: &out)
      out.append(UInt8(ascii: "["))
      let ad = table.addresses
      let annotated = !ad.annotations.isEmpty
      for i in ar {
        if i != ar.lowerBound { out.append(ASCII.comma) }
        out.append(UInt8(ascii: "{"))
        var ff = true
        for (a, key) in Self.addressKeys { str(key, r.addresses[a.rawValue][i], first: &ff, into: &out) }
        if annotated { properties(ad.annotations.properties(at: i, pool: table.pool), first: &ff, into: &out) }
        out.append(UInt8(ascii: "}"))
      }
      out.append(UInt8(ascii: "]"))
    }
    let xr = table.extraRange(of: row)
    if !xr.isEmpty {
      JSONWriter.key("extras", first: &first, into: &out)
      out.append(UInt8(ascii: "["))
      let x = table.extras
      for i in xr {
        if i != xr.lowerBound { out.append(ASCII.comma) }
        out.append(UInt8(ascii: "{"))
        var ff = true
        JSONWriter.key("name", first: &ff, into: &out)
        withPoolBytes(bytes, x.name[i]) { JSONWriter.string($0, into: &out) }
        str("group", x.group[i], first: &ff, into: &out)
        str("parameters", x.parameters[i], first: &ff, into: &out)
        JSONWriter.key("value", first: &ff, into: &out)
        withPoolBytes(bytes, x.value[i]) { JSONWriter.string($0, into: &out) }
        out.append(UInt8(ascii: "}"))
      }
      out.append(UInt8(ascii: "]"))
    }
    if !table.annotations.isEmpty {
      let tags = table.annotations.tagNames(at: row)
      if !tags.isEmpty {
        JSONWriter.key("tags", first: &first, into: &out)
        out.append(UInt8(ascii: "["))
        for (k, t) in tags.enumerated() {
          if k > 0 { out.append(ASCII.comma) }
          JSONWriter.string(Array(t.utf8), into: &out)
        }
        out.append(UInt8(ascii: "]"))
      }
      properties(table.annotations.properties(at: row, pool: table.pool), first: &first, into: &out)
    }
    out.append(UInt8(ascii: "}"))
    out.append(ASCII.lf)
  }
}
