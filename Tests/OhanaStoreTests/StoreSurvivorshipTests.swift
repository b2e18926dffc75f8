import Foundation
import OhanaCore
import OhanaDedupe
import OhanaIO
import OhanaStore
import Testing

/// Golden records in the entity store (issue 46, item 3): the store keeps
/// the survivorship rules it was made with, and every run, first or
/// incremental, merges by them. The expected answers follow from each
/// rule's definition on hand-made cards, written by hand below.
@Suite struct StoreSurvivorshipTests {
  static func tempPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-store-rules-" + UUID().uuidString)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
  }

  // One person: the phone book's card is the more complete (a middle name,
  // an organization, an older REV); the CRM's is the newer.
  static let phonebook = """
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:pb-1\r\nFN:Robert J. Smith\r\nN:Smith;Robert;J.;;\r\nORG:Acme\r\n\
    BDAY:1980-02-03\r\nTEL:+1 312 644 3332\r\nEMAIL:bob.smith@example.org\r\nREV:20190101T000000Z\r\nEND:VCARD\r\n
    """
  static let crm = """
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:crm-7\r\nFN:Robert Smith\r\nN:Smith;Robert;;;\r\nBDAY:1980-03-02\r\n\
    TEL:+1 312 644 3332\r\nEMAIL:bob.smith@example.org\r\nEMAIL:rsmith@acme.example\r\nREV:20220601T100000Z\r\nEND:VCARD\r\n
    """

  static func table(_ text: String) throws -> ContactTable {
    try ContactIO.read(bytes: Array(text.utf8), format: .vcard4).table
  }

  static func golden(_ store: EntityStore) throws -> [Contact] {
    var cards: [UInt8] = []
    try store.forEachMergedCard(only: nil) { _, card in cards.append(contentsOf: card) }
    let t = try ContactIO.read(bytes: cards, format: .vcard4).table
    return (0..<t.rowCount).map { t.contact(at: $0) }
  }

  @Test func theRulesTheStoreWasMadeWithHoldAcrossRuns() throws {
    let rules = Survivorship(rules: [.name: .sources(["crm", "phonebook"]), .birthday: .mostRecent])
    var config = DedupeConfiguration()
    config.survivorship = rules
    let path = Self.tempPath("s.sqlite")
    do {
      let store = try EntityStore.create(at: path, configuration: config)
      _ = try store.link(try Self.table(Self.phonebook), source: "phonebook")
    }
    // Reopened: the rules come from the store, not from the caller.
    let store = try EntityStore.open(at: path)
    #expect(store.configuration.survivorship == rules)
    _ = try store.link(try Self.table(Self.crm), source: "crm")
    let golden = try Self.golden(store)
    #expect(golden.count == 1)
    let g = try #require(golden.first)
    // The name whole from the CRM's card (its source comes first), though
    // the phone book's is the more complete.
    #expect(g.givenName == "Robert" && g.familyName == "Smith" && g.middleName == nil && g.fullName == "Robert Smith")
    // The birthday of the latest REV (the CRM's).
    #expect(g.birthday == "1980-03-02")
    // Fields without a rule of their own: the default, the most complete.
    #expect(g.organization == "Acme")
    // Multi-valued fields are the union.
    #expect(Set(g.fields.filter { $0.kind == .email }.map(\.value)) == ["bob.smith@example.org", "rsmith@acme.example"])
  }

  @Test func withoutRulesTheMostCompleteMemberGivesTheName() throws {
    let path = Self.tempPath("d.sqlite")
    let store = try EntityStore.create(at: path, configuration: DedupeConfiguration())
    _ = try store.link(try Self.table(Self.phonebook), source: "phonebook")
    _ = try store.link(try Self.table(Self.crm), source: "crm")
    let g = try #require(try Self.golden(store).first)
    #expect(g.middleName == "J." && g.birthday == "1980-02-03")
  }

  @Test func theRulesSurviveTheirText() throws {
    let rules = Survivorship(
      defaultRule: .mostRecent, rules: [.name: .sources(["crm", "phone book"]), .birthday: .mostFrequent, .note: .longest])
    #expect(try Survivorship(text: rules.text) == rules)
    #expect(try Survivorship(text: Survivorship().text) == Survivorship())
  }
}
