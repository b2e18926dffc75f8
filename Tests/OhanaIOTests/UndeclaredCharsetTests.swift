import Foundation
import OhanaCore
import OhanaText
import Testing

@testable import OhanaIO

/// Cards in a legacy charset without any CHARSET parameter, as old phones
/// and Outlook export them. The oracle is the Unicode text the generator
/// encoded: a read that detects the wrong charset gives other names.
enum LegacyCards {
  struct Language {
    var charset: String
    var given: [String]
    var family: [String]
    var cities: [String]
    var western: Bool
  }

  static let languages: [Language] = [
    Language(
      charset: "windows-1251",
      given: ["Александр", "Сергей", "Дмитрий", "Ольга", "Елена", "Татьяна", "Пётр", "Юлия", "Михаил", "Наталья"],
      family: ["Иванов", "Смирнов", "Кузнецов", "Попов", "Соколов", "Фёдоров", "Морозов", "Лебедев", "Щукин"],
      cities: ["Москва", "Санкт-Петербург", "Новосибирск", "Казань", "Самара"], western: true),
    Language(
      charset: "windows-1253",
      given: ["Γιώργος", "Κωνσταντίνος", "Δημήτρης", "Νίκος", "Μαρία", "Ελένη", "Σοφία", "Άννα", "Ευάγγελος"],
      family: ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου", "Νικολάου", "Ιωάννου", "Καραγιάννης", "Παππάς"],
      cities: ["Αθήνα", "Θεσσαλονίκη", "Πάτρα", "Ηράκλειο", "Λάρισα"], western: true),
    Language(
      charset: "windows-1255",
      given: ["אברהם", "יצחק", "משה", "דוד", "אפרים", "מרים", "שרה", "רחל", "נועה", "יעל"],
      family: ["כהן", "לוי", "מזרחי", "פרץ", "קישון", "פרידמן", "שפירא", "רוזנברג"],
      cities: ["תל אביב", "ירושלים", "חיפה", "באר שבע", "נתניה"], western: true),
    Language(
      charset: "ISO-8859-2",
      given: ["Łukasz", "Paweł", "Michał", "Małgorzata", "Żaneta", "Jiří", "Tomáš", "Kateřina", "Šárka"],
      family: ["Wiśniewski", "Wójcik", "Kamiński", "Woźniak", "Dąbrowski", "Dvořák", "Černý", "Růžička"],
      cities: ["Kraków", "Łódź", "Wrocław", "Gdańsk", "Praha", "Plzeň", "České Budějovice"], western: true),
    Language(
      charset: "Shift_JIS",
      given: ["太郎", "花子", "翔太", "陽菜", "大輔", "美咲", "さくら", "直樹"],
      family: ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "佐々木"],
      cities: ["東京都", "大阪市", "横浜市", "名古屋市", "札幌市"], western: false),
    Language(
      charset: "GB18030",
      given: ["伟", "芳", "秀英", "敏", "静", "强", "磊", "建华"],
      family: ["王", "李", "张", "刘", "陈", "杨", "黄", "赵"],
      cities: ["北京市", "上海市", "广州市", "深圳市", "成都市"], western: false),
    Language(
      charset: "windows-1252",
      given: ["François", "Jérôme", "Hélène", "Jürgen", "Jörg", "José", "María", "Íñigo", "Zoë"],
      family: ["Lefèvre", "Müller", "Schröder", "Großmann", "Muñoz", "Peña", "Dubœuf", "Crèvecœur"],
      cities: ["Genève", "Zürich", "München", "Köln", "Málaga", "Córdoba"], western: true),
  ]

  struct Card: Equatable {
    var fullName: String
    var givenName: String
    var familyName: String
    var locality: String
  }

  /// `count` cards (vCard 2.1 and 3.0 in turn), as Unicode.
  static func cards(_ l: Language, count: Int) -> [Card] {
    (0..<count).map { i in
      let g = l.given[(i * 7 + i / 3) % l.given.count]
      let f = l.family[(i * 5 + i / 7) % l.family.count]
      return Card(
        fullName: l.western ? "\(g) \(f)" : f + g, givenName: g, familyName: f,
        locality: l.cities[(i * 3) % l.cities.count])
    }
  }

  static func text(_ cards: [Card]) -> String {
    var s = ""
    for (i, c) in cards.enumerated() {
      let v21 = i % 2 == 0
      s += "BEGIN:VCARD\r\nVERSION:\(v21 ? "2.1" : "3.0")\r\n"
      s += "N:\(c.familyName);\(c.givenName);;;\r\nFN:\(c.fullName)\r\n"
      s += v21 ? "TEL;CELL:+1 555 01\(i % 100)\r\n" : "TEL;TYPE=CELL:+1 555 01\(i % 100)\r\n"
      s += "EMAIL;INTERNET:contact\(i)@example.com\r\n"
      s += "ADR;HOME:;;\(i + 1) Main;\(c.locality);;;\r\nEND:VCARD\r\n"
    }
    return s
  }

  /// The file's bytes in the language's charset (ICU's encoder; the
  /// benchmark generator uses Python's codecs instead).
  static func bytes(_ l: Language, count: Int) throws -> [UInt8] {
    try CharsetConverter.fromUTF8(Array(text(cards(l, count: count)).utf8), charset: l.charset)
  }

  static func read(_ table: ContactTable) -> [Card] {
    table.contacts.map { c in
      Card(
        fullName: c.fullName ?? "", givenName: c.givenName ?? "", familyName: c.familyName ?? "",
        locality: c.addresses.first?.locality ?? "")
    }
  }
}

