import Foundation
import Testing

/// `ohana dedupe --decisions` (issue 34): a reviewer's file is obeyed, and
/// its bad lines are reported with their line numbers, the rest applied.
@Suite struct DecisionsCLITests {
  let sample = CLI.datasets.appendingPathComponent("sample-1000.vcf").path

  func clusters(_ path: URL) throws -> [String: String] {
    let text = try String(contentsOf: path, encoding: .utf8)
    var out: [String: String] = [:]
    for line in text.split(separator: "\n").dropFirst() {
      let parts = line.split(separator: ",", maxSplits: 1).map(String.init)
      if parts.count == 2 { out[parts[0]] = parts[1] }
    }
    return out
  }

  @Test func aMemberTakenOutStaysOutAndBadLinesAreReported() throws {
    let dir = try TempDir()
    let before = dir.url.appendingPathComponent("before.csv")
    let r0 = try CLI.run(["dedupe", sample, "-o", dir.url.appendingPathComponent("m0.vcf").path, "--clusters", before.path, "-q"])
    #expect(r0.status == 0, "\(r0.stderr)")
    let first = try clusters(before)
    var members: [String: [String]] = [:]
    for (uid, c) in first { members[c, default: []].append(uid) }
    guard let big = members.values.filter({ $0.count >= 3 }).map({ $0.sorted() }).min(by: { $0[0] < $1[0] }) else {
      Issue.record("the sample has no cluster of three or more: the test cannot run")
      return
    }
    let out = big[0], rest = Array(big.dropFirst())
    func json(_ a: [String]) -> String { "[" + a.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
    let decisions = dir.url.appendingPathComponent("decisions.ndjson")
    try Data(
      """
      {"kind": "different", "uids": \(json([out])), "from": \(json(rest)), "note": "not the same person"}
      {"kind": "same", "uids": ["no-such-uid", \(json([out]).dropFirst().dropLast())]}
      this is not JSON

      """.utf8
    ).write(to: decisions)
    let after = dir.url.appendingPathComponent("after.csv")
    let r1 = try CLI.run([
      "dedupe", sample, "-o", dir.url.appendingPathComponent("m1.vcf").path, "--clusters", after.path,
      "--decisions", decisions.path,
    ])
    #expect(r1.status == 0, "\(r1.stderr)")
    let second = try clusters(after)
    #expect(second.count == first.count)
    for uid in rest { #expect(second[uid] != second[out]) }
    // The rest of the cluster is still together, and no other contact moved.
    #expect(Set(rest.map { second[$0] }).count == 1)
    let moved = first.keys.filter { !big.contains($0) && (members[first[$0] ?? ""]?.count ?? 0) < 2 && second[$0] != first[$0] }
    #expect(moved.isEmpty)
    #expect(r1.stderr.contains("decisions.ndjson:2: names a uid that no contact has"))
    #expect(r1.stderr.contains("decisions.ndjson:3: "))
    #expect(r1.stderr.contains("decisions: 1 obeyed, 1 skipped"))
    #expect(!r1.stderr.contains("no-such-uid"), "uids are not logged")
  }

  @Test func decisionsWithAStoreAreRefusedForNow() throws {
    let dir = try TempDir()
    let r = try CLI.run([
      "dedupe", sample, "-o", dir.url.appendingPathComponent("m.vcf").path, "--store",
      dir.url.appendingPathComponent("s.sqlite").path, "--decisions", dir.url.appendingPathComponent("d.ndjson").path,
    ])
    #expect(r.status == 64)
    #expect(r.stderr.contains("--decisions is not available with --store yet"))
  }
}
