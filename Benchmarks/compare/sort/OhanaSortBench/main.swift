// ohana-sort-bench: sorts the rows of a names file (one per line) with
// OhanaText, the way the engine does it, and prints CPU and wall times.
//
//   intern the rows into OhanaCore's StringPool (--bench-interner: a local
//   open-addressing interner instead)
//   one sort key per distinct string, in parallel (Collator.sortKeys)
//   radix-sort the distinct keys into ranks (KeySort.ranks)
//   counting-sort the rows by rank (KeySort.rowOrder)
//
// Reading the file is not timed (the ICU floor and DuckDB exclude it too).
// The checksum (FNV-1a of the sorted lines) matches icu_floor's when the
// orders agree. Usage: ohana-sort-bench NAMES.txt [--locale de] [--sequential]
//   [--repeat N] [--bench-interner] [--detail]
import Glibc
import OhanaCore
import OhanaText

func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func wallSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

struct Stopwatch {
  var cpu = cpuSeconds()
  var wall = wallSeconds()
  mutating func lap() -> (cpu: Double, wall: Double) {
    let (c, w) = (cpuSeconds(), wallSeconds())
    defer { (cpu, wall) = (c, w) }
    return (c - cpu, w - wall)
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

/// Line ranges of a text buffer (a final line without a newline counts).
func lineRanges(_ text: [UInt8]) -> [Range<Int>] {
  var ranges: [Range<Int>] = []
  var start = 0
  for (i, b) in text.enumerated() where b == UInt8(ascii: "\n") {
    ranges.append(start..<i)
    start = i + 1
  }
  if start < text.count { ranges.append(start..<text.count) }
  return ranges
}

/// A minimal byte-string interner (open addressing), standing in for the
/// store's StringPool: ids are dense, in first-seen order.
struct Interner {
  private var slots: [UInt32]
  private var mask: Int
  private(set) var bytes: [UInt8] = []
  private(set) var offsets: [Int] = [0]
  private var hashes: [UInt64] = []

  init(expected: Int) {
    var capacity = 16
    while capacity < expected * 2 { capacity <<= 1 }
    slots = [UInt32](repeating: 0, count: capacity)
    mask = capacity - 1
  }

  var count: Int { hashes.count }

  static func hash(_ s: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(s.count)
    var i = 0
    while i + 8 <= s.count {
      let w = UnsafeRawPointer(s.baseAddress! + i).loadUnaligned(as: UInt64.self)
      h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
      h ^= h >> 32
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < s.count {
      tail |= UInt64(s[i]) << shift
      shift += 8
      i += 1
    }
    h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
    return h ^ (h >> 29)
  }

  mutating func intern(_ s: UnsafeBufferPointer<UInt8>) -> UInt32 {
    if count * 2 >= slots.count { grow() }
    let h = Interner.hash(s)
    var i = Int(truncatingIfNeeded: h) & mask
    while true {
      let slot = slots[i]
      if slot == 0 {
        let id = UInt32(count)
        slots[i] = id + 1
        hashes.append(h)
        bytes.append(contentsOf: s)
        offsets.append(bytes.count)
        return id
      }
      let id = Int(slot - 1)
      if hashes[id] == h && offsets[id + 1] - offsets[id] == s.count {
        let equal = bytes.withUnsafeBufferPointer { b in
          s.isEmpty || memcmp(b.baseAddress! + offsets[id], s.baseAddress!, s.count) == 0
        }
        if equal { return UInt32(id) }
      }
      i = (i + 1) & mask
    }
  }

  private mutating func grow() {
    slots = [UInt32](repeating: 0, count: slots.count * 2)
    mask = slots.count - 1
    for (id, h) in hashes.enumerated() {
      var i = Int(truncatingIfNeeded: h) & mask
      while slots[i] != 0 { i = (i + 1) & mask }
      slots[i] = UInt32(id + 1)
    }
  }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var locale = "de"
var parallel = true
var repeats = 1
var path: String?
while !arguments.isEmpty {
  let a = arguments.removeFirst()
  switch a {
  case "--locale": locale = arguments.isEmpty ? locale : arguments.removeFirst()
  case "--sequential": parallel = false
  case "--detail", "--bench-interner": break
  case "--repeat": repeats = Int(arguments.isEmpty ? "1" : arguments.removeFirst()) ?? 1
  default: path = a
  }
}
guard let path, let text = readFile(path) else {
  print("usage: ohana-sort-bench NAMES.txt [--locale de] [--sequential] [--repeat N]")
  exit(2)
}
let lines = lineRanges(text)
let collator: Collator
do {
  collator = try Collator(locale: locale)
} catch {
  print("error: \(error)")
  exit(1)
}

for run in 0..<repeats {
  var watch = Stopwatch()
  let distinct: ByteStrings
  var keyOfRow: [UInt32]
  if CommandLine.arguments.contains("--bench-interner") {
    var interner = Interner(expected: lines.count)
    keyOfRow = [UInt32](repeating: 0, count: lines.count)
    text.withUnsafeBufferPointer { t in
      for (row, r) in lines.enumerated() {
        keyOfRow[row] = interner.intern(UnsafeBufferPointer(rebasing: t[r]))
      }
    }
    distinct = ByteStrings(bytes: interner.bytes, offsets: interner.offsets)
  } else {
    // The engine's own interner: OhanaCore's StringPool (id 0 = empty string).
    var pool = StringPool(capacity: lines.count)
    var ids: [StringID] = []
    ids.reserveCapacity(lines.count)
    text.withUnsafeBytes { pool.intern(separatedBy: UInt8(ascii: "\n"), in: $0, into: &ids) }
    var bytes: [UInt8] = []
    var offsets: [Int] = [0]
    pool.withStorage { arena, ends in
      bytes = Array(arena)
      // ends[id] is the end of pool id `id` (ends[0] == 0 for the empty id 0);
      // a leading 0 makes string i the bytes of pool id i, so key i = id i.
      offsets.reserveCapacity(ends.count + 1)
      offsets.append(contentsOf: ends)
    }
    distinct = ByteStrings(bytes: bytes, offsets: offsets)
    keyOfRow = ids.map(\.rawValue)
  }
  let intern = watch.lap()
  let keys = collator.sortKeys(for: distinct, parallel: parallel)
  let keyTime = watch.lap()
  if CommandLine.arguments.contains("--detail") {
    _ = watch.lap()
    let o = KeySort.order(keys, parallel: parallel)
    let t = watch.lap()
    print("order only: cpu=\(t.cpu) wall=\(t.wall) \(o.count)")
  }
  let ranks = KeySort.ranks(keys, parallel: parallel)
  let rankTime = watch.lap()
  let order = KeySort.rowOrder(keyOfRow: keyOfRow, ranks: ranks)
  let rowTime = watch.lap()

  var h: UInt64 = 1_469_598_103_934_665_603
  for row in order {
    for b in text[lines[Int(row)]] { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
    h = (h ^ 0x0A) &* 1_099_511_628_211
  }
  let first = order.first.map { String(decoding: text[lines[Int($0)]], as: UTF8.self) } ?? ""
  let total = (
    cpu: intern.cpu + keyTime.cpu + rankTime.cpu + rowTime.cpu,
    wall: intern.wall + keyTime.wall + rankTime.wall + rowTime.wall
  )
  func f(_ x: Double) -> String {
    let ms = Int((x * 1000).rounded())
    return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)s"
  }
  print(
    "ohana rows=\(lines.count) distinct=\(distinct.count) locale=\(locale) "
      + "threads=\(parallel ? "all" : "1") run=\(run + 1) "
      + "| intern: cpu=\(f(intern.cpu)) wall=\(f(intern.wall)) "
      + "| keys: cpu=\(f(keyTime.cpu)) wall=\(f(keyTime.wall)) (\(keys.byteCount) bytes) "
      + "| radix: cpu=\(f(rankTime.cpu)) wall=\(f(rankTime.wall)) "
      + "| rows: cpu=\(f(rowTime.cpu)) wall=\(f(rowTime.wall)) "
      + "| total: cpu=\(f(total.cpu)) wall=\(f(total.wall)) "
      + "| first=\(first) | checksum=\(String(h, radix: 16))")
}
