import OhanaCore

/// Which record batch of a table to export (the C enum `OHANA_PART_*`).
enum TablePart: Int32 {
  case contacts = 0, fields, addresses, fieldOffsets, addressOffsets, extras
}

/// A ``ContactTable`` as Arrow record batches.
///
/// - contacts: `uid` (utf8), the name and organization attributes, `birthday`,
///   `note`, `source` (the file it was read from) as dictionary columns,
///   `sourceLine` (uint32, 0 = unknown), then the derived columns over
///   contacts (`stats.phoneCount`...), in the order they were added;
/// - fields: `contact` (int32, the contact's row), `type` (`phone`,
///   `email`, `url`, `impp`, `other`), `label`, `value`, `group`,
///   `parameters`, then the derived columns over fields (`phone.e164`...);
/// - addresses: `contact`, then one column per ``AddressAttribute``, then
///   derived columns over addresses;
/// - field and address offsets: one int32 column of rows + 1 offsets, for
///   building list columns without copying (contact `r` owns child rows
///   `offsets[r] ..< offsets[r + 1]`);
/// - extras: `contact`, `name`, `group`, `parameters`, `value`: every vCard
///   property the model has no column for, as read (values in vCard text
///   syntax).
///
/// Column names are those of the NDJSON writer.
struct TableExport {
  static let attributeNames: [(ContactAttribute, String)] = [
    (.fullName, "fullName"), (.givenName, "givenName"), (.familyName, "familyName"),
    (.middleName, "middleName"), (.prefix, "prefix"), (.suffix, "suffix"), (.nickname, "nickname"),
    (.organization, "organization"), (.department, "department"), (.jobTitle, "jobTitle"),
    (.birthday, "birthday"), (.note, "note"), (.sourceProvider, "source"),
  ]

  static let addressNames: [(AddressAttribute, String)] = [
    (.label, "label"), (.street, "street"), (.locality, "locality"), (.region, "region"),
    (.postalCode, "postalCode"), (.country, "country"), (.poBox, "poBox"), (.extended, "extended"),
    (.group, "group"), (.parameters, "parameters"),
  ]

  let table: ContactTable
  /// The table's pool as a dictionary, when one was built already (see
  /// ``TableHandle/dictionary()``); else built here.
  var dictionary: PoolDictionary? = nil

