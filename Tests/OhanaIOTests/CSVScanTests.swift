import OhanaCore
import Testing

@testable import OhanaIO

/// The CSV reader's word-at-a-time scans and its byte-level date reading,
/// each against a plain reference written here the simple way (one byte, or
/// one Unicode scalar, at a time, as the readers did before they were made
/// fast), on random inputs that mix every byte the scans look for.
@Suite struct CSVScanTests {
  /// The same inputs on every run (`SplitMix64`, Reference/ReferenceSupport.swift).
  typealias Random = SplitMix64

  /// Bytes a CSV scan treats specially, and ordinary ones (a two-byte
  /// UTF-8 letter too), weighted so that quotes and breaks are frequent.
  static let alphabet: [[UInt8]] = [
    [0x61], [0x62], [0x20], [0x2C], [0x2C], [0x3B], [0x22], [0x22], [0x22], [0x0A], [0x0A], [0x0D], [0xC3, 0xA9],
    Array("abcdefghij".utf8),
  ]

  static func randomCSV(_ r: inout Random, maxPieces: Int = 80) -> [UInt8] {
    var out: [UInt8] = []
    for _ in 0..<r.below(maxPieces + 1) { out += alphabet[r.below(alphabet.count)] }
    return out
  }

  // MARK: The references

  /// The record cut as a byte loop (the reader's rule: a quote opens a
  /// quoted cell only at a cell's start).
  static func referenceLastRecordStart(_ buf: [UInt8], delimiter: UInt8) -> Int? {
    var inQuotes = false, atCellStart = true
    var last: Int? = nil
    var i = 0
    while i < buf.count {
      let b = buf[i]
      i += 1
      if inQuotes {
        if b == 0x22 {
          if i < buf.count && buf[i] == 0x22 { i += 1 } else { inQuotes = false }
        }
        continue
      }
      if b == 0x22 && atCellStart {
        inQuotes = true
        atCellStart = false
        continue
      }
      if b == 0x0A { last = i }
      atCellStart = b == delimiter || b == 0x0A || b == 0x0D
    }
    return last
  }

  struct Record: Equatable {
    var outcome: String
    var cells: [[UInt8]]
    var line: Int
  }

  /// RFC 4180 records as a byte loop, lenient as the reader is (text after
  /// a closing quote is kept; lines counted by LF).
  static func referenceRecords(_ bytes: [UInt8], delimiter: UInt8) -> [Record] {
    var records: [Record] = []
    var i = 0, line = 1
    let end = bytes.count
    outer: while i < end {
      var cells: [[UInt8]] = []
      var cell: [UInt8] = []
      let recordLine = line
      while true {
        cell = []
        if i < end && bytes[i] == 0x22 {
          i += 1
          var closed = false
          while i < end {
            let b = bytes[i]
            if b == 0x22 {
              if i + 1 < end && bytes[i + 1] == 0x22 {
                cell.append(0x22)
                i += 2
                continue
              }
              i += 1
              closed = true
              break
            }
            if b == 0x0A { line += 1 }
            cell.append(b)
            i += 1
          }
          if !closed {
            records.append(Record(outcome: "unterminated", cells: [], line: recordLine))
            break outer
          }
          while i < end && bytes[i] != delimiter && bytes[i] != 0x0A && bytes[i] != 0x0D {
            cell.append(bytes[i])
            i += 1
          }
        } else {
          while i < end && bytes[i] != delimiter && bytes[i] != 0x0A && bytes[i] != 0x0D {
            cell.append(bytes[i])
            i += 1
          }
        }
        cells.append(cell)
        if i >= end { break }
        let b = bytes[i]
        i += 1
        if b == delimiter { continue }
        if b == 0x0A {
          line += 1
        } else if i < end && bytes[i] == 0x0A {
          i += 1
          line += 1
        }
        break
      }
      records.append(Record(outcome: "record", cells: cells, line: recordLine))
    }
    return records
  }

