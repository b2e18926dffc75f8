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

  /// The decoder (four characters at a time where it can) against a
  /// character-at-a-time reference, on random mixes of alphabet, line
  /// breaks, spaces, padding and bad bytes, appended after existing output.
  @Test func base64MatchesReference() {
    func reference(_ input: [UInt8]) -> [UInt8]? {
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
      var out: [UInt8] = []
      var acc: UInt32 = 0
      var n = 0
      var sawPad = false
      for b in input {
        if b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A { continue }
        if b == UInt8(ascii: "=") {
          sawPad = true
          continue
        }
        let v: Int
        if let i = alphabet.firstIndex(of: b) {
          v = i
        } else if b == UInt8(ascii: "-") {
          v = 62
        } else if b == UInt8(ascii: "_") {
          v = 63
        } else {
          return nil
        }
        if sawPad { return nil }
        acc = acc << 6 | UInt32(v)
        n += 1
        if n == 4 {
          out += [UInt8(truncatingIfNeeded: acc >> 16), UInt8(truncatingIfNeeded: acc >> 8), UInt8(truncatingIfNeeded: acc)]
          acc = 0
          n = 0
        }
      }
      if n == 2 { out.append(UInt8(truncatingIfNeeded: acc >> 4)) }
      if n == 3 { out += [UInt8(truncatingIfNeeded: acc >> 10), UInt8(truncatingIfNeeded: acc >> 2)] }
      return out
    }
    let pieces: [[UInt8]] = [
      Array("QUJD".utf8), Array("ZGVm".utf8), Array("x".utf8), Array("\r\n ".utf8), Array("=".utf8),
      Array("==".utf8), Array("*".utf8), Array("-_".utf8), Array(" ".utf8), Array("Zm9vYmFy".utf8),
    ]
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<3000 {
      var input: [UInt8] = []
      for _ in 0..<Int.random(in: 0...12, using: &rng) {
        // Bad bytes and padding are rarer, so most inputs decode.
        let k = Int.random(in: 0..<100, using: &rng)
        input += pieces[k < 3 ? 6 : k < 6 ? 4 : k < 8 ? 5 : [0, 1, 2, 3, 7, 8, 9][k % 7]]
      }
      var out: [UInt8] = [7, 7]
      let ok = Base64.decode(input, into: &out)
      let expected = reference(input)
      #expect(ok == (expected != nil), "\(String(decoding: input, as: UTF8.self))")
      if let expected, ok { #expect(out == [7, 7] + expected, "\(String(decoding: input, as: UTF8.self))") }
      // Slices decode like arrays.
      var sliced: [UInt8] = []
      let wrapped = [0x41] + input + [0x41]
      #expect(Base64.decode(wrapped[1..<(wrapped.count - 1)], into: &sliced) == ok)
      if ok { #expect(Array(out.dropFirst(2)) == sliced) }
    }
  }

  /// Text escaping (runs appended whole) against the byte-at-a-time rule.
  @Test func escapeTextMatchesReference() {
    func reference(_ v: [UInt8], commas: Bool, semicolons: Bool) -> [UInt8] {
      var out: [UInt8] = []
      var prevCR = false
      for b in v {
        switch b {
        case 0x5C: out += [0x5C, b]
        case 0x2C where commas: out += [0x5C, b]
        case 0x3B where semicolons: out += [0x5C, b]
        case 0x0A: if !prevCR { out += [0x5C, UInt8(ascii: "n")] }
        case 0x0D: out += [0x5C, UInt8(ascii: "n")]
        default: out.append(b)
        }
        prevCR = b == 0x0D
      }
      return out
    }
    let alphabet = Array("ab,;\\\r\n é😀 ".utf8)
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let v = (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? 0x61 }
      for (commas, semicolons) in [(true, true), (false, false), (true, false), (false, true)] {
        var out: [UInt8] = [0x78]
        VCardEscaping.escapeText(v, commas: commas, semicolons: semicolons, into: &out)
        #expect(out == [0x78] + reference(v, commas: commas, semicolons: semicolons))
        var fromSlice: [UInt8] = []
        VCardEscaping.escapeText(v[...], commas: commas, semicolons: semicolons, into: &fromSlice)
        #expect(fromSlice == reference(v, commas: commas, semicolons: semicolons))
      }
    }
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
