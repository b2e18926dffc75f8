#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Marks inside the long stages, for finding their serial parts: with the
/// environment variable `OHANA_TRACE_PHASES` set, each ``mark(_:)`` writes
/// one line to standard error with the wall and process CPU seconds since
/// the first mark, the worker pool's `under` seconds (fewer than all
/// workers running pieces) and `serial` seconds (at most one), the most
/// threads that ever ran pieces at once (`busy-peak`), the threads the
/// process has (`threads`, from `/proc/self/task`) and its memory (names
/// of phases only, never a contact's value). `Benchmarks/scaling/critical-path.py`
/// turns the lines into each stage's serial fraction. Without the
/// variable a mark is one load and a branch.
public enum PhaseTrace {
  public static let enabled = getenv("OHANA_TRACE_PHASES") != nil
  private static let origin = now()
  /// The pool's counters at the first mark (they start at its first use).
  private static let poolOrigin = WorkerPool.shared.utilization()

  private static func now() -> (wall: Double, cpu: Double) {
    var w = timespec(), c = timespec()
    clock_gettime(CLOCK_MONOTONIC, &w)
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c)
    return (Double(w.tv_sec) + Double(w.tv_nsec) * 1e-9, Double(c.tv_sec) + Double(c.tv_nsec) * 1e-9)
  }

  @inline(__always)
  public static func mark(_ label: StaticString) {
    if enabled { emit(label) }
  }

  private static func emit(_ label: StaticString) {
    let t = now(), o = origin, po = poolOrigin
    var pool = WorkerPool.shared.utilization()
    pool.underAll -= po.underAll
    pool.single -= po.single
    let line =
      "phase \(label) wall \(rounded(t.wall - o.wall)) cpu \(rounded(t.cpu - o.cpu))"
      + " under \(rounded(pool.underAll)) serial \(rounded(pool.single))"
      + " busy-peak \(WorkerPool.shared.peakBusy) threads \(threadCount())\(memory())\n"
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }

  private static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

  /// The process's threads (entries of `/proc/self/task`; 0 where there is none).
  package static func threadCount() -> Int {
    guard let dir = opendir("/proc/self/task") else { return 0 }
    defer { closedir(dir) }
    var n = 0
    while let entry = readdir(dir) {
      let first = withUnsafeBytes(of: entry.pointee.d_name) { $0.first ?? 0 }
      if first != UInt8(ascii: ".") { n += 1 }
    }
    return n
  }

  /// ` rss <MiB> peak <MiB>` from `/proc/self/status` (Linux), else empty.
  private static func memory() -> String {
    let fd = open("/proc/self/status", O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return "" }
    var rss = "", peak = ""
    for line in String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n") {
      let kib = line.split(separator: " ").dropFirst().first.flatMap { Int($0.trimmingPrefix(while: { $0 == "\t" })) }
      guard let kib else { continue }
      if line.hasPrefix("VmRSS:") { rss = String(kib >> 10) }
      if line.hasPrefix("VmHWM:") { peak = String(kib >> 10) }
    }
    return rss.isEmpty ? "" : " rss \(rss) peak \(peak)"
  }
}
