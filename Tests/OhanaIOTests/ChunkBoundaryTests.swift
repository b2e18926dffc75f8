import OhanaCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@testable import OhanaIO

/// Cards split across chunks: every chunk size gives the same table and the
/// same line numbers.
@Suite struct ChunkBoundaryTests {
  static let text: String = {
    var s = ""
    for i in 0..<40 {
      s += card(
        "BEGIN:VCARD", i % 2 == 0 ? "VERSION:2.1" : "VERSION:4.0", "FN:Person \(i) Zoë",
        "NOTE;ENCODING=QUOTED-PRINTABLE:a=",
        "b", "TEL;CELL:+1 555 \(i)", "item1.EMAIL:p\(i)@example.com", "item1.X-ABLabel:home", "END:VCARD")
      if i % 7 == 0 { s += "\r\n" }
    }
    return s
  }()

  @Test(arguments: [1, 2, 13, 64, 100, 333, 4096])
  func sameResultForEveryChunkSize(chunkSize: Int) throws {
    let reference = try read(Self.text, chunkSize: 1 << 20)
    let small = try ContactIO.read(
      bytes: Array(Self.text.utf8), options: ReadOptions(chunkSize: chunkSize, workers: 2))
    #expect(reference.table.rowCount == 40)
    #expect(small.table.contacts == reference.table.contacts)
    #expect(small.errors.isEmpty)
    #expect(small.bytesRead == Self.text.utf8.count)
  }

  /// Cards with every kind of column (names, org, addresses, photos,
  /// extras, groups, parameters), so merging chunk tables is checked column
  /// by column.
  static let richText: String = {
    var s = ""
    for i in 0..<30 {
      s += card(
        "BEGIN:VCARD", "VERSION:3.0", "N:Family\(i % 4);Given\(i);;Dr.;", "FN:Given\(i) Family\(i % 4)",
        "ORG:Org \(i % 3);Dept", "TITLE:T\(i)", "BDAY:2000-01-0\(i % 9 + 1)", "UID:uid-\(i)",
        "ADR;TYPE=HOME:;;\(i) Main St;Springfield;IL;6270\(i % 10);USA",
        "item2.ADR;TYPE=WORK:PO \(i);;Elm \(i % 5);Shelbyville;;;",
        "PHOTO;ENCODING=b;TYPE=JPEG:\(i % 2 == 0 ? "AAEC" : "/9j/")",
        "TEL;TYPE=CELL:+1 555 01\(i % 7)", "X-CUSTOM;X-P=\(i % 3):v\(i)", "item2.X-ABLabel:other", "END:VCARD")
    }
    return s
  }()

  @Test(arguments: [1, 97, 512, 2048])
  func richCardsSameForEveryChunkSize(chunkSize: Int) throws {
    let reference = try read(Self.richText, chunkSize: 1 << 20)
    let small = try ContactIO.read(
      bytes: Array(Self.richText.utf8), options: ReadOptions(chunkSize: chunkSize, workers: 2))
    #expect(reference.table.rowCount == 30)
    #expect(reference.errors.isEmpty)
    #expect(small.table.contacts == reference.table.contacts)
    #expect(small.table.addresses.count == 60)
    #expect(small.table.extras.count == reference.table.extras.count)
    for row in 0..<30 {
      #expect(small.table.photo[row].isNone == reference.table.photo[row].isNone)
    }
    small.table.checkInvariants()
  }

  /// From a file descriptor: small chunks (a record longer than a chunk
  /// makes the buffer grow) give the same table as one big chunk.
  @Test(arguments: [1, 97, 4096])
  func fileReadsSameForEveryChunkSize(chunkSize: Int) throws {
    let path = "/tmp/ohana-chunk-test-\(chunkSize)-\(getpid()).vcf"
    let bytes = Array(Self.richText.utf8)
    guard let f = fopen(path, "wb") else { Issue.record("cannot create \(path)"); return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
    defer { unlink(path) }
    let reference = try ContactIO.read(bytes: bytes, options: ReadOptions(chunkSize: 1 << 20, workers: 1))
    let fromFile = try ContactIO.read(path: path, options: ReadOptions(chunkSize: chunkSize, workers: 2))
    #expect(fromFile.bytesRead == bytes.count)
    #expect(fromFile.errors.isEmpty)
    #expect(fromFile.table.contacts == reference.table.contacts)
  }

  @Test func sourceLinesAcrossChunks() throws {
    let r = try ContactIO.read(bytes: Array(Self.text.utf8), options: ReadOptions(chunkSize: 50, workers: 3))
    var expected: [Int] = []
    var line = 1
    for i in 0..<40 {
      expected.append(line)
      line += 9 + (i % 7 == 0 ? 1 : 0)
    }
    #expect(r.table.contacts.map(\.sourceLine) == expected)
  }

  @Test func progressIsReported() throws {
    let box = ProgressBox()
    _ = try ContactIO.read(
      bytes: Array(Self.text.utf8),
      options: ReadOptions(chunkSize: 256, workers: 2, progress: { done, total in box.record(done, total) }))
    let seen = box.values
    #expect(!seen.isEmpty)
    #expect(seen.last?.0 == Self.text.utf8.count)
    #expect(seen.last?.1 == Self.text.utf8.count)
  }
}

final class ProgressBox: @unchecked Sendable {
  private var items: [(Int, Int?)] = []
  func record(_ d: Int, _ t: Int?) { items.append((d, t)) }
  var values: [(Int, Int?)] { items }
}

/// The parallel reader's pipeline: any number of workers gives the same
/// table, and a strict read stops at the first bad card in file order with
/// its absolute line, however the input is cut.
@Suite struct PipelineTests {
  static func cards(_ n: Int, badAt bad: Int?) -> (text: String, badLine: Int) {
    var s = ""
    var line = 1
    var badLine = 0
    for i in 0..<n {
      if i == bad {
        badLine = line
        s += "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLE:broken =ZZ escape\r\nEND:VCARD\r\n"
        line += 4
      } else {
        s += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nTEL;TYPE=CELL:+1 555 \(1000 + i)\r\nEND:VCARD\r\n"
        line += 5
      }
    }
    return (s, badLine)
  }

  @Test(arguments: [1, 2, 3, 8])
  func sameTableForAnyNumberOfWorkers(workers: Int) throws {
    let (text, _) = Self.cards(500, badAt: nil)
    let reference = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(chunkSize: 1 << 20, workers: 1))
    let r = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(chunkSize: 700, workers: workers))
    #expect(reference.table.rowCount == 500)
    #expect(r.table.contacts == reference.table.contacts)
    #expect(r.recordsRead == 500)
  }

  @Test(arguments: [300, 1 << 20])
  func strictStopsAtTheFirstBadCardWithItsLine(chunkSize: Int) throws {
    let (text, badLine) = Self.cards(400, badAt: 321)
    let lenient = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(chunkSize: chunkSize, workers: 2))
    // The card is imported; the warning names the NOTE line (its third).
    #expect(lenient.errors.map(\.line) == [badLine + 2])
    #expect(lenient.recordsRead == 400)
    do {
      _ = try ContactIO.read(bytes: Array(text.utf8), options: ReadOptions(strict: true, chunkSize: chunkSize, workers: 2))
      Issue.record("a strict read of a bad card must throw")
    } catch {
      #expect(error.line == badLine + 2)
    }
  }
}
