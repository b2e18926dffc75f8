import Foundation
import Testing
@testable import OhanaCore
import _OhanaTestSupport

@Suite struct ContactTableTests {
  func sample() -> [Contact] {
    [
      Contact(uid: "1", fullName: "Homer Simpson", givenName: "Homer", familyName: "Simpson",
              photo: Photo(data: [1, 2, 3], mediaType: "image/png"), sourceLine: 1,
              fields: [ContactField(kind: .phone, label: "cell", value: "+1 555 0100", group: "item1", parameters: "TYPE=cell"),
                       ContactField(kind: .email, label: "work", value: "homer@example.com")],
              addresses: [PostalAddress(label: "home", street: "742 Evergreen Terrace", locality: "Springfield", postalCode: "49007")],
              extras: [ExtraProperty(name: "X-ABLabel", group: "item1", value: "mobile")],
              properties: ["score": .int(3), "vip": .bool(true), "note": .string("x")], tags: ["family"]),
      Contact(uid: "2", givenName: "Mom", sourceLine: 9),
      Contact(uid: "3", fullName: "Gomez Addams", fields: [ContactField(kind: .url, value: "https://addams.example", properties: ["checked": .bool(false)], tags: ["web"])]),
    ]
  }

  @Test func rowViewsRoundTrip() {
    let contacts = sample()
    let table = ContactTable(contacts: contacts)
    table.checkInvariants()
    #expect(table.rowCount == 3)
    #expect(table.fields.count == 3)
    #expect(table.addresses.count == 1)
    #expect(table.extras.count == 1)
    #expect(table.contacts == contacts)
    #expect(table.fieldRange(of: 0) == 0..<2)
    #expect(table.fieldRange(of: 1) == 2..<2)
    #expect(table.fieldOwners() == [0, 0, 2])
  }

  /// The per-contact field-kind summary follows the fields through the
  /// builder, gathering and concatenation.
  @Test func fieldKindSummaryFollowsTheFields() {
    let phone: UInt8 = 1 << FieldKind.phone.rawValue, email: UInt8 = 1 << FieldKind.email.rawValue
    let url: UInt8 = 1 << FieldKind.url.rawValue
    let table = ContactTable(contacts: sample())
    #expect(table.fieldKinds == [phone | email, 0, url])
    #expect(table.gathering(rows: [2, 0, 2]).fieldKinds == [url, phone | email, url])
    #expect(table.gathering(rows: [1], includeFields: false).fieldKinds == [0])
    let both = ContactTable.concatenate([table, table.gathering(rows: [2])])
    #expect(both.fieldKinds == [phone | email, 0, url, url])
    #expect(both.fieldKinds == ContactTable.kindMasks(offsets: both.fieldOffsets, kinds: both.fields.kind))
  }

  @Test func codableRowViews() throws {
    let contacts = sample()
    let data = try JSONEncoder().encode(contacts)
    let back = try JSONDecoder().decode([Contact].self, from: data)
    #expect(back == contacts)
  }

  @Test func builderDiscardDropsTheOpenContact() {
    var b = ContactTableBuilder()
    b.beginContact(sourceLine: 1)
    b.set(.fullName, "Kept")
    b.appendField(kind: .phone, value: b.pool.intern("1"))
    b.endContact()
    b.beginContact(sourceLine: 5)
    b.set(.fullName, "Dropped")
    b.appendField(kind: .email, value: b.pool.intern("x@y"))
    b.appendAddress(street: b.pool.intern("s"))
    b.appendExtra(name: b.pool.intern("X-A"), value: b.pool.intern("v"))
    b.setPhoto([1], mediaType: .absent)
    b.discardContact()
    b.beginContact(sourceLine: 9)
    b.set(.fullName, "Also kept")
    let t = b.build()
    t.checkInvariants()
    #expect(t.rowCount == 2)
    #expect(t.fields.count == 1)
    #expect(t.addresses.count == 0 && t.extras.count == 0)
    #expect(t.contacts.map(\.fullName) == ["Kept", "Also kept"])
    #expect(t.sourceLine == [1, 9])
  }

  @Test func gatheringKeepsChildRowsAndAnnotations() {
    let t = ContactTable(contacts: sample())
    let g = t.gathering(rows: [2, 0])
    g.checkInvariants()
    #expect(g.contacts == [sample()[2], sample()[0]])
    #expect(g.rowsIdentity != t.rowsIdentity || g.rowCount == t.rowCount)
  }

  @Test func concatenateRemapsStrings() {
    let a = ContactTable(contacts: Array(sample().prefix(2)))
    var extra = sample()[2]
    extra.properties["score"] = .int(7)
    let b = ContactTable(contacts: [extra, sample()[0]])
    let c = ContactTable.concatenate([a, b])
    c.checkInvariants()
    var expected = Array(sample().prefix(2)) + [extra, sample()[0]]
    // Columns that only some rows have: no value elsewhere.
    expected[2].properties["score"] = .int(7)
    #expect(c.contacts == expected)
    #expect(c.pool.lookup("Homer Simpson") != nil)
  }

  @Test func derivedColumnsAndTags() {
    var t = ContactTable(contacts: sample())
    t.setColumn("len", .int([1, 2, 3], valid: Bitmap(count: 3, setting: [0, 2])))
    t.setTag("picked", Bitmap(count: 3, setting: [1]))
    #expect(t.contact(at: 0).properties["len"] == .int(1))
    #expect(t.contact(at: 1).properties["len"] == nil)
    #expect(t.contact(at: 1).tags == ["picked"])
    t.removeColumn("len")
    #expect(t.contact(at: 0).properties["len"] == nil)
  }

  @Test func framesAreSnapshots() {
    let t = ContactTable(contacts: sample())
    let f1 = Frame(table: t)
    var f2 = f1.narrowed(to: Bitmap(count: 3, setting: [0, 2]))
    f2.order = [2, 1, 0]
    f2.table.setTag("later", Bitmap(count: 3, allSet: true))
    #expect(f1.count == 3 && f1.rows == [0, 1, 2])
    #expect(f1.table.annotations.tags["later"] == nil)
    #expect(f2.table.annotations.tags["later"] != nil)
    #expect(f2.rows == [2, 0])
    #expect(f2.count == 2)
    #expect(f2.materialized().contacts.map(\.uid) == ["3", "1"])
  }
}

@Suite struct ParameterListTests {
  @Test func encodesAndDecodes() {
    var p = ParameterList()
    p.append("TYPE", ["cell", "voice"])
    p.append("CELL", [])
    p.append("LABEL", ["123 Main St.\nSpringfield, \"IL\" ^"])
    let text = p.encoded
    #expect(text == "TYPE=cell,voice;CELL;LABEL=\"123 Main St.^nSpringfield, ^'IL^' ^^\"")
    #expect(ParameterList(encoded: text) == p)
    #expect(p.values("type") == ["cell", "voice"])
  }

  @Test func toleratesOddText() {
    #expect(ParameterList(encoded: "").isEmpty)
    #expect(ParameterList(encoded: "A=\"unterminated").parameters.first?.values == ["unterminated"])
    #expect(ParameterList(encoded: ";;X=1").parameters.map(\.name) == ["X"])
    #expect(ParameterList(encoded: "X=").parameters.first?.values == [""])
  }
}
