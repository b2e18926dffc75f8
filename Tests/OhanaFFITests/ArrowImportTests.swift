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
