import OhanaCore
import Testing

@testable import OhanaDedupe

@Suite struct MergeTests {
  let contacts: [Contact] = [
    Contact(
      uid: "a1", fullName: "Kate Smith", givenName: "Kate", familyName: "Smith",
      fields: [
        ContactField(kind: .phone, label: "cell", value: "(312) 644-3332"),
        ContactField(kind: .email, value: "kate@x.org"),
      ],
      addresses: [PostalAddress(street: "1 Main St", locality: "Chicago", postalCode: "60601")]),
    Contact(uid: "solo", givenName: "Zed", familyName: "Zulu", fields: [ContactField(kind: .phone, value: "+44 20 7031 3000")]),
    Contact(
      uid: "a2", fullName: "Katherine M. Smith", givenName: "Katherine", familyName: "Smith", middleName: "M.",
      organization: "Acme", birthday: "1980-02-03",
      fields: [
        ContactField(kind: .phone, label: "home", value: "+1 312 644 3332"),
        ContactField(kind: .email, value: "KATE@X.ORG"),
        ContactField(kind: .email, value: "katherine@acme.example"),
        ContactField(kind: .url, value: "https://kate.example"),
      ],
      addresses: [
        PostalAddress(street: "1 MAIN ST", locality: "Chicago", postalCode: "60601"),
        PostalAddress(street: "2 Work Rd", postalCode: "60602"),
      ],
      extras: [ExtraProperty(name: "X-FOO", value: "bar")]),
  ]

  func run() -> (ContactTable, DedupeResult, ContactTable) {
    let table = ContactTable(contacts: contacts)
    let d = Deduplicator()
    let r = d.findDuplicates(in: table)
    return (table, r, d.merge(table, r))
  }

  @Test func clustersAndOrder() {
    let (_, r, merged) = run()
    #expect(r.clusterOf == [0, 1, 0])
    #expect(merged.rowCount == 2)
    #expect(merged.string(.uid, at: 1) == "solo")
  }

  @Test func noFieldLostAndNormalizedDuplicatesCollapse() {
    let (_, _, merged) = run()
    let c = merged.contact(at: 0)
    let phones = c.fields.filter { $0.kind == .phone }.map(\.value)
    let emails = c.fields.filter { $0.kind == .email }.map(\.value)
    // One phone (two writings of one number), the most complete member's form first.
    #expect(phones == ["+1 312 644 3332"])
    #expect(Set(emails) == ["KATE@X.ORG", "katherine@acme.example"])
    #expect(c.fields.contains { $0.kind == .url })
    #expect(c.addresses.count == 2)
    #expect(c.extras.contains { $0.name == "X-FOO" && $0.value == "bar" })
  }

  @Test func aContactAloneHasItsNormalizedDuplicatesCollapsedToo() {
    let alone = Contact(
      uid: "r", givenName: "Reem", familyName: "Q",
      fields: [
        ContactField(kind: .email, value: "reem.q@gmail.com"), ContactField(kind: .email, value: "reemq@gmail.com"),
        ContactField(kind: .phone, value: "(312) 644-3332"), ContactField(kind: .phone, value: "+1 312 644 3332"),
      ])
    let table = ContactTable(contacts: [alone])
    let dedupe = Deduplicator()
    let (r, merged) = dedupe.deduplicate(table)
    #expect(r.clusterOf == [0])
    #expect(merged.contact(at: 0).fields.map(\.value) == ["reem.q@gmail.com", "(312) 644-3332"])
  }

  @Test func reasonWeightsAsFormatWeightWritesThem() {
    for w: Float in [0, 7.42, -3.1, 0.005, -0.004, 12.999, 123.456, -0.0, .infinity] {
      var bytes: [UInt8] = []
      Deduplicator.appendWeight(w, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == (w.isFinite ? Deduplicator.formatWeight(Double(w)) : "?"))
    }
    #expect(Deduplicator.reasonText(keys: 3, agree: 5, weight: 7.42, links: 1) == "keys=phone,email; agree=given,phone; weight=7.42")
  }

