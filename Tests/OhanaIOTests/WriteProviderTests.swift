import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

@Suite struct ProviderTests {
  @Test func providersLoadAndNameTheirRows() async throws {
    let vcf = Array(card("BEGIN:VCARD", "FN:a", "END:VCARD", "oops", "BEGIN:VCARD", "FN:b", "END:VCARD").utf8)
    let p = VCardProvider(source: .bytes(vcf), identifier: "vcard:test")
    let r = try await p.loadContacts()
    #expect(r.table.contacts.map(\.fullName) == ["a", "b"])
    #expect(r.table.contacts.map(\.sourceProvider) == ["vcard:test", "vcard:test"])
    #expect(r.errors.map(\.line) == [4])
    #expect(r.errors.first?.source == "memory")

    let strict = VCardProvider(source: .bytes(vcf), options: ReadOptions(strict: true))
    await #expect(throws: ProviderError.self) { try await strict.loadContacts() }

    let csv = CSVProvider(source: .bytes(Array("fullName\r\nx\r\n".utf8)))
    #expect(try await csv.loadContacts().table.contacts.map(\.fullName) == ["x"])
    let nd = NDJSONProvider(source: .bytes(Array("{\"fullName\":\"y\"}\n".utf8)))
    #expect(try await nd.loadContacts().table.contacts.map(\.fullName) == ["y"])
    let missing = VCardProvider(path: "/nonexistent/file.vcf")
    await #expect(throws: ProviderError.self) { try await missing.loadContacts() }
  }
}

@Suite struct DescriptorTests {
  /// Reading from a pipe: no size known, chunks cut as bytes arrive.
  @Test func readFromPipe() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    var text = ""
    for i in 0..<2000 { text += card("BEGIN:VCARD", "VERSION:3.0", "FN:P \(i)", "TEL;TYPE=CELL:\(i)", "END:VCARD") }
    let bytes = Array(text.utf8)
    let writer = fds[1]
    let thread = Thread {
      bytes.withUnsafeBytes { raw in
        var off = 0
        while off < raw.count {
          let n = write(writer, raw.baseAddress! + off, min(4096, raw.count - off))
          if n <= 0 { break }
          off += n
        }
      }
      close(writer)
    }
    thread.start()
    let r = try ContactIO.read(fileDescriptor: fds[0], options: ReadOptions(chunkSize: 1000))
    close(fds[0])
    #expect(r.table.rowCount == 2000)
    #expect(r.table.contacts.last?.fullName == "P 1999")
    #expect(r.table.contacts.last?.sourceLine == 1999 * 5 + 1)
    #expect(r.bytesRead == bytes.count)
  }
}

@Suite struct WriteProgressTests {
  @Test func progressReachesTotal() throws {
    var b = ContactTableBuilder()
    for i in 0..<10_000 {
      b.beginContact()
      b.set(.fullName, b.pool.intern("P \(i)"))
      b.endContact()
    }
    let box = ProgressBox()
    var out: [UInt8] = []
    try ContactIO.write(Frame(table: b.build()), format: .vcard4, to: &out, progress: { box.record($0, $1) })
    #expect(box.values.last?.0 == 10_000)
    #expect(box.values.last?.1 == 10_000)
  }
}
