import OhanaCore
import Testing

@testable import OhanaIO

/// How the reader sizes what it builds.
@Suite struct ReadMemoryTests {
  /// With the input's size known, the result pool's hash table is sized
  /// once for the whole input from the strings seen so far (Heaps' law)
  /// instead of growing by half: it ends up between 55% and 75% full
  /// (growing by half leaves it anywhere from 50%).
  /// `count` cards: a name, a family name out of 977, a given name out of
  /// 131, a phone with one of five labels, an e-mail and a unique uid;
  /// one card in 20 a nickname out of 13.
  static func cards(_ count: Int) -> [UInt8] {
    var text = ""
    let labels = ["CELL", "HOME", "WORK", "VOICE", "FAX"]
    for i in 0..<count {
      text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nN:P\(i % 977);Given\(i % 131);;;\r\n"
      text += "TEL;TYPE=\(labels[i % labels.count]):+1 555 \(100_000 + i)\r\n"
      if i % 20 == 7 { text += "NICKNAME:Nick\(i % 13)\r\n" }
      text += "EMAIL:p\(i)@example.com\r\nUID:uid-\(i)-\(i &* 7919)\r\nEND:VCARD\r\n"
    }
    return Array(text.utf8)
  }

  @Test func hashTableIsSizedForTheWholeInput() throws {
    let options = ReadOptions(chunkSize: 64 << 10, workers: 2)
    let result = try ContactIO.read(bytes: Self.cards(30_000), format: .vcard4, options: options)
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

  /// NDJSON and CSV chunks bring pools of their own rather than string
  /// batches; the merge sizes the table for the whole input from them too
  /// (growing by half instead left the NDJSON one half full).
  @Test(arguments: [ContactFormat.ndjson, .csv]) func hashTableIsSizedForOtherFormats(format: ContactFormat) throws {
    let cards = try ContactIO.read(bytes: Self.cards(33_000), format: .vcard4, options: ReadOptions(workers: 1))
    var text: [UInt8] = []
    try ContactIO.write(cards.table, format: format, to: &text)
    let result = try ContactIO.read(bytes: text, format: format, options: ReadOptions(chunkSize: 64 << 10, workers: 2))
    #expect(result.table.rowCount == 33_000)
    let pool = result.table.pool
    let load = Double(pool.count) / Double(pool.tableSlotCount)
    #expect(load <= 0.75)
    #expect(load >= 0.6, "table of \(pool.tableSlotCount) slots for \(pool.count) strings")
    for i in stride(from: 0, to: 33_000, by: 997) { #expect(pool.lookup("uid-\(i)-\(i &* 7919)") != nil) }
  }

  /// A read stores each string column in the encoding its values need:
  /// few distinct values (labels, parameters, a family name out of 977)
  /// as 1- or 2-byte codes, many (uids, phone numbers) as 3-byte ids, an
  /// empty column in no bytes; and the merge of many chunks gives the same
  /// ids as one chunk.
  @Test func stringColumnsAreCoded() throws {
    let bytes = Self.cards(70_000)
    let chunked = try ContactIO.read(bytes: bytes, format: .vcard4, options: ReadOptions(chunkSize: 64 << 10, workers: 2))
    let whole = try ContactIO.read(bytes: bytes, format: .vcard4, options: ReadOptions(chunkSize: 64 << 20, workers: 1))
    let t = chunked.table
    #expect(t.rowCount == 70_000)
    func encoding(_ c: StringColumn) -> String { "\(c.isDictionaryCoded ? "coded" : "plain") \(c.bytesPerCell)" }
    #expect(encoding(t.fields.label) == "coded 1")
    #expect(encoding(t.fields.parameters) == "coded 1")
    #expect(encoding(t[.familyName]) == "coded 2")
    #expect(encoding(t[.givenName]) == "coded 1")
    #expect(encoding(t[.uid]) == "plain 3")
    #expect(encoding(t.fields.value) == "plain 3")
    #expect(encoding(t[.note]) == "coded 0")
    for c in t.attributes + [t.fields.label, t.fields.value, t.fields.parameters] { c.checkInvariants() }
    // The same contacts, string for string, as one chunk read alone.
    // (Compared first, so that a failure does not print 70,000 strings.)
    for a in ContactAttribute.allCases {
      let same = t[a].map { t.pool.string($0) } == whole.table[a].map { whole.table.pool.string($0) }
      #expect(same, "\(a)")
    }
    let sameValues = t.fields.value.map { t.pool.string($0) } == whole.table.fields.value.map { whole.table.pool.string($0) }
    #expect(sameValues)
  }

  /// A mostly empty column of a read table (a nickname on one card in 20)
  /// is sparse: 1.5 bits a row plus its values instead of a byte a row,
  /// however many chunks were merged into it.
  @Test func mostlyEmptyColumnsAreSparse() throws {
    let bytes = Self.cards(70_000)
    for options in [ReadOptions(chunkSize: 64 << 10, workers: 2), ReadOptions(chunkSize: 64 << 20, workers: 1)] {
      let t = try ContactIO.read(bytes: bytes, format: .vcard4, options: options).table
      let nickname = t[.nickname]
      nickname.checkInvariants()
      #expect(nickname.isSparse && nickname.isDictionaryCoded && nickname.bytesPerCell == 1)
      #expect(nickname.presentCount == 3500 && nickname.count == 70_000)
      // Dense, 70,000 bytes; sparse, 13,128 bytes of masks and 3,500 of
      // cells (and room reserved for the input's rows).
      #expect(nickname.memoryFootprint < 24_000, "\(nickname.memoryFootprint) bytes")
      #expect(t.pool.string(nickname[7]) == "Nick7" && nickname[8].isAbsent)
      #expect(!t[.givenName].isSparse && !t[.uid].isSparse && !t.fields.value.isSparse)
    }
  }
}
