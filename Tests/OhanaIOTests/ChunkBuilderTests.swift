import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaIO

/// The vCard parser's raw-column builder against the public
/// `ContactTableBuilder`: the same calls give the same table.
@Suite struct ChunkBuilderTests {
  @Test func constantsMatchTheEnums() {
    #expect(ChunkBuilder.attributeCount == ContactAttribute.allCases.count)
    #expect(ChunkBuilder.addressWidth == AddressAttribute.allCases.count)
  }

  @Test(arguments: [1, 7, 42]) func randomCallsGiveTheSameTable(seed: UInt64) {
    var rng = SeededRandom(seed: seed)
    // A small start so that every column grows many times.
    var fast = ChunkBuilder(contacts: 1, fields: 1, addresses: 1)
    var reference = ContactTableBuilder()
    func id() -> StringID { StringID(rawValue: UInt32(rng.next() % 50)) }
    for _ in 0..<3000 {
      switch rng.next() % 16 {
      case 0...2:
        let line = Int(rng.next() % 100_000)
        fast.beginContact(sourceLine: line)
        reference.beginContact(sourceLine: line)
      case 3...5:
        let a = ContactAttribute.allCases[Int(rng.next() % UInt64(ContactAttribute.allCases.count))]
        let v = id()
        fast.set(a, v)
        reference.set(a, v)
      case 6...8:
        let kind = FieldKind.allCases[Int(rng.next() % UInt64(FieldKind.allCases.count))]
        let (l, v, g, p) = (id(), id(), id(), id())
        fast.appendField(kind: kind, label: l, value: v, group: g, parameters: p)
        reference.appendField(kind: kind, label: l, value: v, group: g, parameters: p)
      case 9:
        let v = (0..<10).map { _ in id() }
        fast.appendAddress(
          label: v[0], street: v[1], locality: v[2], region: v[3], postalCode: v[4], country: v[5],
          poBox: v[6], extended: v[7], group: v[8], parameters: v[9])
        reference.appendAddress(v)
      case 10:
        let (n, g, p, v) = (id(), id(), id(), id())
        fast.appendExtra(name: n, group: g, parameters: p, value: v)
        reference.appendExtra(name: n, group: g, parameters: p, value: v)
      case 11:
        // The parser sets a photo only when none is set yet.
        let taken = !reference.inContact || !(reference.table.photo.last?.isNone ?? false)
        #expect(fast.photoTaken == taken)
        if !taken {
          let bytes = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
          let media = id()
          fast.setPhoto(bytes, mediaType: media)
          reference.setPhoto(bytes, mediaType: media)
        }
      case 12:
        fast.discardContact()
        reference.discardContact()
      default:
        fast.endContact()
        reference.endContact()
      }
      #expect(fast.rowCount == reference.rowCount)
      #expect(fast.inContact == reference.inContact)
    }
    let a = fast.buildDeferred(idLimit: 50)
    let b = reference.buildDeferred()
    #expect(a.rowCount == b.rowCount)
    #expect(a.attributes == b.attributes)
    #expect(a.photo == b.photo)
    #expect(a.sourceLine == b.sourceLine)
    #expect(a.fieldOffsets == b.fieldOffsets)
    #expect(a.fieldKinds == b.fieldKinds)
    #expect(a.addressOffsets == b.addressOffsets)
    #expect(a.extraOffsets == b.extraOffsets)
    #expect(a.fields.kind == b.fields.kind)
    #expect(a.fields.label == b.fields.label)
    #expect(a.fields.value == b.fields.value)
    #expect(a.fields.group == b.fields.group)
    #expect(a.fields.parameters == b.fields.parameters)
    #expect(a.addresses.columns == b.addresses.columns)
    #expect(a.extras.name == b.extras.name)
    #expect(a.extras.group == b.extras.group)
    #expect(a.extras.parameters == b.extras.parameters)
    #expect(a.extras.value == b.extras.value)
    for r in 0..<min(a.rowCount, b.rowCount) where !a.photo[r].isNone {
      #expect(a.blobs.withData(a.photo[r]) { Array($0) } == b.blobs.withData(b.photo[r]) { Array($0) })
      #expect(a.blobs.mediaType(a.photo[r]) == b.blobs.mediaType(b.photo[r]))
    }
    #expect(a.rowCount > 100, "the sequence should build many contacts")
  }

  /// Appends past every capacity, then truncates, on the column type itself.
  @Test func rawColumnGrowsAndTruncates() {
    var column = RawColumn<UInt32>(capacity: 0)
    defer { column.free() }
    for i in 0..<10_000 { column.append(UInt32(i)) }
    column.append(7, times: 5000)
    #expect(column.count == 15_000)
    #expect(column.capacity >= 15_000)
    #expect(column.get(9_999) == 9_999 && column.get(14_999) == 7)
    column.truncate(to: 3)
    column.truncate(to: 10)  // longer than the column: no change
    #expect(column.array { $0 } == [0, 1, 2])
    column.set(1, 9)
    #expect(column.last == 2 && column.get(1) == 9)
  }
}
