// ohana-io-bench: parse and write throughput of OhanaIO on one file.
//
//   ohana-io-bench read FILE [--workers N] [--chunk-mib M]
//   ohana-io-bench write FILE [--format vcard4|vcard3|ndjson|csv] [--workers N]
//
// `read` streams FILE into a table and prints one line of figures; run it
// under /usr/bin/time -v for peak memory. `write` reads FILE first, then
// times writing the table to /dev/null-like memory blocks and to a file.
import Foundation
import OhanaCore
import OhanaIO

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A line of /proc/self/status ("VmRSS", "VmHWM"), e.g. "423160 kB".
func procStatus(_ key: String) -> String {
  guard let data = FileHandle(forReadingAtPath: "/proc/self/status")?.readDataToEndOfFile() else { return "?" }
  let text = String(decoding: data, as: UTF8.self)
  for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
    return line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
  }
  return "?"
}

var args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else {
  FileHandle.standardError.write(Data("usage: ohana-io-bench read|write FILE [--workers N] [--chunk-mib M] [--format F]\n".utf8))
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
    String(
      format: "read: %.1f MB, %d contacts, %d errors, %.3f s, %.1f MB/s, %.0f contacts/s, workers %d",
      mb, r.recordsRead, r.errors.count, secs, mb / secs, Double(r.recordsRead) / secs, options.workers))
  print(String(format: "store: %.1f MB (table memory footprint)", Double(r.table.memoryFootprint) / 1e6))
  let t = r.table
  print("  pool: \(t.pool.count) strings, arena \(t.pool.arenaByteCount) B, \(t.pool.tableSlotCount) slots, pool footprint \(t.pool.memoryFootprint) B; blobs \(t.blobs.memoryFootprint) B")
  print("  rows \(t.rowCount), fields \(t.fields.count), addresses \(t.addresses.count), extras \(t.extras.count)")
  if ProcessInfo.processInfo.environment["OHANA_COLSTATS"] != nil {
    // Per string column: cells, values set, distinct values, and how the
    // column is stored (see StringColumn): encoding, bytes a stored cell,
    // dense (a cell a row) or sparse (a cell a present row, 1.5 bits a
    // row of presence masks), and its footprint; then the total.
    var total = 0
    func stats(_ name: String, _ c: StringColumn) {
      var nonzero = 0
      var seen = Set<UInt32>()
      for id in c where id.isPresent { nonzero += 1; seen.insert(id.rawValue) }
      let share = String(format: "%.1f%%", c.count > 0 ? 100 * Double(nonzero) / Double(c.count) : 0)
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
  if ProcessInfo.processInfo.environment["OHANA_SMAPS"] != nil {
    if let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() {
      print(String(decoding: data, as: UTF8.self))
    }
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
    print(String(format: "write %@ (memory): %.1f MB, %.3f s, %.1f MB/s", format.rawValue, wmb, w1 - w0, wmb / (w1 - w0)))
    let tmp = NSTemporaryDirectory() + "ohana-io-bench-\(getpid()).out"
    let f0 = now()
    try ContactIO.write(frame, format: format, to: tmp)
    let f1 = now()
    unlink(tmp)
    print(String(format: "write %@ (file):   %.1f MB, %.3f s, %.1f MB/s", format.rawValue, wmb, f1 - f0, wmb / (f1 - f0)))
  }
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
