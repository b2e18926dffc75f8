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

@Suite struct JSONNumberRegressionTests {
  /// JSONScanner took any run of digits, signs, dots and e's as a number,
  /// so lines with numbers RFC 8259 refuses were imported (in unknown keys
  /// and in `properties`, where `01` and `1.` became values).
  @Test func numbersOutsideRFC8259FailTheirLine() throws {
    let bad = ["01", "-01", "1.", "1e", "1e+", "-", "--1", "1.2.3", "1-2", "1e5e5", "00", "1E-"]
    for n in bad {
      let text = "{\"fullName\":\"a\",\"x\":\(n)}\n{\"properties\":{\"n\":\(n)}}\n{\"fullName\":\"ok\"}\n"
      let r = try read(text, format: .ndjson)
      #expect(r.errors.map(\.line) == [1, 2], "\(n)")
      #expect(r.table.contacts.map(\.fullName) == ["ok"], "\(n)")
    }
  }

  @Test func numbersRFC8259AllowsAreRead() throws {
    let good = ["0", "-0", "-0.0", "1e400", "1E+2", "2e-3", "123456789012345678901234567890", "3.25", "9223372036854775807"]
    var text = ""
    for n in good { text += "{\"x\":[\(n),\(n)],\"properties\":{\"n\":\(n)}}\n" }
    let r = try read(text, format: .ndjson)
    #expect(r.errors.isEmpty, "\(r.errors)")
    // Not all integers: one text column, each value as written ("-0" fits Int64: "0").
    let values = r.table.contacts.map { $0.properties["n"] }
    let expected: [PropertyValue?] = ["0", "0", "-0.0", "1e400", "1E+2", "2e-3", "123456789012345678901234567890", "3.25", "9223372036854775807"].map { .string($0) }
    #expect(values == expected)
  }
}
