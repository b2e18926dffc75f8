import Foundation
import Testing

@Suite("ohana process: sort, phones; ohana phone; --version")
struct PipelineFlagsTests {
  let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path

  func rows(_ args: [String]) throws -> [[String: Any]] {
    let r = try CLI.run(["process", example, "-o", "-", "--to", "ndjson", "-q"] + args)
    #expect(r.status == 0, "\(r.stderr)")
    return try r.stdout.lines.map { try CLI.json(Data($0.utf8)) }
  }

  @Test func ohanaExampleSortedByFamilyThenGiven() throws {
    let kept = try rows(["--require", "givenName", "--require", "familyName", "--require", "photo", "--sort", "family", "--locale", "en"])
    let names = kept.map { "\($0["givenName"] as? String ?? "") \($0["familyName"] as? String ?? "")" }
    #expect(names == ["Gomez Addams", "Morticia Addams", "Wednesday Addams", "Homer Simpson", "Marge Simpson"])
    let desc = try rows(["--require", "givenName", "--require", "familyName", "--require", "photo", "--sort", "family", "--descending"])
    #expect(desc.compactMap { $0["givenName"] as? String } == ["Marge", "Homer", "Wednesday", "Morticia", "Gomez"])
  }

  @Test func formatPhonesAddsDerivedColumns() throws {
    let out = try rows(["--require", "phone", "--format-phones", "e164,national", "--region", "US"])
    let phones = out.flatMap { ($0["fields"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "phone" } }
    #expect(!phones.isEmpty)
    let props = phones.compactMap { $0["properties"] as? [String: Any] }
    #expect(props.contains { ($0["phone.e164"] as? String)?.hasPrefix("+1") == true })
    #expect(props.allSatisfy { $0["phone.international"] == nil })  // only the formats asked for
    let bad = try CLI.run(["process", example, "-o", "-", "--format-phones", "e165"])
    #expect(bad.status != 0)
    let badRegion = try CLI.run(["process", example, "-o", "-", "--format-phones", "e164", "--region", "XX"])
    #expect(badRegion.status != 0)
  }

  @Test func phoneCommandWritesNineColumns() throws {
    let input = "(201) 555-0123\n+44 20 7946 0958\tUS\n030 123456\tDE\nnot a number\n"
    let r = try CLI.run(["phone"], stdin: Data(input.utf8))
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(lines.count == 4)
    #expect(lines.allSatisfy { $0.count == 9 })
    #expect(lines[0][2] == "1" && lines[0][3] == "+12015550123")
    #expect(lines[1][3] == "+442079460958" && lines[1][4] == "+44 20 7946 0958")
    #expect(lines[2][1] == "DE" && lines[2][3] == "+4930123456")
    #expect(lines[3][2] == "0" && lines[3][3] == "")
  }

  @Test func versionNamesICUAndMetadata() throws {
    let r = try CLI.run(["--version"])
    #expect(r.status == 0)
    #expect(r.out.contains("ICU "))
    #expect(r.out.contains("libphonenumber metadata 9.0.43"))
  }

  /// The glibc line against two outside readings: the running glibc as
  /// `getconf GNU_LIBC_VERSION` says, and the floor no lower than the
  /// newest GLIBC_ symbol version the binary needs (binutils' readelf).
  @Test func versionNamesTheGlibcFloorAndTheRunningOne() throws {
    let r = try CLI.run(["--version"])
    #expect(r.status == 0)
    guard let binary = CLI.binary else { return }
    let line = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("glibc ") })
    let parts = line.split(separator: " ")  // glibc 2.28 or later (running 2.36)
    try #require(parts.count == 6, "\(line)")
    func version(_ s: some StringProtocol) -> [Int] { s.split(separator: ".").compactMap { Int($0) } }
    let floor = version(parts[1])
    let running = version(parts[5].dropLast())
    let getconf = try shell(["getconf", "GNU_LIBC_VERSION"]).split(whereSeparator: \.isWhitespace).last.map(version) ?? []
    #expect(running == getconf, "\(line) against getconf's \(getconf)")
    let symbols = try shell(["readelf", "-W", "--dyn-syms", binary.path])
    let needed = symbols.split(separator: "\n").compactMap { row -> [Int]? in
      guard let at = row.range(of: "@GLIBC_") else { return nil }
      return version(row[at.upperBound...].prefix { $0 == "." || $0.isNumber })
    }.max { $0.lexicographicallyPrecedes($1) } ?? []
    #expect(!needed.isEmpty, "readelf found no GLIBC_ version in \(binary.path)")
    #expect(!floor.lexicographicallyPrecedes(needed), "floor \(floor) below the \(needed) the binary needs")
    #expect(!running.lexicographicallyPrecedes(floor), "running \(running) below the floor \(floor)")
  }

  private func shell(_ command: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = command
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    try #require(p.terminationStatus == 0, "\(command.joined(separator: " ")) failed")
    return String(decoding: data, as: UTF8.self)
  }
}

@Suite("ohana process --dedupe")
struct ProcessDedupeTests {
  @Test func mergesTheSampleCloseToItsTruth() throws {
    let sample = CLI.datasets.appendingPathComponent("sample-1000.vcf").path
    let truth = try String(contentsOf: CLI.datasets.appendingPathComponent("sample-1000-truth.csv"), encoding: .utf8)
    var sizes: [Substring: Int] = [:]
    for line in truth.split(separator: "\n").dropFirst() { if let c = line.split(separator: ",").last { sizes[c, default: 0] += 1 } }
    let people = sizes.count
    let duplicated = sizes.values.filter { $0 > 1 }.count
    let r = try CLI.run(["process", sample, "-o", "-", "--to", "ndjson", "-q", "--dedupe", "--report", "/dev/null"])
    #expect(r.status == 0, "\(r.stderr)")
    let merged = r.stdout.lines.count
    #expect(people == 718)
    #expect(abs(merged - people) <= 15, "merged \(merged) contacts for \(people) people")
    let withProvenance = try r.stdout.lines.filter { line in
      let props = try CLI.json(Data(line.utf8))["properties"] as? [String: Any]
      return (props?["dedupe.sourceUIDs"] as? String)?.contains(",") == true
    }
    #expect(abs(withProvenance.count - duplicated) <= duplicated / 10, "\(withProvenance.count) merged clusters, truth has \(duplicated)")
  }
}
