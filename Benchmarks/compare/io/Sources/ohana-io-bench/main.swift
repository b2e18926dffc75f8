// ohana-io-bench: parse and write throughput of OhanaIO on one file.
//
//   ohana-io-bench read FILE [--workers N] [--chunk-mib M]
//   ohana-io-bench write FILE [--format vcard4|vcard3|ndjson|csv] [--workers N]
//
// `read` streams FILE into a table and prints one line of figures; run it
// under /usr/bin/time -v for peak memory. `write` reads FILE first, then
// times writing the table to /dev/null-like memory blocks and to a file.
import OhanaCore
import OhanaIO

#if canImport(Glibc)
  import Glibc
#endif

// No Foundation here, as in OhanaIO itself: the peak memory this tool
// reports is the reader's plus the Swift runtime's, not Foundation's
// (about 9 MB resident once loaded).

/// `x` with `digits` decimals (what `String(format: "%.Nf")` gives).
func fixed(_ x: Double, _ digits: Int) -> String {
  var buffer = [CChar](repeating: 0, count: 64)
  let n = buffer.withUnsafeMutableBufferPointer { b in
    withVaList([digits, x]) { vsnprintf(b.baseAddress, 64, "%.*f", $0) }
  }
  return String(decoding: buffer.prefix(Int(max(0, min(63, n)))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func environment(_ name: String) -> Bool { getenv(name) != nil }

func printError(_ text: String) { var t = text; t.withUTF8 { _ = write(2, $0.baseAddress, $0.count) } }

/// The whole of a small file such as /proc/self/status.
func readSmallFile(_ path: String) -> String? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var out: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n <= 0 { break }
    out.append(contentsOf: buffer[0..<n])
  }
  return String(decoding: out, as: UTF8.self)
}

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A line of /proc/self/status ("VmRSS", "VmHWM"), e.g. "423160 kB".
func procStatus(_ key: String) -> String {
  guard let text = readSmallFile("/proc/self/status") else { return "?" }
  for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
    return String(line.dropFirst(key.count + 1).drop(while: { $0 == " " || $0 == "\t" }))
  }
  return "?"
}

// As the `ohana` tool does (see ProcessMemory); OHANA_DYNAMIC_MMAP=1 leaves
// glibc's dynamic threshold on, to measure the difference.
if !environment("OHANA_DYNAMIC_MMAP") { ProcessMemory.fixMmapThreshold() }

var args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else {
  printError("usage: ohana-io-bench read|write FILE [--workers N] [--chunk-mib M] [--format F]\n")
  exit(2)
}
let mode = args.removeFirst()
let path = args.removeFirst()
var options = ReadOptions()
var format = ContactFormat.vcard4
while !args.isEmpty {
  let flag = args.removeFirst()
  let value = args.isEmpty ? "" : args.removeFirst()
  switch flag {
  case "--workers": options.workers = Int(value) ?? options.workers
  case "--chunk-mib": options.chunkSize = (Int(value) ?? 2) << 20
  case "--format": format = ContactFormat(name: value) ?? format
  default: break
  }
}

do {
  let t0 = now()
  let r = try ContactIO.read(path: path, options: options)
  let t1 = now()
  let secs = t1 - t0
  let mb = Double(r.bytesRead) / 1e6
  print(
    "read: \(fixed(mb, 1)) MB, \(r.recordsRead) contacts, \(r.errors.count) errors, \(fixed(secs, 3)) s, "
      + "\(fixed(mb / secs, 1)) MB/s, \(fixed(Double(r.recordsRead) / secs, 0)) contacts/s, workers \(options.workers)")
  print("store: \(fixed(Double(r.table.memoryFootprint) / 1e6, 1)) MB (table memory footprint)")
  let t = r.table
  print("  pool: \(t.pool.count) strings, arena \(t.pool.arenaByteCount) B, \(t.pool.tableSlotCount) slots, pool footprint \(t.pool.memoryFootprint) B; blobs \(t.blobs.memoryFootprint) B")
  print("  rows \(t.rowCount), fields \(t.fields.count), addresses \(t.addresses.count), extras \(t.extras.count)")
  if environment("OHANA_COLSTATS") {
    // Per string column: cells, values set, distinct values, and how the
    // column is stored (see StringColumn): encoding, bytes a stored cell,
    // dense (a cell a row) or sparse (a cell a present row, 1.5 bits a
    // row of presence masks), and its footprint; then the total.
    var total = 0
    func stats(_ name: String, _ c: StringColumn) {
      var nonzero = 0
      var seen = Set<UInt32>()
      for id in c where id.isPresent { nonzero += 1; seen.insert(id.rawValue) }
      let percent: Double = c.count > 0 ? 100 * Double(nonzero) / Double(c.count) : 0
      let share = fixed(percent, 1) + "%"
      let form = c.isSparse ? "sparse" : "dense"
      print("  column \(name): \(c.count) cells, \(nonzero) set (\(share)), \(seen.count) distinct, \(c.isDictionaryCoded ? "coded" : "plain") \(c.bytesPerCell) B/cell \(form), \(c.memoryFootprint) B")
      total += c.memoryFootprint
    }
    for a in ContactAttribute.allCases { stats("contact.\(a.name)", t.attributes[a.rawValue]) }
    stats("field.label", t.fields.label); stats("field.value", t.fields.value)
    stats("field.group", t.fields.group); stats("field.parameters", t.fields.parameters)
    for a in AddressAttribute.allCases { stats("address.\(a)", t.addresses.columns[a.rawValue]) }
    stats("extra.name", t.extras.name); stats("extra.group", t.extras.group)
    stats("extra.parameters", t.extras.parameters); stats("extra.value", t.extras.value)
    print("  string columns: \(total) B")
    print("  photos set: \(t.photo.filter { $0 != .none }.count)")
  }
  if environment("OHANA_SMAPS") {
    if let text = readSmallFile("/proc/self/smaps") { print(text) }
  }
  print("  process: \(procStatus("VmRSS")) resident after the read, \(procStatus("VmHWM")) peak")
  if mode == "write" {
    let frame = Frame(table: r.table)
    var out: [UInt8] = []
    out.reserveCapacity(r.bytesRead + r.bytesRead / 4)
    let w0 = now()
    try ContactIO.write(frame, format: format, to: &out)
    let w1 = now()
    let wmb = Double(out.count) / 1e6
    print("write \(format.rawValue) (memory): \(fixed(wmb, 1)) MB, \(fixed(w1 - w0, 3)) s, \(fixed(wmb / (w1 - w0), 1)) MB/s")
    let tmp = "/tmp/ohana-io-bench-\(getpid()).out"
    let f0 = now()
    try ContactIO.write(frame, format: format, to: tmp)
    let f1 = now()
    unlink(tmp)
    print("write \(format.rawValue) (file):   \(fixed(wmb, 1)) MB, \(fixed(f1 - f0, 3)) s, \(fixed(wmb / (f1 - f0), 1)) MB/s")
  }
} catch {
  printError("error: \(error)\n")
  exit(1)
}
