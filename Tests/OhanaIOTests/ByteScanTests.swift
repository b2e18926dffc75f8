import Testing
@testable import OhanaIO

/// The word-at-a-time scans agree with plain byte loops on every length and
/// alignment around a word, and the property-name switch agrees with a
/// table scan.
@Suite struct ByteScanTests {
  private static func samples() -> [[UInt8]] {
    var out: [[UInt8]] = []
    let alphabet: [UInt8] = [0x41, 0x5C, 0x0D, 0x00, 0xFF, 0x80, 0x7F, 0x3A, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0x80]
    var state: UInt64 = 0x1234_5678
    for length in 0..<40 {
      for _ in 0..<30 {
        var s: [UInt8] = []
        for _ in 0..<length {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          let r = Int(state >> 33)
          // Mostly ASCII letters, sometimes a special byte.
          s.append(r % 5 == 0 ? alphabet[(r >> 3) % alphabet.count] : UInt8(0x61 + (r >> 3) % 26))
        }
        out.append(s)
      }
    }
    out.append(Array("Müller 佐藤 🙂".utf8))
    out.append([0xF4, 0x90, 0x80, 0x80])  // above U+10FFFF
    out.append([0xE0, 0x80, 0x80])  // overlong
    out.append([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0xC3])  // truncated at the end
    return out
  }

  @Test func containsMatchesByteLoop() {
    for s in Self.samples() {
      for start in 0..<min(3, s.count + 1) {
        let slice = s[start...]
        let expected = slice.contains { $0 == 0x5C || $0 == 0x0D }
        #expect(slice.withUnsafeBytes { ByteScan.contains($0, 0x5C, or: 0x0D) } == expected)
      }
    }
  }

  @Test func asciiAndUTF8MatchReference() {
    for s in Self.samples() {
      for start in 0..<min(3, s.count + 1) {
        let slice = s[start...]
        #expect(slice.withUnsafeBytes { ByteScan.isASCII($0) } == slice.isASCII)
        #expect(slice.withUnsafeBytes { ByteScan.isValidUTF8($0) } == UTF8Validation.isValid(slice), "\(Array(slice))")
        #expect(slice.withUnsafeBytes { ByteScan.isValidUTF8($0) } == (String(validating: slice, as: UTF8.self) != nil))
      }
    }
  }

  @Test func propertyKindSwitchMatchesTable() {
    let names = [
      "TEL", "tel", "Email", "FN", "fn", "N", "n", "ADR", "VERSION", "UID", "URL", "ORG", "TITLE", "NOTE", "BDAY",
      "NICKNAME", "PHOTO", "IMPP", "X-OHANA-OTHER", "x-ohana-other", "X-OHANA-OTHEr", "X-OHANA-OTHERS", "TELX",
      "TE", "NN", "N\u{0}", "TEL\u{0}", "", "ÉMAIL", "X-ABLABEL", "NICKNAMES", "UIX", "URI", "LOGO", "GEO",
    ]
    for name in names {
      let bytes = Array(name.utf8)[...]
      #expect(VCardPropertyKind.of(bytes) == VCardPropertyKind.slowKind(bytes), "\(name)")
    }
  }
}
