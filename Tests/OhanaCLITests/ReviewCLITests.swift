import Foundation
import Testing

/// `ohana review` (issue 34): the page's data says what the dedupe run said
/// (its clusters file and its --explain lines, read independently here),
/// the Content-Security-Policy names the page's script and style by the
/// SHA-256 that coreutils computes, and no contact value can end the
/// element it sits in. The page's behaviour in a browser is tested by
/// python/tests/test_review_browser.py.
@Suite struct ReviewCLITests {
  struct Run {
    let dir: TempDir
    let book: String
    var clusters: String { dir.path("clusters.csv") }
    var explain: String { dir.path("explain.ndjson") }
  }

  static func book(contacts: Int = 400, seed: Int = 5) throws -> Run {
    let dir = try TempDir()
    let book = dir.path("book.vcf")
    let g = try CLI.run(["generate", "--contacts", "\(contacts)", "--seed", "\(seed)", "--dup-rate", "0.3", "-o", book, "-q"])
    try #require(g.status == 0, "\(g.stderr)")
    let run = Run(dir: dir, book: book)
    let d = try CLI.run([
      "dedupe", book, "-o", dir.path("merged.vcf"), "--clusters", run.clusters, "--explain", run.explain, "-q",
    ])
    try #require(d.status == 0, "\(d.stderr)")
    return run
  }

  /// The JSON inside `<script type="application/json" id="ohana-data">`.
  static func data(_ page: String) throws -> [String: Any] {
    let open = "<script type=\"application/json\" id=\"ohana-data\">"
    let start = try #require(page.range(of: open), "no data element")
    let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
    return try CLI.json(Data(page[start.upperBound..<end.lowerBound].utf8))
  }

  /// Every pair's weight per comparison: the page's per-pair parts, or
  /// (as the page writes them when every pair agrees) its levels looked up
  /// in `levelWeights`.
  static func parts(_ data: [String: Any]) throws -> [[Double]] {
    let pairs = try #require(data["pairs"] as? [String: Any])
    if let parts = pairs["parts"] as? [[Double]] { return parts }
    let levels = try #require(pairs["levels"] as? [[Int]])
    let table = try #require(data["levelWeights"] as? [[Double]])
    return levels.map { l in l.enumerated().map { c, level in table[c][level] } }
  }

  static func clusterFile(_ path: String) throws -> [String: String] {
    var out: [String: String] = [:]
    for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst() {
      let f = line.split(separator: ",", maxSplits: 1).map(String.init)
      if f.count == 2 { out[f[0]] = f[1] }
    }
    return out
  }

  @Test func theDataIsTheRunsClustersAndPairs() throws {
    let run = try Self.book()
    let page = run.dir.path("review.html")
    let r = try CLI.run(["review", run.book, "--clusters", run.clusters, "--explain", run.explain, "-o", page])
    #expect(r.status == 0, "\(r.stderr)")
    let data = try Self.data(try String(contentsOfFile: page, encoding: .utf8))
    #expect(data["format"] as? String == "ohana-review")
    let members = try #require(data["members"] as? [String: Any])
    let uids = try #require(members["uid"] as? [String])
    let clusters = try #require(data["clusters"] as? [String: Any])
    let ids = try #require(clusters["id"] as? [String])
    let starts = try #require(clusters["start"] as? [Int])
    let sizes = try #require(clusters["size"] as? [Int])
    // The oracle: clusters.csv's groups of two or more.
    var expected: [String: Set<String>] = [:]
    for (uid, c) in try Self.clusterFile(run.clusters) { expected[c, default: []].insert(uid) }
    expected = expected.filter { $0.value.count >= 2 }
    var seen: [String: Set<String>] = [:]
    for k in ids.indices { seen[ids[k]] = Set(uids[starts[k]..<(starts[k] + sizes[k])]) }
    #expect(seen == expected)
    #expect(ids.count == expected.count && ids.count > 10)
    // Every --explain line is a pair of the page, with its weight and parts.
    let lines = try String(contentsOfFile: run.explain, encoding: .utf8).split(separator: "\n")
    let pairs = try #require(data["pairs"] as? [String: Any])
    let a = try #require(pairs["a"] as? [Int]), b = try #require(pairs["b"] as? [Int])
    let weights = try #require(pairs["weight"] as? [Double])
    let parts = try Self.parts(data), adjust = try #require(pairs["adjust"] as? [Double])
    let levels = try #require(pairs["levels"] as? [[Int]])
    let levelNames = try #require(data["levelNames"] as? [[String]])
    let comparisons = try #require(data["comparisons"] as? [String])
    #expect(a.count == lines.count)
    var byPair: [String: Int] = [:]
    for i in a.indices { byPair[uids[a[i]] + " " + uids[b[i]]] = i }
    for line in lines {
      let e = try CLI.json(Data(line.utf8))
      let key = "\(e["a"] as? String ?? "") \(e["b"] as? String ?? "")"
      let i = try #require(byPair[key], "pair \(key) is not on the page")
      let w = try #require(e["weight"] as? Double)
      #expect(abs(weights[i] - w) < 0.005)
      #expect(abs(parts[i].reduce(0, +) + adjust[i] - w) < 0.02, "parts do not add up for \(key)")
      // The levels, by name, are --explain's; so are the parts.
      let explained = try #require(e["levels"] as? [String: String])
      let explainedParts = try #require(e["parts"] as? [String: Double])
      for (c, name) in comparisons.enumerated() {
        #expect(levelNames[c][levels[i][c]] == explained[name], "\(name) of \(key)")
        #expect(abs(parts[i][c] - (explainedParts[name] ?? .nan)) < 0.005, "\(name) of \(key)")
      }
      #expect(expected[e["cluster"] as? String ?? ""]?.contains(uids[a[i]]) == true)
    }
    #expect(r.stderr.contains("review: \(expected.count) clusters of 2 or more"))
  }

