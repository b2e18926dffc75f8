import Testing

@testable import OhanaText

@Suite("CharsetDetector")
struct CharsetDetectorTests {
  /// Russian running text in Windows-1251, encoded by hand (А-я are 0xC0-0xFF).
  static func cp1251(_ s: String) -> [UInt8] {
    s.unicodeScalars.map { u in
      (0x410...0x44F).contains(u.value) ? UInt8(u.value - 0x410 + 0xC0) : UInt8(truncatingIfNeeded: u.value)
    }
  }

  @Test func detectsWindows1251() throws {
    let text = String(
      repeating: "Иванов Сергей Петрович, улица Ленина, Москва. Смирнова Ольга Николаевна, проспект Мира, Самара. ",
      count: 20)
    let matches = try CharsetDetector.detect(Self.cp1251(text))
    let best = try #require(matches.first)
    #expect(best.name == "windows-1251", "\(matches)")
    #expect(best.confidence > 20)
    // Best first.
    #expect(matches.map(\.confidence) == matches.map(\.confidence).sorted(by: >))
  }

  @Test func detectsShiftJIS() throws {
    // 山田太郎 東京都 in Shift_JIS, by hand from the JIS tables.
    let one: [UInt8] = [0x8E, 0x52, 0x93, 0x63, 0x91, 0xBE, 0x98, 0x59, 0x20, 0x93, 0x8C, 0x8B, 0x9E, 0x93, 0x73, 0x0A]
    #expect(try CharsetConverter.string(one, charset: "Shift_JIS") == "山田太郎 東京都\n")
    // ICU scores Japanese by its most common characters: kana, not a few
    // kanji repeated (on `one` thirty times it says windows-1252).
    let text = "これは日本語の文章です。東京都に住んでいる山田太郎さんの住所と電話番号を書きます。"
    let sjis = try CharsetConverter.fromUTF8(Array(String(repeating: text, count: 5).utf8), charset: "Shift_JIS")
    let matches = try CharsetDetector.detect(sjis)
    #expect(matches.first?.name == "Shift_JIS", "\(matches)")
    #expect((matches.first?.confidence ?? 0) > 50)
  }

  @Test func emptyTextHasNoMatch() throws {
    #expect(try CharsetDetector.detect([UInt8]()).isEmpty)
  }

  @Test func windowsCodePages() {
    #expect(CharsetDetector.windowsCodePage(for: "ISO-8859-1", hasC1Bytes: true) == "windows-1252")
    #expect(CharsetDetector.windowsCodePage(for: "ISO-8859-8-I", hasC1Bytes: true) == "windows-1255")
    #expect(CharsetDetector.windowsCodePage(for: "ISO-8859-7", hasC1Bytes: true) == "windows-1253")
    #expect(CharsetDetector.windowsCodePage(for: "ISO-8859-2", hasC1Bytes: true) == "windows-1250")
    #expect(CharsetDetector.windowsCodePage(for: "ISO-8859-5", hasC1Bytes: true) == "ISO-8859-5")
    #expect(CharsetDetector.windowsCodePage(for: "ISO-8859-1", hasC1Bytes: false) == "ISO-8859-1")
    #expect(CharsetDetector.windowsCodePage(for: "Shift_JIS", hasC1Bytes: true) == "Shift_JIS")
  }

  @Test func fromUTF8IsTheReverseOfToUTF8() throws {
    // Hebrew letters are 0xE0-0xFA in Windows-1255 (alef = 0xE0).
    #expect(try CharsetConverter.fromUTF8(Array("אב ת".utf8), charset: "windows-1255") == [0xE0, 0xE1, 0x20, 0xFA])
    #expect(try CharsetConverter.fromUTF8(Array("Ά".utf8), charset: "windows-1253") == [0xA2])
    #expect(throws: TextError.self) { try CharsetConverter.fromUTF8(Array("a".utf8), charset: "no-such") }
  }
}
