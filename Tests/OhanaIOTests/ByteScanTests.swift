import Foundation
import Testing
import _OhanaTestSupport
@testable import OhanaIO

/// The word-at-a-time scans agree with plain byte loops on every length and
/// alignment around a word, and the property-name switch agrees with a
/// table scan.
@Suite struct ByteScanTests {
  private static func samples() -> [[UInt8]] {
    var out: [[UInt8]] = []
    let alphabet: [UInt8] = [0x41, 0x5C, 0x0D, 0x00, 0xFF, 0x80, 0x7F, 0x3A, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0x80]
    var rng = SeededRandom(seed: 0x1234_5678)
    for length in 0..<40 {
      for _ in 0..<30 {
        var s: [UInt8] = []
        for _ in 0..<length {
          let state = rng.next()
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
    out.append([0xED, 0x9F, 0xBF])  // U+D7FF, the last before the surrogates
    out.append([0xED, 0xA0, 0x80])  // surrogate
    out.append([0xF0, 0x8F, 0xBF, 0xBF])  // overlong
    out.append([0xF0, 0x90, 0x80, 0x80])  // U+10000
    out.append([0xF4, 0x8F, 0xBF, 0xBF])  // U+10FFFF
    out.append([0xC1, 0xBF])  // overlong
    out.append([0xC2, 0x80])  // U+0080
    out.append([0xF5, 0x80, 0x80, 0x80])  // never a lead
    out.append(Array("Иван Петров Ἀθῆναι ירושלים 東京都港区 😀 é".utf8))
    return out
  }

  @Test func singleByteContainsMatchesByteLoop() {
    for s in Self.samples() {
      for a: UInt8 in [0x5C, 0x3A, 0x00, 0xFF, 0x61] {
        #expect(s.withUnsafeBufferPointer { ByteScan.contains($0, a) } == s.contains(a))
      }
    }
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

  @Test func firstIndexMatchesByteLoop() {
    for s in Self.samples() {
      for from in [0, 1, 5, 8, 9, s.count, s.count + 3] {
        let expected = from >= s.count ? s.count : (s[from...].firstIndex { $0 == 0x5C || $0 == 0x0D } ?? s.count)
        #expect(s.withUnsafeBytes { ByteScan.firstIndex($0, 0x5C, or: 0x0D, from: from) } == expected)
      }
    }
  }

  /// The reference split: a plain byte loop, as first written.
  private static func referenceSplit(_ v: ArraySlice<UInt8>, maxParts: Int) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    var start = v.startIndex
    var i = v.startIndex
    while i < v.endIndex {
      let b = v[i]
      if b == 0x5C {
        i += 2
        continue
      }
      if b == 0x3B && parts.count + 1 < maxParts {
        parts.append(start..<i)
        start = i + 1
      }
      i += 1
    }
    parts.append(start..<min(v.endIndex, max(start, v.endIndex)))
    return parts
  }

  @Test func splitStructuredMatchesByteLoop() {
    var inputs = ["", ";", ";;;;;;;;", "a;b", "\\;x", "a\\", "a\\;b;c\\\\;d", ";;Main St 1;Springfield;IL;62701;USA;extra;more"]
    inputs += (0..<200).map { k in String((0..<(k % 37)).map { j in ["a", ";", "\\", "é"][(j * 7 + k) % 4] }.joined()) }
    for text in inputs {
      let bytes = [0x41] + Array(text.utf8) + [0x42]
      let slice = bytes[1..<(bytes.count - 1)]
      for maxParts in [1, 2, 5, 7, Int.max] {
        #expect(VCardEscaping.splitStructured(slice, maxParts: maxParts) == Self.referenceSplit(slice, maxParts: maxParts), "\(text)")
      }
    }
  }

  /// The word-at-a-time split on random values: ';' and '\\' at every
  /// offset, next to ':' and ']' (one bit away from them, where a cheap
  /// zero-byte test reports false matches), every part limit around the
  /// readers' (N 5, ADR 7, ORG 2) and the stack buffer's (8), into an array
  /// that held other parts before; contiguous and not.
  @Test func splitStructuredMatchesByteLoopOnRandomValues() {
    let alphabet: [UInt8] = Array(";;;\\:]ab;\\:".utf8) + [0xC3, 0xA9, 0x00]
    var rng = SeededRandom(seed: 0x5EED)
    var parts: [Range<Int>] = [3..<4, 5..<9, 1..<1]
    var checked = 0
    for length in 0..<70 {
      for _ in 0..<40 {
        var text: [UInt8] = []
        for _ in 0..<length {
          let state = rng.next()
          let r = Int(truncatingIfNeeded: state >> 33)
          text.append(r % 3 == 0 ? alphabet[(r >> 3) % alphabet.count] : UInt8(0x61 + (r >> 3) % 26))
        }
        let bytes = [0x3B, 0x5C] + text + [0x3B]
        let slice = bytes[2..<(bytes.count - 1)]
        for maxParts in [0, 1, 2, 3, 5, 7, 8, 9, 12, Int.max] {
          checked += 1
          let expected = Self.referenceSplit(slice, maxParts: maxParts)
          VCardEscaping.splitStructured(slice, maxParts: maxParts, into: &parts)
          let fromBuffer = slice.withUnsafeBufferPointer { b -> [Range<Int>] in
            var out: [Range<Int>] = Array(repeating: 0..<0, count: maxParts % 4)
            VCardEscaping.splitStructured(b, maxParts: maxParts, into: &out)
            return out.map { ($0.lowerBound + 2)..<($0.upperBound + 2) }
          }
          var fromLazy: [Range<Int>] = [0..<1]
          VCardEscaping.splitStructured(slice.lazy.map { $0 }, maxParts: maxParts, into: &fromLazy)
          if parts != expected || fromBuffer != expected || fromLazy != expected {
            Issue.record("\(text) max \(maxParts): expected \(expected), got \(parts) / \(fromBuffer) / \(fromLazy)")
          }
        }
      }
    }
    #expect(checked > 20_000)
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

  /// Every lead byte with the second bytes at the edges of its allowed
  /// ranges (E0 9F/A0, ED 9F/A0, F0 8F/90, F4 8F/90, C1/C2, F5...),
  /// complete and cut short, at every offset around the word boundaries and
  /// the end of the buffer, alone and in runs (so both the single-sequence
  /// and the four-sequences-at-once paths see them).
  @Test func utf8BoundarySequencesMatchReference() {
    let seconds: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0, 0xC2, 0xFF]
    var sequences: [[UInt8]] = []
    for lead in 0x80...0xFF {
      let b0 = UInt8(lead)
      let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
      for b1 in seconds {
        var seq = [b0, b1]
        while seq.count < length { seq.append(0x80 | UInt8(seq.count * 13 & 0x3F)) }
        sequences.append(seq)
        // A bad later continuation byte, too.
        if length > 2 {
          var bad = seq
          bad[length - 1] = 0x41
          sequences.append(bad)
        }
      }
    }
    // Valid sequences of each length, to build runs from.
    let good: [[UInt8]] = [[0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBF],
                           [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xD7, 0x90], [0xE4, 0xBD, 0x90]]
    // Over a million cases: an issue only for a mismatch.
    var checked = 0
    func check(_ bytes: [UInt8]) {
      checked += 1
      let expected = UTF8Validation.isValid(bytes[...])
      let got = bytes.withUnsafeBytes { ByteScan.isValidUTF8($0) }
      let stdlib = String(validating: bytes, as: UTF8.self) != nil
      if got != expected || stdlib != expected {
        Issue.record("\(bytes): isValidUTF8 \(got), reference \(expected), stdlib \(stdlib)")
      }
    }
    for seq in sequences {
      for prefix in 0..<10 {
        let pad = [UInt8](repeating: 0x61, count: prefix)
        for suffix in [0, 1, 5, 9] {
          check(pad + seq + [UInt8](repeating: 0x62, count: suffix))
        }
        // Cut short: every proper prefix of the sequence at the very end.
        for cut in 1..<seq.count { check(pad + seq.prefix(cut)) }
        // Inside a run of 2-byte sequences, and after other valid ones.
        check(pad + [0xD0, 0x90, 0xD0, 0x91] + seq + [0xD0, 0x92, 0xD0, 0x93, 0xD0, 0x94])
        check([0xD0, 0x90, 0xD0, 0x91, 0xD0, 0x92] + pad + seq)
        for g in good { check(g + pad + seq + g) }
      }
    }
    // Runs of valid sequences of mixed lengths, cut at every length.
    var run: [UInt8] = []
    for k in 0..<40 { run += good[(k * 5) % good.count] }
    for n in 0...run.count { check(Array(run.prefix(n))) }
    for n in 0...run.count { check(Array(run.suffix(n))) }
    #expect(checked > 100_000)
  }

  @Test func swarUpperMatchesASCIIUpperForEveryByte() {
    for b in 0...255 {
      for position in 0..<8 {
        let filler: UInt64 = 0x6A_41_7A_5B_60_61_7B_80  // j A z [ ` a { 0x80
        let shift = UInt64(position * 8)
        let w = (filler & ~(0xFF << shift)) | (UInt64(b) << shift)
        var expected: UInt64 = 0
        for k in 0..<8 {
          expected |= UInt64(ASCII.upper(UInt8(truncatingIfNeeded: w >> UInt64(k * 8)))) << UInt64(k * 8)
        }
        #expect(ByteScan.upper(w) == expected, "byte \(b) at \(position)")
      }
    }
  }

  @Test func smallWordMatchesByteLoop() {
    let bytes: [UInt8] = [0x91, 0x02, 0xF3, 0x44, 0x05, 0xE6, 0x77, 0x08, 0x99, 0x10]
    for start in 0..<2 {
      for n in 0...8 {
        var expected: UInt64 = 0
        for k in 0..<n { expected |= UInt64(bytes[start + k]) << UInt64(k * 8) }
        let got = bytes.withUnsafeBytes { raw -> UInt64 in
          guard let base = raw.baseAddress else { return 0 }
          return ByteScan.smallWord(base + start, n)
        }
        #expect(got == expected, "start \(start) n \(n)")
      }
    }
  }

  @Test func propertyKindSwitchMatchesTable() {
    let names = [
      "TEL", "tel", "Email", "FN", "fn", "N", "n", "ADR", "VERSION", "UID", "URL", "ORG", "TITLE", "NOTE", "BDAY",
      "NICKNAME", "PHOTO", "IMPP", "X-OHANA-OTHER", "x-ohana-other", "X-OHANA-OTHEr", "X-OHANA-OTHERS", "TELX",
      "TE", "NN", "N\u{0}", "TEL\u{0}", "", "ÉMAIL", "X-ABLABEL", "NICKNAMES", "UIX", "URI", "LOGO", "GEO",
      "T{L", "`EL", "n", "nickName", "ｎ", "TEL\u{7F}", "é", "EMAI", "EMAILS", "fN", "Fn", "vErSiOn",
    ]
    for name in names {
      let bytes = Array(name.utf8)[...]
      #expect(VCardPropertyKind.of(bytes) == VCardPropertyKind.slowKind(bytes), "\(name)")
    }
  }
}

/// The word-at-a-time property-line split agrees with a plain byte loop
/// (the rules of the module README) on random lines full of the bytes that
/// matter: `;` `:` `.` `"` and blanks.
@Suite struct PropertyLineSplitTests {
  static func reference(_ b: [UInt8]) -> (group: [UInt8], name: [UInt8], params: [UInt8], value: [UInt8])? {
    var i = 0
    while i < b.count && b[i] != ASCII.semicolon && b[i] != ASCII.colon { i += 1 }
    if i >= b.count { return nil }
    var nameStart = 0
    // Leading blanks and dots (an empty group: `.TEL`, `. .TEL`) are
    // skipped; the group is what stands before the first dot after them,
    // and blanks around the group and the name are not part of them.
    while nameStart < i && (ASCII.isSpace(b[nameStart]) || b[nameStart] == ASCII.dot) { nameStart += 1 }
    var dot = -1
    for k in nameStart..<i where b[k] == ASCII.dot {
      dot = k
      break
    }
    var group: [UInt8] = []
    if dot >= nameStart {
      group = Array(b[nameStart..<dot])
      while let last = group.last, ASCII.isSpace(last) { group.removeLast() }
      nameStart = dot + 1
      while nameStart < i && ASCII.isSpace(b[nameStart]) { nameStart += 1 }
    }
    var nameEnd = i
    while nameEnd > nameStart && ASCII.isSpace(b[nameEnd - 1]) { nameEnd -= 1 }
    if nameEnd == nameStart { return nil }
    let name = Array(b[nameStart..<nameEnd])
    if b[i] == ASCII.colon { return (group, name, [], Array(b[(i + 1)...])) }
    var inQuotes = false
    var colon = -1
    var firstColon = -1
    var k = i
    while k < b.count {
      if b[k] == ASCII.colon {
        if firstColon < 0 { firstColon = k }
        if !inQuotes {
          colon = k
          break
        }
      } else if b[k] == ASCII.quote {
        inQuotes.toggle()
      }
      k += 1
    }
    if colon < 0 { colon = firstColon }
    if colon < 0 { return nil }
    return (group, name, Array(b[i..<colon]), Array(b[(colon + 1)...]))
  }

  @Test func matchesByteLoop() {
    let alphabet: [UInt8] = Array("ab;:.\" =X".utf8)
    var rng = SeededRandom(seed: 99)
    for _ in 0..<20_000 {
      let state = rng.next()
      let length = Int(state >> 58)  // 0..<64
      var line: [UInt8] = []
      for _ in 0..<length {
        let state = rng.next()
        line.append(alphabet[Int(state >> 33) % alphabet.count])
      }
      // Embed the line in a bigger buffer so ranges are absolute.
      let padded = Array("xx".utf8) + line + Array("yy".utf8)
      let got = padded.withUnsafeBufferPointer { VCardPropertyLine.split(borrowing: $0, 2..<(2 + line.count)) }
      let expected = Self.reference(line)
      #expect((got == nil) == (expected == nil), "\(String(decoding: line, as: UTF8.self))")
      if let got, let expected {
        #expect(Array(padded[got.group]) == expected.group)
        #expect(Array(padded[got.name]) == expected.name)
        #expect(Array(padded[got.params]) == expected.params)
        #expect(Array(padded[got.value]) == expected.value)
      }
    }
  }
}

/// The word-compare card markers agree with the plain byte comparison.
@Suite struct CardMarkerTests {
  @Test func beginAndEndMatchPlainComparison() {
    var lines = [
      "BEGIN:VCARD", "begin:vcard", "Begin:VCard  ", "BEGIN:VCARD\t", "BEGIN:VCARDX", "BEGIN:VCAR", "BEGIN:VCALENDAR",
      "END:VCARD", "end:vcard", "END:VCARD ", "END:VCARDS", "END:VCAR", "EMAIL:x@y", "BDAY:1990-01-01",
      "BEGIN;VCARD", "ENDxVCARD", "BEGIN:VCARD x", "", "B", "E",
    ]
    // Every single-byte change of the markers, in both cases.
    for marker in ["BEGIN:VCARD", "END:VCARD"] {
      let bytes = Array(marker.utf8)
      for i in bytes.indices {
        for b: UInt8 in [0x20, 0x3A, 0x40, 0x5B, 0x60, 0x7B, 0x41 + UInt8(i % 26)] {
          var m = bytes
          m[i] = b
          lines.append(String(decoding: m, as: UTF8.self))
          lines.append(String(decoding: m, as: UTF8.self).lowercased())
        }
      }
    }
    for line in lines {
      let bytes = Array(line.utf8)
      bytes.withUnsafeBufferPointer { p in
        #expect(VCardLexer.isBegin(p) == VCardLexer.isMarker(p, VCardLexer.begin), "\(line)")
        #expect(VCardLexer.isEnd(p) == VCardLexer.isMarker(p, VCardLexer.end), "\(line)")
      }
    }
  }
}

/// The word-compare QUOTED-PRINTABLE test agrees with a plain reading of
/// the parameters: a bare `QUOTED-PRINTABLE` parameter or
/// `ENCODING=QUOTED-PRINTABLE` before the first `:` (the name segment
/// before the first `;` does not count).
@Suite struct QuotedPrintableNameTests {
  static func reference(_ b: [UInt8]) -> Bool {
    let head = String(decoding: b.prefix { $0 != ASCII.colon }, as: UTF8.self)
    let segments = head.split(separator: ";", omittingEmptySubsequences: false).dropFirst()
    func clean(_ s: Substring) -> String {
      s.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).uppercased()
    }
    for seg in segments {
      let parts = seg.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 1 && clean(parts[0]) == "QUOTED-PRINTABLE" { return true }
      if parts.count == 2 && clean(parts[0]) == "ENCODING" && clean(parts[1]) == "QUOTED-PRINTABLE" { return true }
    }
    return false
  }

  @Test func matchesPlainSearch() {
    var lines = [
      "NOTE;ENCODING=QUOTED-PRINTABLE:a=", "NOTE;encoding=quoted-printable;CHARSET=UTF-8:x=",
      "NOTE;QUOTED-PRINTABLE:", "NOTE:QUOTED-PRINTABLE=", "NOTE;QUOTED-PRINTABL:x", "QUOTED-PRINTABLE",
      "X;Y=QUOTED-PRINTABLEQUOTED-PRINTABLE:1", "N;QUOTED-PRINTABLe:1", "", ":", "NOTE;QQUOTED-PRINTABLE:",
    ]
    var rng = SeededRandom(seed: 5)
    let pieces = ["QUOTED-PRINTABLE", "quoted-printable", "QUOTED", "-", ";", ":", "=", "Q", "x", "PRINTABLE"]
    for _ in 0..<3000 {
      var l = ""
      for _ in 0..<5 {
        let state = rng.next()
        l += pieces[Int(state >> 33) % pieces.count]
      }
      lines.append(l)
    }
    for line in lines {
      let b = Array(line.utf8)
      #expect(b.withUnsafeBufferPointer { VCardLexer.namesQuotedPrintable($0) } == Self.reference(b), "\(line)")
    }
  }
}