  /// A table's other columns (issue 45, item 5) are comparisons of the
  /// page like the model's own: named in `comparisons`, with each pair's
  /// level and weight as `--explain`'s `columns` and `column_parts` say,
  /// and so in a review that runs the dedupe itself.
  @Test func aTablesOtherColumnsAreComparisonsOfThePage() throws {
    let dir = try TempDir()
    let table = dir.path("people.csv")
    var csv = "id,first_name,surname,dob,birthplace\n"
    let givens = ["oliver", "amelia", "harry", "isla", "george", "freya", "jacob", "poppy"]
    let families = ["smith", "jones", "taylor", "brown", "wilson", "evans", "walker"]
    for p in 0..<200 {
      for k in 0..<3 {
        let place = k == 2 && p % 5 == 0 ? "town\((p + 3) % 30)" : "town\(p % 30)"
        csv += "p\(p)-\(k),\(givens[p % 8]),\(families[(p / 8) % 7]),19\(40 + p % 50)-0\(1 + p % 9)-1\(p % 10),\(place)\n"
      }
    }
    try csv.write(toFile: table, atomically: true, encoding: .utf8)
    let clusters = dir.path("clusters.csv"), explain = dir.path("explain.ndjson")
    let d = try CLI.run([
      "dedupe", table, "--weights", "em", "-o", dir.path("rows.csv"), "--clusters", clusters, "--explain", explain, "-q",
    ])
    try #require(d.status == 0, "\(d.stderr)")
    let lines = try String(contentsOfFile: explain, encoding: .utf8).split(separator: "\n")
    try #require(lines.count > 100)
    for (args, name) in [(["--clusters", clusters, "--explain", explain], "from --explain"), ([], "in process")] {
      let page = dir.path("review.html")
      let r = try CLI.run(["review", table] + args + ["-o", page, "-q"])
      try #require(r.status == 0, "\(r.stderr)")
      let data = try Self.data(try String(contentsOfFile: page, encoding: .utf8))
      let comparisons = try #require(data["comparisons"] as? [String])
      let c = try #require(comparisons.firstIndex(of: "birthplace"), "\(name): \(comparisons)")
      let members = try #require(data["members"] as? [String: Any])
      let uids = try #require(members["uid"] as? [String])
      let pairs = try #require(data["pairs"] as? [String: Any])
      let a = try #require(pairs["a"] as? [Int]), b = try #require(pairs["b"] as? [Int])
      let levels = try #require(pairs["levels"] as? [[Int]])
      let levelNames = try #require(data["levelNames"] as? [[String]])
      let parts = try Self.parts(data)
      var byPair: [String: Int] = [:]
      for i in a.indices { byPair[uids[a[i]] + " " + uids[b[i]]] = i }
      var different = 0
      for line in lines {
        let e = try CLI.json(Data(line.utf8))
        let key = "\(e["a"] as? String ?? "") \(e["b"] as? String ?? "")"
        let i = try #require(byPair[key], "\(name): pair \(key) is not on the page")
        let level = try #require((e["columns"] as? [String: String])?["birthplace"])
        let weight = try #require((e["column_parts"] as? [String: Double])?["birthplace"])
        #expect(levelNames[c][levels[i][c]] == level, "\(name): \(key)")
        #expect(abs(parts[i][c] - weight) < 0.005, "\(name): \(key)")
        // The oracle for the level: the two rows' own birthplaces (the
        // row ids say which person and record).
        func place(_ id: String) -> String {
          let f = id.dropFirst().split(separator: "-").compactMap { Int($0) }
          return f[1] == 2 && f[0] % 5 == 0 ? "town\((f[0] + 3) % 30)" : "town\(f[0] % 30)"
        }
        let same = place(e["a"] as? String ?? "") == place(e["b"] as? String ?? "")
        #expect(level == (same ? "same" : "different"), "\(key)")
        if !same { different += 1 }
      }
      #expect(different > 0)
    }
  }

