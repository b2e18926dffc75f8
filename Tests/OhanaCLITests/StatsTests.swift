import Foundation
import Testing

@Suite("ohana stats")
struct StatsTests {
  let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path

  @Test func exampleSummary() throws {
    let r = try CLI.run(["stats", example])
    #expect(r.status == 0)
    let j = try CLI.json(r.stdout)
    #expect(j["contacts"] as? Int == 8)
    #expect(j["skipped"] as? Int == 0)
    let fields = try #require(j["fields"] as? [String: Int])
    #expect(fields["phone"] == 9)
    #expect(fields["email"] == 6)
    let with = try #require(j["contactsWith"] as? [String: Int])
    #expect(with["photo"] == 5)
    #expect(with["address"] == 4)
    #expect(with["phone"] == 6)
    #expect(with["email"] == 5)
    #expect(j["addresses"] as? Int == 4)
    #expect((j["errors"] as? [Any])?.isEmpty == true)
  }

  @Test func sampleIsReadWithoutErrors() throws {
    let r = try CLI.run(["stats", CLI.datasets.appendingPathComponent("sample-1000.vcf").path, "-q"])
    #expect(r.status == 0)
    let j = try CLI.json(r.stdout)
    #expect(j["contacts"] as? Int == 1000)
    #expect(j["skipped"] as? Int == 0)
    let with = try #require(j["contactsWith"] as? [String: Int])
    #expect(with["phone"] == 1000)
    #expect((with["photo"] ?? 0) > 0)
    let extras = try #require(j["extraPropertyNames"] as? [String: Int])
    #expect(extras["X-ABLABEL"] != nil)
  }

  @Test func errorsCarryLineNumbersAndNoValues() throws {
    let dir = try TempDir()
    try dir.write("bad.vcf", BadInput.text)
    let r = try CLI.run(["stats", dir.path("bad.vcf"), "-q"])
    #expect(r.status == 0)
    let j = try CLI.json(r.stdout)
    #expect(j["contacts"] as? Int == 3)
    #expect(j["warnings"] as? Int == 1)
    #expect(j["skipped"] as? Int == 1)
    let errors = try #require(j["errors"] as? [[String: Any]])
    #expect(errors.map { $0["line"] as? Int } == [5, 12])
    #expect(errors.map { $0["severity"] as? String } == ["warning", "skipped"])
    #expect(!r.out.contains("Secret"))
  }
}

/// Three cards; the second has no END:VCARD (line 5) and holds a value that
/// must never appear in messages.
enum BadInput {
  static let text =
    "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Alice Good\r\nEND:VCARD\r\n"
    + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Secret\r\n"
    + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Carol Good\r\nEND:VCARD\r\n"
    + "Secret text outside any card\r\n"
  // Bob's card has no END:VCARD: imported with a warning on line 5; the
  // text after Carol's card (line 12) is skipped.
}
