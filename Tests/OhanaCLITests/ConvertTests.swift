import Foundation
import Testing

@Suite("ohana convert")
struct ConvertTests {
  let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path

  func stats(_ path: String) throws -> [String: Any] {
    let r = try CLI.run(["stats", path, "-q"])
    #expect(r.status == 0, "stats \(path): \(r.stderr)")
    return try CLI.json(r.stdout)
  }

  /// The parts of a summary a lossless round trip keeps.
  func essentials(_ j: [String: Any]) -> [String: Int] {
    var out: [String: Int] = ["contacts": j["contacts"] as? Int ?? -1, "addresses": j["addresses"] as? Int ?? -1]
    for (k, v) in j["fields"] as? [String: Int] ?? [:] { out["fields." + k] = v }
    for (k, v) in j["contactsWith"] as? [String: Int] ?? [:] { out["with." + k] = v }
    return out
  }

  @Test(arguments: ["vcard4", "vcard3", "ndjson"])
  func exampleRoundTrip(through format: String) throws {
    let dir = try TempDir()
    let ext = format == "ndjson" ? "ndjson" : "vcf"
    let there = try CLI.run(["convert", example, "-o", dir.path("a." + ext), "--to", format, "-q"])
    #expect(there.status == 0, "\(there.stderr)")
    #expect(there.stderr.isEmpty)
    let back = try CLI.run(["convert", dir.path("a." + ext), "-o", dir.path("b.vcf"), "-q"])
    #expect(back.status == 0, "\(back.stderr)")
    #expect(essentials(try stats(dir.path("b.vcf"))) == essentials(try stats(example)))
  }

  @Test func csvKeepsContactsAndPhones() throws {
    let dir = try TempDir()
    let r = try CLI.run(["convert", example, "-o", dir.path("a.csv"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let j = try stats(dir.path("a.csv"))
    #expect(j["contacts"] as? Int == 8)
    #expect((j["fields"] as? [String: Int])?["phone"] == 9)
  }

  @Test func sampleRoundTripThroughNDJSON() throws {
    let dir = try TempDir()
    let sample = CLI.datasets.appendingPathComponent("sample-1000.vcf").path
    #expect(try CLI.run(["convert", sample, "-o", dir.path("s.ndjson"), "-q"]).status == 0)
    #expect(try CLI.run(["convert", dir.path("s.ndjson"), "-o", dir.path("s.vcf"), "-q"]).status == 0)
    #expect(essentials(try stats(dir.path("s.vcf"))) == essentials(try stats(sample)))
    #expect(try dir.read("s.ndjson").lines.count == 1000)
  }

  @Test func standardInputAndOutput() throws {
    let input = try Data(contentsOf: URL(fileURLWithPath: example))
    let r = try CLI.run(["convert", "-", "-o", "-", "--to", "ndjson"], stdin: input)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.lines.count == 8)
    #expect(r.out.contains("\"Gomez\""))
    // vCard 4.0 by default on standard output.
    let v = try CLI.run(["convert", "-", "-o", "-", "-q"], stdin: input)
    #expect(countOccurrences(of: "VERSION:4.0", in: v.stdout) == 8)
    #expect(v.stderr.isEmpty)
  }

  @Test func quietAndNonTerminalStderrHaveNoProgressBar() throws {
    let dir = try TempDir()
    let r = try CLI.run(["convert", example, "-o", dir.path("a.vcf")])
    #expect(!r.stderr.contains("["))
    #expect(!r.stderr.contains("\r"))
  }
}
