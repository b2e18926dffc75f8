// The engine-core figures in one process, as a table: interning, building,
// and every pass over 1,000,000 contacts next to the same job on the
// array-of-objects reference (best of N runs each, wall clock, one thread
// unless the pass itself is parallel). The ordo-one suite CoreBenchmarks
// measures the same jobs with the standard harness.
//
//   cd Benchmarks && swift run -c release core-bench [intern [COUNT] | passes | NAME-PART]
import Ohana
import Foundation
import _OhanaTestSupport

let clock = ContinuousClock()

func best(_ runs: Int, _ body: () -> Int) -> (ms: Double, result: Int) {
  var bestTime = Double.infinity
  var result = 0
  for _ in 0..<runs {
    let start = clock.now
    result = body()
    bestTime = min(bestTime, (clock.now - start).seconds * 1000)
  }
  return (bestTime, result)
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func fmt(_ x: Double) -> String {
  let scaled = (x * 100).rounded() / 100
  return "\(scaled)"
}

let only = CommandLine.arguments.dropFirst().first
let internCount = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 10_000_000

// MARK: Interning: 10M short strings, about a third repeats.
if only == nil || only == "intern" {
  var rng = SeededRandom(seed: 7)
  var bytes: [UInt8] = []
  var offsets: [Int] = [0]
  bytes.reserveCapacity(120_000_000)
  offsets.reserveCapacity(internCount + 1)
  for _ in 0..<internCount {
    let k = UInt64.random(in: 0..<UInt64(internCount * 67 / 100), using: &rng)
    bytes.append(contentsOf: "n\(k)x\(k % 97)".utf8)
    offsets.append(bytes.count)
  }
  var cpuBest = Double.infinity
  let (ms, distinct) = best(3) {
    var t0 = timespec(), t1 = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0)
    defer {
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1)
      cpuBest = min(cpuBest, Double(t1.tv_sec - t0.tv_sec) * 1000 + Double(t1.tv_nsec - t0.tv_nsec) / 1e6)
    }
    var pool = StringPool()
    var ids: [StringID] = []
    bytes.withUnsafeBytes { b in offsets.withUnsafeBufferPointer { pool.intern(contentsOf: b, offsets: $0, into: &ids) } }
    return pool.count - 1
  }
  print("intern \(internCount) strings (\(distinct) distinct): \(fmt(ms)) ms = \(fmt(Double(internCount) / 1000 / ms)) M strings/s (one core; thread CPU \(fmt(cpuBest)) ms)")
}

if only == "intern" { exit(0) }

// MARK: Building
let (buildMs, _) = best(1) { RandomContacts.table(count: 1_000_000, seed: 42).rowCount }
let table = RandomContacts.table(count: 1_000_000, seed: 42)
print("build 1,000,000-contact table (\(table.fields.count) fields, \(table.addresses.count) addresses): \(fmt(buildMs)) ms")
let objects = (0..<table.rowCount).map { RefContact(table.contact(at: $0)) }

// MARK: Passes
let phone: ([RefContact]) -> [RefContact] = { Reference.requiredField($0, kind: .phone) }
let email: ([RefContact]) -> [RefContact] = { Reference.requiredField($0, kind: .email) }
let addr: ([RefContact]) -> [RefContact] = { Reference.requiredAddress($0) }
let jobs: [(String, any PostProcessor, ([RefContact]) -> [RefContact])] = [
  ("RequiredField(.phone)", RequiredField(.phone), phone),
  ("RequiredField(.email)", RequiredField(.email), email),
  ("RequiredField(.givenName)", RequiredField(.givenName), { Reference.requiredAttribute($0, .givenName) }),
  ("RequiredPostalAddress", RequiredPostalAddress(), addr),
  ("ReverseOrder", ReverseOrder(), { Reference.reverse($0) }),
  ("CompositeAnd(phone, email)", CompositeAnd([RequiredField(.phone), RequiredField(.email)]), { Reference.composite($0, "and", [phone, email]) }),
  ("CompositeOr(phone, email)", CompositeOr([RequiredField(.phone), RequiredField(.email)]), { Reference.composite($0, "or", [phone, email]) }),
  ("CompositeXor(phone, email)", CompositeXor([RequiredField(.phone), RequiredField(.email)]), { Reference.composite($0, "xor", [phone, email]) }),
  ("Or(And(phone, email), address)", CompositeOr([CompositeAnd([RequiredField(.phone), RequiredField(.email)]), RequiredPostalAddress()]),
   { Reference.composite($0, "or", [{ Reference.composite($0, "and", [phone, email]) }, addr]) }),
  ("Statistics", Statistics(), { Reference.statistics($0) }),
  ("SplitOnFieldType(.phone)", SplitOnFieldType(.phone), { Reference.split($0, kind: .phone, sourceRows: Array(0..<$0.count)) }),
]
print("")
print("| pass over 1,000,000 contacts | columnar (ms) | reference (ms) | speed-up | rows out |")
print("| --- | ---: | ---: | ---: | ---: |")
let frame = Frame(table: table)
for (name, p, ref) in jobs where only == nil || only == "passes" || name.contains(only ?? "") {
  let (cms, rows) = best(7) { ((try? p.process(frame, context: ProcessingContext())) ?? frame).count }
  let (rms, refRows) = best(3) { ref(objects).count }
  let check = rows == refRows ? "" : " (MISMATCH: reference \(refRows))"
  print("| \(name) | \(fmt(cms)) | \(fmt(rms)) | \(fmt(rms / cms))x | \(rows)\(check) |")
}
