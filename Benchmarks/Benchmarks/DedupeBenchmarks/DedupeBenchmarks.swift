// Dedupe benchmarks (issue 6).
//
//   cd Benchmarks && swift package benchmark --target DedupeBenchmarks
//
// The data is built once, outside every measurement: random contacts from
// `_OhanaTestSupport` plus duplicates of a fifth of them, written another way
// (upper-case family name, a nickname, the phone in international form, an
// e-mail in upper case, a field dropped). The quality figures (F1 against
// Splink) come from Benchmarks/compare/dedupe/compare.sh on generated data.
import Benchmark
import Ohana
import Synchronization
import _OhanaTestSupport

/// Contacts with known duplicates, built once.
final class DedupeFixture: Sendable {
  static let shared = DedupeFixture()
  private let state = Mutex<[Int: ContactTable]>([:])

  func table(_ count: Int) -> ContactTable {
    state.withLock { cache in
      if let t = cache[count] { return t }
      let t = Self.build(count)
      cache[count] = t
      return t
    }
  }

  static func build(_ count: Int) -> ContactTable {
    let originals = count * 5 / 6
    var contacts = RandomContacts.make(count: originals, seed: 6)
    var rng = SeededRandom(seed: 66)
    for i in 0..<(count - originals) {
      var d = contacts[(i * 7919) % originals]
      d.uid = "dup-\(i)"
      d.familyName = d.familyName?.uppercased()
      if d.givenName == "Homer" { d.givenName = "Homie" }
      d.fields = d.fields.map { f in
        var f = f
        if f.kind == .email { f.value = f.value.uppercased() }
        if f.kind == .phone, f.value.first != "+" { f.value = "+1 " + f.value }
        return f
      }
      if d.fields.count > 1 && rng.chance(0.3) { d.fields.removeLast() }
      contacts.append(d)
    }
    // Shuffle so that duplicates are far apart.
    for i in stride(from: contacts.count - 1, to: 0, by: -1) {
      contacts.swapAt(i, Int(rng.next() % UInt64(i + 1)))
    }
    return ContactTable(contacts: contacts)
  }
}

let benchmarks: @Sendable () -> Void = {
  let heavy = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
    maxDuration: .seconds(10), maxIterations: 5)

  Benchmark("findDuplicates 120k contacts (keys, blocking, scoring, clustering)", configuration: heavy) { benchmark in
    let table = DedupeFixture.shared.table(120_000)
    let dedupe = Deduplicator()
    benchmark.startMeasurement()
    let result = dedupe.findDuplicates(in: table)
    blackHole(result.statistics)
  }

  Benchmark("deduplicate + merge 120k contacts", configuration: heavy) { benchmark in
    let table = DedupeFixture.shared.table(120_000)
    let dedupe = Deduplicator()
    benchmark.startMeasurement()
    let (result, merged) = dedupe.deduplicate(table)
    blackHole(result.statistics)
    blackHole(merged.rowCount)
  }

  Benchmark("Dedupe processor 120k contacts (EM weights)", configuration: heavy) { benchmark in
    let table = DedupeFixture.shared.table(120_000)
    let processor = Dedupe(configuration: DedupeConfiguration(estimateWeights: true))
    benchmark.startMeasurement()
    let out = try processor.process(Frame(table: table), context: ProcessingContext())
    blackHole(out.table.rowCount)
  }

  Benchmark(
    "Jaro-Winkler 1M name pairs",
    configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], scalingFactor: .mega,
                         maxDuration: .seconds(5), maxIterations: 20)
  ) { benchmark in
    let names = ["martha", "marhta", "dwayne", "duane", "dixon", "dicksonx", "katherine", "kathryn",
                 "aleksandr", "alexander", "jonathan", "johnathan", "smith", "smyth", "muller", "mueller"]
    let bytes = names.map { Array($0.utf8) }
    benchmark.startMeasurement()
    var sum = 0.0
    for i in benchmark.scaledIterations {
      let a = bytes[i & 15], b = bytes[(i >> 4) & 15]
      sum += a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in JaroWinkler.similarity(pa, pb) } }
    }
    blackHole(sum)
  }
}
