// IO benchmarks: OhanaIO vCard / CSV / NDJSON reading and writing (issue 3).
//
// Input: the vCard file named by OHANA_IO_VCF (e.g. the one compare.sh or
// `ohana generate` made), else 50,000 seeded synthetic cards of mixed
// versions built in memory.
//
//   IO.vcard.parse      bytes → table, all cores (chunked, parallel)
//   IO.vcard.parse.1    the same on one core
//   IO.vcard.write4     table → vCard 4.0 bytes
//   IO.ndjson.write     table → NDJSON bytes
//   IO.ndjson.parse     NDJSON bytes → table
//
// Throughput is reported per card (scaling factor = cards). Run from
// Benchmarks/: swift package benchmark --target IOBenchmarks
import Benchmark
import Glibc
import OhanaCore
import OhanaIO

let benchmarks: @Sendable () -> Void = {
  let input = IOInput.load()
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident],
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(20),
    maxIterations: 10
  )

  Benchmark("IO.vcard.parse", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try ContactIO.read(bytes: input.vcard, format: .vcard4))
    }
  }

  Benchmark("IO.vcard.parse.1", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try ContactIO.read(bytes: input.vcard, format: .vcard4, options: ReadOptions(workers: 1)))
    }
  }

  Benchmark("IO.vcard.write4", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      var out: [UInt8] = []
      out.reserveCapacity(input.vcard.count)
      try ContactIO.write(input.table, format: .vcard4, to: &out)
      blackHole(out)
    }
  }

  Benchmark("IO.ndjson.write", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      var out: [UInt8] = []
      try ContactIO.write(input.table, format: .ndjson, to: &out)
      blackHole(out)
    }
  }

  Benchmark("IO.ndjson.parse", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try ContactIO.read(bytes: input.ndjson, format: .ndjson))
    }
  }
}

/// The benchmark input: vCard bytes, the table read from them and its NDJSON.
final class IOInput: Sendable {
  let vcard: [UInt8]
  let table: ContactTable
  let ndjson: [UInt8]

  init(vcard: [UInt8]) {
    self.vcard = vcard
    let table = (try? ContactIO.read(bytes: vcard, format: .vcard4).table) ?? ContactTable()
    self.table = table
    var json: [UInt8] = []
    try? ContactIO.write(table, format: .ndjson, to: &json)
    ndjson = json
  }

  static func load() -> IOInput {
    if let env = getenv("OHANA_IO_VCF").map({ String(cString: $0) }), let bytes = readFile(env) {
      return IOInput(vcard: bytes)
    }
    return IOInput(vcard: syntheticCards(50_000, seed: 42))
  }
}

func readFile(_ path: String) -> [UInt8]? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var out: [UInt8] = []
  var buf = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = fread(&buf, 1, buf.count, f)
    if n <= 0 { break }
    out.append(contentsOf: buf[0..<n])
  }
  return out
}

/// Seeded cards of mixed versions (2.1 with quoted-printable, 3.0 with
/// Apple groups, 4.0), about 350 bytes each.
func syntheticCards(_ count: Int, seed: UInt64) -> [UInt8] {
  var rng = SplitMix(seed: seed)
  let given = ["James", "Mary", "Zoë", "Björn", "José", "Аня", "太郎", "Olivia", "Chen", "Fatima"]
  let family = ["Smith", "García", "Müller", "Nguyen", "O'Brien", "Иванов", "山田", "Patel", "Rossi", "Okafor"]
  let orgs = ["Acme Corp", "Globex", "Initech", "Soylent\\, Inc.", "Müller & Söhne"]
  var s = ""
  s.reserveCapacity(count * 360)
  for i in 0..<count {
    let g = given[Int(rng.next() % 10)]
    let f = family[Int(rng.next() % 10)]
    let version = ["2.1", "3.0", "3.0", "4.0"][Int(rng.next() % 4)]
    s += "BEGIN:VCARD\r\nVERSION:\(version)\r\nN:\(f);\(g);;;\r\nFN:\(g) \(f)\r\n"
    s += "ORG:\(orgs[Int(rng.next() % 5)])\r\nTITLE:Engineer\r\n"
    let phone = "+1 \(200 + rng.next() % 800) \(100 + rng.next() % 900) \(1000 + rng.next() % 9000)"
    switch version {
    case "2.1":
      s += "TEL;CELL;VOICE:\(phone)\r\nEMAIL;INTERNET:p\(i)@example.com\r\n"
      s += "NOTE;ENCODING=QUOTED-PRINTABLE:Met at the conference=0D=0Afollow up=\r\n in Q3\r\n"
    case "3.0":
      s += "item1.TEL;type=CELL:\(phone)\r\nitem1.X-ABLabel:_$!<Mobile>!$_\r\n"
      s += "EMAIL;TYPE=INTERNET,HOME:p\(i)@example.com\r\nADR;TYPE=WORK:;;\(i) Main St;Springfield;IL;62701;USA\r\n"
    default:
      s += "UID:urn:uuid:\(rng.next())\r\nTEL;TYPE=cell,voice;VALUE=uri:tel:\(phone)\r\n"
      s += "EMAIL;TYPE=home:p\(i)@example.com\r\nNOTE:Prefers email\\, not phone.\r\nCATEGORIES:friends,work\r\n"
    }
    s += "REV:20240101T120000Z\r\nEND:VCARD\r\n"
  }
  return Array(s.utf8)
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
