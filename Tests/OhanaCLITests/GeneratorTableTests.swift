import Testing

@testable import OhanaDatasets

/// White-box checks of the generator's committed tables.
@Suite("generator tables")
struct GeneratorTableTests {
  @Test func everyTemplateHasOneDigitPlacePerNSNDigit() {
    for (region, plan) in phonePlans {
      #expect(plan.region == region)
      for p in plan.mobile + plan.fixed {
        #expect(p.prefixes.allSatisfy { $0.count < p.length }, "\(region)")
        for t in p.national + p.international {
          #expect(t.filter { $0 == "#" }.count == p.length, "\(region): \(t)")
        }
      }
    }
  }

  @Test func everyLocaleHasAPlanAndEnoughNames() {
    #expect(generatorLocales.count >= 25)
    for loc in generatorLocales {
      #expect(phonePlans[loc.region] != nil, "\(loc.tag)")
      #expect(loc.female.count >= 5 && loc.male.count >= 5 && loc.family.count >= 5, "\(loc.tag)")
      if let fem = loc.familyFemale { #expect(fem.count == loc.family.count, "\(loc.tag)") }
      #expect(!loc.cities.isEmpty && !loc.streets.isEmpty && !loc.domains.isEmpty, "\(loc.tag)")
      for n in loc.female + loc.male + loc.family {
        let ascii = n.latin.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii, "\(loc.tag): latin form of a name")
      }
    }
  }

  @Test func namesCoverAtLeastTenScripts() {
    func script(_ s: Unicode.Scalar) -> String? {
      switch s.value {
      case 0x41...0x24F, 0x1E00...0x1EFF: "Latin"
      case 0x370...0x3FF: "Greek"
      case 0x400...0x4FF: "Cyrillic"
      case 0x590...0x5FF: "Hebrew"
      case 0x600...0x6FF: "Arabic"
      case 0x900...0x97F: "Devanagari"
      case 0xE00...0xE7F: "Thai"
      case 0x10A0...0x10FF: "Georgian"
      case 0x3040...0x30FF: "Kana"
      case 0x4E00...0x9FFF: "Han"
      case 0xAC00...0xD7AF: "Hangul"
      default: nil
      }
    }
    var scripts = Set<String>()
    for loc in generatorLocales {
      for n in loc.female + loc.male + loc.family {
        for s in n.native.unicodeScalars { if let k = script(s) { scripts.insert(k) } }
      }
    }
    #expect(scripts.count >= 10, "\(scripts.sorted())")
  }

  @Test func emitterFoldsAt75OctetsWithoutSplittingCharacters() {
    var e = VCardEmitter()
    e.beginCard(.v40)
    e.property("NOTE", String(repeating: "Ωμέγα ", count: 40))
    e.endCard()
    let text = String(decoding: e.out, as: UTF8.self)
    #expect(!text.contains("\u{FFFD}"))
    for line in e.out.split(separator: UInt8(ascii: "\n")) {
      #expect(line.count <= 76)  // 75 octets + CR
      if let first = line.first { #expect(first & 0xC0 != 0x80) }
    }
  }

  @Test func quotedPrintableFor21() {
    var e = VCardEmitter()
    e.beginCard(.v21)
    e.property("NOTE", "Zoë; line one\nline two")
    e.endCard()
    let text = String(decoding: e.out, as: UTF8.self)
    // Soft line breaks (`=` CRLF) keep QP lines under 76 characters.
    #expect(e.out.split(separator: UInt8(ascii: "\n")).allSatisfy { $0.count <= 77 })
    let unbroken = text.split(separator: "=\r\n").joined()
    #expect(unbroken.contains("NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB\\; line one=0D=0Aline two"))
  }

  @Test func escapingFor30() {
    var e = VCardEmitter()
    e.beginCard(.v30)
    e.property("NOTE", "a,b;c\\d\ne")
    e.endCard()
    #expect(String(decoding: e.out, as: UTF8.self).contains("NOTE:a\\,b\\;c\\\\d\\ne\r\n"))
  }
}
