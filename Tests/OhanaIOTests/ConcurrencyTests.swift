import OhanaCore
import Testing

@testable import OhanaIO

/// Reads and writes started from many Swift tasks at once all finish with
/// the same result as one alone: the pipelines wait only on threads of
/// their own, never on the shared pool that the tasks themselves occupy.
@Suite struct ConcurrencyTests {
  static let text: String = {
    var s = ""
    for i in 0..<600 {
      s += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:P\(i);Q;;;\r\nTEL;TYPE=CELL:+1 555 \(1000 + i)\r\n"
      s += "EMAIL:p\(i)@example.com\r\nNOTE:a long note that is folded\r\n  over two lines \(i)\r\nEND:VCARD\r\n"
    }
    return s
  }()

  @Test
  func manyConcurrentReadsAndWrites() async throws {
    let bytes = Array(Self.text.utf8)
    let options = ReadOptions(chunkSize: 2048, workers: 2)
    let reference = try ContactIO.read(bytes: bytes, options: options)
    var written: [UInt8] = []
    try ContactIO.write(Frame(table: reference.table), format: .vcard4, to: &written)
    let expected = written
    #expect(reference.table.rowCount == 600)
    let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
      for _ in 0..<24 {
        group.addTask {
          let r = try ContactIO.read(bytes: bytes, options: options)
          var out: [UInt8] = []
          try ContactIO.write(Frame(table: r.table), format: .vcard4, to: &out)
          return (r.table.rowCount, out == expected)
        }
      }
      var all: [(Int, Bool)] = []
      for try await r in group { all.append(r) }
      return all
    }
    #expect(results.count == 24)
    for (rows, same) in results {
      #expect(rows == 600)
      #expect(same)
    }
  }
}
