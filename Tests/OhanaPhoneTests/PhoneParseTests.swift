import Testing

@testable import OhanaPhone

let engine = PhoneNumberEngine()

func region(_ code: String) -> RegionCode { RegionCode(code) ?? .unknown }

/// E164, INTERNATIONAL, NATIONAL, RFC3966 of `raw` parsed in `home`.
func formats(_ raw: String, _ home: String) throws -> [String] {
  let n = try engine.parse(raw, defaultRegion: region(home))
  return PhoneNumberFormat.allCases.map { engine.format(n, as: $0) }
}

func failure(_ raw: String, _ home: String) -> PhoneNumberError.Code? {
  do {
    _ = try engine.parse(raw, defaultRegion: region(home))
    return nil
  } catch {
    return error.code
  }
}

@Suite struct PhoneParseTests {
  @Test func nationalWithAndWithoutPrefix() throws {
    #expect(try formats("020 7031 3000", "GB") == ["+442070313000", "+44 20 7031 3000", "020 7031 3000", "tel:+44-20-7031-3000"])
    #expect(try formats("2070313000", "GB")[0] == "+442070313000")
    #expect(try formats("030 123456", "DE") == ["+4930123456", "+49 30 123456", "030 123456", "tel:+49-30-123456"])
    #expect(try formats("01 23 45 67 89", "FR") == ["+33123456789", "+33 1 23 45 67 89", "01 23 45 67 89", "tel:+33-1-23-45-67-89"])
    #expect(try formats("(650) 253-0000", "US") == ["+16502530000", "+1 650-253-0000", "(650) 253-0000", "tel:+1-650-253-0000"])
  }

  @Test func italianLeadingZeroIsKept() throws {
    let n = try engine.parse("06 1234 5678", defaultRegion: region("IT"))
    #expect(n.countryCode == 39)
    #expect(n.italianLeadingZero)
    #expect(n.nationalSignificantNumber == "0612345678")
    #expect(engine.format(n, as: .e164) == "+390612345678")
    #expect(engine.format(n, as: .national) == "06 1234 5678")
  }

  @Test func plusAndIDDPrefixes() throws {
    #expect(try formats("+44 20 7031 3000", "US")[0] == "+442070313000")
    #expect(try formats("011 44 20 7031 3000", "US")[0] == "+442070313000")
    #expect(try formats("0044 20 7031 3000", "DE")[0] == "+442070313000")
    #expect(try formats("+0044 20 7031 3000", "DE")[0] == "+442070313000")
    #expect(try formats("8 10 44 20 7031 3000", "RU")[0] == "+442070313000")
    #expect(try formats("0011 86 10 1234 5678", "AU")[0] == "+861012345678")
    #expect(try formats("00 86 10 1234 5678", "AU")[0] == "+610861012345678")  // 00 is not AU's IDD
  }

  @Test func defaultCountryCodeWithoutPlus() throws {
    #expect(try formats("44 20 7031 3000", "GB")[0] == "+442070313000")
    #expect(try formats("1 650 253 0000", "US")[0] == "+16502530000")
  }

  @Test func argentinaAndMexicoMobilePrefixes() throws {
    #expect(try formats("011 15-2341-7982", "AR") == ["+5491123417982", "+54 9 11 2341-7982", "011 15-2341-7982", "tel:+54-9-11-2341-7982"])
    let ar = try engine.parse("011 15-2341-7982", defaultRegion: region("AR"))
    #expect(engine.numberType(ar) == .mobile)
    let mx = try engine.parse("+52 1 55 1234 5678", defaultRegion: region("MX"))
    #expect(engine.format(mx, as: .e164) == "+5215512345678")  // 9.x metadata keeps the 1
  }

  @Test func brazilCarrierCodeIsStripped() throws {
    #expect(try formats("0 15 11 96123 4567", "BR")[0] == "+5511961234567")
    #expect(try formats("015 11 96123 4567", "BR")[2] == "(11) 96123-4567")
  }

  @Test func asiaPacificAndRussia() throws {
    #expect(try formats("03-1234-5678", "JP")[1] == "+81 3-1234-5678")
    #expect(try formats("098765 43210", "IN")[0] == "+919876543210")
    #expect(try formats("8 (912) 345-67-89", "RU") == ["+79123456789", "+7 912 345-67-89", "8 (912) 345-67-89", "tel:+7-912-345-67-89"])
    #expect(try formats("010 1234 5678", "CN")[0] == "+861012345678")
    #expect(try formats("0412 345 678", "AU") == ["+61412345678", "+61 412 345 678", "0412 345 678", "tel:+61-412-345-678"])
  }

