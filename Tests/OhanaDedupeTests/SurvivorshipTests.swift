import OhanaCore
import Testing

@testable import OhanaDedupe

/// Golden records by rules (issue 46, item 3), on a hand-made cluster whose
/// expected answers follow from each rule's definition (written by hand
/// below, not from a run).
@Suite struct SurvivorshipTests {
  // One cluster of three (rows 0-2) and a contact alone (row 3).
  let contacts: [Contact] = [
    Contact(
      uid: "a0", givenName: "Kate", familyName: "Smith", organization: "Acme Corporation", birthday: "1980-02-03",
      sourceProvider: "crm", fields: [ContactField(kind: .phone, value: "+1 312 644 3332")],
      extras: [ExtraProperty(name: "REV", value: "2019-01-01T00:00:00Z")]),
    Contact(
      uid: "a1", fullName: "Katherine M. Smith", givenName: "Katherine", familyName: "Smith", middleName: "M.",
      organization: "Acme", birthday: "1980-03-02", sourceProvider: "phonebook",
      fields: [
        ContactField(kind: .phone, value: "+1 312 555 0100"), ContactField(kind: .email, value: "kate@x.org"),
        ContactField(kind: .email, value: "k@acme.example"),
      ],
      extras: [ExtraProperty(name: "REV", value: "2021-06-01T10:00:00Z")]),
    Contact(
      uid: "a2", givenName: "Kathy", familyName: "Smith", nickname: "KS", birthday: "1980-02-03", sourceProvider: "crm",
      fields: [ContactField(kind: .email, value: "kathy@y.org")],
      extras: [ExtraProperty(name: "REV", value: "20220101T000000Z")]),
    Contact(uid: "solo", givenName: "Zed", familyName: "Zulu", sourceProvider: "crm"),
  ]

  func merged(_ survivorship: Survivorship) -> ContactTable {
    let table = ContactTable(contacts: contacts)
    var config = DedupeConfiguration()
    config.survivorship = survivorship
    let d = Deduplicator(configuration: config)
    var r = d.findDuplicates(in: table)
    r.clusterOf = [0, 0, 0, 3]
    return d.merge(table, r)
  }

  func golden(_ s: Survivorship) -> Contact { merged(s).contact(at: 0) }

  @Test func theMostCompleteMemberByDefault() {
    let c = golden(Survivorship())
    #expect(c.givenName == "Katherine" && c.middleName == "M." && c.organization == "Acme" && c.birthday == "1980-03-02")
    #expect(c.nickname == "KS")  // only one member has it
  }

  @Test func sourcePriority() {
    let c = golden(Survivorship(defaultRule: .sources(["crm", "phonebook"])))
    // Both crm members come first; of them the more complete, then row order: a0.
    #expect(c.givenName == "Kate" && c.middleName == nil && c.fullName == nil)
    #expect(c.organization == "Acme Corporation" && c.birthday == "1980-02-03")
    let p = golden(Survivorship(defaultRule: .sources(["phonebook"])))
    #expect(p.givenName == "Katherine" && p.organization == "Acme")
  }

  @Test func mostRecentReadsRevInEitherForm() {
    // a2's REV (basic form, 2022) is the latest.
    let c = golden(Survivorship(defaultRule: .mostRecent))
    #expect(c.givenName == "Kathy" && c.birthday == "1980-02-03")
    // Organization: a2 has none; of those that do, a1 (2021).
    #expect(c.organization == "Acme")
  }

  @Test func mostFrequentAndLongestPerField() {
    let s = Survivorship(rules: [.birthday: .mostFrequent, .organization: .longest])
    let c = golden(s)
    #expect(c.birthday == "1980-02-03")  // a0 and a2 against a1
    #expect(c.organization == "Acme Corporation")
    #expect(c.givenName == "Katherine")  // the name: the default rule
  }

  @Test func everyFieldSaysWhichMemberGaveIt() {
    let m = merged(Survivorship(defaultRule: .sources(["crm"]), rules: [.organization: .longest]))
    guard case .string(let ids)? = m.annotations[column: Survivorship.fieldSourcesColumn] else {
      Issue.record("no \(Survivorship.fieldSourcesColumn) column")
      return
    }
    #expect(m.pool.string(ids[0]) == "name=crm:a0;nickname=crm:a2;organization=crm:a0;birthday=crm:a0")
    #expect(ids[1].isAbsent)  // a contact alone
    // The fields are still the union of the members'.
    let c = m.contact(at: 0)
    #expect(c.fields.filter { $0.kind == .email }.count == 3 && c.fields.filter { $0.kind == .phone }.count == 2)
  }

  @Test func rulesFileAndItsErrors() throws {
    let s = try Survivorship(text: "# rules\ndefault = most-recent\nname=source:crm, phonebook\n\nbirthday=most-frequent\n")
    #expect(s.defaultRule == .mostRecent && s.rules[.name] == .sources(["crm", "phonebook"]) && s.rules[.birthday] == .mostFrequent)
    #expect(throws: SurvivorshipError.self) { try Survivorship(text: "default=most-recent\nshoe=longest") }
    do {
      _ = try Survivorship(text: "default=newest")
    } catch {
      #expect(error.line == 1 && error.reason.contains("unknown rule"))
    }
  }
}
