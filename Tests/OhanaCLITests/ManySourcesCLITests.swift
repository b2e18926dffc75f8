import Foundation
import Testing

/// `ohana` verbs over several inputs of mixed formats: the real-export
/// samples of `datasets/exports/` deduplicated across their sources. The
/// oracle is the samples' people, listed here by hand: who is in which
/// export (README of datasets/exports).
@Suite struct ManySourcesCLITests {
  static let exports = CLI.datasets.appendingPathComponent("exports")
  static func export(_ name: String) -> String { exports.appendingPathComponent(name).path }

  /// Each person of the samples with the exports holding them.
  static let people: [String: Set<String>] = [
    "Jasmine Okafor": ["google", "outlook", "apple"],
    "Tom O'Brien": ["google", "outlook", "apple"],
    "Priya Raman": ["google", "android"],
    "María José García": ["google", "outlook"],
    "Ana Souza": ["google"],
    "Jürgen Müller": ["outlook-de", "android"],
    "Emma Schulz": ["outlook-de"],
    "渡辺 健二": ["apple"],
  ]

  @Test func dedupeAcrossFiveExports() throws {
    let dir = try TempDir()
    let r = try CLI.run(
      [
        "dedupe", Self.export("google.csv"), Self.export("outlook.csv"), Self.export("outlook-de.csv"),
        Self.export("apple.vcf"), Self.export("android.vcf"),
        "--source", "google=" + Self.export("google.csv"), "--source", "outlook=" + Self.export("outlook.csv"),
        "--source", "outlook-de=" + Self.export("outlook-de.csv"), "--source", "apple=" + Self.export("apple.vcf"),
        "--source", "android=" + Self.export("android.vcf"), "-o", dir.path("merged.ndjson"),
        "--explain", dir.path("explain.ndjson"),
      ])
    #expect(r.status == 0, "\(r.stderr)")
    // Per-source counts on standard error.
    for line in ["google: 5 contacts", "outlook: 3 contacts", "apple: 3 contacts", "android: 2 contacts"] {
      #expect(r.stderr.contains(line), "\(line) in \(r.stderr)")
    }
    #expect(r.stderr.contains("outlook-de: 2 contacts; undeclared 8-bit text read as windows-1252"))
    #expect(r.stderr.contains("deduped 15 contacts into 8"))
    var seen: [String: Set<String>] = [:]
    for line in try dir.read("merged.ndjson").lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let name = try #require(object["fullName"] as? String)
      let properties = object["properties"] as? [String: Any] ?? [:]
      let sources = try #require(properties["dedupe.sources"] as? String, "\(name) has its sources")
      seen[name] = Set(sources.split(separator: ",").map(String.init))
      if let reason = properties["dedupe.reason"] as? String {
        #expect(reason.hasSuffix("; sources=" + sources), "\(reason)")
      }
      // Each field says which export it came from, one of the person's.
      for case let field as [String: Any] in object["fields"] as? [Any] ?? [] {
        let from = (field["properties"] as? [String: Any])?["source"] as? String
        #expect(from.map { seen[name]?.contains($0) ?? false } == true, "\(name): a field from \(from ?? "nowhere")")
      }
    }
    #expect(seen == Self.people)
    // The evidence says where both contacts of each accepted pair came from.
    let pairs = try dir.read("explain.ndjson").lines
    #expect(pairs.count == 9)
    for line in pairs {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let sources = try #require(object["sources"] as? [String], "\(line)")
      #expect(sources.count == 2 && Set(sources).isSubset(of: ["google", "outlook", "outlook-de", "apple", "android"]))
    }
  }

  /// Each value of a merged card names the export it came from
  /// (`--value-sources`, the parameter `X-OHANA-SOURCE="SOURCE:UID"`); the
  /// NDJSON output names it always, as each value's `origin`. The oracle:
  /// the people's exports above, and each field's own source.
  @Test func eachMergedValueNamesItsSource() throws {
    let dir = try TempDir()
    let names = ["google.csv", "outlook.csv", "outlook-de.csv", "apple.vcf", "android.vcf"]
    var args = ["dedupe"] + names.map(Self.export)
    for n in names { args += ["--source", String(n.split(separator: ".")[0]) + "=" + Self.export(n)] }
    let r = try CLI.run(args + ["-o", dir.path("merged.vcf"), "--value-sources"])
    #expect(r.status == 0, "\(r.stderr)")
    // The cards, unfolded (RFC 6350 §3.2), by a reader of the test's own.
    let text = String(decoding: try dir.read("merged.vcf"), as: UTF8.self)
      .replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
    var person = "", values = 0, named = 0
    for line in text.components(separatedBy: "\r\n") {
      if line.hasPrefix("FN:") { person = String(line.dropFirst(3)) }
      guard ["TEL", "EMAIL", "ADR"].contains(where: { line.hasPrefix($0 + ";") || line.hasPrefix($0 + ":") }) else { continue }
      values += 1
      let exports = try #require(Self.people[person], "\(person) is one of the samples' people")
      guard let at = line.range(of: ";X-OHANA-SOURCE=\"") else {
        #expect(exports.count == 1, "\(person) is merged: \(line)")
        continue
      }
      let origin = line[at.upperBound...].prefix { $0 != "\"" }
      let source = String(origin.prefix { $0 != ":" })
      #expect(exports.count > 1 && exports.contains(source), "\(person): \(line)")
      named += 1
    }
    #expect(values >= 15 && named >= 10, "\(values) values, \(named) with their source")
    // NDJSON: each field's origin starts with its own source.
    let n = try CLI.run(args + ["-o", dir.path("merged.ndjson")])
    #expect(n.status == 0, "\(n.stderr)")
    var origins = 0
    for line in try dir.read("merged.ndjson").lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      for case let field as [String: Any] in object["fields"] as? [Any] ?? [] {
        let p = field["properties"] as? [String: Any] ?? [:]
        guard let origin = p["origin"] as? String else { continue }
        #expect(origin.hasPrefix((p["source"] as? String ?? "?") + ":"), "\(origin)")
        origins += 1
      }
    }
    #expect(origins > 10)
    // A CSV output has no place for them: refused, nothing written.
    let csv = try CLI.run(args + ["-o", dir.path("merged.csv"), "--value-sources"])
    #expect(csv.status == 64 && csv.stderr.contains("--value-sources"))
    #expect(!FileManager.default.fileExists(atPath: dir.path("merged.csv")))
    let store = try CLI.run(args + ["-o", dir.path("m2.vcf"), "--store", dir.path("s.sqlite"), "--value-sources"])
    #expect(store.status == 64 && store.stderr.contains("--value-sources"))
    #expect(!FileManager.default.fileExists(atPath: dir.path("s.sqlite")))
  }

  /// A directory and a glob as inputs; the CSV output carries a source column.
  @Test func directoryGlobAndCSVSource() throws {
    let dir = try TempDir()
    let glob = Self.exports.path + "/*.vcf"
    let r = try CLI.run(["convert", glob, "-o", dir.path("cards.csv")])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = Self.csvRecords(String(decoding: try dir.read("cards.csv"), as: UTF8.self))
    let header = rows.first ?? []
    let column = try #require(header.firstIndex(of: "source"))
    let sources = rows.dropFirst().map { $0.count > column ? $0[column] : "" }
    #expect(sources.sorted() == (Array(repeating: Self.export("android.vcf"), count: 2) + Array(repeating: Self.export("apple.vcf"), count: 3)).sorted())
    let all = try CLI.run(["stats", Self.exports.path, "--report", dir.path("report.json")])
    #expect(all.status == 0, "\(all.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: dir.read("report.json")) as? [String: Any])
    let input = try #require(report["input"] as? [String: Any])
    let perSource = try #require(input["sources"] as? [[String: Any]])
    #expect(perSource.compactMap { $0["contacts"] as? Int } == [2, 3, 5, 2, 3], "android, apple, google, outlook-de, outlook in name order")
  }

  /// RFC 4180 records (quoted cells may hold commas, quotes, line breaks):
  /// a reference reader of the test's own, not OhanaIO's.
  static func csvRecords(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var cell = ""
    var quoted = false
    var chars = Array(text)[...]
    while let c = chars.popFirst() {
      if quoted {
        if c == "\"" {
          if chars.first == "\"" {
            cell.append("\"")
            chars.removeFirst()
          } else {
            quoted = false
          }
        } else {
          cell.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        record.append(cell)
        cell = ""
      } else if c == "\r\n" || c == "\n" {
        record.append(cell)
        records.append(record)
        record = []
        cell = ""
      } else {
        cell.append(c)
      }
    }
    if !cell.isEmpty || !record.isEmpty { records.append(record + [cell]) }
    return records
  }

  /// A directory holding a link back to itself is walked once.
  @Test func directoryLoopIsWalkedOnce() throws {
    let dir = try TempDir()
    try dir.write("a.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD\r\n")
    try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir.path("sub/loop"), withDestinationPath: dir.url.path)
    let r = try CLI.run(["stats", dir.url.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.out.contains("\"contacts\" : 1"), "\(r.out)")
  }

  @Test func badInputsAreRefused() throws {
    let noMatch = try CLI.run(["stats", Self.exports.path + "/*.xyz"])
    #expect(noMatch.status != 0 && noMatch.stderr.contains("no file matches"))
    let unknown = try CLI.run(["stats", Self.export("apple.vcf"), "--source", "x=" + Self.export("google.csv")])
    #expect(unknown.status != 0 && unknown.stderr.contains("not one of the inputs"))
    let missing = try CLI.run(["stats", Self.export("apple.vcf"), Self.export("missing.vcf")])
    #expect(missing.status == 66, "\(missing.stderr)")
    let stdinAndFile = try CLI.run(["stats", "-", Self.export("apple.vcf")])
    #expect(stdinAndFile.status != 0)
  }
}
