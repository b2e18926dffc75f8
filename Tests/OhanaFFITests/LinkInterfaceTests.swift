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
    // Built-in weights: a pair of which both sides have phones (class 1)
    // but share none cannot reach the default threshold; a pair where one
    // side has neither (class 0) is never skipped.
    let skip = plan("weights=defaults", 10, 10).2
    #expect(skip[1 * 4 + 1] == 1)
    #expect((0..<4).allSatisfy { skip[$0] == 0 && skip[$0 * 4] == 0 })
  }
}
