import OhanaCore
import OhanaText
import Testing

@testable import OhanaProcessors

/// The name and e-mail normalizers as stages: which columns they write,
/// what they leave, what they count. Their answers over large corpora are
/// checked against python-nameparser and email-validator in
/// python/tests/test_normalize.py; here the expectations are written by
/// hand from the rules in `NameText` and `EmailText`.
@Suite struct NormalizationTests {
  func run(_ stage: some PostProcessor, _ contacts: [Contact], context: ProcessingContext = ProcessingContext()) throws
    -> [Contact]
  {
    let t = try stage.process(Frame(table: ContactTable(contacts: contacts)), context: context).table
    return (0..<t.rowCount).map { t.contact(at: $0) }
  }

  @Test func titlesAndSuffixesLeaveTheNamePartsAndSingleCaseNamesAreRecased() throws {
    let context = ProcessingContext()
    let out = try run(
      NameNormalization(),
      [
        Contact(uid: "a", fullName: "DR MARY O'BRIEN PHD", givenName: "DR MARY", familyName: "O'BRIEN, PHD"),
        Contact(uid: "b", givenName: "DeShawn", familyName: "van Gogh", note: "KEEP ME"),
        Contact(uid: "c", fullName: "smith,  john   a."),
        Contact(uid: "d", fullName: "ACME Corp.", organization: "ACME Corp."),
      ], context: context)
    #expect(out[0].prefix == "Dr" && out[0].givenName == "Mary" && out[0].familyName == "O'Brien")
    #expect(out[0].suffix == "PhD" && out[0].fullName == "Dr Mary O'Brien PhD")
    // Mixed case is as its owner wrote it; other attributes untouched.
    #expect(out[1].givenName == "DeShawn" && out[1].familyName == "van Gogh" && out[1].note == "KEEP ME")
    // A full name alone is split ("Last, First Middle"); white space collapsed.
    #expect(out[2].familyName == "Smith" && out[2].givenName == "John" && out[2].middleName == "A.")
    #expect(out[2].fullName == "Smith, John A.")
    #expect(out[3].fullName == "ACME Corp." && out[3].givenName == nil)  // a company's card is not split
    #expect(context.counters["names.titles"] == 1 && context.counters["names.suffixes"] == 1)
    #expect(context.counters["names.split"] == 1)
    #expect(context.counters["names.recased.givenName"] == 2)
  }

  @Test func theFullNameIsRebuiltOnlyWhenAsked() throws {
    let c = [Contact(uid: "a", fullName: "Bob", givenName: "JOHN", familyName: "SMITH", suffix: "JR.")]
    #expect(try run(NameNormalization(), c)[0].fullName == "Bob")
    #expect(try run(NameNormalization(rebuildFullName: true), c)[0].fullName == "John Smith Jr.")
  }

  @Test func caseRules() {
    #expect(NameText.recased("JEAN-PIERRE DE LA FONTAINE") == "Jean-Pierre de la Fontaine")
    #expect(NameText.recased("ludwig van beethoven") == "Ludwig van Beethoven")
    #expect(NameText.recased("MCDONALD") == "McDonald")
    #expect(NameText.recased("macleod") == "MacLeod")
    #expect(NameText.recased("MACHIN") == "Machin")
    #expect(NameText.recased("MACK") == "Mack")
    #expect(NameText.recased("d'angelo") == "D'Angelo")
    #expect(NameText.recased("DE") == "De")
    #expect(NameText.recased("HENRY VIII") == "Henry VIII")
    #expect(NameText.recased("ÉMILE ZOLA") == "Émile Zola")
    #expect(NameText.recased("McDonald") == nil)
    #expect(NameText.recased("1234") == nil)
  }

  @Test func fullNamesParsed() {
    func p(_ s: String) -> String { NameText.parse(s).description }
    #expect(p("Dr. John A. Smith Jr.") == "prefix=Dr.|given=John|middle=A.|family=Smith|suffix=Jr.")
    #expect(p("Smith Jr., John") == "prefix=|given=John|middle=|family=Smith|suffix=Jr.")
    #expect(p("John Smith, PhD") == "prefix=|given=John|middle=|family=Smith|suffix=PhD")
    #expect(p("Ludwig van Beethoven") == "prefix=|given=Ludwig|middle=|family=van Beethoven|suffix=")
    #expect(p("Cher") == "prefix=|given=Cher|middle=|family=|suffix=")
    // "Do" and "Ma" are family names unless written as suffixes.
    #expect(p("Anh Do") == "prefix=|given=Anh|middle=|family=Do|suffix=")
  }

