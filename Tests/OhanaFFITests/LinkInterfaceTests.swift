import COhanaArrow
import OhanaCore
import OhanaDedupe
import Testing

@testable import OhanaFFI

/// The distributed job's C functions, on inputs whose answers are written
/// out here by hand (the Spark job's own equivalence with `ohana dedupe` is
/// python/tests/test_spark.py).
@Suite struct LinkInterfaceTests {
  func read(_ text: String, format: String, source: String?, firstLine: Int64) -> (OpaquePointer?, Int32, ohana_error) {
    var out: OpaquePointer? = nil
    var error = ohana_error()
    let bytes = Array(text.utf8)
    let rc = bytes.withUnsafeBufferPointer { b in
      format.withCString { f in
        if let source {
          return source.withCString { s in ohana_read_bytes(b.baseAddress, Int64(b.count), f, s, firstLine, 0, &out, &error) }
        }
        return ohana_read_bytes(b.baseAddress, Int64(b.count), f, nil, firstLine, 0, &out, &error)
      }
    }
    return (out, rc, error)
  }

  /// A piece of an NDJSON file that starts at line 101: contacts and
  /// problems carry their lines in the whole file.
  @Test func aPieceKeepsItsLinesInTheWholeFile() throws {
    let text = "{\"uid\":\"a\"}\nnot json\n\n{\"uid\":\"b\"}\n"
    let (out, rc, _) = read(text, format: "ndjson", source: "big.ndjson", firstLine: 101)
    #expect(rc == 0)
    defer { ohana_table_free(out) }
    let h = Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(try #require(out))).takeUnretainedValue()
    #expect(h.table.rowCount == 2)
    #expect(h.table.sourceLine == [101, 104])
    #expect(h.problems.map(\.line) == [102])
    #expect(h.table.pool.string(h.table[.sourceProvider][0]) == "big.ndjson")
  }

  /// Without a source, records keep the sources they name (shipped between tasks).
  @Test func recordsKeepTheirOwnSource() throws {
    let (out, rc, _) = read("{\"uid\":\"a\",\"source\":\"x.vcf\"}\n", format: "ndjson", source: nil, firstLine: 1)
    #expect(rc == 0)
    defer { ohana_table_free(out) }
    let h = Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(try #require(out))).takeUnretainedValue()
    #expect(h.table.pool.string(h.table[.sourceProvider][0]) == "x.vcf")
  }

  /// A piece of a table read with the driver's mapping: the columns take
  /// the roles given, with detection off a column no line names stays an
  /// unmodelled column (here `ort`, which detection would read as a
  /// locality), and lines count from `first_line`. Without a mapping the
  /// piece's own header is detected. A mapping that does not parse is an
  /// argument error.
  @Test func aTablePieceIsReadWithTheMappingGiven() throws {
    func readTable(_ text: String, _ mapping: String?) -> (OpaquePointer?, Int32) {
      var out: OpaquePointer? = nil
      var error = ohana_error()
      let bytes = Array(text.utf8)
      let rc = bytes.withUnsafeBufferPointer { b in
        guard let mapping else { return ohana_read_table_bytes(b.baseAddress, Int64(b.count), nil, 11, nil, &out, &error) }
        return mapping.withCString { ohana_read_table_bytes(b.baseAddress, Int64(b.count), nil, 11, $0, &out, &error) }
      }
      return (out, rc)
    }
    let text = "nr,vn,nn,ort\n7,Anna,Berg,Bonn\n8,\"Jo, Jr\",Ost,Köln\n"
    let (out, rc) = readTable(text, "given=nn\nfamily=vn\nid=nr\ndetect=off\n")
    #expect(rc == 0)
    defer { ohana_table_free(out) }
    let t = Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(try #require(out))).takeUnretainedValue().table
    #expect(t.rowCount == 2)
    #expect((0..<2).map { t.pool.string(t[.givenName][$0]) } == ["Berg", "Ost"])
    #expect((0..<2).map { t.pool.string(t[.familyName][$0]) } == ["Anna", "Jo, Jr"])
    #expect((0..<2).map { t.pool.string(t[.uid][$0]) } == ["7", "8"])
    #expect((0..<2).allSatisfy { t.addressRange(of: $0).isEmpty })
    #expect(t.sourceLine == [12, 13])
    let (detected, rc2) = readTable(text, nil)
    #expect(rc2 == 0)
    defer { ohana_table_free(detected) }
    let d = Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(try #require(detected))).takeUnretainedValue().table
    #expect((0..<2).allSatisfy { d.addressRange(of: $0).count == 1 })
    let (_, bad) = readTable(text, "nonsense=vn\n")
    #expect(bad == 5)
  }

  /// Settings and arguments out of range are errors with a code, never a crash.
  @Test func badArgumentsAreErrorsNotCrashes() {
    let (_, rc, _) = read("{}\n", format: "ndjson", source: "x", firstLine: 0)
    #expect(rc == 5)  // OHANA_ERROR_ARGUMENT: first_line starts at 1
    var error = ohana_error()
    var estimates: Int32 = -1
    var threshold = 0.0
    let bad = "region=XX".withCString { ohana_link_plan($0, 10, 0, &estimates, &threshold, nil, &error) }
    #expect(bad == 5)
    let unknown = "blocking=phone,nonsense".withCString { ohana_link_plan($0, 10, 0, &estimates, &threshold, nil, &error) }
    #expect(unknown == 5)
  }

  /// The plan: EM exactly when fewer than half of at least 500 contacts
  /// have a phone or an e-mail (under `weights=auto`), the threshold as
  /// set, and no rule skip once EM is chosen.
  @Test func planFollowsTheAutomaticWeightsRule() {
    func plan(_ settings: String, _ n: Int64, _ withPE: Int64) -> (Bool, Double, [Int8]) {
      var error = ohana_error()
      var estimates: Int32 = -1
      var threshold = 0.0
      var skip = [Int8](repeating: -1, count: 16)
      let rc = settings.withCString { s in
        skip.withUnsafeMutableBufferPointer { ohana_link_plan(s, n, withPE, &estimates, &threshold, $0.baseAddress, &error) }
      }
      #expect(rc == 0)
      return (estimates == 1, threshold, skip)
    }
    #expect(plan("weights=auto", 1000, 499).0 == true)
    #expect(plan("weights=auto", 1000, 500).0 == false)
    #expect(plan("weights=auto", 499, 0).0 == false)
    #expect(plan("weights=em", 10, 10).0 == true)
    #expect(plan("weights=defaults", 1000, 0).0 == false)
    #expect(plan("threshold=7.5", 10, 10).1 == 7.5)
    #expect(plan("weights=em", 10, 10).2.allSatisfy { $0 == 0 })
    // A table in its own columns (the job's dedupe_table): EM under auto
    // from automaticEMMinimum rows whatever their phones and e-mails, as
    // the command line decides for a table; never over `defaults`.
    #expect(plan("weights=auto;table=1", 500, 500).0 == true)
    #expect(plan("weights=auto;table=1", 499, 499).0 == false)
    #expect(plan("weights=defaults;table=1", 5000, 0).0 == false)
    #expect(plan("weights=auto;table=0", 1000, 1000).0 == false)
    // Built-in weights: a pair of which both sides have phones (class 1)
    // but share none cannot reach the default threshold; a pair where one
    // side has neither (class 0) is never skipped.
    let skip = plan("weights=defaults", 10, 10).2
    #expect(skip[1 * 4 + 1] == 1)
    #expect((0..<4).allSatisfy { skip[$0] == 0 && skip[$0 * 4] == 0 })
  }

  /// Pairs scored from comparison records (the `cmp` column the job ships)
  /// give the vectors and weights of the same pairs scored on the table the
  /// records came from (`ohana_link_score`, the table path: an oracle that
  /// never encodes or decodes a record).
  @Test func comparisonRecordsScoreAsTheirTable() throws {
    var lines: [String] = []
    for i in 0..<40 {
      let family = ["Smith", "Smyth", "Jones", "Müller", "Mueller"][i % 5]
      let given = ["Anna", "Ana", "Bob", "Robert"][i % 4]
      lines.append(
        "{\"uid\":\"u\(i)\",\"givenName\":\"\(given)\",\"familyName\":\"\(family)\",\"birthday\":\"1980-0\(1 + i % 3)-1\(i % 7)\","
          + "\"fields\":[{\"type\":\"phone\",\"value\":\"+1 415 555 0\(100 + i % 6)\"},{\"type\":\"email\",\"value\":\"p\(i % 9)@example.com\"}],"
          + "\"addresses\":[{\"street\":\"\(i % 4) Main St\",\"locality\":\"Springfield\",\"postalCode\":\"9410\(i % 3)\"}]}")
    }
    let (out, rc, _) = read(lines.joined(separator: "\n") + "\n", format: "ndjson", source: "x", firstLine: 1)
    #expect(rc == 0)
    defer { ohana_table_free(out) }
    let table = try #require(out)
    let h = Unmanaged<TableHandle>.fromOpaque(UnsafeRawPointer(table)).takeUnretainedValue()
    let keys = LinkKeys(table: h.table, configuration: try linkConfiguration("region=US"))
    let records = keys.comparisonRecords(0..<h.table.rowCount, threads: 1)
    var offsets: [Int32] = [0]
    offsets += records.ends.map { Int32($0) }
    var a: [Int32] = []
    var b: [Int32] = []
    for x in 0..<40 { for y in (x + 1)..<40 where (x * 7 + y) % 3 == 0 { a.append(Int32(x)); b.append(Int32(y)) } }
    let n = a.count
    var model = [CChar](repeating: 0, count: 1 << 16)
    var error = ohana_error()
    var builtInThreshold = 0.0
    #expect("region=US".withCString { ohana_link_model($0, nil, Int64(ComparisonVector.space), &model, Int64(model.count), nil, nil, &builtInThreshold, &error) } == 0)
    // The built-in model is judged against the built-in weights' threshold.
    #expect(builtInThreshold == DedupeConfiguration().threshold)
    for withModel in [true, false] {
      var v1 = [Int64](repeating: -2, count: n), w1 = [Float](repeating: 0, count: n), t1 = [Int8](repeating: 0, count: n)
      var v2 = v1, w2 = w1, t2 = t1
      let rc1 = "region=US".withCString { s in
        model.withUnsafeBufferPointer { m in
          ohana_link_score(table, s, withModel ? m.baseAddress : nil, Int64(n), a, b, nil, nil, &v1, &w1, &t1, &error)
        }
      }
      let rc2 = "region=US".withCString { s in
        model.withUnsafeBufferPointer { m in
          records.bytes.withUnsafeBufferPointer { data in
            ohana_link_score_records(
              data.baseAddress, offsets, 40, s, withModel ? m.baseAddress : nil, Int64(n), a, b, nil, nil, &v2, &w2, &t2, &error)
          }
        }
      }
      #expect(rc1 == 0 && rc2 == 0)
      #expect(v1 == v2)
      #expect(w1 == w2)
      #expect(t1 == t2)
      #expect(Set(v1).count > 3)  // the pairs differ in what they agree on: the comparison is not vacuous
    }
  }

  /// A damaged record, offsets that go backwards and a pair out of range
  /// are errors with a code, never a crash.
  @Test func damagedComparisonRecordsAreErrors() {
    var error = ohana_error()
    var v: [Int64] = [0]
    let a: [Int32] = [0], b: [Int32] = [1]
    // Two records: version byte only (truncated), and garbage.
    let data: [UInt8] = [1, 0xFF, 0xFF, 0xFF]
    let truncated = "region=US".withCString { s in
      ohana_link_score_records(data, [0, 1, 4], 2, s, nil, 1, a, b, nil, nil, &v, nil, nil, &error)
    }
    #expect(truncated == 3)  // OHANA_ERROR_INVALID_INPUT
    let backwards = "region=US".withCString { s in
      ohana_link_score_records(data, [0, 3, 1], 2, s, nil, 1, a, b, nil, nil, &v, nil, nil, &error)
    }
    #expect(backwards == 5)
    let outside = "region=US".withCString { s in
      ohana_link_score_records(data, [0, 1, 4], 2, s, nil, 1, a, [Int32(2)], nil, nil, &v, nil, nil, &error)
    }
    #expect(outside == 5)
  }

  /// `ohana_list_inputs` lists what the command line reads: a directory's
  /// contact files recursively in name order, hidden names and other
  /// extensions left out, a glob's matches sorted; a directory without
  /// contact files is an error. (The expected lists are written out here.)
  @Test func inputsAreListedAsTheCommandLineReadsThem() throws {
    let dir = "/tmp/ohana-list-inputs-\(getpid())"
    let fm = [("b.vcf", ""), ("a.csv", ""), ("sub/c.ndjson", ""), ("sub/.hidden.vcf", ""), ("notes.txt", ""), ("empty/x.doc", "")]
    for (name, _) in fm {
      let path = dir + "/" + name
      let parent = String(path[..<path.lastIndex(of: "/")!])
      _ = parent.withCString { mkdirAll($0) }
      #expect(FileManagerLite.write(path))
    }
    defer { FileManagerLite.remove(dir) }
    func list(_ args: [String]) -> (Int32, [String]) {
      var error = ohana_error()
      var needed: Int64 = 0
      let cargs = args.map { strdup($0) }
      defer { cargs.forEach { free($0) } }
      var ptrs: [UnsafePointer<CChar>?] = cargs.map { UnsafePointer($0) }
      var rc = ohana_list_inputs(&ptrs, Int64(args.count), nil, 0, &needed, &error)
      guard rc == 0 else { return (rc, []) }
      var buffer = [CChar](repeating: 0, count: Int(needed) + 1)
      rc = ohana_list_inputs(&ptrs, Int64(args.count), &buffer, needed, &needed, &error)
      let bytes = buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }
      return (rc, bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) })
    }
    #expect(list([dir]) == (0, [dir + "/a.csv", dir + "/b.vcf", dir + "/sub/c.ndjson"]))
    #expect(list([dir + "/*.vcf", dir + "/a.csv"]) == (0, [dir + "/b.vcf", dir + "/a.csv"]))
    #expect(list([dir + "/empty"]).0 == 1)  // OHANA_ERROR_IO: no contact files
    #expect(list([dir + "/nothing-*.vcf"]).0 == 1)  // a glob that matches nothing
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Just enough file system for the discovery test.
private func mkdirAll(_ path: UnsafePointer<CChar>) -> Int32 {
  var built = ""
  for part in String(cString: path).split(separator: "/") {
    built += "/" + part
    mkdir(built, 0o755)
  }
  return 0
}

private enum FileManagerLite {
  static func write(_ path: String) -> Bool {
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }

  static func remove(_ dir: String) {
    for sub in ["sub/c.ndjson", "sub/.hidden.vcf", "empty/x.doc", "b.vcf", "a.csv", "notes.txt"] { unlink(dir + "/" + sub) }
    for sub in ["sub", "empty", ""] { rmdir(dir + "/" + sub) }
  }
}