  @Test func mostCompleteNameAndAttributes() {
    let (_, _, merged) = run()
    let c = merged.contact(at: 0)
    #expect(c.givenName == "Katherine")
    #expect(c.middleName == "M.")
    #expect(c.fullName == "Katherine M. Smith")
    #expect(c.organization == "Acme")
    #expect(c.birthday == "1980-02-03")
  }

  @Test func provenanceAndReason() {
    let (_, _, merged) = run()
    let uids = merged.annotations[column: Deduplicator.sourceUIDsColumn]?.value(at: 0, pool: merged.pool)
    #expect(uids == .string("a1,a2"))
    let solo = merged.annotations[column: Deduplicator.sourceUIDsColumn]?.value(at: 1, pool: merged.pool)
    #expect(solo == .string("solo"))
    guard case .string(let reason)? = merged.annotations[column: Deduplicator.reasonColumn]?.value(at: 0, pool: merged.pool)
    else {
      Issue.record("no reason")
      return
    }
    #expect(reason.hasPrefix("keys=phone,email"))
    #expect(reason.contains("agree=given,family,phone,email,address"))
    #expect(reason.contains("weight="))
    #expect(merged.annotations[column: Deduplicator.reasonColumn]?.value(at: 1, pool: merged.pool) == nil)
    #expect(merged.annotations[column: Deduplicator.mergedCountColumn]?.value(at: 0, pool: merged.pool) == .int(2))
  }

  @Test func explanationEvidence() {
    let (_, r, _) = run()
    #expect(r.pairs.count == 1)
    guard let p = r.pairs.first else { return }
    #expect(p.first == 0 && p.second == 2)
    #expect(p.weight >= DedupeConfiguration().threshold)
    #expect(p.vector.description == "given=exact,family=exact,phone=shared,email=shared,address=same")
  }

  @Test func processorReportsCounters() throws {
    let context = ProcessingContext()
    let out = try Dedupe().process(Frame(table: ContactTable(contacts: contacts)), context: context)
    #expect(out.table.rowCount == 2)
    let c = context.counters
    #expect(c["dedupe.pairsCompared"] == 1)
    #expect(c["dedupe.pairsAccepted"] == 1)
    #expect(c["dedupe.clusters"] == 1)
    #expect(c["dedupe.mergedContacts"] == 1)
    #expect(c["dedupe.cappedBlocks"] == 0)
  }

  @Test func processorHonoursTheSelection() throws {
    var selection = Bitmap(count: 3)
    selection.insert(0)
    selection.insert(1)
    let frame = Frame(table: ContactTable(contacts: contacts), selection: selection)
    let out = try Dedupe().process(frame, context: ProcessingContext())
    #expect(out.table.rowCount == 2)
  }

  @Test func emptyTable() throws {
    let out = try Dedupe().process(Frame(table: ContactTable()), context: ProcessingContext())
    #expect(out.table.rowCount == 0)
  }
}

@Suite struct OutputTests {
  let contacts: [Contact] = [
    Contact(uid: "a,1", givenName: "Ann", familyName: "Lee", birthday: "1970-01-01",
            fields: [ContactField(kind: .phone, value: "312 644 3332"), ContactField(kind: .email, value: "ann@x.org")]),
    Contact(givenName: "Zed", familyName: "Zulu"),
    Contact(uid: "a\"2", givenName: "Anne", familyName: "Lee", birthday: "1970-01-01",
            fields: [ContactField(kind: .phone, value: "+1 312 644 3332")]),
  ]

  func run() -> (ContactTable, DedupeResult) {
    let table = ContactTable(contacts: contacts)
    return (table, Deduplicator().findDuplicates(in: table))
  }