  @Test func emailsWrittenNormalizedAndRefusedOnesLeftAndListed() throws {
    let context = ProcessingContext()
    let out = try run(
      EmailNormalization(),
      [
        Contact(
          uid: "a", sourceLine: 7,
          fields: [
            ContactField(kind: .email, value: "  John.Smith@Example.COM "),
            ContactField(kind: .phone, value: "  +1 415 555 0100 "),
            ContactField(kind: .email, value: "a..b@example.com"),
          ]),
        Contact(uid: "b", fields: [ContactField(kind: .email, value: "x@xn--bcher-kva.example")]),
      ], context: context)
    #expect(out[0].fields.map(\.value) == ["John.Smith@example.com", "  +1 415 555 0100 ", "a..b@example.com"])
    #expect(out[1].fields[0].value == "x@bücher.example")
    #expect(context.counters["emails.changed"] == 2 && context.counters["emails.unchanged"] == 1)
    #expect(context.counters["emails.invalid"] == 1 && context.counters["emails.invalid.local-part"] == 1)
    #expect(context.notes == ["line 7: an e-mail address was refused (local-part); left as typed"])
  }

  @Test func emailSyntax() {
    func problem(_ s: String) -> EmailText.Problem? { EmailText.normalized(s).problem }
    #expect(problem("o'connor+tag@example.org") == nil)
    #expect(problem("jörg@münchen.de") == nil)
    #expect(problem("\"john smith\"@example.com") == .quotedLocalPart)
    #expect(problem("x@[192.0.2.1]") == .domainLiteral)
    #expect(problem("x@example") == .domain)
    #expect(problem("x@example.123") == .domain)
    #expect(problem("x@-x.com") == .domain)
    #expect(problem("x@printer.local") == .specialUseDomain)
    #expect(problem(String(repeating: "y", count: 65) + "@example.com") == .localPartTooLong)
    #expect(problem("nothing") == .noAt)
    #expect(problem("") == .empty)
  }
}

/// Addresses and birthdays, by hand; the corpora (every country, every
/// region of four countries, Google's example postcodes, every date of
/// sixty years) are in python/tests/test_normalize.py.
@Suite struct AddressAndDateNormalizationTests {
  @Test func addressesWrittenInOneForm() throws {
    let context = ProcessingContext()
    let contacts = [
      Contact(
        uid: "a", sourceLine: 3,
        addresses: [
          PostalAddress(street: "1 Main St", locality: "Boston", region: "massachusetts", postalCode: "2134", country: "USA"),
          PostalAddress(locality: "London", postalCode: "sw1a1aa", country: "Royaume-Uni"),
          PostalAddress(locality: "Nowhere", postalCode: "123", country: "Narnia"),
          PostalAddress(locality: "Toronto", region: "Ontario", postalCode: "m5v3l9"),
        ])
    ]
    let t = try AddressNormalization(defaultCountry: "CA").process(Frame(table: ContactTable(contacts: contacts)), context: context).table
    let out = t.contact(at: 0).addresses
    #expect(out[0].country == "US" && out[0].region == "MA" && out[0].postalCode == "02134" && out[0].street == "1 Main St")
    #expect(out[1].country == "GB" && out[1].postalCode == "SW1A 1AA")
    #expect(out[2].country == "Narnia" && out[2].postalCode == "123")  // not known: left, region and postcode too
    #expect(out[3].country == nil && out[3].region == "ON" && out[3].postalCode == "M5V 3L9")  // the default country's rules
    #expect(context.counters["addresses.country.unrecognized"] == 1)
    #expect(context.notes == ["line 3: a country not recognised; left as typed"])
  }

