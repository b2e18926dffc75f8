import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

/// Every kind of bad line: it costs that line, never the card. The card is
/// imported with everything else, the line is kept verbatim among its extra
/// properties and reported as a warning with its own line number and reason.
@Suite struct BadInputTests {
  /// A good card, a card with one bad line (`bad` are the lines between its
  /// BEGIN and END, the card starting on line 4), a good card. Expects a
  /// warning on `warningLine` whose reason starts with `reason`, and the
  /// bad card imported with its FN `middle`.
  func check(
    _ bad: [String], reason: String, warningLine: Int, property: String?, kept: (name: String, value: String)?
  ) throws {
    let good1 = card("BEGIN:VCARD", "FN:first", "END:VCARD")
    let good2 = card("BEGIN:VCARD", "FN:last", "END:VCARD")
    let middle = card(["BEGIN:VCARD", "FN:middle"] + bad + ["END:VCARD"])
    let text = good1 + middle + good2
    let r = try read(text)
    #expect(r.table.contacts.map(\.fullName) == ["first", "middle", "last"])
    #expect(r.errors.map(\.line) == [warningLine])
    #expect(r.errors.first?.severity == .warning)
    #expect(r.errors.first?.reason.hasPrefix(reason) == true, "\(r.errors)")
    #expect(r.errors.first?.property == property)
    #expect(r.recordsRead == 3)
    #expect(r.recordsSkipped == 0)
    if let kept {
      let extras = r.table.contacts[1].extras
      #expect(extras.map(\.name) == [kept.name])
      #expect(extras.map(\.value) == [kept.value])
      // Written again, the line comes back as it was written.
      var out: [UInt8] = []
      try ContactIO.write(r.table, format: .vcard4, to: &out)
      let written = String(decoding: out, as: UTF8.self)
      let line = bad.first { $0.contains(kept.value) } ?? "?"
      #expect(written.contains(line + "\r\n"), "\(written)")
    }
    #expect(throws: ContactIOError.self) { try read(text, strict: true) }
    // The same with tiny chunks.
    let small = try read(text, chunkSize: 7)
    #expect(small.table.contacts == r.table.contacts)
    #expect(small.errors == r.errors)
  }

  @Test func brokenQuotedPrintable() throws {
    try check(
      ["VERSION:2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:abc=ZZ"], reason: "invalid quoted-printable value",
      warningLine: 7, property: "NOTE", kept: ("NOTE", "abc=ZZ"))
  }

  @Test func badBase64() throws {
    try check(
      ["VERSION:3.0", "PHOTO;ENCODING=b;TYPE=JPEG:not*base64!"], reason: "invalid base64 data", warningLine: 7,
      property: "PHOTO", kept: ("PHOTO", "not*base64!"))
  }

  @Test func unknownEncoding() throws {
    try check(
      ["NOTE;ENCODING=UUENCODE:xyz"], reason: "unknown ENCODING parameter", warningLine: 6, property: "NOTE",
      kept: ("NOTE", "xyz"))
  }

  @Test func lineWithoutPropertyName() throws {
    try check(
      [";NOPE:x"], reason: "not a property line", warningLine: 6, property: nil, kept: ("", ";NOPE:x"))
    try check(
      ["blablabla"], reason: "not a property line", warningLine: 6, property: nil, kept: ("", "blablabla"))
  }

  /// A line with no `:` is never glued onto the property before it (the
  /// bug that turned `EMAIL:a@b.com` + `ADR;LABEL="x` + fold into one
  /// e-mail): it is a line of its own.
  @Test func lineWithoutColonIsNotGlued() throws {
    let r = try read(card("BEGIN:VCARD", "VERSION:3.0", "EMAIL:a@b.com", "just text", "TEL:123", "END:VCARD"))
    let c = try #require(r.table.contacts.first)
    #expect(c.fields.map(\.value) == ["a@b.com", "123"])
    #expect(c.extras.map(\.value) == ["just text"])
    #expect(r.errors.map(\.line) == [4])
  }

