import OhanaCore
import OhanaPhone
import Testing

@testable import OhanaDedupe

@Suite struct PhoneKeyTests {
  /// The key of `s` read in `region`; `known`: the region is the contact's
  /// own (address or e-mail), not the configured default.
  func key(_ s: String, _ region: String = "US", known: Bool = false) -> UInt64 {
    var s = s
    let r = RegionCode(region) ?? .us
    return s.withUTF8 { KeyFunctions.phoneKey(UnsafeRawBufferPointer($0), region: r, regionKnown: known) }
  }

  func same(_ a: UInt64, _ b: UInt64) -> Bool { a != 0 && KeyFunctions.samePhone(a, b) }

  @Test func usFormatsGiveOneKey() {
    let forms = ["(312) 644-3332", "312-644-3332", "312.644.3332", "+1 312 644 3332", "1 (312) 644 3332",
                 "+13126443332", "tel:+1-312-644-3332", "312 644 3332 ext. 12", "001 312 644 3332"]
    let keys = forms.map { key($0) }
    #expect(Set(keys.map(KeyFunctions.phoneSuffix)) == [126_443_332])
    for a in keys { for b in keys { #expect(same(a, b)) } }
    // Read in the contact's own region, every form knows its calling code
    // but `001 …`: the US dials out with 011, so there 00 is a guess.
    #expect(Set(forms.dropLast().map { KeyFunctions.phoneCountry(key($0, known: true)) }) == [1])
    #expect(KeyFunctions.phoneCountry(key("001 312 644 3332", known: true)) == 0)
  }

  @Test func nationalAndInternationalMeetWithTheRightRegion() {
    for known in [false, true] {
      #expect(same(key("020 7031 3000", "GB", known: known), key("+44 20 7031 3000")))
      #expect(same(key("06 19243415", "NL", known: known), key("+31 (0)6 19243415")))
      #expect(same(key("8 (912) 345-67-89", "RU", known: known), key("+7 912 345-67-89")))
      #expect(same(key("090-8975-6748", "JP", known: known), key("+81 90-8975-6748")))
    }
  }

  @Test func nationalNumberWithAWrongRegionStillMeetsItsInternationalForm() {
    // A Japanese national number read as US: the digits fallback drops the
    // trunk 0; it is not a valid US number, so its calling code stays
    // unknown even when US is the contact's region.
    for known in [false, true] {
      #expect(same(key("090-8975-6748", "US", known: known), key("+81 90 8975 6748", "US")))
    }
  }

  @Test func wrongRegionGuessesStillMeet() {
    // With a US address, 180-1200-3670 is the valid US number
    // 1 (801) 200-3670, so only a default region leaves it open.
    #expect(same(key("180-1200-3670", "US"), key("+86 180 1200 3670")))
    #expect(!same(key("180-1200-3670", "US", known: true), key("+86 180 1200 3670")))
    for known in [false, true] {
      #expect(same(key("8 (925) 555-48-25", "US", known: known), key("+7 925 555 48 25")))
      #expect(same(key("00966 55 673 5085", "US", known: known), key("+966 556735085")))
      #expect(same(key("0044 7754 416 559", "US", known: known), key("+44 (0)7754 416559")))
    }
    #expect(same(key("+46 8 123 456"), key("08-123 456", "SE")))
  }

  /// Numbers of different countries that end in the same nine digits are
  /// different numbers (their E.164 forms, written out here, differ) once
  /// both calling codes are known: from a `+`, or from the contact's own
  /// region where the number is valid. The 10M generated book had tens of
  /// thousands of such pairs (Benchmarks/HISTORY.md).
  @Test func sameSuffixInOtherCountriesIsAnotherNumber() {
    let pairs: [((String, String), (String, String))] = [
      (("064 642 4727", "TH"), ("+31 6 46 42 47 27", "NL")),  // +66646424727 / +31646424727
      (("+7 905 250 82 58", "RU"), ("(805) 250-8258", "US")),  // +79052508258 / +18052508258
      (("+30 231 317 3146", "GR"), ("+44 131 317 3146", "GB")),  // +302313173146 / +441313173146
      (("057 915 19 34", "UA"), ("+34 579 151 934", "ES")),  // +380579151934 / +34579151934
    ]
    for ((a, ra), (b, rb)) in pairs {
      let ka = key(a, ra, known: true), kb = key(b, rb, known: true)
      #expect(KeyFunctions.phoneSuffix(ka) == KeyFunctions.phoneSuffix(kb), "\(a) / \(b): the same last nine digits")
      #expect(!KeyFunctions.samePhone(ka, kb), "\(a) / \(b)")
      // With the region of one side only a default, the pair may be one number.
      #expect(same(key(a, ra, known: false), key(b, rb, known: false)) == !(a.hasPrefix("+") && b.hasPrefix("+")))
    }
  }

  /// A region's own international prefix (not 00) before a calling code,
  /// as written in that region, is that calling code.
  @Test func aRegionsOwnInternationalPrefixGivesTheCallingCode() {
    let cases: [(String, String, String, UInt64)] = [
      ("0011 61 490 581 410", "AU", "+61 490 581 410", 61),
      ("00166 92-449-0453", "TH", "+66 92 449 0453", 66),
      ("00182 10 5155 1600", "KR", "+82 10-5155-1600", 82),
      ("011 44 20 7031 3000", "US", "+44 20 7031 3000", 44),
    ]
    for (local, region, international, cc) in cases {
      let k = key(local, region, known: true)
      #expect(KeyFunctions.phoneCountry(k) == cc, "\(local) in \(region)")
      #expect(same(k, key(international)), "\(local) in \(region)")
    }
  }

  @Test func theParserlessPathAgreesWithTheParser() {
    let values: [(String, String)] = [
      ("(312) 644-3332", "US"), ("312.644.3332", "US"), ("1 (312) 644 3332", "US"), ("+1 312 644 3332", "US"),
      ("+13126443332", "DE"), ("+44 20 7031 3000", "US"), ("+44 (0) 20 7031 3000", "US"), ("+49 30 1234 5678", "US"),
      ("+81 90-8975-6748", "JP"), ("+55 11 98765 4321", "BR"), ("+7 912 345-67-89", "RU"), ("+86 180 1200 3670", "US"),
      ("+39 06 1234 5678", "IT"), ("+966 556735085", "US"), ("(604) 555-0199", "CA"), ("416/555/0199", "CA"),
      ("+1 012 345 6789", "US"), ("012 345 6789", "US"), ("1012345678", "US"), ("2 312 644 3332", "US"),
      ("+00 123 456 789 012", "US"), ("+999 123 456 789", "US"), ("+54 11 15 1234 5678", "AR"),
      ("+54 9 11 1234 5678", "US"), ("020 7031 3000", "GB"), ("+1 312 644 3332 ext. 12", "US"),
      ("1 180 1200 3670", "US"), ("(212) 555-0100", "US"), ("+1 (212) 555-0100", "CA"), ("+353 1 234 5678", "IE"),
    ]
    var quick = 0
    for known in [false, true] {
      for (text, region) in values {
        var t = text
        let r = RegionCode(region) ?? .us
        t.withUTF8 { b in
          let raw = UnsafeRawBufferPointer(b)
          if let k = KeyFunctions.quickPhoneKey(raw, region: r, regionKnown: known) {
            quick += 1
            #expect(k == KeyFunctions.parsedPhoneKey(raw, region: r, regionKnown: known), "\(text) in \(region), known \(known)")
          }
        }
      }
    }
    #expect(quick >= 30)
    // Left to the parser: Argentina's transform, letters, other regions' national forms.
    #expect(same(key("+54 11 15 1234 5678", "AR"), key("011 15-1234-5678", "AR")))
  }

  @Test func shortOrEmptyValuesHaveNoKey() {
    #expect(key("") == 0)
    #expect(key("112") == 0)
    #expect(key("not a number") == 0)
  }

  @Test func e164Helper() {
    #expect(KeyFunctions.e164("(650) 253-0000", region: "US") == "+16502530000")
    #expect(KeyFunctions.e164("garbage", region: "US") == nil)
  }
}

@Suite struct EmailKeyTests {
  @Test func caseAndSpacesFold() {
    #expect(KeyFunctions.normalizeEmail("  Ann.Lee@Example.ORG ") == "ann.lee@example.org")
    #expect(KeyFunctions.normalizeEmail("ANN.LEE@EXAMPLE.ORG") == "ann.lee@example.org")
    #expect(KeyFunctions.normalizeEmail("mailto:ann@x.org") == "ann@x.org")
  }

  @Test func subAddressesDropEverywhere() {
    #expect(KeyFunctions.normalizeEmail("ann+news@x.org") == "ann@x.org")
  }

  @Test func dotsDropOnlyForGmail() {
    #expect(KeyFunctions.normalizeEmail("J.O.Hn.Smith+x@GoogleMail.com") == "johnsmith@gmail.com")
    #expect(KeyFunctions.normalizeEmail("john.smith@outlook.com") == "john.smith@outlook.com")
  }

  @Test func unicodeIsNFKCCaseFolded() {
    // Full-width letters and a German sharp s.
    #expect(KeyFunctions.normalizeEmail("ＡＮＮ@Straße.de") == "ann@strasse.de")
  }

  @Test func notAnAddress() {
    #expect(KeyFunctions.normalizeEmail("no-at-sign") == "")
    #expect(KeyFunctions.normalizeEmail("@x.org") == "")
  }

  @Test func countryTopLevelDomains() {
    func region(_ s: String) -> String? {
      var s = s
      return s.withUTF8 { KeyFunctions.emailRegion(UnsafeRawBufferPointer($0)) }?.description
    }
    #expect(region("a@ezweb.ne.jp") == "JP")
    #expect(region("a@yahoo.co.uk") == "GB")
    #expect(region("a@gmail.com") == nil)
  }
}

@Suite struct NameKeyTests {
  let folder = NameFolder()

  @Test func accentsCaseAndPunctuation() {
    #expect(folder.fold("  José-María  GARCÍA ") == "jose maria garcia")
    #expect(folder.fold("Müller") == "muller")
    #expect(folder.fold("O'Brien") == "obrien")
    #expect(folder.fold("Straße") == "strasse")
  }

  @Test func scriptsTransliterateToLatin() {
    #expect(folder.fold("Александр") == "aleksandr")
    #expect(folder.fold("Ελένη") == "elene")
    #expect(!folder.fold("田中").isEmpty)
    #expect(folder.fold("정민지").allSatisfy { $0.isASCII })
  }

  func keys(_ contacts: [Contact]) -> ContactKeys {
    ContactKeys(table: ContactTable(contacts: contacts), configuration: DedupeConfiguration())
  }

  @Test func tokenOrderAndNicknamesGiveOneNameKey() {
    let k = keys([
      Contact(givenName: "William", familyName: "Smith"),
      Contact(givenName: "Bill", familyName: "SMITH"),
      Contact(givenName: "Smith", familyName: "Billy"),
      Contact(givenName: "Willy", familyName: "Smíth"),
      Contact(givenName: "Walter", familyName: "Smith"),
    ])
    #expect(k.nameKey[0] != 0)
    #expect(k.nameKey[0] == k.nameKey[1])
    #expect(k.nameKey[0] == k.nameKey[2])
    #expect(k.nameKey[0] == k.nameKey[3])
    #expect(k.nameKey[0] != k.nameKey[4])
  }

  @Test func cyrillicNicknameMeetsItsLatinFullForm() {
    let k = keys([
      Contact(givenName: "Саша", familyName: "Иванов"),
      Contact(givenName: "Aleksandr", familyName: "Ivanov"),
      Contact(givenName: "Александр", familyName: "Иванов"),
    ])
    #expect(k.nameKey[0] == k.nameKey[1])
    #expect(k.nameKey[1] == k.nameKey[2])
  }

  @Test func aLoneNameIsNoBlock() {
    let k = keys([Contact(givenName: "Mom"), Contact(fullName: "Mom")])
    #expect(k.nameKey[0] == 0 && k.nameKey[1] == 0)
  }

  @Test func fullNameOnlyAndOrganizations() {
    let k = keys([Contact(fullName: "Ann Lee"), Contact(organization: "Acme Widgets")])
    #expect(k.folds.string(k.family[0]) == "ann lee")
    #expect(k.folds.string(k.family[1]) == "acme widgets")
    #expect(k.nameKey[0] != 0)
  }

  @Test func birthdays() {
    func b(_ s: String) -> UInt32 {
      var s = s
      return s.withUTF8 { KeyFunctions.birthdayKey(UnsafeRawBufferPointer($0)) }
    }
    #expect(b("1964-03-26") == 19_640_326)
    #expect(b("19640326") == 19_640_326)
    #expect(b("1964-03-26T00:00:00Z") == 19_640_326)
    #expect(b("--0326") == 326)
    #expect(b("soon") == 0)
    // CSV exports: Outlook's short dates (German day first, US month first).
    #expect(b("26.3.1964") == 19_640_326)
    #expect(b("26.03.1964") == 19_640_326)
    #expect(b("3/26/1964") == 19_640_326)
    #expect(b("03/26/1964") == 19_640_326, "not read as the digits 03261964")
    #expect(b("26/3/1964") == 19_640_326, "day first when the first number cannot be a month")
    #expect(b("3/26/1964 00:00") == 19_640_326)
    #expect(b("13.13.1964") == 0, "no month 13")
    #expect(b("1964/03/26") == 19_640_326, "year first stays the digits' reading")
  }

  @Test func addressCountryPicksThePhoneRegion() {
    let k = keys([
      Contact(
        fields: [ContactField(kind: .phone, value: "06 19243415")],
        addresses: [PostalAddress(street: "Prinsengracht 98", postalCode: "1098 TV", country: "Nederland")]),
      Contact(fields: [ContactField(kind: .phone, value: "+31 6 19243415")]),
      Contact(fields: [
        ContactField(kind: .phone, value: "8 912 345 67 89"), ContactField(kind: .email, value: "a@mail.ru"),
      ]),
      Contact(fields: [ContactField(kind: .phone, value: "+7 912 345 67 89")]),
    ])
    #expect(k.phones[k.phones(of: 0)] == k.phones[k.phones(of: 1)])
    #expect(k.phones[k.phones(of: 2)] == k.phones[k.phones(of: 3)])
  }
}

@Suite struct NicknameTableTests {
  @Test func knownPairs() {
    let c = NicknameTable.canonical
    let pairs = [
      ("bill", "william"), ("bob", "robert"), ("kate", "katherine"), ("sasha", "alexander"),
      ("liz", "elizabeth"), ("dima", "dmitry"), ("pepe", "josef"), ("kasia", "katherine"),
      ("giorgos", "georgios"), ("hans", "johannes"), ("peggy", "margaret"), ("sasa", "alexander"),
    ]
    for (nick, full) in pairs {
      #expect(c[nick] == full, "\(nick)")
      #expect(c[full] == full, "\(full)")
    }
  }

  @Test func hasAFewHundredNamesAllFolded() {
    let c = NicknameTable.canonical
    #expect(c.count >= 400)
    for (k, v) in c {
      #expect(k.allSatisfy { ($0 >= "a" && $0 <= "z") }, "\(k)")
      #expect(c[v] == v, "canonical \(v) of \(k) must map to itself")
    }
  }
}

@Suite struct EmailKeyFastPathTests {
  func key(_ s: String) -> UInt64 {
    var s = s
    return s.withUTF8 { KeyFunctions.emailKey(UnsafeRawBufferPointer($0)) }
  }

  /// The key put together from the general path's parts: the normalized
  /// address's hash below, the mailbox of its local part above.
  func slow(_ s: String) -> UInt64 {
    let n = KeyFunctions.normalizeEmail(s)
    if n.isEmpty { return 0 }
    var local = Array(n.utf8.prefix { $0 != 0x40 })
    let mailbox = local.withUnsafeMutableBytes { KeyFunctions.mailboxHash($0) }
    return UInt64(mailbox) << 32 | (Hash64.hash(Array(n.utf8), seed: 0xE) & 0xFFFF_FFFF)
  }

  @Test func asciiFastPathAgreesWithTheGeneralPath() {
    let samples = [
      "Ann.Lee@Example.ORG", " <ann+x@x.org> ", "MAILTO:bob@y.com", "J.O.Hn+z@GoogleMail.com", "john@gmail.com",
      "@x.org", "nobody", "a@b", "x@", "A.B@Gmail.COM", "ann@gmail.com.evil.org",
    ]
    for s in samples { #expect(key(s) == slow(s), "\(s)") }
    #expect(key("J.O.Hn+z@GoogleMail.com") == key("john@gmail.com"))
  }
}

@Suite struct CountryTests {
  func region(_ s: String) -> String? {
    var s = s
    return s.withUTF8 { Countries.region(UnsafeRawBufferPointer($0)) }
  }

  /// The spellings found without ICU give the region that ICU's fold gives:
  /// the oracle is the transliteration path, run on each spelling.
  @Test func spellingsAgreeWithTheirFolds() {
    #expect(Countries.spelled.count >= 18)
    for (spelling, code) in Countries.spelled {
      let folded = NameFolder.shared.fold(spelling)
      #expect(Countries.regions[folded] == code, "\(spelling) folds to \(folded)")
    }
  }

  @Test func spellingsInAnyCaseAndOthersByTheirFold() {
    #expect(region("MÉXICO") == "MX")
    #expect(region("Österreich") == "AT")
    #expect(region("日本") == "JP")
    #expect(region("Россия") == "RU")
    // Not typed as a spelling: found through the fold.
    #expect(region("Polska") == "PL")
    #expect(region(" españa ") == "ES")
    #expect(region("Российская") == nil)
  }
}