  @Test func birthdays() {
    #expect(BirthdayText.normalized("19850412") == "1985-04-12")
    #expect(BirthdayText.normalized("12.04.1985") == "1985-04-12")
    #expect(BirthdayText.normalized("4/12/1985") == nil)
    #expect(BirthdayText.normalized("4/12/1985", order: .mdy) == "1985-04-12")
    #expect(BirthdayText.normalized("4/12/1985", order: .dmy) == "1985-12-04")
    #expect(BirthdayText.normalized("--04-12") == "--0412")
    #expect(BirthdayText.normalized("1985-02-29") == nil)
    #expect(BirthdayText.normalized("99999999999999999999") == nil)
  }
}

/// Street types and comparison keys (issue 46). The USPS forms are checked
/// against the Python library `usaddress-scourgify` in
/// python/tests/test_normalize.py; these are the rules of position, case
/// and language that a table of forms does not show.
@Suite struct StreetAndKeyTests {
  @Test func theTypeIsFoundWhereEachLanguagePutsIt() {
    #expect(StreetText.rewritten("12 Main St.", country: "US", style: .expand) == "12 Main Street")
    #expect(StreetText.rewritten("12 MAIN STREET", country: nil, style: .abbreviate) == "12 MAIN ST")
    #expect(StreetText.rewritten("12 main street apt 4", country: "US", style: .abbreviate) == "12 main st apt 4")
    // English: the street's first word is its name, never its type.
    #expect(StreetText.rewritten("St Johns Rd", country: "GB", style: .expand) == "St Johns Road")
    #expect(StreetText.rewritten("12 Broadway", country: "US", style: .expand) == nil)
    // French, Spanish, Italian, Portuguese: the type leads.
    #expect(StreetText.rewritten("12 av. des Champs-Élysées", country: "FR", style: .expand) == "12 avenue des Champs-Élysées")
    #expect(StreetText.rewritten("Avenida de la Constitución 5", country: "ES", style: .abbreviate) == "Av. de la Constitución 5")
    #expect(StreetText.rewritten("P.za Navona 1", country: "IT", style: .expand) == nil)  // "P" then "za": no form
    #expect(StreetText.rewritten("Piazza Navona 1", country: "IT", style: .abbreviate) == "P.za Navona 1")
    #expect(StreetText.rewritten("Rua Augusta 100", country: "PT", style: .abbreviate) == "R. Augusta 100")
    // German and Dutch: the end of a word or a word.
    #expect(StreetText.rewritten("Hauptstr. 5", country: "DE", style: .expand) == "Hauptstraße 5")
    #expect(StreetText.rewritten("Hauptstraße 5", country: "AT", style: .abbreviate) == "Hauptstr. 5")
    #expect(StreetText.rewritten("Berliner Straße 5", country: "DE", style: .abbreviate) == "Berliner Str. 5")
    #expect(StreetText.rewritten("Am Weg. 3", country: "DE", style: .expand) == "Am Weg 3")  // no Gasse ("g.")
    #expect(StreetText.rewritten("Kalverstraat 1", country: "NL", style: .abbreviate) == "Kalverstr. 1")
    // A country whose language has no table: left.
    #expect(StreetText.rewritten("12 Main St", country: "JP", style: .expand) == nil)
  }

  @Test func oneKeyForEveryFormOfAStreet() {
    let forms = ["12 Main St.", "12 MAIN STREET", "12 main str", " 12  Main   Street "]
    #expect(Set(forms.map { StreetText.key($0, country: "US") }) == ["12 main street"])
    #expect(StreetText.key("Hauptstr. 5", country: "DE") == StreetText.key("HAUPTSTRASSE 5", country: "DE"))
    #expect(StreetText.key("12 rue de la Paix", country: "FR") == StreetText.key("12 R. de la Paix", country: "FR"))
    #expect(StreetText.key("12 Main St", country: "US") != StreetText.key("12 Main Ave", country: "US"))
  }

  @Test func emailKeysNameTheMailbox() {
    #expect(EmailText.comparisonKey("J.O.Hn.Smith+x@GoogleMail.com") == "johnsmith@gmail.com")
    #expect(EmailText.comparisonKey("john.smith+news@outlook.com") == "john.smith@outlook.com")
    #expect(EmailText.comparisonKey("nobody") == nil)
    #expect(EmailText.comparisonKey("+tag@x.org") == nil)
  }