  @Test func lineOverLimit() throws {
    let long = "NOTE:" + String(repeating: "x", count: 300)
    let text =
      card("BEGIN:VCARD", "FN:first", "END:VCARD") + card("BEGIN:VCARD", "FN:middle", long, "TEL:1", "END:VCARD")
      + card("BEGIN:VCARD", "FN:last", "END:VCARD")
    let r = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(maxLineBytes: 200))
    #expect(r.table.contacts.map(\.fullName) == ["first", "middle", "last"])
    #expect(r.table.contacts[1].fields.map(\.value) == ["1"])
    #expect(r.table.contacts[1].note == nil)
    #expect(r.errors.map(\.line) == [6])
    #expect(r.errors.first?.reason == "line longer than 200 bytes; dropped")
  }

  @Test func garbageBetweenCards() throws {
    let text =
      card("BEGIN:VCARD", "FN:first", "END:VCARD") + "garbage\r\nmore garbage\r\n\r\n"
      + card("BEGIN:VCARD", "FN:last", "END:VCARD")
    let r = try read(text)
    #expect(r.table.contacts.map(\.fullName) == ["first", "last"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == "unexpected text outside a card")
    #expect(r.errors.first?.severity == .skipped)
    #expect(r.recordsSkipped == 0)
  }

  /// A 3.0 card that a BEGIN:VCARD interrupts was cut off: imported with a
  /// warning, and the next card read whole.
  @Test func missingEndBeforeNextCard() throws {
    let text = card(
      "BEGIN:VCARD", "FN:first", "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:broken", "BEGIN:VCARD", "FN:last",
      "END:VCARD")
    for chunk in [7, 1 << 20] {
      let r = try read(text, chunkSize: chunk)
      #expect(r.table.contacts.map(\.fullName) == ["first", "broken", "last"])
      #expect(r.errors.map(\.line) == [4])
      #expect(r.errors.first?.reason == VCardLexer.cutOff)
    }
  }

  @Test func missingEndAtEndOfInput() throws {
    let r = try read(card("BEGIN:VCARD", "FN:first", "END:VCARD", "BEGIN:VCARD", "FN:cut", "TEL:1"))
    #expect(r.table.contacts.map(\.fullName) == ["first", "cut"])
    #expect(r.table.contacts[1].fields.map(\.value) == ["1"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == VCardLexer.cutOff)
    #expect(r.errors.first?.severity == .warning)
  }

  /// vCard 2.1 nesting (AOSP's v21_nest): each card is a contact, the
  /// outer one keeps its own properties; contacts come in BEGIN order.
  @Test func nestedCards() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:2.1", "N:parent", "BEGIN:VCARD", "VERSION:2.1", "N:nest1", "END:VCARD",
      "BEGIN:VCARD", "VERSION:2.1", "N:nest2", "END:VCARD", "TEL:1", "END:VCARD")
    let r = try read(text)
    #expect(r.table.contacts.map(\.familyName) == ["parent", "nest1", "nest2"])
    #expect(r.table.contacts.map(\.sourceLine) == [1, 4, 8])
    #expect(r.table.contacts[0].fields.map(\.value) == ["1"])
    #expect(r.errors.isEmpty)
  }

  /// A nested card that begins past the first 4 KiB (the reader peeks at
  /// them to sniff the format, then reads on) is still nested when the
  /// whole input fits in one chunk: the peeked head and the short read
  /// behind it are one chunk, not two cut at that BEGIN:VCARD (a fuzz
  /// finding: the parent card was reported cut off and the lines after the
  /// nested card were read as text outside a card).
  @Test func nestedCardPastThePeekedHead() throws {
    let notes = (0..<80).map { "NOTE:line \($0) of a long parent card, written out to pass 4 KiB" }
    let lines = ["BEGIN:VCARD", "VERSION:2.1", "N:parent"] + notes
      + ["BEGIN:VCARD", "VERSION:2.1", "N:nest1", "END:VCARD", "TEL:1", "END:VCARD"]
    let text = card(lines)
    #expect(text.utf8.count > 4096)
    let r = try read(text)
    #expect(r.table.contacts.map(\.familyName) == ["parent", "nest1"])
    #expect(r.table.contacts.map(\.sourceLine) == [1, 84])
    #expect(r.table.contacts[0].fields.map(\.value) == ["1"])
    #expect(r.errors.isEmpty)
  }

  /// A 2.1 card whose END:VCARD is broken swallows the cards after it as
  /// nested ones; they come out in BEGIN order, whole, and the broken card
  /// is reported once, however the input is cut into chunks.
  @Test func brokenEndIn21() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:2.1", "FN:a", "END:VCA!RD", "BEGIN:VCARD", "VERSION:2.1", "FN:b", "END:VCARD",
      "BEGIN:VCARD", "VERSION:2.1", "FN:c", "END:VCARD")
    for chunk in [7, 40, 1 << 20] {
      let r = try read(text, chunkSize: chunk)
      #expect(r.table.contacts.map(\.fullName) == ["a", "b", "c"], "chunk \(chunk)")
      #expect(r.errors.map(\.line) == [1], "chunk \(chunk)")
      #expect(r.errors.first?.reason == VCardLexer.cutOff)
    }
  }

  /// BEGIN:VCARD and END:VCARD may be folded like any line (RFC 6350 3.2).
  @Test func foldedBeginAndEnd() throws {
    let text = "BEGIN:VC\r\n ARD\r\nFN:one\r\nE\r\n\tND:VCARD\r\nB\r\n EGIN\r\n :VCARD\r\nFN:two\r\nEND:VCARD\r\n"
    for chunk in [5, 1 << 20] {
      let r = try read(text, chunkSize: chunk)
      #expect(r.table.contacts.map(\.fullName) == ["one", "two"])
      #expect(r.table.contacts.map(\.sourceLine) == [1, 6])
      #expect(r.errors.isEmpty)
    }
  }

  /// 2.1 habits that a line without `:` continues: a trailing backslash
  /// and base64 lines without a leading blank.
  @Test func legacyContinuations() throws {
    let r = try read(
      card(
        "BEGIN:VCARD", "VERSION:2.1", "ADR;HOME:;;Hermann v. Brevern\\", "Packstation 999;Hamburg;;99999;DE",
        "PHOTO;ENCODING=BASE64;TYPE=GIF:R0lG", "ODlh", "", "FN:x", "END:VCARD"))
    let c = try #require(r.table.contacts.first)
    #expect(c.addresses.first?.locality == "Hamburg")
    #expect(c.photo?.data == Array("GIF89a".utf8))
    #expect(c.fullName == "x")
    #expect(r.errors.isEmpty)
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
    #expect(r.table.contacts.map(\.fullName) == ["first", "open"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.reason == VCardLexer.cutOff)
  }

  @Test func csvWithStrayQuoteMuchLargerThanAChunk() throws {
    var text = "fullName,note\r\nok,1\r\n\"open,2\r\n"
    text += String(repeating: "more,text\r\n", count: 50_000)
    let r = try ContactIO.read(bytes: Array(text.utf8), format: .csv, options: ReadOptions(chunkSize: 256))
    #expect(r.table.contacts.map(\.fullName) == ["ok"])
    #expect(r.errors.map(\.reason) == ["unterminated quoted cell"])
  }
}

/// A file read in many small chunks, each read into the buffer of a chunk
/// already parsed (`ChunkedReader.recycle`), gives what the whole file read
/// as one chunk from memory gives; cards longer than a chunk included.
@Suite struct RecycledChunkTests {
  @Test func smallChunksFromAFileEqualOneChunkFromMemory() throws {
    var text = ""
    for i in 0..<3000 {
      var lines = ["BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:\(i)", "FN:Person \(i)", "TEL:+1 555 01\(i % 100)"]
      if i % 97 == 0 { lines.append("NOTE:" + String(repeating: "long note \(i) ", count: 400)) }
      lines.append("END:VCARD")
      text += card(lines)
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-recycle-\(getpid()).vcf")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let whole = try read(text, chunkSize: 64 << 20)
    #expect(whole.table.rowCount == 3000)
    for chunk in [1024, 4096, 65536] {
      let small = try ContactIO.read(path: url.path, options: ReadOptions(chunkSize: chunk, workers: 2))
      #expect(small.table.rowCount == 3000)
      #expect(small.errors.isEmpty)
      #expect(try written(small.table, .vcard4) == (try written(whole.table, .vcard4)))
    }
  }
}
