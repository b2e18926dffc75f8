import Foundation
import Testing

@Suite("ohana process")
struct ProcessTests {
  let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path

  func uids(_ args: [String]) throws -> [String] {
    let r = try CLI.run(["process", example, "-o", "-", "--to", "ndjson", "-q"] + args)
    #expect(r.status == 0, "\(r.stderr)")
    return try r.stdout.lines.map { line in
      let j = try CLI.json(Data(line.utf8))
      return (j["uid"] as? String ?? "").replacingOccurrences(of: "ohana-example-", with: "")
    }
  }

  @Test func givenFamilyAndPhotoKeepsTheFiveAddamsAndSimpsons() throws {
    let kept = try uids(["--require", "givenName", "--require", "familyName", "--require", "photo"])
    #expect(kept == ["marge", "wednesday", "homer", "morticia", "gomez"])
  }

  @Test func requirePhoneAndEmail() throws {
    #expect(try uids(["--require", "phone"]) == ["marge", "mom", "wednesday", "homer", "gomez", "bae"])
    #expect(try uids(["--require", "email"]) == ["marge", "wednesday", "homer", "morticia", "gomez"])
    #expect(try uids(["--require", "address"]) == ["marge", "homer", "maggie", "gomez"])
  }

  @Test func splitAndReverse() throws {
    let split = try uids(["--split", "phone"])
    #expect(split.count == 9)
    #expect(split.filter { $0 == "gomez" }.count == 2)
    let reversed = try uids(["--require", "email", "--reverse"])
    #expect(reversed == ["gomez", "morticia", "homer", "wednesday", "marge"])
  }

  @Test func disableSkipsAStageByName() throws {
    #expect(try uids(["--require", "phone", "--disable", "required-phone"]).count == 8)
    let r = try CLI.run(["process", example, "-o", "-", "--to", "ndjson", "--disable", "no-such-stage"])
    #expect(r.status == 0)
    #expect(r.stderr.contains("warning: --disable no-such-stage matches no stage"))
  }

  @Test func reportHasStagesErrorsAndMemory() throws {
    let dir = try TempDir()
    try dir.write("bad.vcf", BadInput.text)
    let r = try CLI.run([
      "process", dir.path("bad.vcf"), "-o", dir.path("out.vcf"), "--stats", "--reverse",
      "--report", dir.path("report.json"), "-q",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let j = try CLI.json(try dir.read("report.json"))
    let input = try #require(j["input"] as? [String: Any])
    #expect(input["records"] as? Int == 3)
    #expect(input["warnings"] as? Int == 1)
    #expect(input["skipped"] as? Int == 1)
    let errors = try #require(j["errors"] as? [[String: Any]])
    #expect(errors.first?["line"] as? Int == 5)
    let stages = try #require(j["stages"] as? [[String: Any]])
    #expect(stages.map { $0["name"] as? String } == ["stats", "reverse"])
    #expect(stages.allSatisfy { $0["rowsIn"] as? Int == 3 && $0["rowsOut"] as? Int == 3 })
    #expect(stages.allSatisfy { $0["seconds"] is Double })
    #expect((j["peakMemoryBytes"] as? Int ?? 0) > 0)
    let output = try #require(j["output"] as? [String: Any])
    #expect(output["contacts"] as? Int == 3)
    let timings = try #require(j["timings"] as? [String: Double])
    #expect(timings["total"] != nil)
    #expect(!String(decoding: try dir.read("report.json"), as: UTF8.self).contains("Secret"))
  }

  @Test func statsColumnsReachNDJSON() throws {
    let r = try CLI.run(["process", example, "-o", "-", "--to", "ndjson", "--stats", "-q"])
    #expect(r.status == 0)
    #expect(r.out.contains("stats.phoneCount"))
  }

  /// A vCard output of `process --dedupe` builds none of dedupe's derived
  /// columns (source uids, reason, merged count), which no vCard carries;
  /// the contacts are those of the NDJSON output, which has them all,
  /// converted to vCard (the oracle: the NDJSON run's merge, with the
  /// derived columns, then the vCard writer that ignores them).
  @Test func dedupeToVCardSkipsOnlyTheDerivedColumns() throws {
    let dir = try TempDir()
    let book = dir.path("book.vcf")
    let g = try CLI.run(["generate", "--contacts", "3000", "--seed", "4", "--dup-rate", "0.3", "-o", book, "-q"])
    #expect(g.status == 0)
    let steps = ["--format-phones", "e164", "--dedupe", "--sort", "family", "-q"]
    // (A vCard output also writes the E.164 numbers into the values, which
    // NDJSON leaves as typed: that stage is switched off here.)
    let direct = try CLI.run(["process", book, "-o", dir.path("direct.vcf"), "--disable", "phone-values"] + steps)
    let ndjson = try CLI.run(["process", book, "-o", dir.path("full.ndjson")] + steps)
    #expect(direct.status == 0 && ndjson.status == 0, "\(direct.stderr) \(ndjson.stderr)")
    let full = try dir.read("full.ndjson")
    let withSources = String(decoding: full, as: UTF8.self).split(separator: "\n").filter { $0.contains("\"dedupe.sourceUIDs\"") }
    #expect(withSources.count > 100, "the NDJSON output carries the derived columns")
    let c = try CLI.run(["convert", dir.path("full.ndjson"), "-o", dir.path("via.vcf"), "-q"])
    #expect(c.status == 0)
    let directCards = try dir.read("direct.vcf")
    #expect(countOccurrences(of: "BEGIN:VCARD", in: directCards) < 3000, "nothing was merged")
    #expect(directCards == (try dir.read("via.vcf")))
  }
}
