import OhanaCore
import Testing

@testable import OhanaIO

/// Minimal inputs for what the differential tests found, with hand-written
/// expectations (issue 14).
@Suite struct CSVNDJSONRegressionTests {
  /// Filler records after the interesting ones, so the input is longer than
  /// the 4 KiB the reader peeks and the chunk splitter runs.
  static let filler = String(repeating: "y,z\n", count: 1100)

  /// A quote inside an unquoted cell is text (CSVTokenizer's lenient rule),
  /// but the chunk splitter toggled its in-quotes state on it, so for the
  /// rest of the buffer it took record ends for quoted line breaks and the
  /// reverse, and cut the chunk inside `"d⏎e"`: the reader reported an
  /// unterminated quote at line 3 and lost or garbled the records after it.
  @Test func strayQuoteInUnquotedCellDoesNotMoveTheChunkCut() throws {
    let text = "fullName,note\n" + "a\"b,x\n" + "c,\"d\ne\"\n" + Self.filler
    for chunk in [1 << 20, 4096, 300] {
      let r = try read(text, format: .csv, chunkSize: chunk)
      #expect(r.errors.isEmpty, "chunk \(chunk): \(r.errors)")
      let c = r.table.contacts
      #expect(c.count == 1102, "chunk \(chunk)")
      #expect(c.first?.fullName == "a\"b" && c.first?.note == "x")
      #expect(c.dropFirst().first?.fullName == "c" && c.dropFirst().first?.note == "d\ne")
      #expect(c.dropFirst().first?.sourceLine == 3)
      #expect(c.last?.sourceLine == 1104 && c.last?.fullName == "y")
    }
  }

  /// The same after a closing quote: `"a"b"c` is the cell `ab"c`.
  @Test func quoteAfterAClosingQuoteDoesNotMoveTheChunkCut() throws {
    let text = "fullName,note\n" + "\"a\"b\"c,x\n" + "c,\"d\ne\"\n" + Self.filler
    let r = try read(text, format: .csv, chunkSize: 4096)
    #expect(r.errors.isEmpty, "\(r.errors)")
    let c = r.table.contacts
    #expect(c.count == 1102)
    #expect(c.first?.fullName == "ab\"c")
    #expect(c.dropFirst().first?.note == "d\ne")
  }
}
