// Heap bytes held by the columnar store vs the array-of-objects reference
// for the same 1,000,000 contacts: resident-set growth read from
// /proc/self/statm after building each (the store first, then the reference).
//
//   cd Benchmarks && swift run -c release core-memory [contacts]
#if canImport(Glibc)
import Glibc
#endif
import Ohana
import _OhanaTestSupport

func heapInUse() -> Int {
  #if canImport(Glibc)
  guard let f = fopen("/proc/self/statm", "r") else { return 0 }
  defer { fclose(f) }
  var size = 0, resident = 0
  guard withUnsafeMutablePointer(to: &size, { s in
    withUnsafeMutablePointer(to: &resident) { r in
      withVaList([s, r]) { vfscanf(f, "%ld %ld", $0) }
    }
  }) == 2 else { return 0 }
  return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
  return 0
  #endif
}

let n = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let before = heapInUse()
var table: ContactTable? = RandomContacts.table(count: n, seed: 42)
let storeBytes = heapInUse() - before
let t = table ?? ContactTable()
let before2 = heapInUse()
let reference = (0..<t.rowCount).map { RefContact(t.contact(at: $0)) }
let refBytes = heapInUse() - before2
print("contacts: \(t.rowCount), fields: \(t.fields.count), addresses: \(t.addresses.count), distinct strings: \(t.pool.count)")
print("store resident bytes:     \(storeBytes) (\(storeBytes / max(1, t.rowCount)) per contact); footprint estimate \(t.memoryFootprint)")
print("reference resident bytes: \(refBytes) (\(refBytes / max(1, t.rowCount)) per contact)")
print("ratio store/reference: \(Double(storeBytes) / Double(max(1, refBytes)))")
withExtendedLifetime(reference) {}
table = nil
