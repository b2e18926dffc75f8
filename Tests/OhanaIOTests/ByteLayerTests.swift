import Testing

@testable import OhanaIO

/// The byte-level layers on their own.
@Suite struct ByteLayerTests {
  @Test func propertyKinds() {
    let cases: [(String, VCardPropertyKind)] = [
      ("N", .name), ("n", .name), ("FN", .fullName), ("TEL", .tel), ("tel", .tel), ("ADR", .address),
      ("UID", .uid), ("URL", .url), ("ORG", .organization), ("NOTE", .note), ("BDAY", .birthday),
      ("IMPP", .impp), ("EMAIL", .email), ("Email", .email), ("TITLE", .title), ("PHOTO", .photo),
      ("VERSION", .version), ("NICKNAME", .nickname), ("X-OHANA-OTHER", .otherField),
      ("TEX", .extra), ("UIX", .extra), ("NAME", .extra), ("X-ABLabel", .extra), ("", .extra), ("F", .extra),
      ("NOTES", .extra), ("LOGO", .extra), ("CATEGORIES", .extra),
    ]
    for (name, kind) in cases {
      #expect(VCardPropertyKind.of(Array(name.utf8)[...]) == kind, "\(name)")
    }
  }

  @Test func quotedPrintable() {
    var out: [UInt8] = []
    #expect(QuotedPrintable.decode(Array("a=3Db=C3=A4=\r\nc=".utf8), into: &out))
    #expect(String(decoding: out, as: UTF8.self) == "a=bäc")
    out = []
    #expect(!QuotedPrintable.decode(Array("bad=Z1".utf8), into: &out))
  }

  @Test func base64() {
    for n in 0..<10 {
      let data = (0..<n).map { UInt8($0 * 37 & 0xFF) }
      var enc: [UInt8] = []
      Base64.encode(data, into: &enc)
      var dec: [UInt8] = []
      #expect(Base64.decode(enc, into: &dec))
      #expect(dec == data)
    }
    var out: [UInt8] = []
    #expect(Base64.decode(Array(" SGVs\r\n bG8".utf8), into: &out))
    #expect(out == Array("Hello".utf8))
    #expect(!Base64.decode(Array("SGV*".utf8), into: &out))
    #expect(!Base64.decode(Array("SG==VsbG8".utf8), into: &out))
  }

  @Test func parameterCanonicalForm() {
    var p = VCardParameters()
    p.parse(Array(";type=cell;TYPE=VOICE;X-A=\"x;y\",z;PREF=1;CHARSET=UTF-8".utf8)[...], legacy: false)
    var out: [UInt8] = []
    p.writeCanonical(skipping: 1 << 4, into: &out)  // entry 4 is CHARSET
    #expect(String(decoding: out, as: UTF8.self) == "TYPE=cell,VOICE;X-A=\"x;y\",z;PREF=1")
    // The canonical form reads back to itself.
    var q = VCardParameters()
    q.parse(Array((";" + String(decoding: out, as: UTF8.self)).utf8)[...], legacy: false)
    var again: [UInt8] = []
    q.writeCanonical(into: &again)
    #expect(again == out)
  }

  @Test func utf8Validation() {
    #expect(UTF8Validation.isValid(Array("Zoë 😀".utf8)))
    #expect(!UTF8Validation.isValid([0xC3]))
    #expect(!UTF8Validation.isValid([0xED, 0xA0, 0x80]))  // surrogate
    #expect(!UTF8Validation.isValid([0xC0, 0x80]))  // overlong
  }
}
