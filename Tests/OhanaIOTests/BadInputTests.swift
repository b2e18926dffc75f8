import OhanaCore
import Testing

@testable import OhanaIO

/// Every kind of bad card: skipped with its line and reason, the rest kept.
@Suite struct BadInputTests {
  func check(_ bad: [String], reason: String, badLine: Int = 3, sourceLines: [Int] = [1, 0]) throws {
    // A good card, the bad card (starting at line `badLine`), a good card.
    let good1 = card("BEGIN:VCARD", "FN:first", "END:VCARD")
    let good2 = card("BEGIN:VCARD", "FN:last", "END:VCARD")
    let text = good1 + bad.joined(separator: "\r\n") + "\r\n" + good2
    let r = try read(text)
    #expect(r.table.contacts.map(\.fullName) == ["first", "last"])
    #expect(r.errors.map(\.line) == [badLine + 1])
    #expect(r.errors.first?.reason == reason)
    #expect(r.recordsRead == 2)
    #expect(r.recordsSkipped == 1)
    #expect(throws: ContactIOError.self) { try read(text, strict: true) }
    // The same with tiny chunks.
    let small = try read(text, chunkSize: 7)
    #expect(small.table.contacts.map(\.fullName) == ["first", "last"])
    #expect(small.errors == r.errors)
  }

  @Test func missingEnd() throws {
    try check(["BEGIN:VCARD", "FN:broken"], reason: "missing END:VCARD")
  }

  @Test func brokenQuotedPrintable() throws {
    try check(
      ["BEGIN:VCARD", "VERSION:2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:abc=ZZ", "END:VCARD"],
      reason: "invalid quoted-printable value")
  }

  @Test func badBase64() throws {
    try check(
      ["BEGIN:VCARD", "VERSION:3.0", "PHOTO;ENCODING=b;TYPE=JPEG:not*base64!", "END:VCARD"],
      reason: "invalid base64 data")
  }

  @Test func unknownEncoding() throws {
    try check(["BEGIN:VCARD", "NOTE;ENCODING=UUENCODE:xyz", "END:VCARD"], reason: "unknown ENCODING parameter")
  }

  @Test func lineOverLimit() throws {
    let long = "NOTE:" + String(repeating: "x", count: 300)
    let text =
      card("BEGIN:VCARD", "FN:first", "END:VCARD") + card("BEGIN:VCARD", long, "END:VCARD")
      + card("BEGIN:VCARD", "FN:last", "END:VCARD")
    let r = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(maxLineBytes: 200))
    #expect(r.table.contacts.map(\.fullName) == ["first", "last"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == "line longer than 200 bytes")
  }

  @Test func garbageBetweenCards() throws {
    let text =
      card("BEGIN:VCARD", "FN:first", "END:VCARD") + "garbage\r\nmore garbage\r\n\r\n"
      + card("BEGIN:VCARD", "FN:last", "END:VCARD")
    let r = try read(text)
    #expect(r.table.contacts.map(\.fullName) == ["first", "last"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == "unexpected text outside a card")
    #expect(r.recordsSkipped == 0)
  }

  @Test func malformedPropertyLine() throws {
    try check(["BEGIN:VCARD", ";NOPE:x", "END:VCARD"], reason: "malformed property line")
  }

  @Test func missingEndAtEndOfInput() throws {
    let r = try read(card("BEGIN:VCARD", "FN:first", "END:VCARD", "BEGIN:VCARD", "FN:cut"))
    #expect(r.table.contacts.map(\.fullName) == ["first"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == "missing END:VCARD at end of input")
  }

  @Test func randomBytesNeverCrash() throws {
    var rng = SystemRandomNumberGenerator()
    let pieces = ["BEGIN:VCARD\r\n", "END:VCARD\r\n", "FN:x\r\n", " fold\r\n", "=\r\n", "NOTE;ENCODING=QUOTED-PRINTABLE:=4",
      "PHOTO;ENCODING=b:@@\r\n", "\u{00}", "\"", ";", ":", "\r", "\n", "é", "TEL;TYPE=\"a:b\r\n"]
    for _ in 0..<300 {
      var s = ""
      for _ in 0..<Int.random(in: 0..<40, using: &rng) { s += pieces.randomElement(using: &rng) ?? "" }
      var results: [ReadResult] = []
      for chunk in [3, 1 << 20] {
        let r = try read(s, format: .vcard4, chunkSize: chunk)
        #expect(r.recordsRead == r.table.rowCount)
        results.append(r)
      }
      // Chunks number their lines from 1 and the merge adds the lines
      // before them: every chunking gives the same rows, source lines and
      // error lines.
      #expect(results[0].table.contacts == results[1].table.contacts)
      #expect(results[0].errors.map(\.line) == results[1].errors.map(\.line))
    }
  }
}

@Suite struct HugeRecordTests {
  /// A card that never ends, far bigger than a chunk: one error, no hang
  /// (chunks grow geometrically, so the boundary search stays linear).
  @Test func unterminatedCardMuchLargerThanAChunk() throws {
    var text = "BEGIN:VCARD\r\nFN:first\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:open\r\n"
    text += String(repeating: "NOTE:filler line that never ends the card\r\n", count: 50_000)
    let r = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(chunkSize: 512))
    #expect(r.table.contacts.map(\.fullName) == ["first"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == "missing END:VCARD at end of input")
  }

  @Test func csvWithStrayQuoteMuchLargerThanAChunk() throws {
    var text = "fullName,note\r\nok,1\r\n\"open,2\r\n"
    text += String(repeating: "more,text\r\n", count: 50_000)
    let r = try ContactIO.read(bytes: Array(text.utf8), format: .csv, options: ReadOptions(chunkSize: 256))
    #expect(r.table.contacts.map(\.fullName) == ["ok"])
    #expect(r.errors.map(\.reason) == ["unterminated quoted cell"])
  }
}
