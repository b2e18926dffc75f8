import Foundation
import Testing

/// A table with its own column names in, the user's rows out (issue 44).
/// What comes back is read with Python's `csv` module, not with our reader.
@Suite struct TablesCLITests {
  /// Four people, two of them three and two times, with typos; a column
  /// (`segment`) the model has no place for.
  static let people = #"""
    unique_id,first_name,surname,dob,city,email,segment
    a1,Margaret,Hughes,14/02/1961,Leeds,m.hughes@example.com,"gold, since 2019"
    b1,Tomasz,Nowak,03/11/1979,York,tnowak@example.org,silver
    a2,Margaret,Hughes,14/02/1961,Leeds,M.Hughes@Example.com,NULL
    c1,Priya,Raman,22/07/1990,Bath,,bronze
    a3,Margret,Hughes,14/02/1961,Leeds,m.hughes@example.com,"says ""hi"""
    b2,Tomasz,Nowak,03/11/1979,York,tnowak@example.org,
    d1,Owen,Price,30/01/1985,Hull,owen.price@example.net,silver

    """#

  /// Rows of a CSV file as Python's csv module reads them.
  static func pythonRows(_ path: String, delimiter: String = ",") throws -> [[String]] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [
      "python3", "-c",
      "import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8'), delimiter=sys.argv[2]))))",
      path, delimiter,
    ]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    try #require(p.terminationStatus == 0, "python3 csv failed")
    return try JSONDecoder().decode([[String]].self, from: data)
  }

  /// 200 people, three records each, all with the same family name and
  /// birth date (the third with a typo in the given name), a birthplace
  /// out of 8 and a gender; a phone on each person's first record only.
  static func registry() -> (table: String, truth: String) {
    let towns = ["Leeds", "York", "Hull", "Bath", "Ely", "Wells", "Ripon", "Truro"]
    let given = ["Margaret", "Tomasz", "Priya", "Owen", "Aisha", "Lukas", "Ines", "Kenji", "Maeve", "Rafael"]
    let family = ["Hughes", "Nowak", "Raman", "Price", "Okafor", "Brandt", "Silva", "Tanaka", "Byrne", "Costa", "Weber", "Moreau"]
    var table = "rec_id,first_name,last_name,dob,birthplace,sex,phone\n"
    var truth = "uid,entity\n"
    for p in 0..<200 {
      let g = given[p % given.count], f = family[(p / given.count) % family.count] + (p >= 120 ? "-\(p)" : "")
      let dob = String(format: "%04d-%02d-%02d", 1950 + p % 50, 1 + p % 12, 1 + p % 28)
      for k in 0..<3 {
        let first = k == 2 ? String(g.dropLast()) + "x" : g
        let phone = k == 0 ? "+44 20 7946 \(String(format: "%04d", p))" : ""
        table += "r\(p)-\(k),\(first),\(f),\(dob),\(towns[p % towns.count]),\(p % 2 == 0 ? "F" : "M"),\(phone)\n"
        truth += "r\(p)-\(k),p\(p)\n"
      }
    }
    return (table, truth)
  }

  @Test func theReportSaysWhichModelAndColumnsMatchedAndWhatEachRuleFound() throws {
    let dir = try TempDir()
    let (table, truth) = Self.registry()
    try dir.write("people.csv", table)
    try dir.write("truth.csv", truth)
    let r = try CLI.run([
      "dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--truth", dir.path("truth.csv"), "--report",
      dir.path("r.json"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("r.json")))) as? [String: Any])
    let dedupe = try #require(json["dedupe"] as? [String: Any])
    // A table of 600 rows in its own columns: the weights are fitted.
    #expect(dedupe["weights"] as? String == "estimated")
    // The birthplace repeats (8 towns) and is compared; the record id,
    // different on every row, is not.
    let columns = (dedupe["otherColumns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(columns.contains("birthplace"), "\(columns)")
    #expect(!columns.contains("rec_id"))
    let truthPart = try #require(dedupe["truth"] as? [String: Any])
    let byRule = try #require(truthPart["blockingRecallByRule"] as? [String: Double])
    // 600 true pairs; every one shares family name and birth date, none a
    // phone (only a person's first record has one).
    #expect(truthPart["truePairs"] as? Int == 600)
    #expect(byRule["family+birthday"] == 1.0)
    #expect(byRule["phone"] == 0.0)
    #expect((truthPart["f1"] as? Double ?? 0) > 0.9)
    // The model's levels are monotone as written in the report.
    let model = try #require(dedupe["model"] as? [String: [String: Double]])
    let given = try #require(model["given"])
    #expect((given["exact"] ?? 0) >= (given["jw>=0.92"] ?? 0) && (given["jw>=0.92"] ?? 0) >= (given["different"] ?? 0))
  }

  @Test func theUsersRowsComeBackWithTheirClusters() throws {
    let dir = try TempDir()
    try dir.write("people.csv", Self.people)
    let r = try CLI.run(["dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--clusters", dir.path("c.csv")])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("columns mapped: unique_id=id, first_name=given, surname=family, dob=birthday, city=locality, email=email"), "\(r.stderr)")
    let input = try Self.pythonRows(dir.path("people.csv"))
    let output = try Self.pythonRows(dir.path("out.csv"))
    // Every row, every cell as it was, in order; four columns appended.
    #expect(output.count == input.count)
    #expect(output[0] == input[0] + ["cluster_id", "cluster_size", "match_weight_min", "match_weight_max"])
    for (a, b) in zip(input.dropFirst(), output.dropFirst()) {
      #expect(Array(b.prefix(a.count)) == a)
      #expect(b.count == a.count + 4)
    }
    let cluster = Dictionary(uniqueKeysWithValues: output.dropFirst().map { ($0[0], $0[7]) })
    let size = Dictionary(uniqueKeysWithValues: output.dropFirst().map { ($0[0], $0[8]) })
    #expect(cluster["a1"] == "a1" && cluster["a2"] == "a1" && cluster["a3"] == "a1")
    #expect(cluster["b1"] == "b1" && cluster["b2"] == "b1")
    #expect(cluster["c1"] == "c1" && cluster["d1"] == "d1")
    #expect(size["a2"] == "3" && size["b2"] == "2" && size["c1"] == "1")
    // A row alone has no weights; a cluster's lowest is at most its highest.
    let row = { (id: String) in output.first { $0[0] == id } ?? [] }
    #expect(row("c1")[9] == "" && row("c1")[10] == "")
    #expect((Double(row("a1")[9]) ?? 99) <= (Double(row("a1")[10]) ?? -99))
    // --clusters names the rows by the table's own id column.
    let clusters = try Self.pythonRows(dir.path("c.csv"))
    #expect(clusters.first == ["uid", "cluster_id"])
    #expect(clusters.contains(["a3", "a1"]) && clusters.contains(["b2", "b1"]))
  }

  @Test func goldenIsOneRowPerCluster() throws {
    let dir = try TempDir()
    try dir.write("people.csv", Self.people)
    let r = try CLI.run(["dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--golden", dir.path("g.csv"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let golden = try Self.pythonRows(dir.path("g.csv"))
    #expect(golden.first == ["unique_id", "first_name", "surname", "dob", "city", "email", "segment", "cluster_id", "cluster_size"])
    #expect(golden.dropFirst().map { $0[0] } == ["a1", "b1", "c1", "d1"])
    #expect(golden.dropFirst().map { $0[8] } == ["3", "2", "1", "1"])
  }

  /// Golden rows by rules name the member each ruled cell came from
  /// (`golden_sources`). Hand-made: a fourth Margaret Hughes row with the
  /// longest name, so `name=longest` takes her first name and surname.
  @Test func goldenRowsByRulesNameTheirCellsMembers() throws {
    let dir = try TempDir()
    try dir.write("people.csv", Self.people + "a4,Margaret Anne,Hughes,14/02/1961,Leeds,m.hughes@example.com,\n")
    try dir.write("rules.txt", "name=longest\n")
    let r = try CLI.run([
      "dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--golden", dir.path("g.csv"), "--survivorship",
      dir.path("rules.txt"), "-q",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let golden = try Self.pythonRows(dir.path("g.csv"))
    #expect(golden.first?.suffix(3) == ["cluster_id", "cluster_size", "golden_sources"])
    let row = { (id: String) in golden.first { $0[0] == id } ?? [] }
    #expect(row("a1").prefix(3) == ["a1", "Margaret Anne", "Hughes"])
    #expect(row("a1").last == "first_name=a4;surname=a4")
    #expect(row("b1").last == "" && row("c1").last == "")
    // Without rules, no such column: every cell is the first row's.
    let plain = try CLI.run(["dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--golden", dir.path("g2.csv"), "-q"])
    #expect(plain.status == 0)
    #expect(try Self.pythonRows(dir.path("g2.csv")).first?.last == "cluster_size")
  }

  @Test func mergedAsksForTheOldOutput() throws {
    let dir = try TempDir()
    try dir.write("people.csv", Self.people)
    let r = try CLI.run(["dedupe", dir.path("people.csv"), "-o", dir.path("m.csv"), "--merged", "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try Self.pythonRows(dir.path("m.csv"))
    #expect(rows.count == 5)  // header + four people
    #expect(rows[0].contains("givenName"))
  }

  @Test func aTableWithNothingToMatchOnIsAnError() throws {
    let dir = try TempDir()
    try dir.write("stock.csv", "sku,quantity,warehouse\nA-1,4,north\nB-2,7,south\n")
    let r = try CLI.run(["dedupe", dir.path("stock.csv"), "-o", dir.path("out.csv")])
    #expect(r.status == 65, "\(r.stderr)")
    #expect(r.stderr.contains("no column is a name, an e-mail or a phone"), "\(r.stderr)")
    #expect(r.stderr.contains("'sku', 'quantity', 'warehouse'") && r.stderr.contains("--map given="), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out.csv")))
    // Mapped by hand, it runs.
    let mapped = try CLI.run(["dedupe", dir.path("stock.csv"), "-o", dir.path("out.csv"), "--map", "name=sku", "-q"])
    #expect(mapped.status == 0, "\(mapped.stderr)")
  }

  @Test func showMappingPrintsAndStops() throws {
    let dir = try TempDir()
    try dir.write("people.csv", Self.people)
    let r = try CLI.run(["dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--show-mapping", "--map", "note=segment"])
    #expect(r.status == 0, "\(r.stderr)")
    let out = String(decoding: r.stdout, as: UTF8.self)
    #expect(out.contains("first_name -> given  [detected]"), "\(out)")
    #expect(out.contains("segment -> note  [given]"), "\(out)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out.csv")))
    let bad = try CLI.run(["dedupe", dir.path("people.csv"), "-o", dir.path("out.csv"), "--map", "shoe=segment"])
    #expect(bad.status == 64 && bad.stderr.contains("'shoe' is not a role"), "\(bad.stderr)")
  }

  /// A German customer table: `;` between cells (sniffed), `dd.mm.yyyy`.
  @Test func aSemicolonTableIsSniffed() throws {
    let dir = try TempDir()
    try dir.write(
      "kunden.csv",
      "Kundennummer;Vorname;Nachname;Geburtsdatum;PLZ;Ort;E-Mail\r\nK1;Jürgen;Schäfer;03.04.1970;10115;Berlin;j.schaefer@example.de\r\nK2;Jürgen;Schäfer;03.04.1970;10115;Berlin;J.Schaefer@example.de\r\nK3;Anna;Berg;12.12.1988;80331;München;anna@example.de\r\n")
    let r = try CLI.run(["dedupe", dir.path("kunden.csv"), "-o", dir.path("out.csv"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try Self.pythonRows(dir.path("out.csv"), delimiter: ";")
    #expect(rows.count == 4)
    #expect(rows[2][7] == "K1" && rows[3][7] == "K3")
    #expect(String(decoding: try dir.read("out.csv"), as: UTF8.self).contains("\r\n"))
  }
}

/// `--multi-separator`: several phones or e-mails in one cell (issue 44,
/// item 3). Counted from the NDJSON the tool writes, read with
/// JSONSerialization; the expected values are the cells split by hand.
@Suite struct MultiSeparatorCLITests {
  static let table = """
    id,name,phones,emails
    1,Ann Lee,+1 202 555 0143; +1 202 555 0199 ,ann@example.org
    2,Bo Ng,"+44 20 7946 0001;+44 20 7946 0002;",bo@example.org; bo.ng@example.net
    3,Cy Diaz,,
    """

  static func fields(_ data: Data, kind: String) throws -> [[String]] {
    try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
      let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let fields = obj["fields"] as? [[String: Any]] ?? []
      return fields.filter { $0["type"] as? String == kind }.compactMap { $0["value"] as? String }
    }
  }

  @Test func cellsAreSplitAtTheSeparator() throws {
    let dir = try TempDir()
    try dir.write("t.csv", Self.table + "\n")
    let split = try CLI.run([
      "convert", dir.path("t.csv"), "--map", "phone=phones", "--map", "email=emails", "--multi-separator", ";", "-o", "-",
      "--to", "ndjson", "-q",
    ])
    #expect(split.status == 0, "\(split.stderr)")
    #expect(try Self.fields(split.stdout, kind: "phone") == [
      ["+1 202 555 0143", "+1 202 555 0199"], ["+44 20 7946 0001", "+44 20 7946 0002"], [],
    ])
    #expect(try Self.fields(split.stdout, kind: "email") == [["ann@example.org"], ["bo@example.org", "bo.ng@example.net"], []])
    // Without it a phone cell is one value.
    let whole = try CLI.run([
      "convert", dir.path("t.csv"), "--map", "phone=phones", "--map", "email=emails", "-o", "-", "--to", "ndjson", "-q",
    ])
    #expect(try Self.fields(whole.stdout, kind: "phone").first == ["+1 202 555 0143; +1 202 555 0199 "])
  }
}
