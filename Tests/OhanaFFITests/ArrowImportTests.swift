import COhanaArrow
import OhanaCore
import Testing

@testable import OhanaFFI

/// Arrow in: batches the engine exported (or built by hand) read back into
/// a table; bad batches give an error, never a crash.
@Suite struct ArrowImportTests {
  func utf8(_ name: String, _ values: [String?]) -> ArrowNode {
    var data: [UInt8] = []
    var offsets: [Int32] = [0]
    let valid = ArrowBuffer.bitmap(count: values.count)
    var nulls = 0
    for (i, v) in values.enumerated() {
      if let v { data += Array(v.utf8); valid.setBit(i) } else { nulls += 1 }
      offsets.append(Int32(data.count))
    }
    return ArrowNode(
      format: "u", name: name, length: values.count, nullCount: nulls,
      buffers: [valid, offsets.withUnsafeBytes { ArrowBuffer.copy($0) }, data.withUnsafeBytes { ArrowBuffer.copy($0) }])
  }

  func int32(_ name: String, _ values: [Int32]) -> ArrowNode {
    ArrowNode(format: "i", name: name, length: values.count, buffers: [nil, values.withUnsafeBytes { ArrowBuffer.copy($0) }])
  }

  func build(_ contacts: ArrowNode, fields: ArrowNode? = nil) throws(FFIError) -> ContactTable {
    let cs = UnsafeMutablePointer<ArrowSchema>.allocate(capacity: 1)
    let ca = UnsafeMutablePointer<ArrowArray>.allocate(capacity: 1)
    let fs = UnsafeMutablePointer<ArrowSchema>.allocate(capacity: 1)
    let fa = UnsafeMutablePointer<ArrowArray>.allocate(capacity: 1)
    defer { cs.deallocate(); ca.deallocate(); fs.deallocate(); fa.deallocate() }
    contacts.exportSchema(to: cs)
    contacts.exportArray(to: ca)
    if let fields {
      fields.exportSchema(to: fs)
      fields.exportArray(to: fa)
    }
    let t = try ImportedBatch.with(schema: cs, array: ca, part: "contacts") { c throws(FFIError) in
      try ImportedBatch.with(schema: fields == nil ? nil : fs, array: fields == nil ? nil : fa, part: "fields") { f throws(FFIError) in
        try TableImport.build(contacts: c, fields: f, addresses: ImportedBatch(length: 0, columns: [:]))
      }
    }
    // The importer released what it was given.
    #expect(ca.pointee.release == nil && cs.pointee.release == nil)
    return t
  }

  @Test func contactsAndFieldsInAnyOrderGoToTheirContacts() throws {
    let contacts = ArrowNode.recordBatch([utf8("fullName", ["Ann", nil, "Bo"]), utf8("ignored", ["x", "y", "z"])], length: 3)
    let fields = ArrowNode.recordBatch(
      [int32("contact", [2, 0, 2]), utf8("type", ["email", "phone", "phone"]), utf8("value", ["b@x", "1", "2"])], length: 3)
    let t = try build(contacts, fields: fields)
    #expect(t.rowCount == 3)
    #expect((0..<3).map { t.string(.fullName, at: $0) } == ["Ann", nil, "Bo"])
    let c = t.contacts
    #expect(c[0].fields.map(\.value) == ["1"])
    #expect(c[1].fields.isEmpty)
    #expect(c[2].fields.map(\.value) == ["b@x", "2"])
    #expect(c[2].fields.map(\.kind) == [.email, .phone])
  }

  /// What the engine exports (dictionary columns over one pool, int8
  /// field types) goes back in as the same contacts.
  @Test func anExportedTableComesBackAsTheSameContacts() throws {
    var b = ContactTableBuilder()
    for i in 0..<300 {
      b.beginContact()
      b.set(.fullName, "Person \(i % 17)")
      b.set(.familyName, i % 3 == 0 ? nil : "Family \(i % 5)")
      b.set(.uid, i % 7 == 0 ? nil : "uid-\(i)")
      for k in 0..<(i % 3) {
        b.appendField(kind: k == 0 ? .phone : .email, label: b.pool.intern("home"), value: b.pool.intern("v\(i)-\(k)"))
      }
      if i % 4 == 0 { b.appendAddress(street: b.pool.intern("\(i) Main St"), country: b.pool.intern("US")) }
      b.endContact()
    }
    let original = b.build()
    let export = TableExport(table: original)
    let parts = try [TablePart.contacts, .fields, .addresses].map { p throws(FFIError) in try export.export(p) }
    let schemas = (0..<3).map { _ in UnsafeMutablePointer<ArrowSchema>.allocate(capacity: 1) }
    let arrays = (0..<3).map { _ in UnsafeMutablePointer<ArrowArray>.allocate(capacity: 1) }
    defer { schemas.forEach { $0.deallocate() }; arrays.forEach { $0.deallocate() } }
    for i in 0..<3 {
      parts[i].exportSchema(to: schemas[i])
      parts[i].exportArray(to: arrays[i])
    }
    let back = try ImportedBatch.with(schema: schemas[0], array: arrays[0], part: "contacts") { c throws(FFIError) in
      try ImportedBatch.with(schema: schemas[1], array: arrays[1], part: "fields") { f throws(FFIError) in
        try ImportedBatch.with(schema: schemas[2], array: arrays[2], part: "addresses") { a throws(FFIError) in
          try TableImport.build(contacts: c, fields: f, addresses: a)
        }
      }
    }
    #expect(back.rowCount == original.rowCount)
    let o = original.contacts, g = back.contacts
    for r in 0..<o.count {
      #expect(g[r].fullName == o[r].fullName && g[r].familyName == o[r].familyName && g[r].uid == o[r].uid)
      #expect(g[r].fields.map(\.value) == o[r].fields.map(\.value))
      #expect(g[r].fields.map(\.kind) == o[r].fields.map(\.kind))
      #expect(g[r].fields.map(\.label) == o[r].fields.map(\.label))
      #expect(g[r].addresses.map(\.street) == o[r].addresses.map(\.street))
    }
  }

  @Test func aDictionaryIndexOutOfRangeIsAnError() {
    let dict = utf8("", ["a", "b"])
    let indices: [Int32] = [0, 5]
    let column = ArrowNode(
      format: "i", name: "fullName", length: 2, buffers: [nil, indices.withUnsafeBytes { ArrowBuffer.copy($0) }],
      dictionary: dict)
    #expect(throws: FFIError.self) { try build(ArrowNode.recordBatch([column], length: 2)) }
  }

  @Test func aChildNamingNoContactIsAnError() {
    let contacts = ArrowNode.recordBatch([utf8("fullName", ["Ann"])], length: 1)
    let fields = ArrowNode.recordBatch([int32("contact", [1]), utf8("value", ["1"])], length: 1)
    #expect(throws: FFIError.self) { try build(contacts, fields: fields) }
  }

  @Test func decreasingOffsetsAreAnError() {
    let offsets: [Int32] = [0, 3, 1]
    let data = Array("abc".utf8)
    let bad = ArrowNode(
      format: "u", name: "fullName", length: 2,
      buffers: [nil, offsets.withUnsafeBytes { ArrowBuffer.copy($0) }, data.withUnsafeBytes { ArrowBuffer.copy($0) }])
    #expect(throws: FFIError.self) { try build(ArrowNode.recordBatch([bad], length: 2)) }
  }

  @Test func notARecordBatchIsAnError() {
    #expect(throws: FFIError.self) { try build(utf8("fullName", ["a"])) }
  }
}
