import COhanaCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many workers every stage uses: one decision for the whole process
/// (DESIGN.md section 11).
///
/// In order: a count set by the caller (`ohana --threads N`, ``set(_:)``),
/// else `OHANA_THREADS`, else the CPUs this process may run on: its
/// affinity mask (`taskset`, a container's cpuset, a Spark executor's
/// pinning), capped by its cgroup's CPU quota (v2 `cpu.max`, v1
/// `cpu.cfs_quota_us` / `cpu.cfs_period_us`, the smallest along the cgroup's
/// ancestors), a fraction of a CPU rounded up. On a 64-core host with a
/// 4-CPU quota that is 4, not 64.
package enum Workers {
  private static let chosen = Mutex<Int?>(nil)
  private static let detected: Int = {
    if let text = getenv("OHANA_THREADS").map({ String(cString: $0) }), let n = parse(text) { return n }
    return available()
  }()

  /// The worker count every stage uses (at least 1).
  package static var count: Int { chosen.withLock { $0 } ?? detected }

  /// Sets the worker count for the rest of the process (`--threads`).
  package static func set(_ n: Int) { chosen.withLock { $0 = max(1, n) } }

  /// Back to the default (`OHANA_THREADS`, else the CPUs available).
  package static func reset() { chosen.withLock { $0 = nil } }

  /// A thread count as a user writes it: a whole number, 1 or more.
  package static func parse(_ text: String) -> Int? {
    guard let n = Int(trimmed(text)), n >= 1, n <= 1 << 16 else { return nil }
    return n
  }

  /// The CPUs this process may use: the affinity mask capped by the cgroup
  /// quota (at least 1).
  package static func available() -> Int {
    var n = Int(ohana_affinity_cpus())
    if n <= 0 { n = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
    if let q = cgroupQuota() { n = min(n, q) }
    return max(1, n)
  }

  /// The CPUs of the affinity mask alone (0 where the system does not say).
  package static func affinity() -> Int { Int(ohana_affinity_cpus()) }

  /// CPUs allowed by a cgroup v2 `cpu.max` text (`max 100000`: no limit;
  /// `150000 100000`: 1.5 CPUs, so 2).
  package static func quota(cpuMax text: String) -> Int? {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    guard parts.count >= 2, parts[0] != "max", let q = Double(parts[0]), let p = Double(parts[1]) else { return nil }
    return quota(q, p)
  }

  /// CPUs allowed by cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us`
  /// (a quota of -1: no limit).
  package static func quota(cfsQuota: String, period: String) -> Int? {
    guard let q = Double(trimmed(cfsQuota)), let p = Double(trimmed(period)) else { return nil }
    return quota(q, p)
  }

  private static func quota(_ q: Double, _ p: Double) -> Int? {
    guard q > 0, p > 0, q.isFinite, p.isFinite else { return nil }
    return max(1, Int((q / p).rounded(.up)))
  }

  /// The process's cgroup CPU quota, the smallest along its cgroup path.
  static func cgroupQuota() -> Int? {
    guard let cgroups = readText("/proc/self/cgroup") else { return nil }
    var best: Int? = nil
    func take(_ q: Int?) { if let q { best = min(best ?? q, q) } }
    for line in cgroups.split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      var path = String(fields[2])
      if fields[0] == "0" && fields[1].isEmpty {
        // v2: /sys/fs/cgroup<path>/cpu.max and each parent's.
        while true {
          if let t = readText("/sys/fs/cgroup" + (path == "/" ? "" : path) + "/cpu.max") { take(quota(cpuMax: t)) }
          if path == "/" || path.isEmpty { break }
          path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
          if path.isEmpty { path = "/" }
        }
      } else if fields[1].split(separator: ",").contains(where: { $0 == "cpu" }) {
        for root in ["/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"] {
          let dir = root + (path == "/" ? "" : path)
          if let q = readText(dir + "/cpu.cfs_quota_us"), let p = readText(dir + "/cpu.cfs_period_us") {
            take(quota(cfsQuota: q, period: p))
            break
          }
        }
      }
    }
    return best
  }

  private static func trimmed(_ text: String) -> Substring {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
    return text[first...last]
  }

  private static func readText(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      bytes += buffer[0..<n]
      if bytes.count > 1 << 20 { break }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
