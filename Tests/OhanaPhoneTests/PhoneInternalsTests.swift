import Testing

@testable import OhanaPhone

@Suite struct PhoneInternalsTests {
  func digits(_ s: String) -> DigitString { DigitString(ascii: s.utf8) }

  @Test func prefixPatternIsLeftmostFirst() throws {
    let p = try #require(PrefixPattern(Array("([2-9]\\d{6})$|1".utf8)))
    #expect(p.match(digits("2345678"))?.end == 7)
    #expect(p.match(digits("2345678"))?.group(1) == 0..<7)
    #expect(p.match(digits("12345678"))?.end == 1)
    #expect(p.match(digits("23456789")) == nil)
    let q = try #require(PrefixPattern(Array("0(?:(11)15)?".utf8)))
    #expect(q.match(digits("01115234"))?.group(1) == 1..<3)
    #expect(q.match(digits("0223"))?.end == 1)
    #expect(q.match(digits("0223"))?.group(1) == nil)
    #expect(PrefixPattern(Array("a+".utf8)) == nil)
  }

  @Test func dfaMatching() {
    let t = PhoneMetadataTables.shared
    let us = t.entry(for: RegionCode("US") ?? .unknown) ?? -1
    #expect(us >= 0)
    #expect(t.fullMatch(t.descPattern[us * 11], digits("6502530000")))
    #expect(!t.fullMatch(t.descPattern[us * 11], digits("650253000")))
    #expect(!t.fullMatch(0, digits("1")))
  }

  @Test func unicodeClasses() {
    #expect(UnicodeClasses.digitValue(0xFF15) == 5)
    #expect(UnicodeClasses.digitValue(0x0669) == 9)
    #expect(UnicodeClasses.digitValue(0x1D7D8) == 0)
    #expect(UnicodeClasses.digitValue(0x00B2) == -1)
    #expect(UnicodeClasses.isWord(0xE9))
    #expect(!UnicodeClasses.isWord(0x260E))
  }

  @Test func buffersStayInBounds() {
    var d = DigitString()
    for _ in 0..<200 { d.append(0x31) }
    #expect(d.count == DigitString.capacity)
    #expect(d.overflowed)
    var s = ScalarBuffer()
    let long = s.decode(utf8: Array(repeating: UInt8(0x31), count: 300), limit: 250)
    #expect(!long)
    let short = s.decode(utf8: [0xFF, 0x31], limit: 250)
    #expect(short)
    #expect(s.count == 2 && s[0] == 0xFFFD)
  }

  @Test func handBuiltNumbersNeverTrap() {
    let odd = [
      PhoneNumber(countryCode: -3, nationalNumber: .max, nationalNumberLength: 400),
      PhoneNumber(countryCode: 99_999, nationalNumber: 0, nationalNumberLength: -1),
      PhoneNumber(countryCode: 44, nationalNumber: 12, nationalNumberLength: 5, numberExtension: ""),
    ]
    for n in odd {
      for f in PhoneNumberFormat.allCases { _ = engine.format(n, as: f) }
      _ = engine.classify(n)
    }
    #expect(engine.format(odd[2], as: .e164) == "+4400012")
  }

  @Test func byteWriterSpillsWithoutLoss() {
    var w = ByteWriter()
    var out: [UInt8] = [9]
    for i in 0..<600 { w.append(UInt8(truncatingIfNeeded: i)) }
    w.flush(into: &out)
    #expect(out.count == 601)
    #expect(Array(out.dropFirst()) == (0..<600).map { UInt8(truncatingIfNeeded: $0) })
    w.append(7)
    w.flush(into: &out)
    #expect(out.last == 7 && out.count == 602)
  }

  @Test func base64Decoding() {
    #expect(BlobReader.decodeBase64("aGVsbG8=") == Array("hello".utf8))
    #expect(BlobReader.decodeBase64("aGVs\nbG8h") == Array("hello!".utf8))
    #expect(BlobReader.decodeBase64("") == [])
  }

  @Test func metadataTablesAreConsistent() {
    let t = PhoneMetadataTables.shared
    #expect(PhoneNumberEngine.metadataVersion == "9.0.43")
    #expect(t.entryRegion.count == 254)
    #expect(t.transitions.count == t.accepting.count * 10)
    #expect(t.descPattern.count == t.entryRegion.count * 11)
    #expect(t.transitions.allSatisfy { Int($0) < t.accepting.count })
    #expect(t.prefixPatterns.count > 50)
    // Every IDD and national-prefix pattern compiled.
    for e in 0..<t.entryRegion.count {
      #expect((t.entryIDD[e] == PhoneMetadataTables.stringNone) == (t.entryIDDPattern[e] < 0))
      #expect((t.entryNationalPrefixForParsing[e] == PhoneMetadataTables.stringNone) == (t.entryNationalPrefixPattern[e] < 0))
    }
    #expect(engine.regionCode(forCountryCode: 1) == RegionCode("US"))
    #expect(engine.regionCode(forCountryCode: 800) == .nonGeographic)
    #expect(engine.isSupportedRegion(RegionCode("GB") ?? .unknown))
    #expect(!engine.isSupportedRegion(.unknown))
  }

  @Test func regionCodes() {
    #expect(RegionCode("us") == RegionCode("US"))
    #expect(RegionCode("U") == nil)
    #expect(RegionCode.nonGeographic.description == "001")
  }
}
