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

  /// `appendFormats` writes exactly what `format(_:as:)` does, for any
  /// subset and order of formats, on every parsable fixture number.
  @Test func appendFormatsMatchesFormatOnTheFixture() throws {
    let bytes = try #require(readFile(Self.fixturePath), "cannot read \(Self.fixturePath)")
    let engine = PhoneNumberEngine()
    let orders: [[PhoneNumberFormat]] = [
      PhoneNumberFormat.allCases, PhoneNumberFormat.allCases.reversed(), [.rfc3966, .national], [.international],
      [.national, .national, .e164], [],
    ]
    var checked = 0
    var mismatches = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
      let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, let number = try? engine.parse(utf8: fields[0], defaultRegion: RegionCode(utf8: fields[1]) ?? .unknown)
      else { continue }
      for formats in orders {
        var out: [UInt8] = [0x41]  // appends after what is there
        var ends: [Int] = []
        engine.appendFormats(number, formats, to: &out, ends: &ends)
        var start = 1
        var same = ends.count == formats.count
        for (f, end) in zip(formats, ends) {
          same = same && String(decoding: out[start..<end], as: UTF8.self) == engine.format(number, as: f)
          start = end
        }
        if !same || start != out.count { mismatches += 1 }
      }
      checked += 1
    }
    #expect(checked >= 15_000)
    #expect(mismatches == 0)
  }

  /// A parse that reports `regionFree` gives the same number in any region.
  @Test func regionFreeParsesAgreeInEveryRegion() throws {
    let bytes = try #require(readFile(Self.fixturePath), "cannot read \(Self.fixturePath)")
    let engine = PhoneNumberEngine()
    let others = ["US", "GB", "DE", "BR", "JP", "ZZ", "001", "XK", "IT"].map { RegionCode($0) ?? .unknown }
    var free = 0
    var mismatches = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
      let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      var regionFree = false
      let region = RegionCode(utf8: fields[1]) ?? .unknown
      guard let number = try? engine.parse(utf8: fields[0], defaultRegion: region, regionFree: &regionFree),
        regionFree
      else { continue }
      free += 1
      for other in others {
        var again = false
        if (try? engine.parse(utf8: fields[0], defaultRegion: other, regionFree: &again)) != number || !again {
          mismatches += 1
        }
      }
    }
    #expect(free >= 5_000)
    #expect(mismatches == 0)
    // Not region-free: national numbers, and numbers read through the region's IDD.
    var flag = true
    _ = try? engine.parse(utf8: Array("(650) 253-0000".utf8), defaultRegion: .us, regionFree: &flag)
    #expect(!flag)
    flag = true
    _ = try? engine.parse(utf8: Array("011 44 20 7031 3000".utf8), defaultRegion: .us, regionFree: &flag)
    #expect(!flag)
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
