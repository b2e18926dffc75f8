import Testing
import OhanaCore
@testable import OhanaProcessors
import _OhanaTestSupport

func run(_ p: some PostProcessor, _ frame: Frame) throws -> Frame {
  try p.process(frame, context: ProcessingContext())
}

@Suite struct ProcessorTests {
  let contacts: [Contact] = [
    Contact(uid: "a", givenName: "Homer", familyName: "Simpson",
            fields: [ContactField(kind: .phone, label: "home", value: "1"), ContactField(kind: .phone, label: "iPhone", value: "2"),
                     ContactField(kind: .email, value: "h@x")],
            addresses: [PostalAddress(street: "742 Evergreen")]),
    Contact(uid: "b", givenName: "Mom", fields: [ContactField(kind: .email, value: "m@x")]),
    Contact(uid: "c", givenName: "Gomez", familyName: "Addams", photo: Photo(data: [1]),
            fields: [ContactField(kind: .phone, label: "_$!<Mobile>!$_", value: "3")]),
    Contact(uid: "d", fields: [ContactField(kind: .url, value: "u")], addresses: [PostalAddress(locality: "x")]),
  ]
  var frame: Frame { Frame(table: ContactTable(contacts: contacts)) }
  func uids(_ f: Frame) -> [String] { f.contacts.compactMap(\.uid) }

  @Test func reverse() throws {
    #expect(uids(try run(ReverseOrder(), frame)) == ["d", "c", "b", "a"])
    let filtered = try run(RequiredField(.phone), frame)
    #expect(uids(try run(ReverseOrder(), filtered)) == ["c", "a"])
  }

  @Test func requiredField() throws {
    #expect(uids(try run(RequiredField(.phone), frame)) == ["a", "c"])
    #expect(uids(try run(RequiredField(.email), frame)) == ["a", "b"])
    #expect(uids(try run(RequiredField(.url), frame)) == ["d"])
    #expect(uids(try run(RequiredField(.impp), frame)) == [])
    #expect(uids(try run(RequiredField(.familyName), frame)) == ["a", "c"])
    #expect(uids(try run(RequiredField(.photo), frame)) == ["c"])
    #expect(Requirement(name: "address") == .postalAddress)
    #expect(Requirement(name: "givenName") == .givenName)
    #expect(Requirement(name: "nope") == nil)
  }

  @Test func requiredPostalAddress() throws {
    #expect(uids(try run(RequiredPostalAddress(), frame)) == ["a", "d"])
  }

  @Test func filtersKeepTableAndOrder() throws {
    var f = frame
    f.order = [3, 2, 1, 0]
    let out = try run(RequiredField(.phone), f)
    #expect(out.table.rowsIdentity == f.table.rowsIdentity)
    #expect(uids(out) == ["c", "a"])
  }

  @Test func splitOnFieldType() throws {
    let out = try run(SplitOnFieldType(.phone), frame)
    let cs = out.contacts
    #expect(cs.map(\.uid) == ["a", "a", "c"])
    #expect(cs.map { $0.fields.map(\.value) } == [["1"], ["2"], ["3"]])
    #expect(cs[0].addresses.count == 1)
    #expect(cs[2].photo != nil)
    #expect(cs.map { $0.properties[SplitOnFieldType.sourceRowColumn] } == [.int(0), .int(0), .int(2)])
    #expect(out.table.rowsIdentity != frame.table.rowsIdentity)
    // Follows the frame's order and selection.
    var f = frame
    f.order = [2, 1, 0]
    #expect(try run(SplitOnFieldType(.phone), f).contacts.map { $0.fields[0].value } == ["3", "1", "2"])
  }

  @Test func statistics() throws {
    let out = try run(Statistics(), frame)
    let p = out.contacts.map(\.properties)
    #expect(p[0][Statistics.fieldCount] == .int(3))
    #expect(p[0][Statistics.phoneCount] == .int(2))
    #expect(p[0][Statistics.emailCount] == .int(1))
    #expect(p[0][Statistics.hasMobile] == .bool(true))
    #expect(p[1][Statistics.hasMobile] == .bool(false))
    #expect(p[2][Statistics.hasMobile] == .bool(true))
    #expect(p[3][Statistics.fieldCount] == .int(1))
    #expect(Statistics().role == .optional)
    for label in ["cell", "CELL", "Mobile", "iPhone", "IPHONE", "work,cell", "_$!<Mobile>!$_"] {
      #expect(Statistics.isMobileLabel(label), "\(label)")
    }
    for label in ["home", "cellar", "mobil", "", "phone"] { #expect(!Statistics.isMobileLabel(label), "\(label)") }
  }

  @Test func composites() throws {
    let phone = RequiredField(.phone), email = RequiredField(.email), address = RequiredPostalAddress()
    #expect(uids(try run(CompositeAnd([phone, email]), frame)) == ["a"])
    #expect(uids(try run(CompositeOr([phone, email]), frame)) == ["a", "b", "c"])
    #expect(uids(try run(CompositeXor([phone, email]), frame)) == ["b", "c"])
    // Nested: (phone AND email) OR address  -> a, d
    #expect(uids(try run(CompositeOr([CompositeAnd([phone, email]), address]), frame)) == ["a", "d"])
    // XOR of three: odd count. a: phone,email,address (3) ; b: email(1); c: phone(1); d: address(1)
    #expect(uids(try run(CompositeXor([phone, email, address]), frame)) == ["a", "b", "c", "d"])
    // Respects an existing selection and order.
    var f = frame
    f.order = [3, 2, 1, 0]
    f = f.narrowed(to: Bitmap(count: 4, setting: [0, 1, 2]))
    #expect(uids(try run(CompositeOr([phone, address]), f)) == ["c", "a"])
    #expect(try run(CompositeAnd([]), frame).count == 4)
  }

  @Test func compositeRejectsRowChangingChildren() {
    #expect(throws: ProcessorError.self) { try run(CompositeAnd([SplitOnFieldType(.phone)]), frame) }
  }

  @Test func mapProcessors() throws {
    let rows = MapProcessor.rows("full_name") { c in
      c.fullName = [c.givenName, c.familyName].compactMap { $0 }.joined(separator: " ")
    }
    let out = try run(rows, try run(RequiredField(.familyName), frame))
    #expect(out.contacts.map(\.fullName) == ["Homer Simpson", "Gomez Addams"])
    let cols = MapProcessor.columns("flag") { f, ctx in
      let n = f.table.rowCount
      f.table.setColumn("flag", .bool(Bitmap(count: n, allSet: true), valid: Bitmap(count: n, allSet: true)))
      ctx.count("flagged", n)
    }
    let out2 = try run(cols, frame)
    #expect(out2.contacts.allSatisfy { $0.properties["flag"] == .bool(true) })
    #expect(cols.role == .optional)
  }
}