  @Test func theStyleAndScriptAreNamedByTheirSHA256() throws {
    let run = try Self.book(contacts: 100)
    let page = run.dir.path("review.html")
    #expect(try CLI.run(["review", run.book, "--clusters", run.clusters, "-o", page, "-q"]).status == 0)
    let html = try String(contentsOfFile: page, encoding: .utf8)
    func between(_ open: String, _ close: String) throws -> String {
      let s = try #require(html.range(of: open), "no \(open)")
      let e = try #require(html.range(of: close, range: s.upperBound..<html.endIndex))
      return String(html[s.upperBound..<e.lowerBound])
    }
    let style = try between("<style>", "</style>")
    // The page's own script is its last script element.
    let scriptOpen = try #require(html.range(of: "<script>", options: .backwards))
    let scriptClose = try #require(html.range(of: "</script>", range: scriptOpen.upperBound..<html.endIndex))
    let script = String(html[scriptOpen.upperBound..<scriptClose.lowerBound])
    #expect(script.count > 1000 && style.count > 200)
    let csp = try between("http-equiv=\"Content-Security-Policy\" content=\"", "\"")
    func sha256(_ text: String) throws -> String {
      let file = run.dir.path("hash-input")
      try Data(text.utf8).write(to: URL(fileURLWithPath: file))
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
      p.arguments = [file]
      let pipe = Pipe()
      p.standardOutput = pipe
      try p.run()
      let hex = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
      p.waitUntilExit()
      var bytes: [UInt8] = []
      var i = hex.startIndex
      while i < hex.endIndex {
        let j = hex.index(i, offsetBy: 2)
        bytes.append(UInt8(hex[i..<j], radix: 16) ?? 0)
        i = j
      }
      return Data(bytes).base64EncodedString()
    }
    #expect(csp.contains("default-src 'none'"))
    #expect(csp.contains("script-src 'sha256-\(try sha256(script))'"))
    #expect(csp.contains("style-src 'sha256-\(try sha256(style))'"))
    #expect(!html.contains("http://") && !html.contains("https://"), "the page names no address")
  }

  /// A contact whose name is markup: the page holds it only as escaped
  /// JSON text, and the data gives it back exactly.
  @Test func markupInValuesStaysText() throws {
    let dir = try TempDir()
    let evil = "</script><img src=x onerror=alert(1)> & \u{2028}"
    let card = { (uid: String) in
      "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(uid)\r\nFN:Ann \(evil)\r\nN:\(evil);Ann;;;\r\nEMAIL:ann@example.org\r\nTEL:+1 415 555 0100\r\nEND:VCARD\r\n"
    }
    try dir.write("book.vcf", card("u1") + card("u2"))
    let page = dir.path("review.html")
    let r = try CLI.run(["review", dir.path("book.vcf"), "-o", page])
    #expect(r.status == 0, "\(r.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(!html.contains("<img"))
    let members = try #require(try Self.data(html)["members"] as? [String: Any])
    #expect(members["family"] as? [String] == [evil, evil])
    #expect(members["uid"] as? [String] == ["u1", "u2"])
  }