  static func tokenized(_ bytes: [UInt8], delimiter: UInt8) -> [Record] {
    var tok = CSVTokenizer(bytes, range: 0..<bytes.count, firstLine: 1, delimiter: delimiter)
    var text: [UInt8] = [], cells: [Range<Int>] = []
    var line = 0
    var records: [Record] = []
    while true {
      switch tok.next(text: &text, cells: &cells, recordLine: &line) {
      case .end: return records
      case .unterminatedQuote:
        records.append(Record(outcome: "unterminated", cells: [], line: line))
        return records
      case .record:
        records.append(Record(outcome: "record", cells: cells.map { Array(text[$0]) }, line: line))
      }
    }
  }

  /// Dates read the way `DateText.parse` read them before it worked on
  /// bytes: Unicode scalars of the text trimmed of blanks (as Characters).
  static func referenceDate(_ text: String, dayFirst: Bool) -> String? {
    var s = Substring(text)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    let scalars = Array(s.unicodeScalars)
    guard !scalars.isEmpty, scalars.count <= 40 else { return nil }
    var parts: [Int] = [], widths: [Int] = []
    var current = 0, width = 0
    for c in scalars {
      if ("0"..."9").contains(c) {
        current = current * 10 + Int(c.value - 48)
        width += 1
        if width > 8 { return nil }
        continue
      }
      if width > 0 {
        parts.append(current)
        widths.append(width)
      }
      current = 0
      width = 0
      if c == "T" || c == " " { break }
      guard c == "-" || c == "/" || c == "." else { return nil }
    }
    if width > 0 {
      parts.append(current)
      widths.append(width)
    }
    func days(_ m: Int, _ y: Int) -> Int {
      if m == 2 { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28 }
      return [4, 6, 9, 11].contains(m) ? 30 : 31
    }
    func iso(_ y: Int, _ m: Int?, _ d: Int?) -> String? {
      guard (1000...2999).contains(y) else { return nil }
      var out = String(y)
      guard let m else { return out }
      guard (1...12).contains(m) else { return nil }
      out += "-" + (m < 10 ? "0" : "") + String(m)
      guard let d else { return out }
      guard (1...days(m, y)).contains(d) else { return nil }
      return out + "-" + (d < 10 ? "0" : "") + String(d)
    }
    switch parts.count {
    case 1:
      if widths[0] == 8 { return iso(parts[0] / 10000, parts[0] / 100 % 100, parts[0] % 100) }
      return widths[0] == 4 ? iso(parts[0], nil, nil) : nil
    case 2:
      if widths[0] == 4 { return iso(parts[0], parts[1], nil) }
      return widths[1] == 4 ? iso(parts[1], parts[0], nil) : nil
    case 3:
      if widths[0] == 4 { return iso(parts[0], parts[1], parts[2]) }
      guard widths[2] == 4 || widths[2] == 2 else { return nil }
      let year = widths[2] == 2 ? parts[2] + (parts[2] < 30 ? 2000 : 1900) : parts[2]
      return dayFirst ? iso(year, parts[1], parts[0]) : iso(year, parts[0], parts[1])
    default:
      return nil
    }
  }

  // MARK: Tests

  @Test(arguments: [UInt8(0x2C), 0x3B])
  func recordCutMatchesTheByteLoop(delimiter: UInt8) {
    var r = Random(seed: UInt64(delimiter))
    var cuts = 0
    for _ in 0..<20_000 {
      let buf = Self.randomCSV(&r)
      let fast = buf.withUnsafeBufferPointer { CSVTokenizer.lastRecordStart(in: $0, delimiter: delimiter) }
      let slow = Self.referenceLastRecordStart(buf, delimiter: delimiter)
      #expect(fast == slow, "input \(buf)")
      if slow != nil { cuts += 1 }
      if fast != slow { return }
    }
    // The inputs exercised both outcomes.
    #expect(cuts > 1_000 && cuts < 19_000)
  }

