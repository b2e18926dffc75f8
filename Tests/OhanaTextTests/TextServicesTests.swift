import Dispatch
import OhanaText
import Synchronization
import Testing

@Suite struct NormalizerTests {
  @Test func nfcComposesAndNfdDecomposes() throws {
    let decomposed = "Mu\u{0308}ller"
    let composed = try Normalizer.nfc.normalize(decomposed)
    #expect(Array(composed.unicodeScalars) == Array("M\u{00FC}ller".unicodeScalars))
    #expect(try Normalizer.nfd.normalize(composed).unicodeScalars.count == 7)
    #expect(Normalizer.nfc.isNormalized(utf8: Array(composed.utf8)))
    #expect(!Normalizer.nfc.isNormalized(utf8: Array(decomposed.utf8)))
    #expect(try Normalizer.nfc.normalize(utf8: Array("plain ascii".utf8)) == Array("plain ascii".utf8))
  }

  @Test func nfkcFoldsCompatibilityForms() throws {
    #expect(try Normalizer.nfkc.normalize("ｶﾀｶﾅ") == "カタカナ")
    #expect(try Normalizer.nfkc.normalize("ﬁle №１") == "file No1")
    #expect(try Normalizer.nfkcCasefold.normalize("Straße ＡＢＣ") == "strasse abc")
    #expect(try Normalizer.nfkcCasefold.normalize("ABC") == "abc")
  }
}

@Suite struct CaseFoldTests {
  @Test func foldsForCaselessMatching() {
    #expect(caseFold("Straße") == "strasse")
    #expect(caseFold("MÜLLER") == caseFold("müller"))
    #expect(caseFold("ΣΊΣΥΦΟΣ") == caseFold("σίσυφος"))
    #expect(CaseFolder.default.fold("ABC xyz") == "abc xyz")
    #expect(CaseFolder.default.fold(utf8: [0xFF, 0x41]).count >= 1)
    #expect(String(decoding: CaseFolder.default.lowercase(utf8: Array("ÀB".utf8)), as: UTF8.self) == "àb")
  }

  @Test func turkicFoldingKeepsDotlessI() {
    #expect(CaseFolder.turkic.fold("I") == "ı")
    #expect(CaseFolder.turkic.fold("İ") == "i")
    #expect(CaseFolder.default.fold("I") == "i")
  }
}

@Suite struct TransliteratorTests {
  @Test func latinASCII() throws {
    let t = try Transliterator("Any-Latin; Latin-ASCII")
    #expect(t.transliterate("Müller") == "Muller")
    #expect(t.transliterate("Łukasz Żółć") == "Lukasz Zolc")
    let cyrillic = t.transliterate("Александр")
    #expect(cyrillic.hasPrefix("Aleksandr"))
    for s in ["Александр", "東京", "とうきょう", "Ωmega", "김민준", ""] {
      let out = t.transliterate(s)
      #expect(out.utf8.allSatisfy { $0 < 0x80 }, "\(s) → \(out)")
      if !s.isEmpty { #expect(!out.isEmpty) }
    }
  }

  @Test func unknownIdThrows() {
    #expect(throws: TextError.self) { try Transliterator("No-Such-Transform") }
    do {
      _ = try Transliterator("No-Such-Transform")
    } catch {
      #expect(error.code == .unknownTransliterator)
      #expect(error.status.isFailure)
    }
  }

  @Test func oneTransliteratorServesManyThreads() throws {
    let t = try Transliterator("Any-Latin; Latin-ASCII")
    let inputs = ["Александр", "Müller", "東京", "Ελένη"]
    let expected = inputs.map { t.transliterate($0) }
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 64) { i in
      let k = i % inputs.count
      if t.transliterate(inputs[k]) != expected[k] { failures.wrappingAdd(1, ordering: .relaxed) }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
  }
}

@Suite struct CharsetConverterTests {
  @Test func shiftJIS() throws {
    // 日本 in Shift_JIS, then ASCII "abc".
    let bytes: [UInt8] = [0x93, 0xFA, 0x96, 0x7B, 0x61, 0x62, 0x63]
    #expect(try CharsetConverter.string(bytes, charset: "Shift_JIS") == "日本abc")
    #expect(try CharsetConverter.string(bytes, charset: "SJIS") == "日本abc")
  }

  @Test func isoLatin1AndWindows1252() throws {
    let bytes: [UInt8] = [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72]
    #expect(try CharsetConverter.string(bytes, charset: "ISO-8859-1") == "Müller")
    #expect(try CharsetConverter.string([0x80, 0x31], charset: "windows-1252") == "€1")
    #expect(try CharsetConverter.string([0xE0, 0xF8], charset: "ISO-8859-2") == "ŕř")
  }

  @Test func utf16WithAndWithoutBOM() throws {
    let leWithBOM: [UInt8] = [0xFF, 0xFE, 0x4D, 0x00, 0xFC, 0x00, 0x2C, 0x67]
    #expect(try CharsetConverter.string(leWithBOM, charset: "UTF-16LE") == "Mü本")
    #expect(try CharsetConverter.string(leWithBOM, charset: "UTF-16") == "Mü本")
    let beWithBOM: [UInt8] = [0xFE, 0xFF, 0x00, 0x4D, 0x00, 0xFC]
    #expect(try CharsetConverter.string(beWithBOM, charset: "UTF-16") == "Mü")
    let beNoBOM: [UInt8] = [0x00, 0x4D, 0x00, 0xFC]
    #expect(try CharsetConverter.string(beNoBOM, charset: "UTF-16BE") == "Mü")
    #expect(try CharsetConverter.string([0x4D, 0x00], charset: "UTF-16LE") == "M")
    #expect(try CharsetConverter.toUTF8([UInt8](), charset: "UTF-16") == [])
  }

