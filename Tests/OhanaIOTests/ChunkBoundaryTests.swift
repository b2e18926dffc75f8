import OhanaCore
import Testing

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
