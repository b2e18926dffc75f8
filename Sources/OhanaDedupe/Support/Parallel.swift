import OhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds of CPU used so far by every thread of the process.
enum ProcessCPU {
  static func seconds() -> Double {
    var t = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 else { return 0 }
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
  }
}
