import COhanaArrow
import OhanaCore
import Testing

@testable import OhanaFFI

/// The owning types of the Arrow export: buffers, nodes, the structs the
/// consumer releases, the pool dictionary. The oracle is the store itself
/// (the pool's strings, the column's ids), read through its own API, not
/// through the export.
@Suite struct ArrowExportTests {
  /// A small table: three contacts, one without a family name.
  func sample() -> ContactTable {
    var b = ContactTableBuilder()
    for (given, family, phones) in [("Marge", "Simpson", ["+1 541 342 0113"]), ("Lisa", nil, []), ("Gómez", "Addams", ["1", "2"])] {
      b.beginContact(sourceLine: 1)
      b.set(.givenName, given)
      b.set(.familyName, family)
      for p in phones { b.appendField(kind: .phone, value: b.pool.intern(p)) }
      b.endContact()
    }
    return b.build()
  }

  /// The string at dictionary index `i` of an exported dictionary array.
  func dictionaryString(_ d: ArrowArray, _ i: Int) -> String {
    let offsets = d.buffers[1]!.assumingMemoryBound(to: Int32.self)
    let data = d.buffers[2]!.assumingMemoryBound(to: UInt8.self)
    let lo = Int(offsets[i]), hi = Int(offsets[i + 1])
    return String(decoding: UnsafeBufferPointer(start: data + lo, count: hi - lo), as: UTF8.self)
  }