  @Test func extensions() throws {
    #expect(try formats("030 123456 ext. 12", "DE")[1] == "+49 30 123456 ext. 12")
    #expect(try formats("(650) 253-0000 x 123", "US")[3] == "tel:+1-650-253-0000;ext=123")
    #expect(try formats("020 7031 3000 #99", "GB")[2] == "020 7031 3000 x99")
    #expect(try formats("tel:+1-650-253-0000;ext=7", "US")[1] == "+1 650-253-0000 ext. 7")
    #expect(try formats("650 253 0000,,42", "US")[1] == "+1 650-253-0000 ext. 42")
    #expect(try formats("650 253 0000 - 42#", "US")[1] == "+1 650-253-0000 ext. 42")
    #expect(try formats("650 253 0000 доб. 5", "US")[1] == "+1 650-253-0000 ext. 5")
  }

  @Test func unicodeDigitsAndVanity() throws {
    #expect(try formats("＋４４ ２０ ７０３１ ３０００", "US")[0] == "+442070313000")
    #expect(try formats("\u{0660}\u{0662}\u{0660} \u{0667}\u{0660}\u{0663}\u{0661} \u{0663}\u{0660}\u{0660}\u{0660}", "GB")[0] == "+442070313000")
    #expect(try formats("1-800-FLOWERS", "US")[0] == "+18003569377")
  }

  @Test func textAroundTheNumber() throws {
    #expect(try formats("Tel: +1 650-253-0000.", "US")[0] == "+16502530000")
    #expect(try formats("(530) 583-6985 x302/x2303", "US")[1] == "+1 530-583-6985 ext. 302")
    #expect(try formats("tel:253-0000;phone-context=+1-650", "US")[0] == "+16502530000")
    #expect(try formats("tel:2530000;phone-context=example.com", "US")[0] == "+12530000")
  }

  @Test func failures() {
    #expect(failure("abc", "US") == .notANumber)
    #expect(failure("650:253:0000", "US") == .notANumber)
    #expect(failure("tel:2530000;phone-context=;", "US") == .notANumber)
    #expect(failure("650 253 0000", "ZZ") == .invalidCountryCode)
    #expect(failure("+999 1234567", "US") == .invalidCountryCode)
    #expect(failure("+44", "US") == .notANumber)
    #expect(failure("+44 1", "US") == .tooShortNSN)
    #expect(failure("0", "DE") == .notANumber)
    #expect(failure("00 1", "DE") == .tooShortAfterIDD)
    #expect(failure("12345678901234567890", "US") == .tooLong)
    #expect(failure(String(repeating: "1", count: 251), "US") == .tooLong)
  }
}

@Suite struct PhoneClassifyTests {
  @Test func typesAndRegions() throws {
    let gbMobile = try engine.parse("07400 123456", defaultRegion: region("GB"))
    #expect(engine.numberType(gbMobile) == .mobile)
    let usBoth = try engine.parse("650 253 0000", defaultRegion: region("US"))
    #expect(engine.numberType(usBoth) == .fixedLineOrMobile)
    #expect(engine.regionCode(for: usBoth) == region("US"))
    let ca = try engine.parse("+1 613 555 0123", defaultRegion: region("US"))
    #expect(engine.regionCode(for: ca) == region("CA"))
    let jersey = try engine.parse("+44 1534 456789", defaultRegion: region("GB"))
    #expect(engine.regionCode(for: jersey) == region("JE"))
    let kz = try engine.parse("+7 7172 123456", defaultRegion: region("RU"))
    #expect(engine.regionCode(for: kz) == region("KZ"))
    let tollFree = try engine.parse("0800 123 456", defaultRegion: region("FR"))
    #expect(engine.numberType(tollFree) == .tollFree || engine.numberType(tollFree) == .unknown)
    let nonGeo = try engine.parse("+800 1234 5678", defaultRegion: region("US"))
    #expect(engine.regionCode(for: nonGeo) == RegionCode.nonGeographic)
    #expect(engine.numberType(nonGeo) == .tollFree)
  }

  @Test func invalidButParsed() throws {
    let n = try engine.parse("+1 123 456 7890", defaultRegion: region("US"))
    #expect(!engine.isValid(n))
    #expect(engine.numberType(n) == .unknown)
    #expect(engine.format(n, as: .international) == "+1 1234567890")  // no format fits
    let ng = try engine.parse("+234 2033123434", defaultRegion: region("NG"))
    #expect(engine.format(ng, as: .e164) == "+2342033123434")
  }
}
