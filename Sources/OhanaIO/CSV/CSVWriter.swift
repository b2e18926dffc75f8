import OhanaCore

/// How many field and address column groups a CSV needs for a frame.
struct CSVLayout: Sendable {
  /// Max fields per contact, by `FieldKind.rawValue`.
  var fieldSlots: [Int] = Array(repeating: 0, count: FieldKind.allCases.count)
  var addressSlots = 0
  /// Whether a `source` column is written: some contact has a source (a
  /// read of several inputs, or a CSV or NDJSON that had one).
  var hasSource = false

  init(table: ContactTable, rows: [UInt32]) {
    let sources = table[.sourceProvider]
    hasSource = rows.contains { sources[Int($0)].isPresent }
    var counts = Array(repeating: 0, count: FieldKind.allCases.count)
    for r in rows {
      let fr = table.fieldRange(of: Int(r))
      for k in 0..<counts.count { counts[k] = 0 }
      for i in fr { counts[Int(table.fields.kind[i].rawValue)] += 1 }
      for k in 0..<counts.count where counts[k] > fieldSlots[k] { fieldSlots[k] = counts[k] }
      addressSlots = max(addressSlots, table.addressRange(of: Int(r)).count)
    }
  }
}

/// Writes our own CSV: a header of column names that `CSVHeader` maps back
/// (`uid`, `fullName`..., `phone 1 label`, `phone 1 value`..., `address 1
/// street`...; `source` after the names when some contact has one), one
/// record per contact, CRLF line ends, cells quoted when
/// they hold `,` `"` CR or LF. CSV keeps names, organization, dates, notes,
/// field labels and values and addresses; field groups and parameters,
/// extra properties and photos are not written.
struct CSVWriter {
  let table: ContactTable
  let bytes: PoolBytes
  let layout: CSVLayout
  /// The string columns (see `ContactTable.withStringReaders`).
  let r: StringColumnReaders
  private var cell: [UInt8] = []

  init(table: ContactTable, bytes: PoolBytes, readers: StringColumnReaders, layout: CSVLayout) {
    self.table = table
    self.bytes = bytes
    self.layout = layout
    r = readers
    uuids = table.uuids
  }

  /// The table's UUID uids, taken out once (like the string readers).
  private let uuids: UUIDColumn

  static let attributes: [ContactAttribute] = ContactAttribute.allCases.filter { $0 != .sourceProvider }
  static let addressParts: [(AddressAttribute, String)] = [
    (.label, "label"), (.street, "street"), (.locality, "locality"), (.region, "region"),
    (.postalCode, "postalCode"), (.country, "country"), (.poBox, "poBox"), (.extended, "extended"),
  ]

  static func writeHeader(layout: CSVLayout, into out: inout [UInt8]) {
    var names = attributes.map(\.name)
    if layout.hasSource { names.append("source") }
    for kind in FieldKind.allCases {
      let n = layout.fieldSlots[Int(kind.rawValue)]
      if n == 0 { continue }
      for i in 1...n {
        names.append("\(kind.name) \(i) label")
        names.append("\(kind.name) \(i) value")
      }
    }
    if layout.addressSlots > 0 {
      for i in 1...layout.addressSlots {
        for (_, p) in addressParts { names.append("address \(i) \(p)") }
      }
    }
    for (i, n) in names.enumerated() {
      if i > 0 { out.append(ASCII.comma) }
      writeCell(Array(n.utf8), into: &out)
    }
    out.append(ASCII.cr)
    out.append(ASCII.lf)
  }

  static func writeCell<C: Collection>(_ v: C, into out: inout [UInt8]) where C.Element == UInt8 {
    var quote = false
    for b in v where b == ASCII.comma || b == ASCII.quote || b == ASCII.cr || b == ASCII.lf {
      quote = true
      break
    }
    if !quote {
      out.append(contentsOf: v)
      return
    }
    out.append(ASCII.quote)
    for b in v {
      if b == ASCII.quote { out.append(ASCII.quote) }
      out.append(b)
    }
    out.append(ASCII.quote)
  }

  private func id(_ id: StringID, first: inout Bool, into out: inout [UInt8]) {
    if !first { out.append(ASCII.comma) }
    first = false
    guard id.isPresent else { return }
    withPoolBytes(bytes, id) { Self.writeCell($0, into: &out) }
  }

  mutating func write(row: Int, into out: inout [UInt8]) {
    var first = true
    for a in Self.attributes {
      if a == .uid && uuids.form(at: row) != .none {
        // A UUID uid (ContactTable.uuids): hex digits and hyphens, never quoted.
        if !first { out.append(ASCII.comma) }
        first = false
        uuids.withText(at: row) { out.append(contentsOf: $0) }
        continue
      }
      id(r.attributes[a.rawValue][row], first: &first, into: &out)
    }
    if layout.hasSource { id(r.attributes[ContactAttribute.sourceProvider.rawValue][row], first: &first, into: &out) }
    let fr = table.fieldRange(of: row)
    let f = table.fields
    for kind in FieldKind.allCases {
      let slots = layout.fieldSlots[Int(kind.rawValue)]
      var written = 0
      for i in fr where f.kind[i] == kind {
        id(r.fields.label[i], first: &first, into: &out)
        id(r.fields.value[i], first: &first, into: &out)
        written += 1
      }
      while written < slots {
        id(.absent, first: &first, into: &out)
        id(.absent, first: &first, into: &out)
        written += 1
      }
    }
    let ar = table.addressRange(of: row)
    var written = 0
    for i in ar {
      for (p, _) in Self.addressParts { id(r.addresses[p.rawValue][i], first: &first, into: &out) }
      written += 1
    }
    while written < layout.addressSlots {
      for _ in Self.addressParts { id(.absent, first: &first, into: &out) }
      written += 1
    }
    out.append(ASCII.cr)
    out.append(ASCII.lf)
  }
}
