import OhanaCore
import OhanaPhone
import Testing
import _OhanaTestSupport

@testable import OhanaProcessors

@Suite struct PhoneNumberFormattingTests {
  let contacts: [Contact] = [
    Contact(
      uid: "a",
      fields: [
        ContactField(kind: .phone, label: "home", value: "(650) 253-0000"),
        ContactField(kind: .email, value: "a@x"),
        ContactField(kind: .phone, label: "cell", value: "+44 7400 123456"),
      ]),
    Contact(uid: "b", fields: [ContactField(kind: .phone, label: "work", value: "not a number")]),
    Contact(
      uid: "c",
      fields: [
        ContactField(kind: .phone, value: "(650) 253-0000"),
        ContactField(kind: .phone, value: "1-800-FLOWERS ext. 12"),
      ]),
  ]

  func column(_ t: ContactTable, _ name: String) -> [String?] {
    guard case .string(let ids)? = t.fields.annotations[column: name] else { return [] }
    return ids.map { t.pool.string($0) }
  }

  @Test func addsDerivedColumnsOnPhoneFields() throws {
    let frame = Frame(table: ContactTable(contacts: contacts))
    let context = ProcessingContext()
    let out = try PhoneNumberFormatting(defaultRegion: RegionCode.us).process(frame, context: context)
    let t = out.table
    #expect(column(t, PhoneNumberFormatting.e164) == ["+16502530000", nil, "+447400123456", nil, "+16502530000", "+18003569377"])
    #expect(column(t, PhoneNumberFormatting.international)[5] == "+1 800-356-9377 ext. 12")
    #expect(column(t, PhoneNumberFormatting.national)[0] == "(650) 253-0000")
    #expect(column(t, PhoneNumberFormatting.rfc3966)[5] == "tel:+1-800-356-9377;ext=12")
    #expect(column(t, PhoneNumberFormatting.type) == ["FIXED_LINE_OR_MOBILE", nil, "MOBILE", nil, "FIXED_LINE_OR_MOBILE", "TOLL_FREE"])
    #expect(column(t, PhoneNumberFormatting.region) == ["US", nil, "GB", nil, "US", "US"])
    guard case .bool(let valid, let known)? = t.fields.annotations[column: PhoneNumberFormatting.valid] else {
      Issue.record("no phone.valid column")
      return
    }
    #expect(known.setRows == [0, 2, 4, 5])
    #expect(valid.setRows == [0, 2, 4, 5])
    #expect(context.counters[PhoneNumberFormatting.unparsableCounter] == 1)
    #expect(out.count == frame.count)
    #expect(t.rowCount == frame.table.rowCount)
  }

  /// Without details: the same formats (the expectations are those of the
  /// test above, written by hand), no type, region or validity columns, the
  /// same count of unparsable phones.
  @Test func withoutDetailsOnlyTheFormats() throws {
    let frame = Frame(table: ContactTable(contacts: contacts))
    let context = ProcessingContext()
    let out = try PhoneNumberFormatting(formats: [.e164, .national], defaultRegion: RegionCode.us, details: false)
      .process(frame, context: context)
    let t = out.table
    #expect(column(t, PhoneNumberFormatting.e164) == ["+16502530000", nil, "+447400123456", nil, "+16502530000", "+18003569377"])
    #expect(column(t, PhoneNumberFormatting.national)[0] == "(650) 253-0000")
    #expect(t.fields.annotations[column: PhoneNumberFormatting.type] == nil)
    #expect(t.fields.annotations[column: PhoneNumberFormatting.region] == nil)
    #expect(t.fields.annotations[column: PhoneNumberFormatting.valid] == nil)
    #expect(context.counters[PhoneNumberFormatting.unparsableCounter] == 1)
  }

  @Test func onlyRequestedFormatsAndKeepsSelection() throws {
    var frame = Frame(table: ContactTable(contacts: contacts))
    frame.selection = Bitmap(count: 3, setting: [0, 2])
    frame.order = [2, 1, 0]
    let out = try PhoneNumberFormatting(formats: [.e164], defaultRegion: RegionCode("GB") ?? .unknown)
      .process(frame, context: ProcessingContext())
    #expect(out.selection == frame.selection)
    #expect(out.order == frame.order)
    #expect(out.table.fields.annotations[column: PhoneNumberFormatting.national] == nil)
    // (650) 253-0000 read as a GB national number does not parse as a US one.
    #expect(column(out.table, PhoneNumberFormatting.e164)[2] == "+447400123456")
  }

  @Test func perContactRegionColumn() throws {
    var table = ContactTable(contacts: [
      Contact(uid: "de", fields: [ContactField(kind: .phone, value: "030 123456")]),
      Contact(uid: "fr", fields: [ContactField(kind: .phone, value: "01 23 45 67 89")]),
      Contact(uid: "us", fields: [ContactField(kind: .phone, value: "030 123456")]),
    ])
    let ids = [table.pool.intern("DE"), table.pool.intern("fr"), StringID.absent]
    table.setColumn("country", .string(ids))
    let out = try PhoneNumberFormatting(defaultRegion: .us, regionColumn: "country")
      .process(Frame(table: table), context: ProcessingContext())
    #expect(column(out.table, PhoneNumberFormatting.e164) == ["+4930123456", "+33123456789", "+1030123456"])  // parsed, not valid
  }

  @Test func agreesWithTheEngineOnRandomContacts() throws {
    let table = RandomContacts.table(count: 2_000, seed: 11)
    let out = try PhoneNumberFormatting().process(Frame(table: table), context: ProcessingContext())
    let engine = PhoneNumberEngine()
    let e164 = column(out.table, PhoneNumberFormatting.e164)
    var checked = 0
    for i in 0..<table.fields.count where table.fields.kind[i] == .phone {
      let raw = table.pool.string(table.fields.value[i]) ?? ""
      let expected = (try? engine.parse(raw, defaultRegion: .us)).map { engine.format($0, as: .e164) }
      #expect(e164[i] == expected)
      checked += 1
    }
    #expect(checked > 0)
  }
}
