import Foundation
import Testing

/// `ohana link LEFT RIGHT` (issue 44, item 6): two tables with their own
/// column names, matched across and never within. The truth is the
/// construction of the tables; what comes back is read with Python's
/// `csv` module, and the scores are counted here from the outputs.
@Suite struct LinkCLITests {
  static let given = ["Margaret", "Tomasz", "Priya", "Owen", "Aisha", "Lukas", "Ines", "Kenji", "Maeve", "Rafael"]
  static let family = [
    "Hughes", "Nowak", "Raman", "Price", "Okafor", "Brandt", "Silva", "Tanaka", "Byrne", "Costa", "Weber", "Moreau",
    "Lindqvist", "Papadopoulos", "Kowalczyk", "Haddad", "Ferreira", "Novak", "Jensen", "Rossi", "Dubois", "Keller",
    "Murphy", "Sato", "Kaya", "Horvat", "Nielsen", "Garcia", "Ivanova", "Mensah",
  ]
  static let towns = ["Leeds", "York", "Hull", "Bath", "Ely", "Wells", "Ripon", "Truro"]

  /// LEFT: 300 people, one record each (`customer_id, first_name, surname,
  /// dob, Phone, city`). RIGHT (`ref, fname, lname, birth_date, contact_no,
  /// town`): people 0-199 again, with a typo in every third given name,
  /// every fourth birth date missing and the phone written nationally,
  /// then 100 people LEFT does not have. `contact_no` is no header the
  /// detection reads: RIGHT's phones need `--right-map`.
  static func tables() -> (left: String, right: String, counterpart: [String: String]) {
    func person(_ p: Int) -> (given: String, family: String, dob: String, phone: String, town: String) {
      (
        given[p % given.count], family[(p / given.count) % family.count] + (p >= 300 ? "son" : ""),
        String(format: "%04d-%02d-%02d", 1920 + p / 12, 1 + p % 12, 1 + (p * 7) % 28),
        String(format: "%04d", p), towns[p % towns.count]
      )
    }
    var left = "customer_id,first_name,surname,dob,Phone,city\n"
    for p in 0..<300 {
      let x = person(p)
      left += "C\(p),\(x.given),\(x.family),\(x.dob),+44 20 7946 \(x.phone),\(x.town)\n"
    }
    var right = "ref,fname,lname,birth_date,contact_no,town\n"
    var counterpart: [String: String] = [:]
    for p in 0..<300 {
      let q = p < 200 ? p : p + 100  // 300-399: people LEFT lacks
      let x = person(q)
      let first = p % 3 == 2 ? String(x.given.dropLast()) + "e" : x.given
      let dob = p % 4 == 3 ? "" : x.dob
      right += "R\(p),\(first),\(x.family),\(dob),020 7946 \(x.phone),\(x.town)\n"
      if p < 200 { counterpart["C\(p)"] = "R\(p)" }
    }
    return (left, right, counterpart)
  }

