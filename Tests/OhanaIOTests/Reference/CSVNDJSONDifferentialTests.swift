import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

/// The fast CSV and NDJSON readers against the reference readers in this
/// folder, on random files from seeded writers (issue 14). Every file is read
/// whole, in 4 KiB chunks (records cross chunk boundaries) and in tiny chunks
/// on one worker; contacts are compared field by field and skipped records
/// by line. Set `OHANA_DIFF_SEED=<n>` to try another seed.
@Suite struct CSVNDJSONDifferentialTests {
  static let seeds: [UInt64] = {
    if let s = ProcessInfo.processInfo.environment["OHANA_DIFF_SEED"], let v = UInt64(s) { return [v] }
    return [1, 2, 3]
  }()

  /// `OHANA_DIFF_DUMP=<folder>`: write every generated file there (to look at a failure).
  static func dump(_ bytes: [UInt8], _ name: String) {
    guard let dir = ProcessInfo.processInfo.environment["OHANA_DIFF_DUMP"] else { return }
    _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes))
  }

  static let modes: [(name: String, options: ReadOptions)] = [
    ("whole", ReadOptions()),
    ("chunk 4096", ReadOptions(chunkSize: 4096)),
    ("chunk 300, 1 worker", ReadOptions(chunkSize: 300, workers: 1)),
  ]

  static let csvRecordsPerStyle = 250
  static let ndjsonRecords = 1000
  static let shown = 25

  /// Reads `bytes` with the fast reader in every mode and lists what differs
  /// from the reference's contacts and skipped lines.
  static func mismatches(
    _ bytes: [UInt8], format: ContactFormat, contacts: [Contact], errorLines: [Int], context: String
  ) -> [String] {
    var out: [String] = []
    for mode in modes {
      let at = "\(context), \(mode.name)"
      do {
        // The reference reads our, Google's and Outlook's headers; column
        // detection (any other header) has tests of its own
        // (ColumnDetectionTests), so it is off here.
        var options = mode.options
        options.columnMapping.detect = false
        let fast = try ContactIO.read(bytes: bytes, format: format, options: options)
        let fastLines = fast.errors.map(\.line)
        if fastLines != errorLines {
          out.append("\(at): skipped lines: fast=\(fastLines) (\(fast.errors.map(\.reason))) reference=\(errorLines)")
        }
        if fast.recordsRead != contacts.count || fast.recordsSkipped != errorLines.count {
          out.append(
            "\(at): counts: fast read \(fast.recordsRead) skipped \(fast.recordsSkipped), "
              + "reference \(contacts.count) and \(errorLines.count)")
        }
        out += ContactDiff.differences(fast: fast.table.contacts, reference: contacts).map { "\(at): \($0)" }
      } catch {
        out.append("\(at): fast reader threw \(error)")
      }
    }
    return out
  }

  static func report(_ found: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard !found.isEmpty else { return }
    print("\(what): \(found.count) mismatches; the first \(min(found.count, shown)):")
    for m in found.prefix(shown) { print("  " + m) }
    Issue.record("\(what): \(found.count) mismatches, first: \(found[0])", sourceLocation: sourceLocation)
  }

  // MARK: Random valid files

  @Test func csvMatchesReference() throws {
    var found: [String] = []
    var records = 0
    for seed in Self.seeds {
      for (k, style) in RandomCSVWriter.Style.allCases.enumerated() {
        let fileSeed = seed &* 1000 &+ UInt64(k)
        var w = RandomCSVWriter(seed: fileSeed)
        let bytes = w.file(style: style, records: Self.csvRecordsPerStyle)
        Self.dump(bytes, "random-\(fileSeed)-\(style).csv")
        let ref = try ReferenceCSVReader.read(bytes)
        records += ref.contacts.count
        // The writer makes valid files only.
        if !ref.errors.isEmpty { found.append("seed \(fileSeed) \(style): reference skipped \(ref.errors.map(\.line))") }
        found += Self.mismatches(
          bytes, format: .csv, contacts: ref.contacts, errorLines: ref.errors.map(\.line),
          context: "seed \(seed) (file seed \(fileSeed), \(style))")
      }
    }
    print("CSV differential: seeds \(Self.seeds), \(records) records, \(Self.modes.count) read modes each")
    Self.report(found, "CSV reader vs reference")
  }

  @Test func ndjsonMatchesReference() {
    var found: [String] = []
    var records = 0
    for seed in Self.seeds {
      var w = RandomNDJSONWriter(seed: seed)
      let (bytes, trees) = w.file(records: Self.ndjsonRecords, bom: seed % 2 == 1)
      // Self-check: the reference parser gives back the trees the writer printed.
      var body = bytes
      if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
      let lines = body.split(separator: 0x0A).filter { !$0.allSatisfy { [0x20, 0x09, 0x0D].contains($0) } }
      if lines.count != trees.count { found.append("seed \(seed): \(lines.count) lines for \(trees.count) trees") }
      for (k, (line, tree)) in zip(lines, trees).enumerated() where (try? ReferenceJSONParser.parse(Array(line))) != tree {
        found.append("seed \(seed): reference parser misreads line \(k + 1): \(String(decoding: line, as: UTF8.self))")
      }
      Self.dump(bytes, "random-\(seed).ndjson")
      let ref = ReferenceNDJSONReader.read(bytes)
      records += ref.contacts.count
      if !ref.errors.isEmpty { found.append("seed \(seed): reference skipped \(ref.errors.map { "\($0.line) \($0.reason)" })") }
      found += Self.mismatches(
        bytes, format: .ndjson, contacts: ref.contacts, errorLines: ref.errors.map(\.line), context: "seed \(seed)")
    }
    print("NDJSON differential: seeds \(Self.seeds), \(records) records, \(Self.modes.count) read modes each")
    Self.report(found, "NDJSON reader vs reference")
  }

  // MARK: Broken records among good ones

  /// Records the fast reader must skip, each with its line, while reading
  /// the good records around them.
  @Test func csvBrokenRecords() throws {
    var found: [String] = []
    for seed in Self.seeds {
      var w = RandomCSVWriter(seed: seed &+ 77)
      let columns = ["fullName", "note", "phone 1 label", "phone 1 value", "email 1 value", "address 1 city"]
      var text = columns.joined(separator: ",") + "\r\n"
      var broken = 0
      for k in 0..<400 {
        if k > 0 && w.r.chance(0.08) {
          // More cells than the header: quoted line breaks inside, so the line moves.
          let cells = (0..<(columns.count + 1 + w.r.below(3))).map { _ in w.cell(RandomText.text(&w.r)) }
          text += cells.joined(separator: ",") + w.r.pick(["\n", "\r\n"])
          broken += 1
          continue
        }
        text += columns.map { _ in w.cell(w.value(for: .multi)) }.joined(separator: ",") + w.r.pick(["\n", "\r\n"])
      }
      // An unterminated quote swallows the rest: one skipped record at the end.
      text += "Last,\"never closed\r\nstill, in the cell\r\n"
      broken += 1
      let bytes = Array(text.utf8)
      Self.dump(bytes, "broken-\(seed).csv")
      let ref = try ReferenceCSVReader.read(bytes)
      if ref.errors.count != broken {
        found.append("seed \(seed): reference skipped \(ref.errors.count) records, \(broken) were broken")
      }
      found += Self.mismatches(
        bytes, format: .csv, contacts: ref.contacts, errorLines: ref.errors.map(\.line), context: "seed \(seed)")
    }
    Self.report(found, "CSV broken records")
  }

  static let badJSONLines: [String] = [
    #"{"fullName":"a""#, #"{"fullName":"a",}"#, #"{"fullName":}"#, #"{'fullName':'a'}"#, #"{fullName:"a"}"#,
    #"{"fullName":"a"} x"#, #"{"fullName":"a"}{}"#, #"{"a":1 2}"#, #"{"a" 1}"#, #"{,}"#, #"{"a":[1,]}"#,
    #"{"a":[,1]}"#, "{\"fullName\":\"a\"}\u{0B}",
    // Surrogates and escapes.
    #"{"fullName":"\ud800"}"#, #"{"fullName":"\udc00"}"#, #"{"fullName":"\ud800\u0041"}"#,
    #"{"fullName":"\ud800x"}"#, #"{"unknown":"\udfff"}"#, #"{"note":"\uDBFF\uDBFF"}"#, #"{"fullName":"\x41"}"#,
    #"{"fullName":"\u12"}"#, #"{"fullName":"\u12G4"}"#, #"{"fullName":"\"#, "{\"fullName\":\"a\tb\"}",
    "{\"fullName\":\"a\u{1}b\"}",
    // Numbers RFC 8259 does not allow, in unknown keys and in properties.
    #"{"x":01}"#, #"{"x":+1}"#, #"{"x":1.}"#, #"{"x":.5}"#, #"{"x":1e}"#, #"{"x":-}"#, #"{"x":--1}"#,
    #"{"x":1.2.3}"#, #"{"x":NaN}"#, #"{"x":Infinity}"#, #"{"x":0x10}"#, #"{"x":1e+}"#, #"{"x":-01}"#,
    #"{"x":1-2}"#, #"{"x":1e5e5}"#, #"{"x":[1E]}"#, #"{"properties":{"n":01}}"#, #"{"properties":{"n":+5}}"#,
    #"{"properties":{"n":1.}}"#,
    // Literals.
    #"{"x":tru}"#, #"{"x":nul}"#, #"{"x":True}"#, #"{"x":falsey}"#,
    // Not a contact object.
    "[]", #""str""#, "42", "null", "\u{FEFF}{\"fullName\":\"a\"}",
    // Shapes the reader refuses.
    #"{"fields":[{"type":"fax","value":"1"}]}"#, #"{"fields":null}"#, #"{"fields":{}}"#, #"{"fields":[1]}"#,
    #"{"extras":[{"value":"v"}]}"#, #"{"extras":[{"name":""}]}"#, #"{"photo":{"data":"!!!!"}}"#,
    #"{"photo":"abc"}"#, #"{"fullName":42}"#, #"{"tags":[1]}"#, #"{"tags":null}"#, #"{"properties":[]}"#,
    #"{"addresses":[{"street":7}]}"#,
    // 65 nested containers (the documented limit is 64).
    #"{"x":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}",
  ]

  /// Unusual lines that are valid and must be read.
  static let oddGoodJSONLines: [String] = [
    #"{"x":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}",
    #"{"fullName":"\ud83d\ude00 \uD834\uDD1E","note":"\u0000\/\b\f"}"#,
    #"{"f\u0075llName":"escaped key","fullName":null}"#,
    #" { "fullName" : "spaced" , "x" : [ 1 , -0.0 , 1e400 , 123456789012345678901234567890 ] } "#,
    #"{"x":{"y":{"z":[true,false,null,{}]}},"givenName":"G"}"#,
    #"{"properties":{"score":-0,"big":1E+2}}"#,
    "{}",
  ]

  @Test func ndjsonBrokenLines() {
    var found: [String] = []
    for seed in Self.seeds {
      var w = RandomNDJSONWriter(seed: seed &+ 99)
      var out: [UInt8] = []
      var badLines: [Int] = []
      var line = 1
      var bad = Self.badJSONLines.shuffled(using: &w.r)
      var odd = Self.oddGoodJSONLines
      for k in 0..<600 {
        if k > 0 && !bad.isEmpty && w.r.chance(0.15) {
          out += Array(bad.removeLast().utf8)
          badLines.append(line)
        } else if k > 0 && !odd.isEmpty && w.r.chance(0.05) {
          out += Array(odd.removeLast().utf8)
        } else {
          w.print(w.contact(), into: &out)
        }
        out += w.r.chance(0.3) ? [0x0D, 0x0A] : [0x0A]
        line += 1
      }
      for b in bad {  // the rest at the end
        out += Array(b.utf8) + [0x0A]
        badLines.append(line)
        line += 1
      }
      Self.dump(out, "broken-\(seed).ndjson")
      let ref = ReferenceNDJSONReader.read(out)
      // The reference says which lines are bad: exactly the broken ones.
      if ref.errors.map(\.line) != badLines {
        found.append("seed \(seed): reference skipped \(ref.errors.map { "\($0.line) \($0.reason)" }), broken \(badLines)")
      }
      found += Self.mismatches(
        out, format: .ndjson, contacts: ref.contacts, errorLines: ref.errors.map(\.line), context: "seed \(seed)")
    }
    Self.report(found, "NDJSON broken lines")
  }

  // MARK: Property types across chunks

  /// One property name with values of different types in different chunks.
  /// One chunk types the column over all its values: not all ints (or all
  /// bools), so text ("1", "x"; "true", "2"). With several chunks each one
  /// types its own column, and the merge (`DerivedColumn.appending` in
  /// OhanaCore) must turn columns that disagree into the same text; it used
  /// to keep the first chunk's type and drop "x" and 2 without an error.
  /// The 5,000-byte first line puts the two lines in different chunks at a
  /// chunk size of 4096.
  @Test func ndjsonPropertyTypesAcrossChunks() throws {
    let long = String(repeating: "x", count: 5000)
    let text = "{\"note\":\"\(long)\",\"properties\":{\"p\":1,\"q\":true}}\n{\"properties\":{\"p\":\"x\",\"q\":2}}\n"
    let expected: [[String: PropertyValue]] = [["p": .string("1"), "q": .string("true")], ["p": .string("x"), "q": .string("2")]]
    #expect(ReferenceNDJSONReader.read(Array(text.utf8)).contacts.map(\.properties) == expected)
    for chunk in [2 << 20, 4096] {
      let fast = try read(text, format: .ndjson, chunkSize: chunk).table.contacts.map(\.properties)
      #expect(fast == expected, "chunk size \(chunk)")
    }
  }
}
