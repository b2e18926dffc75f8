import Foundation
import Testing

@Suite("ohana generate")
struct GenerateTests {
  func generate(_ dir: TempDir, _ name: String, _ args: [String]) throws -> Data {
    let r = try CLI.run(["generate", "-o", dir.path(name), "-q"] + args)
    #expect(r.status == 0, "\(r.stderr)")
    return try dir.read(name)
  }

  @Test func sameSeedSameBytesDifferentSeedDifferentBytes() throws {
    let dir = try TempDir()
    let a = try generate(dir, "a.vcf", ["--contacts", "200", "--seed", "5", "--dup-rate", "0.2"])
    let b = try generate(dir, "b.vcf", ["--contacts", "200", "--seed", "5", "--dup-rate", "0.2"])
    let c = try generate(dir, "c.vcf", ["--contacts", "200", "--seed", "6", "--dup-rate", "0.2"])
    #expect(!a.isEmpty)
    #expect(a == b)
    #expect(a != c)
  }

  @Test func truthCoversEveryUID() throws {
    let dir = try TempDir()
    let vcf = try generate(dir, "g.vcf", ["--contacts", "300", "--seed", "9", "--dup-rate", "0.3", "--truth", dir.path("t.csv")])
    let truth = try dir.read("t.csv").lines
    #expect(truth.first == "uid,cluster_id")
    let rows = truth.dropFirst().map { $0.split(separator: ",") }
    #expect(rows.allSatisfy { $0.count == 2 && Int($0[1]) != nil })
    let uids = vcardUIDs(vcf)
    #expect(uids.count == 300)
    #expect(Set(uids).count == 300)
    #expect(rows.map { String($0[0]) } == uids)
  }

  @Test func dupRateIsRoughlyHonouredAndDuplicatesAreShuffled() throws {
    let dir = try TempDir()
    _ = try generate(dir, "g.vcf", ["--contacts", "3000", "--seed", "3", "--dup-rate", "0.25", "--truth", dir.path("t.csv")])
    let clusters = try dir.read("t.csv").lines.dropFirst().map { String($0.split(separator: ",")[1]) }
    var sizes: [String: Int] = [:]
    for c in clusters { sizes[c, default: 0] += 1 }
    let share = Double(sizes.values.filter { $0 > 1 }.count) / Double(sizes.count)
    #expect(share > 0.2 && share < 0.3, "share of people with duplicates: \(share)")
    #expect(sizes.values.allSatisfy { $0 <= 4 })
    let adjacent = zip(clusters, clusters.dropFirst()).filter { $0 == $1 }.count
    #expect(adjacent < 20, "adjacent duplicates: \(adjacent)")
  }

  /// Distinct people who share a household phone: dedupe must not merge them.
  @Test func hardNegativesShareAPhoneAcrossClusters() throws {
    let dir = try TempDir()
    let vcf = try generate(dir, "g.vcf", ["--contacts", "1500", "--seed", "21", "--version", "3.0", "--truth", dir.path("t.csv")])
    var clusterOf: [String: String] = [:]
    for row in try dir.read("t.csv").lines.dropFirst() {
      let parts = row.split(separator: ",")
      clusterOf[String(parts[0])] = String(parts[1])
    }
    var clustersByPhone: [String: Set<String>] = [:]
    for card in String(decoding: vcf, as: UTF8.self).components(separatedBy: "BEGIN:VCARD").dropFirst() {
      let lines = card.components(separatedBy: "\r\n")
      guard let uid = lines.first(where: { $0.hasPrefix("UID:") })?.dropFirst(4),
        let cluster = clusterOf[String(uid)]
      else { continue }
      for line in lines where line.contains("TEL") && line.contains("HOME") {
        let digits = String(line.split(separator: ":").last?.filter(\.isNumber).suffix(8) ?? "")
        clustersByPhone[digits, default: []].insert(cluster)
      }
    }
    #expect(clustersByPhone.values.filter { $0.count > 1 }.count >= 10)
  }

  @Test(arguments: ["2.1", "3.0", "4.0"])
  func versionAsAsked(_ version: String) throws {
    let dir = try TempDir()
    let vcf = try generate(dir, "g.vcf", ["--contacts", "60", "--version", version])
    #expect(countOccurrences(of: "VERSION:" + version, in: vcf) == 60)
    let r = try CLI.run(["stats", dir.path("g.vcf"), "-q"])
    let j = try CLI.json(r.stdout)
    #expect(j["contacts"] as? Int == 60)
    #expect(j["skipped"] as? Int == 0)
  }

  @Test func mixedUsesEveryVersionAndQuotedPrintableIn21() throws {
    let dir = try TempDir()
    let vcf = try generate(dir, "g.vcf", ["--contacts", "300", "--version", "mixed", "--seed", "11"])
    for v in ["2.1", "3.0", "4.0"] { #expect(countOccurrences(of: "VERSION:" + v, in: vcf) > 30) }
    #expect(String(decoding: vcf, as: UTF8.self).contains("CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:"))
  }

  @Test func standardOutput() throws {
    let r = try CLI.run(["generate", "--contacts", "10", "-o", "-", "-q"])
    #expect(r.status == 0)
    #expect(countOccurrences(of: "BEGIN:VCARD", in: r.stdout) == 10)
    #expect(r.stderr.isEmpty)
  }

  @Test func badDupRate() throws {
    let r = try CLI.run(["generate", "--contacts", "10", "--dup-rate", "1.5", "-o", "-"])
    #expect(r.status == 64)
  }

  /// The committed samples are exactly what the README's commands produce.
  @Test func committedSamplesAreReproducible() throws {
    let dir = try TempDir()
    let vcf = try generate(dir, "s.vcf", [
      "--contacts", "1000", "--seed", "2026", "--version", "mixed", "--dup-rate", "0.2",
      "--truth", dir.path("t.csv"),
    ])
    #expect(vcf == (try Data(contentsOf: CLI.datasets.appendingPathComponent("sample-1000.vcf"))))
    #expect(try dir.read("t.csv") == (try Data(contentsOf: CLI.datasets.appendingPathComponent("sample-1000-truth.csv"))))
    let example = try generate(dir, "e.vcf", ["--preset", "ohana-example"])
    #expect(example == (try Data(contentsOf: CLI.datasets.appendingPathComponent("ohana-example.vcf"))))
  }
}