  @Test func leftRowsComeBackWithTheirMatchAndNoPairIsWithinASide() throws {
    let dir = try TempDir()
    let (left, right, counterpart) = Self.tables()
    try dir.write("crm.csv", left)
    try dir.write("shop.csv", right)
    let r = try CLI.run([
      "link", dir.path("crm.csv"), dir.path("shop.csv"), "--right-map", "phone=contact_no", "--region", "GB",
      "-o", dir.path("out.csv"), "--pairs", dir.path("pairs.csv"), "--clusters", dir.path("clusters.csv"),
      "--source", "crm=" + dir.path("crm.csv"), "--source", "shop=" + dir.path("shop.csv"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    // LEFT's rows, every cell as it was, four columns appended.
    let input = try TablesCLITests.pythonRows(dir.path("crm.csv"))
    let output = try TablesCLITests.pythonRows(dir.path("out.csv"))
    #expect(output.count == input.count)
    #expect(output.first == input[0] + ["cluster_id", "match_id", "match_weight", "match_count"])
    for (a, b) in zip(input.dropFirst(), output.dropFirst()) {
      #expect(Array(b.prefix(a.count)) == a)
      #expect(b.count == a.count + 4)
    }
    // Scored here against the construction: a row's match_id is its
    // counterpart, or empty when RIGHT has none.
    var correct = 0, wrong = 0, missed = 0
    for row in output.dropFirst() {
      let truth = counterpart[row[0]]
      let match = row[7]
      if match.isEmpty {
        if truth != nil { missed += 1 }
      } else if match == truth {
        correct += 1
        #expect(Double(row[8]) != nil && row[9] == "1", "\(row)")
      } else {
        wrong += 1
      }
    }
    #expect(correct >= 190, "correct \(correct), wrong \(wrong), missed \(missed)")
    #expect(wrong <= 3, "correct \(correct), wrong \(wrong), missed \(missed)")
    // Every pair crosses the sides, LEFT's record on the left.
    let pairs = try TablesCLITests.pythonRows(dir.path("pairs.csv"))
    #expect(pairs.first == ["uid_l", "uid_r", "source_l", "source_r", "match_weight", "cluster_id"])
    #expect(pairs.count > 190)
    for p in pairs.dropFirst() {
      #expect(p[0].hasPrefix("C") && p[1].hasPrefix("R") && p[2] == "crm" && p[3] == "shop", "\(p)")
    }
    // Every record of both in --clusters, with its source.
    let clusters = try TablesCLITests.pythonRows(dir.path("clusters.csv"))
    #expect(clusters.first == ["uid", "cluster_id", "source"])
    #expect(clusters.count == 601)
    #expect(clusters.dropFirst().filter { $0[2] == "crm" }.count == 300)
    let clusterOf = Dictionary(uniqueKeysWithValues: clusters.dropFirst().map { ($0[0], $0[1]) })
    #expect(clusterOf["C5"] == "C5" && clusterOf["R5"] == "C5")
  }

  /// Without RIGHT's mapping its phone column is passed through: the
  /// phones no longer link, and the typo'd names with no birth date are
  /// lost; the run still works on the names.
  @Test func rightMapMapsTheRightTableAlone() throws {
    let dir = try TempDir()
    let (left, right, _) = Self.tables()
    try dir.write("crm.csv", left)
    try dir.write("shop.csv", right)
    let shown = try CLI.run([
      "link", dir.path("crm.csv"), dir.path("shop.csv"), "--right-map", "phone=contact_no", "--show-mapping",
    ])
    #expect(shown.status == 0, "\(shown.stderr)")
    let text = String(decoding: shown.stdout, as: UTF8.self)
    #expect(text.contains("Phone -> phone"), "\(text)")
    #expect(text.contains("contact_no -> phone  [given]"), "\(text)")
    #expect(text.contains("fname -> given"), "\(text)")
    let plain = try CLI.run(["link", dir.path("crm.csv"), dir.path("shop.csv"), "--show-mapping"])
    #expect(String(decoding: plain.stdout, as: UTF8.self).contains("contact_no -> (passed through)"))
  }

  /// The F1 of `--report` counts pairs across the sides; counted again
  /// here from `--clusters` (a LEFT and a RIGHT record of one cluster).
  @Test func theReportScoresPairsAcrossTheSides() throws {
    let dir = try TempDir()
    let (left, right, counterpart) = Self.tables()
    try dir.write("crm.csv", left)
    try dir.write("shop.csv", right)
    var truth = "uid,entity\n"
    for p in 0..<300 { truth += "C\(p),e\(p)\n" }
    for p in 0..<300 { truth += "R\(p),e\(p < 200 ? p : p + 100)\n" }
    try dir.write("truth.csv", truth)
    let r = try CLI.run([
      "link", dir.path("crm.csv"), dir.path("shop.csv"), "--right-map", "phone=contact_no", "--region", "GB",
      "--clusters", dir.path("c.csv"), "--truth", dir.path("truth.csv"), "--report", dir.path("r.json"), "-q",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try TablesCLITests.pythonRows(dir.path("c.csv")).dropFirst()
    var members: [String: (left: [String], right: [String])] = [:]
    for row in rows {
      if row[2].hasSuffix("crm.csv") { members[row[1], default: ([], [])].left.append(row[0]) } else {
        members[row[1], default: ([], [])].right.append(row[0])
      }
    }
    var predicted = 0, truePositive = 0
    for (_, m) in members {
      predicted += m.left.count * m.right.count
      for l in m.left { truePositive += m.right.filter { counterpart[l] == $0 }.count }
    }
    let precision = Double(truePositive) / Double(max(1, predicted)), recall = Double(truePositive) / 200
    let f1 = 2 * precision * recall / max(1e-9, precision + recall)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("r.json")))) as? [String: Any])
    let score = try #require((json["link"] as? [String: Any])?["truth"] as? [String: Any])
    #expect(abs((score["f1"] as? Double ?? -1) - f1) < 1e-9, "report \(score), counted \(f1)")
    #expect(score["truePairs"] as? Int == 200)
    #expect(f1 > 0.95, "\(f1)")
    #expect(json["leftMatched"] as? Int == members.values.reduce(0) { $0 + ($1.right.isEmpty ? 0 : $1.left.count) })
  }

  /// Two LEFT records of one person: `link` never pairs them (no RIGHT
  /// record is theirs), `--link-and-dedupe` does.
  @Test func linkAndDedupeAlsoPairsWithinASide() throws {
    let dir = try TempDir()
    let (left, right, _) = Self.tables()
    try dir.write("crm.csv", left + "C9000,Margaret,Hughesson,1999-09-09,+44 20 7946 9999,Leeds\n"
      + "C9001,Margaret,Hughesson,1999-09-09,+44 20 7946 9999,Leeds\n")
    try dir.write("shop.csv", right)
    for (flag, together) in [([String](), false), (["--link-and-dedupe"], true)] {
      let r = try CLI.run(
        ["link", dir.path("crm.csv"), dir.path("shop.csv"), "--right-map", "phone=contact_no", "--region", "GB",
         "--clusters", dir.path("c.csv"), "-q"] + flag)
      #expect(r.status == 0, "\(r.stderr)")
      let rows = try TablesCLITests.pythonRows(dir.path("c.csv"))
      let of = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], $0[1]) })
      #expect((of["C9000"] == of["C9001"]) == together, "\(flag): \(of["C9000"] ?? "") \(of["C9001"] ?? "")")
    }
  }

  /// Tables without id columns: each side's rows are row-1, row-2...; a
  /// cluster named by a RIGHT record says so.
  @Test func rowNamesAreEachTablesOwn() throws {
    let dir = try TempDir()
    try dir.write("a.csv", "first_name,surname,email\nAnna,Berg,anna@example.de\nOwen,Price,owen@example.net\n")
    try dir.write("b.csv", "Vorname,Nachname,E-Mail\nJürgen,Schäfer,j@example.de\nAnna,Berg,anna@example.de\n")
    let r = try CLI.run(["link", dir.path("a.csv"), dir.path("b.csv"), "--clusters", dir.path("c.csv"), "-o", dir.path("o.csv"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try TablesCLITests.pythonRows(dir.path("c.csv"))
    #expect(rows.dropFirst().map { [$0[0], $0[1]] } == [
      ["row-1", "row-1"], ["row-2", "row-2"], ["row-1", dir.path("b.csv") + ":row-1"], ["row-2", "row-1"],
    ])
    let out = try TablesCLITests.pythonRows(dir.path("o.csv"))
    #expect(out[1].suffix(4).first == "row-1" && out[1][4] == "row-2" && out[1][6] == "1", "\(out)")
    #expect(out[2][4] == "" && out[2][6] == "0", "\(out)")
  }

  @Test func linkNeedsTwoInputsAndSomethingToWrite() throws {
    let dir = try TempDir()
    try dir.write("a.csv", "first_name,surname\nAnna,Berg\n")
    let one = try CLI.run(["link", dir.path("a.csv"), "-o", dir.path("o.csv")])
    #expect(one.status == 64 && one.stderr.contains("give two inputs"), "\(one.stderr)")
    let none = try CLI.run(["link", dir.path("a.csv"), dir.path("a.csv")])
    #expect(none.status == 64 && none.stderr.contains("nothing to write"), "\(none.stderr)")
    try dir.write("stock.csv", "sku,quantity\nA-1,4\n")
    let bad = try CLI.run(["link", dir.path("a.csv"), dir.path("stock.csv"), "-o", dir.path("o.csv")])
    #expect(bad.status == 65 && bad.stderr.contains("stock.csv: no column is a name"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("o.csv")))
  }
}