  /// Without --clusters, review runs the dedupe itself: the same page
  /// data as from the files of `ohana dedupe`; --since marks exactly the
  /// clusters whose members differ from the earlier file.
  @Test func aRunOfItsOwnEqualsTheFilesAndSinceMarksChanges() throws {
    let run = try Self.book()
    let fromFiles = run.dir.path("files.html"), own = run.dir.path("own.html")
    #expect(try CLI.run(["review", run.book, "--clusters", run.clusters, "--explain", run.explain, "-o", fromFiles, "-q"]).status == 0)
    #expect(try CLI.run(["review", run.book, "-o", own, "-q"]).status == 0)
    let a = try Self.data(try String(contentsOfFile: fromFiles, encoding: .utf8))
    let b = try Self.data(try String(contentsOfFile: own, encoding: .utf8))
    for key in ["members", "clusters", "pairs", "comparisons"] {
      #expect(NSDictionary(dictionary: ["v": a[key] as Any]) == NSDictionary(dictionary: ["v": b[key] as Any]), "\(key) differs")
    }
    // The counts too, but for the guard's refusals, which only a run of
    // the page's own knows (aPageOfItsOwnRunCountsTheGuardsRefusals).
    var ownCounts = try #require(b["counts"] as? [String: Any])
    #expect(ownCounts.removeValue(forKey: "refusedByCrossPairs") is Int)
    #expect(ownCounts.removeValue(forKey: "refusedForSize") is Int)
    #expect(NSDictionary(dictionary: ownCounts) == NSDictionary(dictionary: try #require(a["counts"] as? [String: Any])))
    // An earlier run where one cluster of three or more lacked a member and
    // two other clusters were one.
    let now = try Self.clusterFile(run.clusters)
    var groups: [String: [String]] = [:]
    for (uid, c) in now { groups[c, default: []].append(uid) }
    let big = try #require(groups.filter { $0.value.count >= 3 }.keys.sorted().first)
    let pairsOfTwo = groups.filter { $0.value.count == 2 }.keys.sorted()
    try #require(pairsOfTwo.count >= 2)
    var earlier = now
    earlier[groups[big]!.sorted()[0]] = "alone-before"
    for uid in groups[pairsOfTwo[1]]! { earlier[uid] = pairsOfTwo[0] }
    let text = "uid,cluster_id\n" + earlier.map { "\($0.key),\($0.value)" }.sorted().joined(separator: "\n") + "\n"
    try run.dir.write("earlier.csv", text)
    let since = run.dir.path("since.html")
    let r = try CLI.run(["review", run.book, "--clusters", run.clusters, "--since", run.dir.path("earlier.csv"), "-o", since])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(a["sinceKnown"] as? Bool == false)
    let sinceData = try Self.data(try String(contentsOfFile: since, encoding: .utf8))
    #expect(sinceData["sinceKnown"] as? Bool == true)
    let c = try #require(sinceData["clusters"] as? [String: Any])
    let ids = try #require(c["id"] as? [String]), changed = try #require(c["changed"] as? [Int])
    let marked = Set(ids.indices.filter { changed[$0] == 1 }.map { ids[$0] })
    #expect(marked == [big, pairsOfTwo[0], pairsOfTwo[1]])
    #expect(r.stderr.contains("3 changed since the earlier run"))
  }

