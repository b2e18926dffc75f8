// Text benchmarks: sorting 1,000,000 names with ICU collation (issue 5).
//
// Input: the names file of Benchmarks/compare/sort (OHANA_SORT_NAMES, or
// ../datasets/generated/names-1m.txt when run from Benchmarks/), else a
// seeded synthetic set of 1,000,000 names with 640,000 distinct.
//
//   Text.sort.1M.de      intern + parallel keys + radix sort + row order (the whole sort)
//   Text.sortKeys.640K   parallel sort keys of the distinct names (interned by StringPool)
//   Text.radix.640K      radix sort + ranks of the precomputed keys
//
// Run from Benchmarks/: swift package benchmark --target TextBenchmarks
import Benchmark
import Glibc
import Ohana

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(20),
    maxIterations: 5
  )

  Benchmark("Text.sort.1M.de", configuration: configuration) { benchmark, input in
    let collator = input.collator
    for _ in benchmark.scaledIterations {
      blackHole(SortPipeline.sortRows(input.text, lines: input.lines, collator: collator))
    }
  } setup: {
    try SortInput.load()
  }

  Benchmark("Text.sortKeys.640K", configuration: configuration) { benchmark, input in
    for _ in benchmark.scaledIterations {
      blackHole(input.collator.sortKeys(for: input.distinct))
    }
  } setup: {
    try SortInput.load()
  }

  Benchmark("Text.radix.640K", configuration: configuration) { benchmark, input in
    for _ in benchmark.scaledIterations {
      blackHole(KeySort.ranks(input.keys))
    }
  } setup: {
    try SortInput.load()
  }
}

/// The names, split into lines, with their distinct set and its keys.
final class SortInput: Sendable {
  let text: [UInt8]
  let lines: [Range<Int>]
  let distinct: ByteStrings
  let keys: SortKeys
  let collator: Collator

  init(text: [UInt8]) throws {
    self.text = text
    lines = SortPipeline.lineRanges(text)
    collator = try Collator(locale: "de")
    distinct = SortPipeline.intern(text, lines: lines).distinct
    keys = collator.sortKeys(for: distinct)
  }

  static func load() throws -> SortInput {
    let env = getenv("OHANA_SORT_NAMES").map { String(cString: $0) }
    for path in [env, "../datasets/generated/names-1m.txt", "datasets/generated/names-1m.txt"] {
      if let path, let bytes = readFile(path) { return try SortInput(text: bytes) }
    }
    return try SortInput(text: syntheticNames(rows: 1_000_000, distinct: 640_000, seed: 42))
  }
}

enum SortPipeline {
  /// The whole sort of rows by name: intern, keys per distinct name, ranks, row order.
  static func sortRows(_ text: [UInt8], lines: [Range<Int>], collator: Collator) -> [UInt32] {
    let (distinct, keyOfRow) = intern(text, lines: lines)
    let keys = collator.sortKeys(for: distinct)
    let ranks = KeySort.ranks(keys)
    return KeySort.rowOrder(keyOfRow: keyOfRow, ranks: ranks)
  }

  static func lineRanges(_ text: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    for (i, b) in text.enumerated() where b == UInt8(ascii: "\n") {
      ranges.append(start..<i)
      start = i + 1
    }
    if start < text.count { ranges.append(start..<text.count) }
    return ranges
  }

  /// Interns the lines into OhanaCore's StringPool (the engine's interner)
  /// and returns the distinct strings as ByteStrings (string i = pool id i,
  /// id 0 being the empty string) with the id of each row.
  static func intern(_ text: [UInt8], lines: [Range<Int>]) -> (distinct: ByteStrings, keyOfRow: [UInt32]) {
    var pool = StringPool(capacity: lines.count)
    var ids: [StringID] = []
    ids.reserveCapacity(lines.count)
    text.withUnsafeBytes { pool.intern(separatedBy: UInt8(ascii: "\n"), in: $0, into: &ids) }
    var bytes: [UInt8] = []
    var offsets: [Int] = [0]
    pool.withStorage { arena, ends in
      bytes = Array(arena)
      offsets.reserveCapacity(ends.count + 1)
      offsets.append(contentsOf: ends)
    }
    return (ByteStrings(bytes: bytes, offsets: offsets), ids.map(\.rawValue))
  }
}

func readFile(_ path: String) -> [UInt8]? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
    if n == 0 { break }
    bytes.append(contentsOf: chunk[0..<n])
  }
  return bytes
}

/// Seeded synthetic names across scripts when no names file is present.
func syntheticNames(rows: Int, distinct: Int, seed: UInt64) -> [UInt8] {
  var state = seed
  func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  let given = [
    "Anna", "Jürgen", "Björn", "Åsa", "Märta", "Amélie", "François", "José", "Ángel", "Łukasz",
    "Małgorzata", "Jiří", "Ayşe", "İbrahim", "James", "Mary", "João", "Søren", "Александр", "Елена",
    "Γιώργος", "Μαρία", "محمد", "דוד", "अमित", "สมชาย", "太郎", "さくら", "伟", "민준",
  ]
  let family = [
    "Müller", "Schmidt", "Öberg", "Åberg", "Lefèvre", "García", "Núñez", "Wiśniewski", "Dvořák",
    "Yılmaz", "Smith", "O'Brien", "Gonçalves", "Møller", "Nguyễn", "Иванов", "Фёдоров",
    "Παπαδόπουλος", "العلي", "כהן", "शर्मा", "ศรีสุข", "佐藤", "山田", "王", "欧阳", "김", "Mueller",
  ]
  let initials = Array("ABCDEFGHIJKLMNOPRSTUVWZÅÄÖÉ").map(String.init)
  var seen = Set<String>()
  var names: [String] = []
  while names.count < distinct {
    var parts = [given[Int(next() % UInt64(given.count))]]
    if next() % 3 == 0 { parts.append(given[Int(next() % UInt64(given.count))]) }
    if next() % 2 == 0 { parts.append(initials[Int(next() % UInt64(initials.count))] + ".") }
    var f = family[Int(next() % UInt64(family.count))]
    if next() % 3 == 0 { f += "-" + family[Int(next() % UInt64(family.count))] }
    parts.append(f)
    if next() % 4 == 0 { parts.append(String(next() % 1000)) }
    let name = parts.joined(separator: " ")
    if seen.insert(name).inserted { names.append(name) }
  }
  var all = names
  while all.count < rows {
    let u = Double(next() >> 11) / Double(1 << 53)
    all.append(names[min(names.count - 1, Int(Double(names.count) * u * u * u))])
  }
  for i in stride(from: all.count - 1, to: 0, by: -1) {
    all.swapAt(i, Int(next() % UInt64(i + 1)))
  }
  var text: [UInt8] = []
  for n in all {
    text.append(contentsOf: n.utf8)
    text.append(UInt8(ascii: "\n"))
  }
  return text
}