  @Test func utf8PassesThroughAndBOMIsDropped() throws {
    #expect(try CharsetConverter.string([0xEF, 0xBB, 0xBF, 0x41], charset: "UTF-8") == "A")
  }

  @Test func unknownCharsetThrows() {
    #expect(CharsetConverter.canonicalName("x-no-such-charset") == nil)
    #expect(CharsetConverter.canonicalName("latin1") != nil)
    do {
      _ = try CharsetConverter.toUTF8([0x41], charset: "x-no-such-charset")
      Issue.record("expected an error")
    } catch {
      #expect(error.code == .unknownCharset)
      #expect(error.message.contains("x-no-such-charset"))
    }
  }

  @Test func statusNames() {
    #expect(ICUStatus.fileAccessError.description == "U_FILE_ACCESS_ERROR")
    #expect(ICUStatus.usingDefaultWarning.isWarning)
    #expect(ICUStatus.bufferOverflowError.isFailure)
    #expect(CollationStatus(rawValue: 0) == .zeroError)
  }
}

@Suite struct CharsetDecoderTests {
  @Test func utf16ChunksSplitInsideCharactersAndSurrogatePairs() throws {
    let text = "BEGIN:VCARD\nFN:Jürgen 😀 山田\nEND:VCARD\n"
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    for chunkSize in [1, 2, 3, 5, 7, 64] {
      let decoder = try CharsetDecoder(charset: "UTF-16")
      var out: [UInt8] = []
      var i = 0
      while i < bytes.count {
        out += try decoder.decode(bytes[i..<min(bytes.count, i + chunkSize)])
        i += chunkSize
      }
      out += try decoder.finish()
      #expect(String(decoding: out, as: UTF8.self) == text, "chunk size \(chunkSize)")
    }
  }

  @Test func shiftJISSplitInsideADoubleByteCharacter() throws {
    let decoder = try CharsetDecoder(charset: "Shift_JIS")
    var out = try decoder.decode([0x93, 0xFA, 0x96])
    out += try decoder.decode([0x7B])
    out += try decoder.finish()
    #expect(String(decoding: out, as: UTF8.self) == "日本")
  }

  @Test func truncatedInputBecomesReplacementCharacter() throws {
    let decoder = try CharsetDecoder(charset: "UTF-16LE")
    var out = try decoder.decode([0x41, 0x00, 0x42])
    out += try decoder.finish()
    let s = String(decoding: out, as: UTF8.self)
    #expect(s.hasPrefix("A") && s.unicodeScalars.last == "\u{FFFD}")
  }

  @Test func unknownCharsetThrows() {
    #expect(throws: TextError.self) { try CharsetDecoder(charset: "x-no-such-charset") }
  }

  @Test func detectsUnicodeEncodings() {
    let ascii = Array("BEGIN:VCARD\r\nVERSION:3.0\r\n".utf8)
    let le: [UInt8] = ascii.flatMap { b -> [UInt8] in [b, 0] }
    let be: [UInt8] = ascii.flatMap { b -> [UInt8] in [0, b] }
    #expect(CharsetConverter.detectUnicodeEncoding(le)?.charset == "UTF-16LE")
    #expect(CharsetConverter.detectUnicodeEncoding(be)?.charset == "UTF-16BE")
    #expect(CharsetConverter.detectUnicodeEncoding([0xFF, 0xFE] + le)
      == .init(charset: "UTF-16LE", byteOrderMarkLength: 2))
    #expect(CharsetConverter.detectUnicodeEncoding([0xFE, 0xFF] + be)?.byteOrderMarkLength == 2)
    #expect(CharsetConverter.detectUnicodeEncoding([0xEF, 0xBB, 0xBF] + ascii)?.charset == "UTF-8")
    #expect(CharsetConverter.detectUnicodeEncoding([0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0])?.charset
      == "UTF-32LE")
    #expect(CharsetConverter.detectUnicodeEncoding(ascii) == nil)
    #expect(CharsetConverter.detectUnicodeEncoding([UInt8]()) == nil)
  }
}

@Suite struct BulkTransformTests {
  @Test func bulkTransformsMatchOneByOne() throws {
    let names = randomNames(count: 5_000, seed: 21)
    let strings = ByteStrings(names)
    let t = try Transliterator("Any-Latin; Latin-ASCII")
    let latin = t.transliterate(strings)
    let folded = CaseFolder.default.fold(strings)
    let nfkc = try Normalizer.nfkcCasefold.normalize(strings)
    #expect(latin.count == names.count && folded.count == names.count && nfkc.count == names.count)
    #expect(latin == t.transliterate(strings, parallel: false))
    for i in stride(from: 0, to: names.count, by: 37) {
      #expect(latin.string(i) == t.transliterate(names[i]))
      #expect(folded.string(i) == caseFold(names[i]))
      #expect(nfkc.string(i) == (try Normalizer.nfkcCasefold.normalize(names[i])))
    }
    #expect(t.transliterate(ByteStrings()).isEmpty)
  }
}
