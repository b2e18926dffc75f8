import Foundation
import OhanaStore
import _OhanaTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ohana dedupe --store`: the walk-through of the README, and runs killed
/// part-way (SIGKILL, no chance to clean up) leave the store as it was.
@Suite struct StoreCLITests {
  /// The generated book split in two days: cards in order, `first` of
  /// them on day 1.
  static func days(_ dir: TempDir, contacts: Int, first: Int, seed: Int = 5) throws {
    let g = try CLI.run(
      ["generate", "--contacts", "\(contacts)", "--seed", "\(seed)", "--dup-rate", "0.2", "-o", dir.path("all.vcf"),
       "--truth", dir.path("truth.csv"), "--quiet"])
    #expect(g.status == 0, "\(g.stderr)")
    let text = String(decoding: try dir.read("all.vcf"), as: UTF8.self)
    var cards: [Substring] = []
    var rest = text[...]
    while let end = rest.range(of: "END:VCARD\r\n") {
      cards.append(rest[..<end.upperBound])
      rest = rest[end.upperBound...]
    }
    #expect(cards.count == contacts)
    try dir.write("day1.vcf", cards.prefix(first).joined())
    try dir.write("day2.vcf", cards.dropFirst(first).joined())
  }

  /// Everything a run can change, in a comparable form.
  static func digest(_ path: String) throws -> String {
    let store = try EntityStore.open(at: path)
    #expect(try store.integrityCheck() == "ok")
    var rows: [String] = []
    try store.forEachAssignment { uid, c in rows.append("\(uid)=\(c)") }
    var merged = 0
    try store.forEachMergedCard { id, card in merged = merged &* 31 &+ Int(id) &+ card.count }
    let counts = try store.counts()
    return "\(counts.contacts) \(counts.clusters) \(merged) " + rows.joined(separator: ",")
  }

  @Test func dayOneThenDayTwo() throws {
    let dir = try TempDir()
    try Self.days(dir, contacts: 600, first: 500)
    let s = dir.path("s.sqlite")
    let r1 = try CLI.run(["dedupe", dir.path("day1.vcf"), "--store", s, "-o", dir.path("m1.vcf"), "--changes", dir.path("c1.ndjson")])
    #expect(r1.status == 0, "\(r1.stderr)")
    #expect(r1.stderr.contains("run 1: 500 added"))
    let r2 = try CLI.run(
      ["dedupe", dir.path("day2.vcf"), "--store", s, "-o", dir.path("m2.vcf"), "--changed-only", "--clusters",
       dir.path("c2.csv"), "--changes", dir.path("c2.ndjson")])
    #expect(r2.status == 0, "\(r2.stderr)")
    #expect(r2.stderr.contains("run 2: 100 added"))
    let changes = try dir.read("c2.ndjson").lines
    #expect(changes.filter { $0.contains("\"change\":\"added\"") }.count == 100)
    for line in changes { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
    // Every contact the changes file places is in the clusters file with that id.
    let csv = try dir.read("c2.csv").lines.dropFirst().map { $0.split(separator: ",") }
    let clusterOf = Dictionary(csv.map { (String($0[0]), String($0[1])) }, uniquingKeysWith: { a, _ in a })
    for line in changes where line.contains("\"change\":\"added\"") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let uid = try #require(object["uid"] as? String)
      #expect(clusterOf[uid] == "\(object["cluster"] as? Int ?? -1)")
    }
    // The store read by another SQLite reader (the sqlite3 shell): the
    // schema of the README, and the counts the run printed.
    let sql = try Self.sqlite3(
      s, "select count(*) from contacts; select count(*) from clusters; "
        + "select count(*) from clusters where size > 1 and merged is not null; "
        + "select count(*) from contacts c left join clusters cl on cl.id = c.cluster where cl.id is null;")
    let numbers = sql.split(separator: "\n").map { String($0) }
    #expect(numbers.count == 4)
    if numbers.count == 4 {
      #expect(numbers[0] == "600")
      #expect(r2.stderr.contains("600 contacts in \(numbers[1]) clusters"))
      #expect(Int(numbers[2]) ?? 0 > 0, "clusters of two or more keep their merged contact")
      #expect(numbers[3] == "0", "every contact's cluster exists")
    }
    // The settings are fixed when the store is made.
    let r3 = try CLI.run(["dedupe", dir.path("day2.vcf"), "--store", s, "-o", dir.path("m3.vcf"), "--threshold", "5"])
    #expect(r3.status != 0)
    #expect(r3.stderr.contains("keeps the dedupe settings"))
  }

  /// A later run killed at any point: the store is as before the run
  /// (SQLite rolls the hot journal back on the next open).
  /// The merged contacts a store writes are those of a full `ohana
  /// dedupe` (another path: no store), on the first run and when a later
  /// run writes the whole store, clusters of one included (the store keeps
  /// no merged text for them; their contact goes through the merge).
  @Test func storeWritesWhatAFullRunWrites() throws {
    let dir = try TempDir()
    try Self.days(dir, contacts: 800, first: 800, seed: 8)
    let s = dir.path("s.sqlite")
    let full = try CLI.run(["dedupe", dir.path("day1.vcf"), "-o", dir.path("full.vcf")])
    #expect(full.status == 0, "\(full.stderr)")
    let first = try CLI.run(["dedupe", dir.path("day1.vcf"), "--store", s, "-o", dir.path("first.vcf")])
    #expect(first.status == 0, "\(first.stderr)")
    // The same export again: nothing changes, the whole store is written.
    let again = try CLI.run(["dedupe", dir.path("day1.vcf"), "--store", s, "-o", dir.path("again.vcf")])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("800 unchanged"))
    let expected = try dir.read("full.vcf")
    #expect(expected.count > 1000)
    #expect(try dir.read("first.vcf") == expected, "the first store run writes what a full run writes")
    #expect(try dir.read("again.vcf") == expected, "the whole store, written by a later run, is what a full run writes")
  }

  @Test func killedRunLeavesTheStoreAsItWas() throws {
    let dir = try TempDir()
    try Self.days(dir, contacts: 6000, first: 4000)
    let pristine = dir.path("pristine.sqlite")
    let first = try CLI.run(["dedupe", dir.path("day1.vcf"), "--store", pristine, "-o", dir.path("m1.vcf"), "--quiet"])
    #expect(first.status == 0, "\(first.stderr)")
    let before = try Self.digest(pristine)
    // A whole run, timed, gives the state after.
    let whole = dir.path("whole.sqlite")
    try FileManager.default.copyItem(atPath: pristine, toPath: whole)
    let t0 = Date()
    let done = try CLI.run(["dedupe", dir.path("day2.vcf"), "--store", whole, "-o", dir.path("m2.vcf"), "--quiet"])
    let seconds = Date().timeIntervalSince(t0)
    #expect(done.status == 0, "\(done.stderr)")
    let after = try Self.digest(whole)
    #expect(before != after)

    var killedBefore = 0
    for fraction in [0.15, 0.3, 0.45, 0.6, 0.75, 0.9] {
      let s = dir.path("s.sqlite")
      try? FileManager.default.removeItem(atPath: s)
      try? FileManager.default.removeItem(atPath: s + "-journal")
      try FileManager.default.copyItem(atPath: pristine, toPath: s)
      let status = try Self.runKilled(
        ["dedupe", dir.path("day2.vcf"), "--store", s, "-o", dir.path("m-k.vcf"), "--quiet"], after: seconds * fraction)
      let now = try Self.digest(s)
      #expect(now == before || now == after, "killed at \(fraction) of the run: the store is neither before nor after")
      if now == before && status == SIGKILL { killedBefore += 1 }
    }
    print("store crash test: \(killedBefore) of 6 kills landed before the commit (run takes \(seconds) s)")
    #expect(killedBefore >= 2, "the kills should land inside the run")

    // The first run killed: no store at the path.
    let fresh = dir.path("fresh.sqlite")
    _ = try Self.runKilled(["dedupe", dir.path("day1.vcf"), "--store", fresh, "-o", dir.path("m-f.vcf"), "--quiet"], after: 0.5)
    if !FileManager.default.fileExists(atPath: fresh) {
      #expect(!FileManager.default.fileExists(atPath: fresh))
    } else {
      // The run finished before the kill: then it is a whole store.
      #expect(try EntityStore.open(at: fresh).counts().contacts == 4000)
    }
  }

  /// Output of the sqlite3 shell on `path` (read-only).
  static func sqlite3(_ path: String, _ sql: String) throws -> String {
    guard let r = try SQLiteShell.run(path, sql, readOnly: true) else {
      Issue.record("the sqlite3 shell is not installed (apt-get install sqlite3): the store was not read by another reader")
      return ""
    }
    #expect(r.status == 0)
    return r.output
  }


  /// Runs `ohana args` and SIGKILLs it after `seconds`; returns the signal
  /// that ended it (0 when it exited by itself first).
  static func runKilled(_ args: [String], after seconds: Double) throws -> Int32 {
    let r = try CLI.runSignalled(args, signal: SIGKILL, after: seconds)
    return r.reason == .uncaughtSignal ? r.status : 0
  }

}