  @Test func keysWrittenAsParametersAndReplacedOnASecondPass() throws {
    let contacts = [
      Contact(
        uid: "a", fields: [ContactField(kind: .email, label: "work", value: "Ann.Lee+x@gmail.com")],
        addresses: [PostalAddress(street: "1 Main St.", locality: "Boston", country: "US")])
    ]
    var table = ContactTable(contacts: contacts)
    for _ in 0..<2 {
      let context = ProcessingContext()
      table = try EmailNormalization(comparisonKeys: true).process(Frame(table: table), context: context).table
      table = try AddressNormalization(streetStyle: .expand, comparisonKeys: true).process(Frame(table: table), context: context).table
      #expect(context.counters["emails.keys"] == 1 && context.counters["addresses.keys"] == 1)
    }
    let f = table.fieldRange(of: 0).first { table.fields.kind[$0] == .email }!
    let params = ParameterList(encoded: table.pool.string(table.fields.parameters[f]) ?? "")
    #expect(params.values("X-OHANA-KEY") == ["annlee@gmail.com"] && params.values("TYPE") == ["work"])
    let a = table.addressRange(of: 0).first!
    let adr = ParameterList(encoded: table.pool.string(table.addresses[.parameters][a]) ?? "")
    #expect(adr.values("X-OHANA-KEY") == ["1 main street"])
    #expect(table.contact(at: 0).addresses[0].street == "1 Main Street")
  }
}

/// `EmailText.isNormalASCII`, the byte test that lets most addresses skip
/// the full path, against that full path (`normalized(_:)`, which the
/// Python tests hold to email-validator): on random addresses built from
/// the characters where the rules turn, a yes of the byte test is always
/// the full path's answer, and on printable ASCII the two agree.
@Suite struct EmailFastPathTests {
  @Test func theByteTestAgreesWithTheFullPath() {
    var state: UInt64 = 46
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
    let alphabet = Array("aZ9.-_+@ \"x".unicodeScalars) + ["é", "\t"]
    let tails = ["", ".com", ".COM", ".test", ".123", ".xn--bcher-kva", "--x.org", ".a-", ".example.org"]
    var agreed = 0, fast = 0
    for _ in 0..<50_000 {
      var s = ""
      for _ in 0..<(1 + next(14)) { s.unicodeScalars.append(alphabet[next(alphabet.count)]) }
      if next(2) == 0 { s += "@" + String(repeating: "b", count: 1 + next(3)) }
      s += tails[next(tails.count)]
      if next(50) == 0 { s = String(repeating: "l", count: 60 + next(10)) + "@x.com" }
      let full = EmailText.normalized(s)
      let kept = full.problem == nil && full.address == s
      let byBytes = Array(s.utf8).withUnsafeBytes { EmailText.isNormalASCII($0) }
      // Never a yes the full path would not give; and on printable ASCII
      // (the addresses it is for) the same answer.
      let printableASCII = s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
      let ok = byBytes ? kept : (!printableASCII || !kept)
      #expect(ok, "\(s)")
      if ok { agreed += 1 }
      if byBytes { fast += 1 }
    }
    #expect(agreed == 50_000)
    #expect(fast > 500)  // the test reaches both answers
  }
}

/// `NameText.isSettledASCII`, the byte test that lets most names skip
/// tidying and re-casing, against those full paths: a yes is never given
/// to a name that either would change.
@Suite struct NameFastPathTests {
  @Test func aSettledNameIsOneTheFullPathLeaves() {
    var state: UInt64 = 7
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
    let alphabet: [String] = ["a", "Z", "m", "Q", " ", ".", "-", "'", "é", "\t", "\u{00A0}", "e\u{0301}", "ß"]
    let nfc = Normalizer(.nfc)
    var settled = 0
    for _ in 0..<50_000 {
      var s = ""
      for _ in 0..<(1 + next(12)) { s.unicodeScalars.append(contentsOf: alphabet[next(alphabet.count)].unicodeScalars) }
      let byBytes = Array(s.utf8).withUnsafeBytes { NameText.isSettledASCII($0) }
      guard byBytes else { continue }
      settled += 1
      let tidy = NameText.words(s).joined(separator: " ")
      #expect(tidy == s && ((try? nfc.normalize(s)) ?? "") == s && NameText.recased(s) == nil, "\(s)")
    }
    #expect(settled > 1000)
  }
}
