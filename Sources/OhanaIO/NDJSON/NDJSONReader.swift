import OhanaCore

/// Reads NDJSON written by `NDJSONWriter` (see there for the keys).
/// Unknown keys are ignored; empty lines are skipped; a line that is not a
/// JSON object fails alone. Contact `tags` and `properties` (string, integer
/// or boolean) become tags and derived columns, field and address
/// `properties` derived columns over fields and addresses (a field's
/// `source` among them), so that what the writer wrote reads back whole.
enum NDJSONReader {
  static func splitter(_ buf: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = buf.count - 1
    while i > 0 {
      if buf[i - 1] == ASCII.lf { return i }
      i -= 1
    }
    return nil
  }

  private static let attributeByKey: [[UInt8]: ContactAttribute] = {
    var d: [[UInt8]: ContactAttribute] = [:]
    for (a, k) in NDJSONWriter.attributeKeys {
      d[Array(UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))] = a
    }
    return d
  }()

  private static let addressByKey: [[UInt8]: AddressAttribute] = {
    var d: [[UInt8]: AddressAttribute] = [:]
    for (a, k) in NDJSONWriter.addressKeys {
      d[Array(UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))] = a
    }
    return d
  }()

  struct State {
    var builder = ContactTableBuilder()
    var key: [UInt8] = []
    var key2: [UInt8] = []
    var s: [UInt8] = []
    var tags: [String: [Int]] = [:]
    var properties: [String: [(Int, PropertyValue)]] = [:]
    /// Tags and properties of the line being read, kept only if it succeeds.
    var lineTags: [String] = []
    var lineProperties: [(String, PropertyValue)] = []
    /// Field and address properties: name → (field or address row, value).
    var fieldProperties: [String: [(Int, PropertyValue)]] = [:]
    var addressProperties: [String: [(Int, PropertyValue)]] = [:]
    var lineFieldProperties: [(String, Int, PropertyValue)] = []
    var lineAddressProperties: [(String, Int, PropertyValue)] = []

    mutating func intern(_ b: [UInt8]) -> StringID { b.withUnsafeBytes { builder.pool.intern($0) } }
  }

  static func parseChunk(_ chunk: InputChunk, options: ReadOptions) -> PartialResult {
    var st = State()
    var errors: [InputError] = []
    var read = 0
    var skipped = 0
    let bytes = chunk.bytes
    var start = 0
    var line = chunk.firstLine
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != ASCII.lf { end += 1 }
      defer {
        start = end + 1
        line += 1
      }
      var s = start
      while s < end && (ASCII.isSpace(bytes[s]) || bytes[s] == ASCII.cr) { s += 1 }
      if s == end { continue }
      if end - start > options.maxLineBytes {
        errors.append(InputError(line: line, reason: "line longer than \(options.maxLineBytes) bytes"))
        skipped += 1
        continue
      }
      var scanner = JSONScanner(bytes, range: start..<end)
      st.builder.beginContact(sourceLine: line)
      st.lineTags.removeAll(keepingCapacity: true)
      st.lineProperties.removeAll(keepingCapacity: true)
      st.lineFieldProperties.removeAll(keepingCapacity: true)
      st.lineAddressProperties.removeAll(keepingCapacity: true)
      do {
        let row = st.builder.rowCount - 1
        try parseContact(&scanner, &st)
        try scanner.finish()
        st.builder.endContact()
        for t in st.lineTags { st.tags[t, default: []].append(row) }
        for (n, v) in st.lineProperties { st.properties[n, default: []].append((row, v)) }
        for (n, r, v) in st.lineFieldProperties { st.fieldProperties[n, default: []].append((r, v)) }
        for (n, r, v) in st.lineAddressProperties { st.addressProperties[n, default: []].append((r, v)) }
        read += 1
      } catch {
        st.builder.discardContact()
        errors.append(InputError(line: line, reason: error.reason))
        skipped += 1
      }
    }
    var table = st.builder.build()
    for (name, rows) in st.tags { table.setTag(name, Bitmap(count: table.rowCount, setting: rows)) }
    for (name, cells) in st.properties {
      // Typed over this chunk; `ContactTable.concatenate` turns a name typed
      // differently in another chunk into text, as one chunk would have.
      let col = DerivedColumn.typed(cells.map { (row: $0.0, value: $0.1) }, rows: table.rowCount, pool: &table.pool)
      table.setColumn(name, col)
    }
    for (name, cells) in st.fieldProperties {
      let col = DerivedColumn.typed(cells.map { (row: $0.0, value: $0.1) }, rows: table.fields.count, pool: &table.pool)
      table.setFieldColumn(name, col)
    }
    for (name, cells) in st.addressProperties {
      let col = DerivedColumn.typed(cells.map { (row: $0.0, value: $0.1) }, rows: table.addresses.count, pool: &table.pool)
      table.setAddressColumn(name, col)
    }
    return PartialResult(
      table: table, errors: errors, recordsRead: read, recordsSkipped: skipped, byteCount: chunk.bytes.count)
  }

  private static func parseContact(_ sc: inout JSONScanner, _ st: inout State) throws(JSONScanner.Failure) {
    guard try sc.peekKind() == .object else { throw JSONScanner.Failure(reason: "line is not a JSON object") }
    try sc.beginObject()
    while try sc.nextKey(into: &st.key) {
      if let a = attributeByKey[st.key] {
        st.s.removeAll(keepingCapacity: true)
        if try sc.readStringOrNull(into: &st.s) { st.builder.set(a, st.intern(st.s)) }
        continue
      }
      switch String(decoding: st.key, as: UTF8.self) {
      case "fields":
        try sc.beginArray()
        while try sc.nextElement() { try parseField(&sc, &st) }
      case "addresses":
        try sc.beginArray()
        while try sc.nextElement() {
          var ids = [StringID](repeating: .absent, count: AddressAttribute.allCases.count)
          try sc.beginObject()
          while try sc.nextKey(into: &st.key2) {
            if let a = addressByKey[st.key2] {
              st.s.removeAll(keepingCapacity: true)
              if try sc.readStringOrNull(into: &st.s) { ids[a.rawValue] = st.intern(st.s) }
            } else if st.key2 == Self.propertiesKey {
              let row = st.builder.table.addresses.count
              for (n, v) in try readProperties(&sc, &st) { st.lineAddressProperties.append((n, row, v)) }
            } else {
              try sc.skipValue()
            }
          }
          st.builder.appendAddress(ids)
        }
      case "extras":
        try sc.beginArray()
        while try sc.nextElement() {
          var name = StringID.absent, group = StringID.absent, params = StringID.absent, value = StringID.absent
          try sc.beginObject()
          while try sc.nextKey(into: &st.key2) {
            st.s.removeAll(keepingCapacity: true)
            switch String(decoding: st.key2, as: UTF8.self) {
            case "name": if try sc.readStringOrNull(into: &st.s) { name = st.intern(st.s) }
            case "group": if try sc.readStringOrNull(into: &st.s) { group = st.intern(st.s) }
            case "parameters": if try sc.readStringOrNull(into: &st.s) { params = st.intern(st.s) }
            case "value": if try sc.readStringOrNull(into: &st.s) { value = st.intern(st.s) }
            default: try sc.skipValue()
            }
          }
          guard name.isPresent else { throw JSONScanner.Failure(reason: "extra property without a name") }
          st.builder.appendExtra(name: name, group: group, parameters: params, value: value)
        }
      case "photo":
        if try sc.peekKind() == .null {
          try sc.skipValue()
          continue
        }
        var media = StringID.absent
        var data: [UInt8] = []
        try sc.beginObject()
        while try sc.nextKey(into: &st.key2) {
          st.s.removeAll(keepingCapacity: true)
          switch String(decoding: st.key2, as: UTF8.self) {
          case "mediaType": if try sc.readStringOrNull(into: &st.s) { media = st.intern(st.s) }
          case "data":
            if try sc.readStringOrNull(into: &st.s) {
              guard Base64.decode(st.s, into: &data) else { throw JSONScanner.Failure(reason: "invalid base64 photo") }
            }
          default: try sc.skipValue()
          }
        }
        if !data.isEmpty { st.builder.setPhoto(data, mediaType: media) }
      case "tags":
        try sc.beginArray()
        while try sc.nextElement() {
          st.s.removeAll(keepingCapacity: true)
          try sc.readString(into: &st.s)
          st.lineTags.append(String(decoding: st.s, as: UTF8.self))
        }
      case "properties":
        st.lineProperties.append(contentsOf: try readProperties(&sc, &st))
      default:
        try sc.skipValue()
      }
    }
  }

  private static func parseField(_ sc: inout JSONScanner, _ st: inout State) throws(JSONScanner.Failure) {
    var kind = FieldKind.other
    var label = StringID.absent, value = StringID.absent, group = StringID.absent, params = StringID.absent
    try sc.beginObject()
    while try sc.nextKey(into: &st.key2) {
      st.s.removeAll(keepingCapacity: true)
      switch String(decoding: st.key2, as: UTF8.self) {
      case "type":
        if try sc.readStringOrNull(into: &st.s) {
          guard let k = FieldKind(name: String(decoding: st.s, as: UTF8.self)) else {
            throw JSONScanner.Failure(reason: "unknown field type")
          }
          kind = k
        }
      case "label": if try sc.readStringOrNull(into: &st.s) { label = st.intern(st.s) }
      case "value": if try sc.readStringOrNull(into: &st.s) { value = st.intern(st.s) }
      case "group": if try sc.readStringOrNull(into: &st.s) { group = st.intern(st.s) }
      case "parameters": if try sc.readStringOrNull(into: &st.s) { params = st.intern(st.s) }
      case "properties":
        let row = st.builder.table.fields.count
        for (n, v) in try readProperties(&sc, &st) { st.lineFieldProperties.append((n, row, v)) }
      default: try sc.skipValue()
      }
    }
    st.builder.appendField(kind: kind, label: label, value: value, group: group, parameters: params)
  }

  private static let propertiesKey = Array("properties".utf8)

  /// A `properties` object: string, integer and boolean values (others are skipped).
  private static func readProperties(
    _ sc: inout JSONScanner, _ st: inout State
  ) throws(JSONScanner.Failure) -> [(String, PropertyValue)] {
    var out: [(String, PropertyValue)] = []
    try sc.beginObject()
    var key: [UInt8] = []
    while try sc.nextKey(into: &key) {
      let name = String(decoding: key, as: UTF8.self)
      switch try sc.peekKind() {
      case .string:
        st.s.removeAll(keepingCapacity: true)
        try sc.readString(into: &st.s)
        out.append((name, .string(String(decoding: st.s, as: UTF8.self))))
      case .number:
        let n = try sc.readNumber()
        out.append((name, Int64(String(decoding: n, as: UTF8.self)).map { .int($0) } ?? .string(String(decoding: n, as: UTF8.self))))
      case .bool:
        out.append((name, .bool(try sc.readBool())))
      default:
        try sc.skipValue()
      }
    }
    return out
  }
}
