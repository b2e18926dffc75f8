import OhanaCore
import OhanaPhone
import Testing

@testable import OhanaProcessors

/// `PhoneValues`: the number written into the value. The formats themselves
/// are checked against `phonenumbers` in python/tests/test_phone_values.py;
/// here the parameters and the bookkeeping, expectations written by hand.
@Suite struct PhoneValuesTests {
  let contacts: [Contact] = [
    Contact(
      uid: "a",
      fields: [
        ContactField(kind: .phone, label: "home", value: "(650) 253-0000"),
        ContactField(kind: .email, value: "a@x"),
        ContactField(kind: .phone, label: "work", value: "1-800-FLOWERS ext. 12", parameters: "TYPE=WORK;PREF=1"),
      ]),
    Contact(uid: "b", fields: [ContactField(kind: .phone, label: "work", value: "not a number")]),
    Contact(uid: "c", fields: [ContactField(kind: .phone, value: "+16502530000")]),
  ]

  func run(_ stage: PhoneValues, context: ProcessingContext = ProcessingContext()) throws -> ContactTable {
    let formatted = try PhoneNumberFormatting(
      formats: stage.neededFormats, defaultRegion: .us, details: false, extensions: stage.neededExtensions
    ).process(Frame(table: ContactTable(contacts: contacts)), context: context)
    return try stage.process(formatted, context: context).table
  }

  /// The extension column (one string per number that has an extension)
  /// and the RFC 3966 URI it replaced (`;ext=` of every number) give E.164
  /// the same extensions.
  @Test func theExtensionColumnAgreesWithTheURI() throws {
    var cards = contacts
    for (i, typed) in ["+1 650 253 0000 x 7", "(415) 555-0132 ext. 12", "+44 20 7946 0958 ext 3", "+1 650 253 0000"].enumerated() {
      cards.append(Contact(uid: "x\(i)", fields: [ContactField(kind: .phone, value: typed)]))
    }
    func written(_ formats: [PhoneNumberFormat], extensions: Bool) throws -> ([String?], [String?]) {
      let context = ProcessingContext()
      let formatted = try PhoneNumberFormatting(formats: formats, defaultRegion: .us, details: false, extensions: extensions)
        .process(Frame(table: ContactTable(contacts: cards)), context: context)
      let t = try PhoneValues(format: .e164).process(formatted, context: context).table
      return (values(t), parameters(t))
    }
    let byColumn = try written([.e164], extensions: true)
    let byURI = try written([.e164, .rfc3966], extensions: false)
    #expect(byColumn.0 == byURI.0 && byColumn.1 == byURI.1)
    #expect(byColumn.1.compactMap { $0 }.filter { $0.contains("X-EXT=") }.count == 4)
  }

  func values(_ t: ContactTable) -> [String?] { (0..<t.fields.count).map { t.pool.string(t.fields.value[$0]) } }
  func parameters(_ t: ContactTable) -> [String?] { (0..<t.fields.count).map { t.pool.string(t.fields.parameters[$0]) } }

  @Test func e164WithTheExtensionInAParameterAndEveryOtherParameterKept() throws {
    let context = ProcessingContext()
    let t = try run(PhoneValues(format: .e164), context: context)
    #expect(values(t) == ["+16502530000", "a@x", "+18003569377", "not a number", "+16502530000"])
    #expect(parameters(t) == [nil, nil, "TYPE=WORK;PREF=1;X-EXT=12", nil, nil])
    #expect(context.counters[PhoneValues.rewrittenCounter] == 2)
    #expect(context.counters[PhoneValues.extensionsCounter] == 1)
    #expect(context.counters[PhoneValues.unparsedCounter] == 1)
    #expect(context.notes.count == 1)
  }

  @Test func csvKeepsTheExtensionAfterTheNumber() throws {
    let t = try run(PhoneValues(format: .e164, extensions: .value))
    #expect(values(t)[2] == "+18003569377;ext=12")
    #expect(parameters(t)[2] == "TYPE=WORK;PREF=1")
  }

  @Test func aLabelWithoutParametersBecomesTheTypeWhenAParameterIsAdded() throws {
    let t = try run(PhoneValues(format: .rfc3966, keepOriginal: true, uriValue: true))
    #expect(values(t)[0] == "tel:+1-650-253-0000")
    #expect(parameters(t)[0] == "TYPE=home;VALUE=uri;X-OHANA-ORIGINAL=(650) 253-0000")
    // Unparsed: left alone, parameters and all.
    #expect(values(t)[3] == "not a number" && parameters(t)[3] == nil)
  }

  @Test func theOriginalOnlyWhenTheValueChanged() throws {
    let t = try run(PhoneValues(format: .e164, keepOriginal: true))
    #expect(parameters(t)[4] == nil)  // typed as E.164 already
    #expect(parameters(t)[0] == "TYPE=home;X-OHANA-ORIGINAL=(650) 253-0000")
  }

  /// A vCard 4.0 `VALUE=uri` number written as a plain one loses its
  /// value type (it would describe the new value wrongly); written as a
  /// URI it keeps one.
  @Test func theValueTypeFollowsWhatIsWritten() throws {
    let uriCard = [
      Contact(uid: "u", fields: [ContactField(kind: .phone, value: "tel:+1-650-253-0000", parameters: "VALUE=uri;TYPE=home")])
    ]
    let formatted = { (formats: [PhoneNumberFormat]) in
      try PhoneNumberFormatting(formats: formats, defaultRegion: .us, details: false)
        .process(Frame(table: ContactTable(contacts: uriCard)), context: ProcessingContext())
    }
    let plain = try PhoneValues(format: .e164).process(try formatted([.e164, .rfc3966]), context: ProcessingContext()).table
    #expect(values(plain) == ["+16502530000"])
    #expect(parameters(plain) == ["TYPE=home"])
    let uri = try PhoneValues(format: .rfc3966, uriValue: true).process(try formatted([.rfc3966]), context: ProcessingContext()).table
    #expect(values(uri) == ["tel:+1-650-253-0000"])
    #expect(parameters(uri) == ["TYPE=home;VALUE=uri"])
  }

  @Test func withoutTheFormattingStageNothingChanges() throws {
    let context = ProcessingContext()
    let frame = Frame(table: ContactTable(contacts: contacts))
    let out = try PhoneValues(format: .e164).process(frame, context: context)
    #expect(values(out.table) == values(frame.table))
    #expect(context.notes.count == 1)
  }

  @Test func numbersOfZerosAreToldApart() {
    func zeros(_ s: String) -> Bool { Array(s.utf8).withUnsafeBytes { PhoneValues.isAllZeros($0) } }
    #expect(zeros("+49000000") && zeros("+4900000") && zeros("tel:+1-000") && zeros("+1 000 ext. 12") && zeros("0000"))
    // "+1400": 1 is the calling code, 400 is a number; "+80000" is 800 and 00.
    #expect(!zeros("+1400") && !zeros("+49301234567") && !zeros("0301234") && zeros("+80000"))
  }
}
