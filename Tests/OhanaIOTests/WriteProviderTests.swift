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
