import Foundation
import Testing
import Ohana

/// Ohana's own example, end to end: from the eight-contact sample keep
/// contacts with a given name, a family name and a photo, sort by family
/// name then given name, and build `full_name` with a custom processor.
@Suite struct OhanaExampleTests {
  static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("datasets/ohana-example.vcf").path

  @Test func example() async throws {
    let dataSource = ContactsDataSource(
      providers: [VCardProvider(path: Self.sample)],
      processors: [
        RequiredField(.givenName),
        RequiredField(.familyName),
        RequiredField(.photo),
        AlphabeticalSort(mode: .familyName, locale: "en"),
        MapProcessor.rows("full_name") { contact in
          let name = [contact.givenName, contact.familyName].compactMap { $0 }.joined(separator: " ")
          contact.properties["full_name"] = .string(name)
        },
      ])
    let result = try await dataSource.load()
    #expect(result.report.rowsIn == 8)
    let names = dataSource.contacts.map { c -> String in
      if case .string(let s)? = c.properties["full_name"] { return s }
      return ""
    }
    #expect(names == ["Gomez Addams", "Morticia Addams", "Wednesday Addams", "Homer Simpson", "Marge Simpson"])
  }
}
