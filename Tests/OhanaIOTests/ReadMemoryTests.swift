import OhanaCore
import Testing

@testable import OhanaIO

/// How the reader sizes what it builds.
@Suite struct ReadMemoryTests {
  /// With the input's size known, the result pool's hash table is sized
  /// once for the whole input from the strings seen so far (Heaps' law)
  /// instead of growing by half: it ends up between 55% and 75% full
  /// (growing by half leaves it anywhere from 50%).
  @Test func hashTableIsSizedForTheWholeInput() throws {
    var text = ""
    let labels = ["CELL", "HOME", "WORK", "VOICE", "FAX"]
    for i in 0..<30_000 {
      text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:P\(i % 977);Given\(i % 131);;;\r\n"
      text += "TEL;TYPE=\(labels[i % labels.count]):+1 555 \(100_000 + i)\r\n"
      text += "EMAIL:p\(i)@example.com\r\nUID:uid-\(i)-\(i &* 7919)\r\nEND:VCARD\r\n"
    }
    let options = ReadOptions(chunkSize: 64 << 10, workers: 2)
    let result = try ContactIO.read(bytes: Array(text.utf8), format: .vcard4, options: options)
    #expect(result.table.rowCount == 30_000)
    let pool = result.table.pool
    let load = Double(pool.count) / Double(pool.tableSlotCount)
    #expect(load <= 0.75)
    #expect(load >= 0.55, "table of \(pool.tableSlotCount) slots for \(pool.count) strings")
    // Every string still interns to itself: the table was rebuilt correctly.
    for i in stride(from: 0, to: 30_000, by: 997) {
      let uid: String = "uid-\(i)-\(i &* 7919)"
      #expect(pool.lookup(uid) != nil)
    }
  }
}
