import OhanaCore
import Testing

@testable import OhanaIO

/// The reader keeps UUID uids as 16 bytes (ContactTable.uuids) and every
/// writer gives back the text that was read.
@Suite struct UUIDUIDTests {
  static let uids = [
    "2f5d4a59-573b-4bcd-aa21-19495a7561cd", "5E3F1A2B-0C4D-4E5F-8A9B-0C1D2E3F4A5B",
    "urn:uuid:8540f030-2035-4b10-af4d-ffe6605643df", "URN:UUID:9B765F0C-4036-421B-B69A-EAFB7E64BBFF",
    "2f5d4a59-573b-4bcd-aa21-19495A7561cd", "contact-17",
  ]

  /// Cards with the uids above (and one without), repeated `copies` times.
  static func file(copies: Int) -> [UInt8] {
    var text = ""
    for k in 0..<copies {
      for (i, u) in (uids + [""]).enumerated() {
        text += "BEGIN:VCARD\r\nVERSION:\(i % 2 == 0 ? "3.0" : "4.0")\r\nFN:Person \(k) \(i)\r\n"
        if !u.isEmpty { text += "UID:\(u)\r\n" }
        text += "END:VCARD\r\n"
      }
    }
    return Array(text.utf8)
  }

  @Test func uuidUIDsAreStoredApartAndWrittenBack() throws {
    let result = try ContactIO.read(bytes: Self.file(copies: 1), format: .vcard4)
    let t = result.table
    #expect(t.rowCount == Self.uids.count + 1)
    #expect(t.uuids.uuidCount == 4)
    #expect(t[.uid].filter(\.isPresent).count == 2)  // mixed case and "contact-17"
    for (r, u) in Self.uids.enumerated() {
      #expect(t.uid(at: r) == u)
      #expect(t.contact(at: r).uid == u)
    }
    #expect(t.uid(at: Self.uids.count) == nil)
    // No UUID went into the pool.
    #expect(t.pool.lookup(Self.uids[0]) == nil)
    let frame = Frame(table: t)
    for format in [ContactFormat.vcard4, .vcard3, .csv, .ndjson] {
      var out: [UInt8] = []
      try ContactIO.write(frame, format: format, to: &out)
      let text = String(decoding: out, as: UTF8.self)
      for u in Self.uids { #expect(text.contains(u), "\(format): \(u)") }
      // Read back: the same uids, stored the same way.
      let again = try ContactIO.read(bytes: out, format: format).table
      #expect(again.rowCount == t.rowCount)
      for r in 0..<t.rowCount { #expect(again.uid(at: r) == t.uid(at: r), "\(format) row \(r)") }
      if format == .vcard4 || format == .vcard3 {
        #expect(again.uuids == t.uuids)
        #expect(text.contains("UID:\(Self.uids[0])\r\n"))
      }
    }
  }

  /// Chunks merged in order keep each row's UUID with its row, also when
  /// some chunks have none.
  @Test func chunkedReadsKeepUUIDsWithTheirRows() throws {
    var bytes = Self.file(copies: 400)
    // A run of cards without uids in the middle: chunks with no UUIDs.
    let plain = (0..<2000).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Plain \($0)\r\nEND:VCARD\r\n" }.joined()
    bytes += Array(plain.utf8) + Self.file(copies: 400)
    let chunked = try ContactIO.read(bytes: bytes, format: .vcard4, options: ReadOptions(chunkSize: 16 << 10, workers: 2))
    let whole = try ContactIO.read(bytes: bytes, format: .vcard4, options: ReadOptions(chunkSize: 64 << 20, workers: 1))
    chunked.table.checkInvariants()
    #expect(chunked.table.rowCount == whole.table.rowCount)
    #expect(chunked.table.uuids == whole.table.uuids)
    #expect(chunked.table.uuids.uuidCount == 2 * 400 * 4)
    for r in stride(from: 0, to: whole.table.rowCount, by: 7) {
      #expect(chunked.table.uid(at: r) == whole.table.uid(at: r))
    }
  }

  /// A UID inside a group, or a second UID, is kept as an extra property,
  /// as before.
  @Test func secondUIDStaysAnExtraProperty() throws {
    let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(Self.uids[0])\r\nUID:\(Self.uids[1])\r\nEND:VCARD\r\n"
    let t = try ContactIO.read(bytes: Array(text.utf8), format: .vcard4).table
    #expect(t.uid(at: 0) == Self.uids[0])
    #expect(t.contact(at: 0).extras.map(\.value) == [Self.uids[1]])
  }
}
