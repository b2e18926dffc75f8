// Phone-number engine benchmarks (issue 4: OhanaPhone).
//
//   cd Benchmarks && swift package benchmark --target PhoneBenchmarks
//
// 1,000,000 numbers generated from the differential fixture's raw inputs
// (Tests/OhanaPhoneTests/Fixtures/phone-fixture.tsv: every region, typed
// many ways, ~10% garbage), each copy with a seeded change of its last digit.
// The input is built once, outside the measurement. For the side-by-side
// against C++ libphonenumber and Python see Benchmarks/compare/phone/compare.sh.
import Benchmark
import Ohana
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// 1M (raw UTF-8, region) inputs, built on first use.
final class PhoneInputs: Sendable {
  static let shared = PhoneInputs()
  static let count = 1_000_000

  private let state = Mutex<([UInt8], [Int], [RegionCode])?>(nil)

  /// All raw numbers in one buffer, their offsets, and their default regions.
  var inputs: ([UInt8], [Int], [RegionCode]) {
    state.withLock { s in
      if let s { return s }
      let built = Self.build()
      s = built
      return built
    }
  }

  private static func fixturePath() -> String {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)  // PhoneBenchmarks.swift, PhoneBenchmarks, Benchmarks, Benchmarks
    return parts.joined(separator: "/") + "/Tests/OhanaPhoneTests/Fixtures/phone-fixture.tsv"
  }

  private static func build() -> ([UInt8], [Int], [RegionCode]) {
    var file: [UInt8] = []
    if let f = fopen(fixturePath(), "rb") {
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        if n <= 0 { break }
        file.append(contentsOf: chunk[0..<n])
      }
      fclose(f)
    }
    var rows: [([UInt8], RegionCode)] = []
    for line in file.split(separator: 0x0A) {
      let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count >= 2 else { continue }
      rows.append((Array(fields[0]), RegionCode(utf8: fields[1]) ?? .unknown))
    }
    if rows.isEmpty { rows = [(Array("+1 650-253-0000".utf8), RegionCode("US") ?? .unknown)] }
    var bytes: [UInt8] = []
    var offsets: [Int] = [0]
    var regions: [RegionCode] = []
    bytes.reserveCapacity(count * 20)
    offsets.reserveCapacity(count + 1)
    regions.reserveCapacity(count)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for i in 0..<count {
      let (raw, region) = rows[i % rows.count]
      var copy = raw
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      if i >= rows.count, let last = copy.lastIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
        copy[last] = 0x30 + UInt8(truncatingIfNeeded: (seed >> 33) % 10)
      }
      bytes.append(contentsOf: copy)
      offsets.append(bytes.count)
      regions.append(region)
    }
    return (bytes, offsets, regions)
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .instructions],
    warmupIterations: 0, scalingFactor: .mega, maxDuration: .seconds(10), maxIterations: 3)

  Benchmark("phone parse + 4 formats, 1M numbers") { benchmark in
    let (bytes, offsets, regions) = PhoneInputs.shared.inputs
    let engine = PhoneNumberEngine()
    var out: [UInt8] = []
    out.reserveCapacity(1 << 16)
    benchmark.startMeasurement()
    // One run = 1M numbers; with scalingFactor .mega the figures are per number.
    for i in 0..<(offsets.count - 1) {
      out.removeAll(keepingCapacity: true)
      if let n = try? engine.parse(utf8: bytes[offsets[i]..<offsets[i + 1]], defaultRegion: regions[i]) {
        engine.appendAllFormats(n, to: &out)
      }
    }
    benchmark.stopMeasurement()
    blackHole(out.count)
  }

  Benchmark("phone parse + 4 formats + validity + type, 1M numbers") { benchmark in
    let (bytes, offsets, regions) = PhoneInputs.shared.inputs
    let engine = PhoneNumberEngine()
    var out: [UInt8] = []
    out.reserveCapacity(1 << 16)
    benchmark.startMeasurement()
    for i in 0..<(offsets.count - 1) {
      out.removeAll(keepingCapacity: true)
      engine.appendResultColumns(utf8: bytes[offsets[i]..<offsets[i + 1]], defaultRegion: regions[i], to: &out)
    }
    benchmark.stopMeasurement()
    blackHole(out.count)
  }

  // The processor: 1,000,000 contacts with 3 phone fields each (the 1M inputs
  // above, three per contact, cycling), the contact's region in a column.
  Benchmark(
    "PhoneNumberFormatting processor, 1M contacts x 3 phones",
    configuration: .init(metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 0, maxDuration: .seconds(20), maxIterations: 3)
  ) { benchmark in
    let table = PhoneTable.shared.table
    let processor = PhoneNumberFormatting(defaultRegion: .us, regionColumn: "region")
    benchmark.startMeasurement()
    let out = try? processor.process(Frame(table: table), context: ProcessingContext())
    benchmark.stopMeasurement()
    blackHole(out?.count ?? 0)
  }
}

/// 1,000,000 contacts, 3 phone fields each, built once.
final class PhoneTable: Sendable {
  static let shared = PhoneTable()
  private let state = Mutex<ContactTable?>(nil)

  var table: ContactTable {
    state.withLock { s in
      if let s { return s }
      let (bytes, offsets, regions) = PhoneInputs.shared.inputs
      let n = offsets.count - 1
      var b = ContactTableBuilder(pool: StringPool(capacity: n + 300))
      b.reserve(contacts: 1_000_000, fields: 3_000_000)
      var regionIDs: [StringID] = []
      regionIDs.reserveCapacity(1_000_000)
      let cell = b.pool.intern("cell")
      bytes.withUnsafeBytes { raw in
        for c in 0..<1_000_000 {
          b.beginContact(sourceLine: c + 1)
          for k in 0..<3 {
            let i = (3 * c + k) % n
            let v = b.pool.intern(UnsafeRawBufferPointer(rebasing: raw[offsets[i]..<offsets[i + 1]]))
            b.appendField(kind: .phone, label: cell, value: v)
          }
          regionIDs.append(b.pool.intern(regions[(3 * c) % n].description))
          b.endContact()
        }
      }
      var t = b.build()
      t.setColumn("region", .string(regionIDs))
      s = t
      return t
    }
  }
}