  @Test func clustersCSVListsEveryContact() {
    let (table, r) = run()
    var out: [UInt8] = []
    r.writeClustersCSV(table: table) { out += $0 }
    let text = String(decoding: out, as: UTF8.self)
    #expect(text == "uid,cluster_id\n\"a,1\",\"a,1\"\nrow-2,row-2\n\"a\"\"2\",\"a,1\"\n")
  }

  /// The CSV is encoded in pieces on several threads: against a plain
  /// loop over the rows (uids with and without quotes, UUIDs, no uid), for
  /// one to three threads, over enough rows for several rounds of pieces.
  @Test func clustersCSVInPiecesIsInRowOrder() {
    var many: [Contact] = []
    for i in 0..<140_000 {
      switch i % 4 {
      case 0: many.append(Contact(uid: "c\(i)", givenName: "A"))
      case 1: many.append(Contact(uid: "q,\(i)", givenName: "B"))
      case 2:
        let h = String(i, radix: 16)
        let uuid = "urn:uuid:" + String(repeating: "0", count: 8 - h.count) + h + "-0000-4000-8000-"
          + String(repeating: "0", count: 12 - h.count) + h
        many.append(Contact(uid: uuid, givenName: "C"))
      default: many.append(Contact(givenName: "D"))
      }
    }
    let table = ContactTable(contacts: many)
    var r = Deduplicator().findDuplicates(in: ContactTable(contacts: Array(many.prefix(3))))
    r.clusterOf = (0..<many.count).map { Int32($0 - $0 % 5) }
    func uid(_ row: Int) -> String {
      let u = many[row].uid ?? "row-\(row + 1)"
      return u.contains(",") ? "\"\(u)\"" : u
    }
    var expected = "uid,cluster_id\n"
    for row in 0..<many.count { expected += "\(uid(row)),\(uid(row - row % 5))\n" }
    for threads in 1...3 {
      var out: [UInt8] = []
      var pieces = 0
      r.writeClustersCSV(table: table, threads: threads) { out += $0; pieces += 1 }
      // The first line that differs, not the 5 MB texts, when they differ.
      let got = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let first = (0..<min(got.count, want.count)).first { got[$0] != want[$0] }
      #expect(got.count == want.count && first == nil, "threads \(threads): line \(first.map { $0 + 1 } ?? 0) differs")
      #expect(pieces > 3)
    }
  }

