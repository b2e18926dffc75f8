import Foundation
import Testing

@Suite("exit statuses and messages")
struct ErrorTests {
  /// One line on stderr, no stack trace.
  func expectOneLine(_ r: CLI.Result, containing text: String) {
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1, "stderr: \(r.stderr)")
    #expect(r.stderr.contains(text), "stderr: \(r.stderr)")
    #expect(!r.stderr.contains("Fatal error"))
  }

  @Test func missingInputFile() throws {
    let dir = try TempDir()
    let r = try CLI.run(["convert", dir.path("nope.vcf"), "-o", dir.path("out.vcf")])
    #expect(r.status == 66)
    expectOneLine(r, containing: "cannot read")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out.vcf")))
  }

  @Test func badFlag() throws {
    let r = try CLI.run(["stats", "x.vcf", "--no-such-flag"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("--no-such-flag"))
  }

  @Test func badRequirementValue() throws {
    let r = try CLI.run(["process", "x.vcf", "-o", "y.vcf", "--require", "shoesize"])
    #expect(r.status == 64)
  }

  @Test func strictFailsOnBadCardWithLineNumber() throws {
    let dir = try TempDir()
    try dir.write("bad.vcf", BadInput.text)
    let r = try CLI.run(["convert", dir.path("bad.vcf"), "-o", dir.path("out.vcf"), "--strict"])
    #expect(r.status == 65)
    expectOneLine(r, containing: "line 5")
    #expect(!r.stderr.contains("Secret"))
    #expect(!FileManager.default.fileExists(atPath: dir.path("out.vcf")))
    // Temporary files are cleaned up too.
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
    #expect(left == ["bad.vcf"])
  }

  @Test func withoutStrictBadCardIsSkipped() throws {
    let dir = try TempDir()
    try dir.write("bad.vcf", BadInput.text)
    let r = try CLI.run(["convert", dir.path("bad.vcf"), "-o", dir.path("out.ndjson")])
    #expect(r.status == 0)
    #expect(try dir.read("out.ndjson").lines.count == 3)
    #expect(r.stderr.contains("1 warning, 1 skipped"))
    #expect(r.stderr.contains("bad.vcf:5: warning: missing END:VCARD"))
    #expect(r.stderr.contains("bad.vcf:12: skipped: unexpected text outside a card"))
    #expect(!r.stderr.contains("Secret"))
    // --report lists every warning and skip.
    let report = try CLI.run(["convert", dir.path("bad.vcf"), "-o", dir.path("out.vcf"), "--report", dir.path("r.json")])
    #expect(report.status == 0)
    let j = try CLI.json(try dir.read("r.json"))
    let problems = try #require(j["problems"] as? [[String: Any]])
    #expect(problems.map { $0["line"] as? Int } == [5, 12])
    #expect((j["input"] as? [String: Any])?["warnings"] as? Int == 1)
    #expect(!String(decoding: try dir.read("r.json"), as: UTF8.self).contains("Secret"))
  }

  @Test func unknownOutputExtension() throws {
    let dir = try TempDir()
    let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path
    let r = try CLI.run(["convert", example, "-o", dir.path("out.xyz")])
    #expect(r.status == 1)
    expectOneLine(r, containing: "--to")
  }

  @Test func unwritableOutput() throws {
    let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path
    let r = try CLI.run(["convert", example, "-o", "/nonexistent-dir/out.vcf"])
    #expect(r.status == 73)
    expectOneLine(r, containing: "cannot write")
  }

  @Test func version() throws {
    let r = try CLI.run(["--version"])
    #expect(r.status == 0)
    #expect(r.out.hasPrefix("ohana "))
  }
}
