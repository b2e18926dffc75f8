import Testing

@testable import OhanaPhone

/// Differential test against libphonenumber: the fixture's expected columns
/// were written by the pinned Python `phonenumbers` (Scripts/phone/make_fixture.py).
@Suite struct PhoneFixtureTests {
  static let fixturePath: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    return parts.joined(separator: "/") + "/Fixtures/phone-fixture.tsv"
  }()

  @Test func fixtureMatchesLibphonenumber() throws {
    let bytes = try #require(readFile(Self.fixturePath), "cannot read \(Self.fixturePath)")
    let engine = PhoneNumberEngine()
    var rows = 0
    var mismatches: [String] = []
    var regions = Set<String>()
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
      let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      rows += 1
      let region = RegionCode(utf8: fields[1]) ?? .unknown
      regions.insert(String(decoding: fields[1], as: UTF8.self))
      var out: [UInt8] = []
      engine.appendResultColumns(utf8: fields[0], defaultRegion: region, to: &out)
      if out != Array(fields[2]) {
        mismatches.append(
          "raw=\(String(decoding: fields[0], as: UTF8.self)) region=\(String(decoding: fields[1], as: UTF8.self))\n"
            + "  expected: \(String(decoding: fields[2], as: UTF8.self))\n"
            + "  got:      \(String(decoding: out, as: UTF8.self))")
      }
    }
    #expect(rows >= 20_000)
    #expect(regions.count >= 100)
    let rate = Double(rows - mismatches.count) / Double(max(rows, 1))
    print("phone fixture: \(rows) rows, \(regions.count) regions, \(mismatches.count) mismatches, match rate \(rate)")
    if rate < 0.999 || !mismatches.isEmpty {
      for m in mismatches { print(m) }
    }
    #expect(rate >= 0.999, "\(mismatches.count) of \(rows) rows differ")
  }
}

/// Reads a whole file with the C library (the module under test has no Foundation).
func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var out: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
    if n <= 0 { break }
    out.append(contentsOf: buffer[0..<n])
  }
  return out
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