  /// `--store`: the page's clusters are the store's (its own --clusters
  /// file, read independently), and `--changed-only` keeps exactly the
  /// clusters that the last run's --changes names as made or changed.
  @Test func aStoresPageShowsItsClustersAndWhatTheLastRunChanged() throws {
    let dir = try TempDir()
    let store = dir.path("s.sqlite")
    for (k, seed) in [7, 8].enumerated() {
      let book = dir.path("day\(k).vcf")
      #expect(try CLI.run(["generate", "--contacts", "300", "--seed", "\(seed)", "--dup-rate", "0.3", "-o", book, "-q"]).status == 0)
      let r = try CLI.run([
        "dedupe", book, "-o", dir.path("m\(k).vcf"), "--store", store, "--clusters", dir.path("c\(k).csv"),
        "--changes", dir.path("changes\(k).ndjson"), "-q",
      ])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let page = dir.path("store.html")
    let r = try CLI.run(["review", "--store", store, "-o", page])
    #expect(r.status == 0, "\(r.stderr)")
    let data = try Self.data(try String(contentsOfFile: page, encoding: .utf8))
    let members = try #require(data["members"] as? [String: Any])
    let uids = try #require(members["uid"] as? [String])
    let clusters = try #require(data["clusters"] as? [String: Any])
    let ids = try #require(clusters["id"] as? [String])
    let starts = try #require(clusters["start"] as? [Int]), sizes = try #require(clusters["size"] as? [Int])
    var expected: [String: Set<String>] = [:]
    for (uid, c) in try Self.clusterFile(dir.path("c1.csv")) { expected[c, default: []].insert(uid) }
    expected = expected.filter { $0.value.count >= 2 }
    var seen: [String: Set<String>] = [:]
    for k in ids.indices { seen[ids[k]] = Set(uids[starts[k]..<(starts[k] + sizes[k])]) }
    #expect(seen == expected && !seen.isEmpty)
    let counts = try #require(data["counts"] as? [String: Any])
    #expect(counts["contacts"] as? Int == 600)
    // Every pair's parts add up to its weight.
    let pairs = try #require(data["pairs"] as? [String: Any])
    let weights = try #require(pairs["weight"] as? [Double]), parts = try Self.parts(data)
    let adjust = try #require(pairs["adjust"] as? [Double])
    #expect(!weights.isEmpty)
    for i in weights.indices { #expect(abs(parts[i].reduce(0, +) + adjust[i] - weights[i]) < 0.02) }
    // --changed-only: the clusters of two or more that the last run's
    // changes name (created, merged into, split into, or a contact
    // added or updated in).
    var named = Set<String>()
    for line in try String(contentsOfFile: dir.path("changes1.ndjson"), encoding: .utf8).split(separator: "\n") {
      let e = try CLI.json(Data(line.utf8))
      guard let kind = e["change"] as? String, kind != "removed", kind != "deleted" else { continue }
      if let c = e["cluster"] as? Int { named.insert(String(c)) }
      if kind == "split", let into = e["into"] as? Int { named.insert(String(into)) }
    }
    let changedPage = dir.path("changed.html")
    #expect(try CLI.run(["review", "--store", store, "--changed-only", "-o", changedPage, "-q"]).status == 0)
    let changedData = try Self.data(try String(contentsOfFile: changedPage, encoding: .utf8))
    let changedIDs = try #require((changedData["clusters"] as? [String: Any])?["id"] as? [String])
    #expect(Set(changedIDs) == named.intersection(expected.keys))
    #expect(!changedIDs.isEmpty && changedIDs.count < ids.count)
  }

  /// A page of its own run counts what the chaining guard refused. Forty
  /// identical cards of one person under the cap of 32: every pair is
  /// accepted, the cards end in clusters of at most 32, and every pair
  /// across two of them was refused for the cap (never by the cross
  /// pairs, which all agree), so the count is the sum of the products of
  /// the clusters' sizes.
  @Test func aPageOfItsOwnRunCountsTheGuardsRefusals() throws {
    let dir = try TempDir()
    let book = dir.path("one.vcf")
    var text = ""
    for i in 0..<40 {
      text += "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:card-\(i)\r\nFN:Ann Miller\r\nN:Miller;Ann;;;\r\n"
      text += "TEL:+1 312 644 3332\r\nEMAIL:ann@example.org\r\nBDAY:1970-01-02\r\nEND:VCARD\r\n"
    }
    try text.write(toFile: book, atomically: true, encoding: .utf8)
    let page = dir.path("review.html")
    let r = try CLI.run(["review", book, "-o", page])
    #expect(r.status == 0, "\(r.stderr)")
    let data = try Self.data(try String(contentsOfFile: page, encoding: .utf8))
    let counts = try #require(data["counts"] as? [String: Any])
    let sizes = try #require((data["clusters"] as? [String: Any])?["size"] as? [Int])
    #expect(sizes.reduce(0, +) == 40 && sizes.allSatisfy { $0 <= 32 } && sizes.count >= 2)
    var across = 0
    for i in sizes.indices { for j in sizes.indices where j > i { across += sizes[i] * sizes[j] } }
    #expect(counts["refusedForSize"] as? Int == across)
    #expect(counts["refusedByCrossPairs"] as? Int == 0)
    // A page made from files (clusters and --explain) knows no refusals.
    let book2 = try Self.book()
    let filesPage = book2.dir.path("files.html")
    let f = try CLI.run(["review", book2.book, "--clusters", book2.clusters, "--explain", book2.explain, "-o", filesPage])
    #expect(f.status == 0)
    let filesCounts = try #require(try Self.data(try String(contentsOfFile: filesPage, encoding: .utf8))["counts"] as? [String: Any])
    #expect(filesCounts["refusedForSize"] == nil)
  }

  @Test func badUsageIsRefused() throws {
    let run = try Self.book(contacts: 50)
    let r1 = try CLI.run(["review", run.book, "--explain", run.explain, "-o", run.dir.path("x.html")])
    #expect(r1.status == 64 && r1.stderr.contains("--explain needs --clusters"))
    let r2 = try CLI.run(["review", run.book, "--clusters", run.dir.path("missing.csv"), "-o", run.dir.path("x.html")])
    #expect(r2.status == 66, "\(r2.stderr)")
    #expect(!FileManager.default.fileExists(atPath: run.dir.path("x.html")))
  }
}
