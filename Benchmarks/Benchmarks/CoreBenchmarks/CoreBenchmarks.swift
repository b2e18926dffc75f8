// Core store and processor benchmarks (issue: engine core).
//
//   cd Benchmarks && swift package benchmark --target CoreBenchmarks
//
// Every columnar pass runs next to the same job on the array-of-objects
// reference (`_OhanaTestSupport.Reference`), in the same run.
import Benchmark
import Ohana
import Synchronization
import _OhanaTestSupport

/// Data built once, outside every measurement.
final class Fixture: Sendable {
  static let shared = Fixture()
  static let contacts = 1_000_000

  private let tableState = Mutex<ContactTable?>(nil)
  private let stringsState = Mutex<([UInt8], [Int])?>(nil)
  private let referenceState = Mutex<[RefContact]?>(nil)

  /// 1,000,000 contacts, about 3 fields and 1 address each.
  var table: ContactTable {
    tableState.withLock { t in
      if let t { return t }
      let built = RandomContacts.table(count: Self.contacts, seed: 42)
      t = built
      return built
    }
  }

  /// The same contacts as reference objects.
  var reference: [RefContact] {
    let table = self.table
    return referenceState.withLock { r in
      if let r { return r }
      let built = (0..<table.rowCount).map { RefContact(table.contact(at: $0)) }
      r = built
      return built
    }
  }

  /// 10,000,000 short strings, about a third of them repeats, in one buffer.
  var strings: ([UInt8], [Int]) {
    stringsState.withLock { s in
      if let s { return s }
      var rng = SeededRandom(seed: 7)
      var bytes: [UInt8] = []
      var offsets: [Int] = [0]
      bytes.reserveCapacity(10_000_000 * 12)
      offsets.reserveCapacity(10_000_001)
      let distinct = 6_700_000
      for _ in 0..<10_000_000 {
        let k = UInt64.random(in: 0..<UInt64(distinct), using: &rng)
        let text = "n\(k)x\(k % 97)"
        bytes.append(contentsOf: text.utf8)
        offsets.append(bytes.count)
      }
      s = (bytes, offsets)
      return (bytes, offsets)
    }
  }
}

func runPass(_ p: some PostProcessor, _ frame: Frame) -> Frame {
  (try? p.process(frame, context: ProcessingContext())) ?? frame
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
    warmupIterations: 1, maxDuration: .seconds(4), maxIterations: 15)

  // MARK: Interning

  Benchmark("intern 10M strings (1/3 repeat)",
            configuration: .init(metrics: [.wallClock, .cpuTotal, .throughput], scalingFactor: .mega, maxDuration: .seconds(10), maxIterations: 5)) { benchmark in
    let (bytes, offsets) = Fixture.shared.strings
    benchmark.startMeasurement()
    var pool = StringPool()
    var ids: [StringID] = []
    for _ in benchmark.scaledIterations {
      pool = StringPool()
      bytes.withUnsafeBytes { b in offsets.withUnsafeBufferPointer { pool.intern(contentsOf: b, offsets: $0, into: &ids) } }
    }
    benchmark.stopMeasurement()
    blackHole(pool.count)
    blackHole(ids.count)
  }

  Benchmark("reference: Set<String> of 10M strings",
            configuration: .init(metrics: [.wallClock, .cpuTotal], maxDuration: .seconds(20), maxIterations: 2)) { benchmark in
    let (bytes, offsets) = Fixture.shared.strings
    benchmark.startMeasurement()
    var dict: [String: Int] = [:]
    for i in 0..<(offsets.count - 1) {
      let s = String(decoding: bytes[offsets[i]..<offsets[i + 1]], as: UTF8.self)
      if dict[s] == nil { dict[s] = dict.count }
    }
    benchmark.stopMeasurement()
    blackHole(dict.count)
  }

  // MARK: Building

  Benchmark("build 1M-contact table", configuration: .init(metrics: [.wallClock, .cpuTotal], maxDuration: .seconds(10), maxIterations: 3)) { benchmark in
    let t = RandomContacts.table(count: Fixture.contacts, seed: 42)
    blackHole(t.rowCount)
  }

  // MARK: Passes: columnar vs reference

  let columnar: [(String, any PostProcessor)] = [
    ("required-phone", RequiredField(.phone)),
    ("required-email", RequiredField(.email)),
    ("required-givenName", RequiredField(.givenName)),
    ("required-address", RequiredPostalAddress()),
    ("reverse", ReverseOrder()),
    ("and(phone,email)", CompositeAnd([RequiredField(.phone), RequiredField(.email)])),
    ("or(phone,email)", CompositeOr([RequiredField(.phone), RequiredField(.email)])),
    ("xor(phone,email)", CompositeXor([RequiredField(.phone), RequiredField(.email)])),
    ("or(and(phone,email),address)", CompositeOr([CompositeAnd([RequiredField(.phone), RequiredField(.email)]), RequiredPostalAddress()])),
    ("statistics", Statistics()),
    ("split-phone", SplitOnFieldType(.phone)),
  ]
  for (name, p) in columnar {
    Benchmark("columnar \(name) 1M") { benchmark in
      let frame = Frame(table: Fixture.shared.table)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { blackHole(runPass(p, frame).count) }
    }
  }

  let phone: ([RefContact]) -> [RefContact] = { Reference.requiredField($0, kind: .phone) }
  let email: ([RefContact]) -> [RefContact] = { Reference.requiredField($0, kind: .email) }
  let addr: ([RefContact]) -> [RefContact] = { Reference.requiredAddress($0) }
  let reference: [(String, ([RefContact]) -> [RefContact])] = [
    ("required-phone", phone),
    ("required-email", email),
    ("required-givenName", { Reference.requiredAttribute($0, .givenName) }),
    ("required-address", addr),
    ("reverse", { Reference.reverse($0) }),
    ("and(phone,email)", { Reference.composite($0, "and", [phone, email]) }),
    ("or(phone,email)", { Reference.composite($0, "or", [phone, email]) }),
    ("xor(phone,email)", { Reference.composite($0, "xor", [phone, email]) }),
    ("or(and(phone,email),address)", { Reference.composite($0, "or", [{ Reference.composite($0, "and", [phone, email]) }, addr]) }),
    ("statistics", { Reference.statistics($0) }),
    ("split-phone", { Reference.split($0, kind: .phone, sourceRows: Array(0..<$0.count)) }),
  ]
  for (name, job) in reference {
    Benchmark("reference \(name) 1M", configuration: .init(metrics: [.wallClock, .cpuTotal], maxDuration: .seconds(6), maxIterations: 5)) { benchmark in
      let objects = Fixture.shared.reference
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { blackHole(job(objects).count) }
    }
  }
}