  @Test(arguments: [UInt8(0x2C), 0x3B])
  func recordsMatchTheByteLoop(delimiter: UInt8) {
    var r = Random(seed: 7 &+ UInt64(delimiter))
    var unterminated = 0
    for _ in 0..<20_000 {
      let buf = Self.randomCSV(&r)
      let fast = Self.tokenized(buf, delimiter: delimiter)
      let slow = Self.referenceRecords(buf, delimiter: delimiter)
      #expect(fast == slow, "input \(buf)")
      if fast != slow { return }
      if slow.last?.outcome == "unterminated" { unterminated += 1 }
    }
    #expect(unterminated > 100)
  }

  @Test func recordsOfLongCellsCrossWordBoundaries() {
    // Cells longer than a word, quoted and not, with breaks inside quotes.
    let text = "abcdefghijklmnopqrstuvwxyz,\"quoted, with \"\"quotes\"\"\nand a break across words\",x\r\nlast-line-without-end"
    let bytes = Array(text.utf8)
    #expect(Self.tokenized(bytes, delimiter: 0x2C) == Self.referenceRecords(bytes, delimiter: 0x2C))
    #expect(
      Self.tokenized(bytes, delimiter: 0x2C).map(\.line) == [1, 3])
    let cut = bytes.withUnsafeBufferPointer { CSVTokenizer.lastRecordStart(in: $0) }
    #expect(cut == Self.referenceLastRecordStart(bytes, delimiter: 0x2C))
    #expect(cut == Array("abcdefghijklmnopqrstuvwxyz,\"quoted, with \"\"quotes\"\"\nand a break across words\",x\r\n".utf8).count)
  }

  @Test func datesMatchTheScalarReading() {
    let pieces = ["1", "2", "9", "0", "19", "64", "1964", "12", "31", "-", "/", ".", " ", "\t", "T", "x", "é", "\u{301}", "٣"]
    var r = Random(seed: 44)
    var dates = 0
    for _ in 0..<50_000 {
      var text = ""
      for _ in 0..<r.below(9) { text += pieces[r.below(pieces.count)] }
      for dayFirst in [true, false] {
        let got = DateText.parse(text, order: dayFirst ? .dayFirst : .monthFirst)
        let want = Self.referenceDate(text, dayFirst: dayFirst)
        #expect(got == want, "\(Array(text.unicodeScalars))")
        if got != want { return }
        if got != nil { dates += 1 }
      }
    }
    #expect(dates > 1_000)
    // The 40-character limit counts characters, not bytes.
    let long = "1964-03-26 " + String(repeating: "é", count: 29)
    #expect(DateText.parse(long, order: .dayFirst) == "1964-03-26")
    #expect(DateText.parse(long + "éé", order: .dayFirst) == nil)
  }

  @Test func anISOShapedDateIsKeptOrRefused() {
    // What lets the reader skip `DateText.parse` for `dddd-dd-dd`.
    var r = Random(seed: 3)
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for k in 0..<10 { bytes.append(k == 4 || k == 7 ? 0x2D : UInt8(0x30 + r.below(10))) }
      let shaped = bytes.withUnsafeBytes { CSVReader.isISODate($0) }
      #expect(shaped)
      let text = String(decoding: bytes, as: UTF8.self)
      for order in DateText.Order.allCases {
        let parsed = DateText.parse(text, order: order)
        #expect(parsed == nil || parsed == text, "\(text)")
      }
    }
    for other in ["1964/03/26", "1964-3-26", " 1964-03-26", "1964-03-2a", "19640326"] {
      #expect(!Array(other.utf8).withUnsafeBytes { CSVReader.isISODate($0) }, "\(other)")
    }
  }

  @Test func batchBytesReadBackAsAdded() {
    var batch = StringBatch()
    var added: [(StringID, [UInt8])] = []
    var r = Random(seed: 5)
    for _ in 0..<2_000 {
      let s = Self.randomCSV(&r, maxPieces: 6)
      added.append((batch.add(bytes: s), s))
    }
    for (id, s) in added {
      #expect(batch.withBytes(of: id) { Array($0) } == s)
      #expect(batch.bytes(of: id) == s)
    }
    #expect(batch.withBytes(of: .absent) { $0.count } == 0)
    #expect(batch.withBytes(of: StringID(rawValue: UInt32(batch.count + 5))) { $0.count } == 0)
  }
}
