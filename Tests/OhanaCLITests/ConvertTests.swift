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

@Suite("ohana --charset")
struct CharsetOptionTests {
  static let hebrew = CLI.packageRoot.appendingPathComponent("../shared/corpus/vcard/folkerkinzel-vcards/Hebrew.vcf")
    .standardized.path

  @Test func declaredCharsetDecodesHebrew() throws {
    guard FileManager.default.fileExists(atPath: Self.hebrew) else {
      print("!!! SKIPPED: \(Self.hebrew) is missing (the shared vCard corpus); --charset not tested on it !!!")
      return
    }
    let r = try CLI.run(["convert", Self.hebrew, "--charset", "windows-1255", "-o", "-", "--to", "ndjson"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.out.contains("\"fullName\":\"אפרים קישון\""), "\(r.out)")
    #expect(r.stderr.contains("read as windows-1255 (given)"), "\(r.stderr)")
    // Every reading verb takes it.
    let stats = try CLI.run(["stats", Self.hebrew, "--charset", "windows-1255", "-q"])
    #expect(stats.status == 0, "\(stats.stderr)")
    let charset = try CLI.json(stats.stdout)["charset"] as? [String: Any]
    #expect(charset?["name"] as? String == "windows-1255")
    #expect(charset?["source"] as? String == "declared")
    let dir = try TempDir()
    for verb in [["process"], ["dedupe"]] {
      let p = try CLI.run(verb + [Self.hebrew, "--charset", "windows-1255", "-o", dir.path("o.ndjson"), "-q"])
      #expect(p.status == 0, "\(verb): \(p.stderr)")
      let text = try String(contentsOfFile: dir.path("o.ndjson"), encoding: .utf8)
      #expect(text.contains("אפרים קישון"), "\(verb): \(text)")
    }
  }

  @Test func unknownCharsetIsAUsageError() throws {
    let r = try CLI.run(["convert", "x.vcf", "--charset", "no-such-charset", "-o", "-"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("unknown charset 'no-such-charset'"), "\(r.stderr)")
  }

  @Test func detectionReadsARussianFileAndSaysSo() throws {
    // 50 cards of Windows-1251 bytes without CHARSET, written by hand here
    // (Cyrillic letters А-Я, а-я are 0xC0-0xFF in Windows-1251).
    func cp1251(_ s: String) -> [UInt8] {
      s.unicodeScalars.map { u in
        switch u.value {
        case 0x410...0x44F: UInt8(u.value - 0x410 + 0xC0)
        case 0x451: 0xB8  // ё
        default: UInt8(truncatingIfNeeded: u.value)
        }
      }
    }
    let names = [("Иван", "Петров"), ("Ольга", "Смирнова"), ("Сергей", "Кузнецов"), ("Анна", "Соколова"), ("Пётр", "Лебедев")]
    var bytes: [UInt8] = []
    for i in 0..<50 {
      let (g, f) = names[i % names.count]
      bytes += Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN:".utf8) + cp1251("\(f);\(g)") + Array(";;;\r\nFN:".utf8)
        + cp1251("\(g) \(f)") + Array("\r\nADR:;;".utf8) + cp1251("улица Ленина \(i);Москва")
        + Array(";;;\r\nEND:VCARD\r\n".utf8)
    }
    let dir = try TempDir()
    let path = dir.path("ru.vcf")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let r = try CLI.run(["convert", path, "-o", "-", "--to", "ndjson"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.out.contains("\"fullName\":\"Иван Петров\""), "\(r.out.prefix(300))")
    #expect(r.out.contains("\"fullName\":\"Пётр Лебедев\""))
    #expect(r.stderr.contains("read as windows-1251 (detected, confidence"), "\(r.stderr)")
    // Standard input from a pipe cannot be read twice: the fallback, and a hint.
    let piped = try CLI.run(["convert", "-", "--from", "vcard", "-o", "-", "--to", "ndjson"], stdin: Data(bytes))
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(
      piped.stderr.contains("use --charset") || piped.stderr.contains("(detected"), "\(piped.stderr)")
  }
}