@Suite("Undeclared legacy charsets")
struct UndeclaredCharsetTests {
  func canonical(_ name: String) -> String { CharsetConverter.canonicalName(name) ?? name }

  @Test(arguments: LegacyCards.languages.map(\.charset))
  func detectionReadsGeneratedFiles(charset: String) throws {
    let l = try #require(LegacyCards.languages.first { $0.charset == charset })
    let expected = LegacyCards.cards(l, count: 300)
    let bytes = try LegacyCards.bytes(l, count: 300)
    // Small chunks: detection runs over the text of every chunk.
    let result = try ContactIO.read(bytes: bytes, options: ReadOptions(chunkSize: 16 << 10))
    let used = try #require(result.undeclaredCharset)
    #expect(canonical(used.name) == canonical(charset), "detected \(String(describing: used.detection))")
    #expect(used.source == .detected)
    #expect(used.values >= 2 * 300)  // N and FN of every card at least
    let got = LegacyCards.read(result.table)
    #expect(got.count == expected.count)
    let wrong = zip(got, expected).filter { $0 != $1 }
    #expect(wrong.isEmpty, "\(wrong.count) cards differ; first: \(String(describing: wrong.first))")
  }

  @Test func declaredCharsetDecodesHebrewFromTheCorpus() throws {
    guard let dir = corpusDirectory() else {
      print("!!! SKIPPED: ../shared/corpus/vcard is missing; Hebrew.vcf not tested !!!")
      return
    }
    let path = dir.appendingPathComponent("folkerkinzel-vcards/Hebrew.vcf").path
    guard FileManager.default.fileExists(atPath: path) else {
      Issue.record("corpus file missing: \(path)")
      return
    }
    let result = try ContactIO.read(path: path, options: ReadOptions(declaredCharset: "windows-1255"))
    #expect(result.table.contacts.first?.fullName == "אפרים קישון")
    #expect(result.undeclaredCharset?.source == .declared)
    #expect(result.undeclaredCharset.map { canonical($0.name) } == canonical("windows-1255"))
    // Over its one undeclared value (not the card's ASCII syntax) ICU is
    // sure enough (ISO-8859-8-I at 69, read as its Windows sibling).
    let guessed = try ContactIO.read(path: path)
    #expect(guessed.undeclaredCharset?.source == .detected)
    #expect(guessed.undeclaredCharset.map { canonical($0.name) } == canonical("windows-1255"))
    #expect(guessed.table.contacts.first?.fullName == "אפרים קישון")
    // With detection off, the fallback stands (what every reader did before).
    let off = try ContactIO.read(path: path, options: ReadOptions(minimumDetectionConfidence: 101))
    #expect(off.undeclaredCharset?.source == .fallback)
    #expect(off.table.contacts.first?.fullName == "àôøéí ÷éùåï")
  }

  @Test func regularFileIsReadAgainInTheDetectedCharset() throws {
    let l = LegacyCards.languages[0]
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-charset-\(getpid())")
    try FileManagerShim.mkdir(dir.path)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("ru.vcf").path
    try Data(try LegacyCards.bytes(l, count: 200)).write(to: URL(fileURLWithPath: path))
    let result = try ContactIO.read(path: path)
    #expect(result.undeclaredCharset?.source == .detected)
    #expect(LegacyCards.read(result.table) == LegacyCards.cards(l, count: 200))
  }