  /// The record batch of `part`.
  /// - Throws: ``FFIError`` when the pool has more ids than 32-bit indices reach.
  func export(_ part: TablePart) throws(FFIError) -> ArrowNode {
    switch part {
    case .fieldOffsets:
      return .recordBatch([ColumnExport.int32("offsets", table.fieldOffsets)], length: table.fieldOffsets.count)
    case .addressOffsets:
      return .recordBatch([ColumnExport.int32("offsets", table.addressOffsets)], length: table.addressOffsets.count)
    default: break
    }
    guard table.pool.count - 1 <= Int(Int32.max) else {
      throw FFIError(.arrow, "more distinct strings than 32-bit dictionary indices reach")
    }
    let dictionary = self.dictionary ?? PoolDictionary(table.pool)
    let t = table
    var jobs: [@Sendable () -> ArrowNode] = []
    // The uid column can fail (more than 2 GiB of text); it runs beside the others.
    var uid: (@Sendable () -> Result<ArrowNode, FFIError>)? = nil
    let rows: Int
    switch part {
    case .contacts:
      rows = t.rowCount
      uid = { () -> Result<ArrowNode, FFIError> in
        do throws(FFIError) { return .success(try ColumnExport.uids("uid", t)) } catch { return .failure(error) }
      }
      for (a, name) in Self.attributeNames {
        jobs.append { ColumnExport.strings(name, t[a], dictionary: dictionary) }
      }
      jobs.append { ColumnExport.uint32("sourceLine", t.sourceLine) }
      for name in t.annotations.columnNames {
        guard let c = t.annotations[column: name] else { continue }
        jobs.append { ColumnExport.derived(name, c, dictionary: dictionary) }
      }
    case .fields:
      rows = t.fields.count
      jobs.append { ColumnExport.int32("contact", t.fieldOwners()) }
      jobs.append { Self.fieldTypes(t.fields.kind) }
      jobs.append { ColumnExport.strings("label", t.fields.label, dictionary: dictionary) }
      jobs.append { ColumnExport.strings("value", t.fields.value, dictionary: dictionary) }
      jobs.append { ColumnExport.strings("group", t.fields.group, dictionary: dictionary) }
      jobs.append { ColumnExport.strings("parameters", t.fields.parameters, dictionary: dictionary) }
      for name in t.fields.annotations.columnNames {
        guard let c = t.fields.annotations[column: name] else { continue }
        jobs.append { ColumnExport.derived(name, c, dictionary: dictionary) }
      }
    case .addresses:
      rows = t.addresses.count
      jobs.append { ColumnExport.int32("contact", Self.owners(t.addressOffsets, count: t.addresses.count)) }
      for (a, name) in Self.addressNames {
        jobs.append { ColumnExport.strings(name, t.addresses[a], dictionary: dictionary) }
      }
      for name in t.addresses.annotations.columnNames {
        guard let c = t.addresses.annotations[column: name] else { continue }
        jobs.append { ColumnExport.derived(name, c, dictionary: dictionary) }
      }
    case .extras:
      rows = t.extras.count
      jobs.append { ColumnExport.int32("contact", Self.owners(t.extraOffsets, count: t.extras.count)) }
      jobs.append { ColumnExport.strings("name", t.extras.name, dictionary: dictionary) }
      jobs.append { ColumnExport.strings("group", t.extras.group, dictionary: dictionary) }
      jobs.append { ColumnExport.strings("parameters", t.extras.parameters, dictionary: dictionary) }
      jobs.append { ColumnExport.strings("value", t.extras.value, dictionary: dictionary) }
    case .fieldOffsets, .addressOffsets:
      rows = 0
    }
    let uidResult = ResultSlots<Result<ArrowNode, FFIError>>(count: 1)
    let results = ResultSlots<ArrowNode>(count: jobs.count)
    let builders = jobs
    Parallel.forEach(builders.count + (uid == nil ? 0 : 1)) { i in
      if i < builders.count {
        results.set(i, builders[i]())
      } else if let uid {
        uidResult.set(0, uid())
      }
    }
    var columns = results.values()
    if let r = uidResult.value(0) { columns.insert(try r.get(), at: 0) }
    return .recordBatch(columns, length: rows)
  }

  /// For each child row, the contact that owns it (from CSR offsets).
  static func owners(_ offsets: [UInt32], count: Int) -> [UInt32] {
    var out = [UInt32](repeating: 0, count: count)
    for r in 0..<max(0, offsets.count - 1) {
      let lo = min(count, Int(offsets[r])), hi = min(count, Int(offsets[r + 1]))
      if lo < hi { for i in lo..<hi { out[i] = UInt32(truncatingIfNeeded: r) } }
    }
    return out
  }

  /// Field kinds as `dictionary<int8, utf8>` over the kinds' names.
  static func fieldTypes(_ kinds: [FieldKind]) -> ArrowNode {
    let names = FieldKind.allCases.sorted { $0.rawValue < $1.rawValue }
    let maxRaw = Int(names.last?.rawValue ?? 0)
    var text: [UInt8] = []
    var ends: [Int32] = [0]
    for raw in 0...maxRaw {
      if let k = FieldKind(rawValue: UInt8(raw)) { text.append(contentsOf: k.name.utf8) }
      ends.append(Int32(text.count))
    }
    let dict = ArrowNode(
      format: "u", nullable: false, length: maxRaw + 1,
      buffers: [nil, ends.withUnsafeBytes { ArrowBuffer.copy($0) }, text.withUnsafeBytes { ArrowBuffer.copy($0) }])
    let indices = ArrowBuffer.filled(Int8.self, count: kinds.count) { out in
      for i in kinds.indices { out[i] = Int8(truncatingIfNeeded: kinds[i].rawValue) }
    }
    return ArrowNode(format: "c", name: "type", nullable: false, length: kinds.count, buffers: [nil, indices], dictionary: dict)
  }
}