  @Test func poolDictionaryHoldsEveryStringOnceAtIdMinusOne() {
    let t = sample()
    let d = PoolDictionary(t.pool).node
    #expect(d.format == "u")
    #expect(d.length == t.pool.count - 1)
    var a = ArrowArray()
    d.exportArray(to: &a)
    defer { a.release?(&a) }
    for id in 1..<t.pool.count {
      #expect(dictionaryString(a, id - 1) == t.pool.string(StringID(rawValue: UInt32(id))))
    }
    let offsets = a.buffers[1]!.assumingMemoryBound(to: Int32.self)
    #expect(offsets[0] == 0)
    for i in 0..<d.length { #expect(offsets[i] <= offsets[i + 1]) }
  }

  @Test func stringColumnIndicesAndNullsFollowTheIds() {
    let t = sample()
    let dictionary = PoolDictionary(t.pool)
    let node = ColumnExport.strings("familyName", t[.familyName], dictionary: dictionary)
    var a = ArrowArray()
    node.exportArray(to: &a)
    defer { a.release?(&a) }
    #expect(a.length == 3)
    #expect(a.null_count == 1)
    #expect(a.n_buffers == 2)
    let validity = a.buffers[0]!.assumingMemoryBound(to: UInt8.self)
    let indices = a.buffers[1]!.assumingMemoryBound(to: Int32.self)
    let dict = a.dictionary!.pointee
    for row in 0..<3 {
      let expected = t.pool.string(t[.familyName][row])
      let isValid = validity[row >> 3] & (1 << UInt8(row & 7)) != 0
      #expect(isValid == (expected != nil))
      if let expected { #expect(dictionaryString(dict, Int(indices[row])) == expected) }
    }
  }

  @Test func releaseFreesTheBuffersAndMarksTheStructReleased() {
    weak var buffer: ArrowBuffer?
    var a = ArrowArray()
    var s = ArrowSchema()
    do {
      let b = ArrowBuffer.filled(Int32.self, count: 4) { for i in 0..<4 { $0[i] = Int32(i) } }
      buffer = b
      let node = ArrowNode.recordBatch([ArrowNode(format: "i", name: "x", length: 4, buffers: [nil, b])], length: 4)
      node.exportArray(to: &a)
      node.exportSchema(to: &s)
    }
    #expect(buffer != nil, "the exported array keeps its buffer alive")
    #expect(String(cString: s.format) == "+s")
    #expect(String(cString: s.children![0]!.pointee.name) == "x")
    a.release?(&a)
    s.release?(&s)
    #expect(a.release == nil && s.release == nil)
    #expect(buffer == nil, "released: the buffer is freed")
  }

  @Test func aMovedChildOutlivesItsParent() {
    weak var buffer: ArrowBuffer?
    var parent = ArrowArray()
    do {
      let b = ArrowBuffer.filled(Int64.self, count: 2) { $0[0] = 7; $0[1] = 9 }
      buffer = b
      ArrowNode.recordBatch([ArrowNode(format: "l", name: "x", length: 2, buffers: [nil, b])], length: 2)
        .exportArray(to: &parent)
    }
    // Move child 0 out, as the specification allows: copy, then mark the original released.
    var child = parent.children![0]!.pointee
    parent.children![0]!.pointee.release = nil
    parent.release?(&parent)
    #expect(buffer != nil, "the moved child still holds its buffer")
    #expect(child.buffers[1]!.assumingMemoryBound(to: Int64.self)[1] == 9)
    child.release?(&child)
    #expect(buffer == nil)
  }

  @Test func exportedContactsBatchHasOneColumnPerAttributeAndEveryRow() throws {
    let t = sample()
    let node = try TableExport(table: t).export(.contacts)
    #expect(node.length == 3)
    #expect(node.children.map(\.name).prefix(4) == ["uid", "fullName", "givenName", "familyName"])
    #expect(node.children.allSatisfy { $0.length == 3 })
    let fields = try TableExport(table: t).export(.fields)
    #expect(fields.length == t.fields.count)
    let owners = fields.children[0].buffers[1]!.base.assumingMemoryBound(to: Int32.self)
    #expect((0..<fields.length).map { Int(owners[$0]) } == [0, 2, 2])
  }

  @Test func bitmapsKeepTheStoreBitOrder() {
    var bits = Bitmap(count: 70)
    for r in [0, 3, 64, 69] { bits.insert(r) }
    let (b, nulls) = ColumnExport.bitmap(bits)
    #expect(nulls == 66)
    for r in 0..<70 { #expect(b.bit(r) == bits.contains(r)) }
  }
}

/// The uid column: UUIDs written back in the form they were read in, the
/// other uids as they are; the oracle is the table's own `uid(at:)`.
@Suite struct UIDExportTests {
  @Test func everyFormAndPlainUIDsComeOutAsRead() throws {
    let uids: [String?] = [
      "2f5d4a59-573b-4bcd-aa21-19495a7561cd", "2F5D4A59-573B-4BCD-AA21-19495A7561CD",
      "urn:uuid:8540f030-2035-4b10-af4d-ffe6605643df", "URN:UUID:8540F030-2035-4B10-AF4D-FFE6605643DF",
      "ohana-example-marge", nil, "", "Ünïcode-uid",
    ]
    var b = ContactTableBuilder()
    for u in uids {
      b.beginContact()
      b.set(.uid, u)
      b.endContact()
    }
    var t = b.build()
    t.packUUIDs()
    #expect(t.uuids.uuidCount == 4)
    let node = try ColumnExport.uids("uid", t)
    var a = ArrowArray()
    node.exportArray(to: &a)
    defer { a.release?(&a) }
    let offsets = a.buffers[1]!.assumingMemoryBound(to: Int32.self)
    let data = a.buffers[2]!.assumingMemoryBound(to: UInt8.self)
    let validity = a.buffers[0]?.assumingMemoryBound(to: UInt8.self)
    for row in 0..<uids.count {
      let isValid = validity.map { $0[row >> 3] & (1 << UInt8(row & 7)) != 0 } ?? true
      let text = String(
        decoding: UnsafeBufferPointer(start: data + Int(offsets[row]), count: Int(offsets[row + 1] - offsets[row])),
        as: UTF8.self)
      #expect((isValid ? text : nil) == t.uid(at: row), "row \(row)")
    }
  }
}