  /// `bytes` through a pipe (they must fit its buffer: written whole before the read).
  func readThroughPipe(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> ReadResult {
    #expect(bytes.count < 60_000)
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
    #expect(written == bytes.count)
    close(fds[1])
    defer { close(fds[0]) }
    return try ContactIO.read(fileDescriptor: fds[0], format: .vcard3, options: options)
  }

  @Test func pipeIsDetectedFromItsFirstChunk() throws {
    let l = LegacyCards.languages[2]  // Hebrew
    let result = try readThroughPipe(try LegacyCards.bytes(l, count: 100))
    let used = try #require(result.undeclaredCharset)
    #expect(used.source == .detected)
    #expect(used.firstChunkOnly)
    #expect(canonical(used.name) == canonical("windows-1255"))
    #expect(LegacyCards.read(result.table) == LegacyCards.cards(l, count: 100))
  }

  @Test func quotedPrintableOnAPipeIsDetectedToo() throws {
    // The bytes are ASCII (valid UTF-8): only the decoded values are not.
    let l = LegacyCards.languages[2]
    let cards = LegacyCards.cards(l, count: 100)
    var text = ""
    for c in cards {
      let raw = try CharsetConverter.fromUTF8(Array(c.fullName.utf8), charset: l.charset)
      let qp = raw.map { b in b < 0x80 && b != 0x3D ? String(UnicodeScalar(b)) : "=" + String(b, radix: 16, uppercase: true) }
      text += "BEGIN:VCARD\r\nVERSION:2.1\r\nFN;ENCODING=QUOTED-PRINTABLE:\(qp.joined())\r\nEND:VCARD\r\n"
    }
    let result = try readThroughPipe(Array(text.utf8))
    #expect(result.undeclaredCharset?.source == .detected)
    #expect(result.undeclaredCharset?.firstChunkOnly == true)
    #expect(result.table.contacts.map { $0.fullName ?? "" } == cards.map(\.fullName))
  }

  @Test func pipeWhoseFirstChunkSaysNothingKeepsTheFallbackAndSaysWhatItFound() throws {
    let l = LegacyCards.languages[2]  // Hebrew, after 8 KiB of ASCII cards
    var bytes: [UInt8] = []
    for i in 0..<100 { bytes += Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Plain Name \(i)\r\nEND:VCARD\r\n".utf8) }
    #expect(bytes.count > 4096)
    bytes += try LegacyCards.bytes(l, count: 100)
    let result = try readThroughPipe(bytes, options: ReadOptions(chunkSize: 4096))
    let used = try #require(result.undeclaredCharset)
    #expect(used.source == .fallback)
    #expect(used.couldNotReread)
    #expect(used.detection.map { canonical($0.name) } == canonical("windows-1255"))
    #expect(canonical(used.name) == canonical("windows-1252"))
  }

  @Test func utf8IsUnaffected() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:2.1", "N:Иванов;Пётр;;;", "FN:אפרים קישון", "ADR:;;Ερμού 1;Αθήνα;;;", "END:VCARD")
    for declared in [nil, "windows-1251"] as [String?] {
      let result = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(declaredCharset: declared))
      let c = try #require(result.table.contacts.first)
      #expect(c.fullName == "אפרים קישון")
      #expect(c.familyName == "Иванов")
      #expect(c.givenName == "Пётр")
      #expect(c.addresses.first?.locality == "Αθήνα")
      #expect(result.undeclaredCharset == nil)
    }
  }

  @Test func charsetParametersWinOverDeclaredAndDetected() throws {
    // Mostly Hebrew without CHARSET (detected), one card in Russian that
    // says CHARSET on N only (its FN follows the card's CHARSET), one that
    // says it on FN.
    let hebrew = LegacyCards.languages[2]
    var bytes = try LegacyCards.bytes(hebrew, count: 200)
    let first = try CharsetConverter.fromUTF8(
      Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=windows-1251:Щукин;Пётр;;;\r\nFN:Пётр Щукин\r\nEND:VCARD\r\n".utf8),
      charset: "windows-1251")
    // In KOI8-R, as it says.
    let second = try CharsetConverter.fromUTF8(
      Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=KOI8-R:Юлия Попова\r\nEND:VCARD\r\n".utf8), charset: "KOI8-R")
    bytes += first + second
    let expectedTail = [
      LegacyCards.Card(fullName: "Пётр Щукин", givenName: "Пётр", familyName: "Щукин", locality: ""),
      LegacyCards.Card(fullName: "Юлия Попова", givenName: "", familyName: "", locality: ""),
    ]
    for declared in [nil, "windows-1255", "windows-1253"] as [String?] {
      let result = try ContactIO.read(bytes: bytes, options: ReadOptions(declaredCharset: declared))
      let got = LegacyCards.read(result.table)
      #expect(Array(got.suffix(2)) == expectedTail, "declared \(declared ?? "nil")")
      if declared == nil {
        #expect(Array(got.prefix(200)) == LegacyCards.cards(hebrew, count: 200))
      }
    }
  }

  @Test func unknownDeclaredCharsetIsAnError() {
    #expect {
      _ = try ContactIO.read(bytes: Array("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8), options: ReadOptions(declaredCharset: "no-such"))
    } throws: { error in
      (error as? ContactIOError)?.code == .charset
    }
  }

  @Test func detectionCanBeTurnedOff() throws {
    let l = LegacyCards.languages[0]
    let result = try ContactIO.read(
      bytes: try LegacyCards.bytes(l, count: 100), options: ReadOptions(minimumDetectionConfidence: 101))
    #expect(result.undeclaredCharset?.source == .fallback)
    #expect(result.undeclaredCharset?.detection == nil)
    #expect(LegacyCards.read(result.table).first?.fullName != LegacyCards.cards(l, count: 1).first?.fullName)
  }
}
