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

  /// With --store the decisions are kept: a later run given none still
  /// obeys them, --changes names the decision behind a change, and a
  /// missing decisions file is a clear error (exit 66).
  @Test func aStoreKeepsTheDecisionsForLaterRuns() throws {
    let dir = try TempDir()
    let store = dir.path("s.sqlite")
    let c0 = dir.url.appendingPathComponent("c0.csv")
    let r0 = try CLI.run(["dedupe", sample, "-o", dir.path("m0.vcf"), "--store", store, "--clusters", c0.path, "-q"])
    #expect(r0.status == 0, "\(r0.stderr)")
    let first = try clusters(c0)
    var members: [String: [String]] = [:]
    for (uid, c) in first { members[c, default: []].append(uid) }
    guard let big = members.values.filter({ $0.count >= 3 }).map({ $0.sorted() }).min(by: { $0[0] < $1[0] }) else {
      Issue.record("the sample has no cluster of three or more: the test cannot run")
      return
    }
    let out = big[0], rest = Array(big.dropFirst())
    func json(_ a: [String]) -> String { "[" + a.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
    try dir.write("d.ndjson", "{\"kind\": \"different\", \"uids\": \(json([out])), \"from\": \(json(rest))}\n")
    let c1 = dir.url.appendingPathComponent("c1.csv")
    let r1 = try CLI.run([
      "dedupe", sample, "-o", dir.path("m1.vcf"), "--store", store, "--clusters", c1.path, "--decisions", dir.path("d.ndjson"),
      "--changes", dir.path("changes.ndjson"),
    ])
    #expect(r1.status == 0, "\(r1.stderr)")
    #expect(r1.stderr.contains("decisions: 1 kept, 0 skipped"))
    let second = try clusters(c1)
    for uid in rest { #expect(second[uid] != second[out]) }
    #expect(Set(rest.map { second[$0] }).count == 1)
    let changes = try String(contentsOf: dir.url.appendingPathComponent("changes.ndjson"), encoding: .utf8)
    #expect(changes.split(separator: "\n").contains { $0.contains("\"change\":\"split\"") && $0.contains("\"decisions\":[1]") })
    // A later run with none: a copy of the contact taken out under a new
    // uid, which scores with it and with the rest; the store still keeps
    // the two sides apart (the copy joins one side).
    let text = try String(contentsOfFile: sample, encoding: .utf8)
    let card = try #require(
      text.components(separatedBy: "END:VCARD").first { $0.contains("UID:\(out)\r\n") || $0.contains("UID:\(out)\n") })
    let copy = card.replacingOccurrences(of: "UID:\(out)", with: "UID:bridge-1").trimmingCharacters(in: .whitespacesAndNewlines)
    try dir.write("bridge.vcf", copy + "\r\nEND:VCARD\r\n")
    let c2 = dir.url.appendingPathComponent("c2.csv")
    let r2 = try CLI.run([
      "dedupe", dir.path("bridge.vcf"), "-o", dir.path("m2.vcf"), "--store", store, "--clusters", c2.path,
    ])
    #expect(r2.status == 0, "\(r2.stderr)")
    let third = try clusters(c2)
    #expect(third["bridge-1"] != nil)
    for uid in rest { #expect(third[uid] != third[out]) }
    #expect(third["bridge-1"] == third[out] || third["bridge-1"] == third[rest[0]])
    #expect(r2.stderr.contains("accepted pairs refused by the kept decisions"), "\(r2.stderr)")
    #expect(!r2.stderr.contains(" 0 accepted pairs refused by the kept decisions"), "\(r2.stderr)")
    let missing = try CLI.run([
      "dedupe", sample, "-o", dir.path("m3.vcf"), "--store", store, "--decisions", dir.path("none.ndjson"),
    ])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("cannot read --decisions") && missing.stderr.contains("no such file or directory"))
  }
}