  @Test func explanationIsOneJSONLinePerPairWithoutPersonalData() {
    let (table, r) = run()
    var out: [UInt8] = []
    r.writeExplanation(table: table) { out += $0 }
    let text = String(decoding: out, as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(text.hasPrefix("{\"a\":\"a,1\",\"b\":\"a\\\"2\",\"cluster\":\"a,1\",\"weight\":"))
    #expect(text.contains("\"keys\":[\"phone\",\"name\",\"family+birthday\",\"given+birthday\",\"initials+birth-year\",\"birthday+initial\"]"))
    #expect(text.contains("\"levels\":{\"given\":\"exact\",\"family\":\"exact\",\"phone\":\"shared\",\"email\":\"null\",\"birthday\":\"same\",\"address\":\"null\"}"))
    // No names, phones or e-mails.
    for secret in ["Ann", "Lee", "312", "x.org", "1970"] { #expect(!text.contains(secret), "\(secret)") }
  }
}

@Suite struct LargeContactTests {
  @Test func thousandsOfFieldsStayLinearAndCollapse() {
    // Two records of one person, each with 3,000 e-mails (1,500 distinct
    // after normalization, in different case) and 2,000 addresses.
    func record(_ uid: String, upper: Bool) -> Contact {
      var fields = [ContactField(kind: .phone, value: "+1 312 644 3332")]
      for i in 0..<3000 {
        let e = "user\(i % 1500)@example.org"
        fields.append(ContactField(kind: .email, value: upper ? e.uppercased() : e))
      }
      let addresses = (0..<2000).map { PostalAddress(street: "\($0) Main St", postalCode: "60601") }
      return Contact(uid: uid, givenName: "Ann", familyName: "Lee", fields: fields, addresses: addresses)
    }
    let table = ContactTable(contacts: [record("a", upper: false), record("b", upper: true)])
    let (result, merged) = Deduplicator().deduplicate(table)
    #expect(result.clusterOf == [0, 0])
    let c = merged.contact(at: 0)
    #expect(c.fields.filter { $0.kind == .email }.count == 1500)
    #expect(c.addresses.count == 2000)
  }
}

/// Phones that end in the same nine digits but belong to different
/// countries (their E.164 forms differ: written out below) are different
/// numbers: they neither link two contacts nor collapse in a merge. The
/// 10M generated book had tens of thousands of such accidental pairs
/// (Benchmarks/HISTORY.md, issue 33).
@Suite struct PhoneCountryTests {
  /// A Thai contact (its e-mail domain says TH) and a Dutch one whose
  /// mobile numbers share their last nine digits: +66 64 642 4727 and
  /// +31 6 46 42 47 27. The names, in two scripts, say nothing.
  @Test func sameSuffixInTwoCountriesDoesNotLink() {
    let table = ContactTable(contacts: [
      Contact(
        uid: "th", fullName: "นภา วงศ์ใหญ่", givenName: "นภา", familyName: "วงศ์ใหญ่",
        fields: [
          ContactField(kind: .phone, value: "064 642 4727"), ContactField(kind: .email, value: "napa@yahoo.co.th"),
        ]),
      Contact(
        uid: "nl", fullName: "Emma Bakker", givenName: "Emma", familyName: "Bakker",
        fields: [ContactField(kind: .phone, value: "+31 6 46 42 47 27")]),
    ])
    let r = Deduplicator().findDuplicates(in: table)
    #expect(r.clusterOf[0] != r.clusterOf[1])
  }

  /// The same number written nationally in a contact without an address or
  /// e-mail (its calling code unknown) and internationally: one number.
  @Test func anUnknownCallingCodeStillMeetsAKnownOne() {
    let table = ContactTable(contacts: [
      Contact(uid: "a", fullName: "Ola Nordmann", fields: [ContactField(kind: .phone, value: "020 7031 3000")]),
      Contact(uid: "b", fullName: "Ola Nordmann", fields: [ContactField(kind: .phone, value: "+44 20 7031 3000")]),
    ])
    let r = Deduplicator().findDuplicates(in: table)
    #expect(r.clusterOf[0] == r.clusterOf[1])
  }

  /// One person (the same e-mail) with two numbers of the same last nine
  /// digits in two countries keeps both; two writings of one number (the
  /// calling code known in one, unknown in the other) collapse to one.
  @Test func aMergeKeepsNumbersOfOtherCountries() {
    let table = ContactTable(contacts: [
      Contact(
        uid: "a", fullName: "Ann Lee", givenName: "Ann", familyName: "Lee",
        fields: [
          ContactField(kind: .phone, value: "+66 64 642 4727"), ContactField(kind: .phone, value: "+44 20 7031 3000"),
          ContactField(kind: .email, value: "ann@lee.example"),
        ]),
      Contact(
        uid: "b", fullName: "Ann Lee", givenName: "Ann", familyName: "Lee",
        fields: [
          ContactField(kind: .phone, value: "+31 6 46 42 47 27"), ContactField(kind: .phone, value: "20 7031 3000"),
          ContactField(kind: .email, value: "ann@lee.example"),
        ]),
    ])
    let d = Deduplicator()
    let r = d.findDuplicates(in: table)
    #expect(r.clusterOf[0] == r.clusterOf[1])
    let phones = d.merge(table, r).contact(at: 0).fields.filter { $0.kind == .phone }.map(\.value)
    #expect(phones == ["+66 64 642 4727", "+44 20 7031 3000", "+31 6 46 42 47 27"])
  }
}
