import OhanaCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `write(2)`, named so that types with a `write` method can call it.
func posixWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int {
  write(fd, p, n)
}

/// Writes to standard error (unbuffered); used for progress and summaries.
enum StandardError {
  static func write(_ s: String) {
    var bytes = Array(s.utf8)
    bytes.withUnsafeMutableBytes { buf in
      var off = 0
      while off < buf.count {
        let n = posixWrite(2, buf.baseAddress.map { $0 + off }, buf.count - off)
        if n <= 0 { break }
        off += n
      }
    }
  }

  static var isTerminal: Bool { isatty(2) == 1 }
}

/// A one-line progress bar on stderr, drawn only when stderr is a terminal
/// and `--quiet` is not given. Safe to update from any thread.
final class ProgressBar: Sendable {
  private struct State {
    var lastDraw: Double = 0
    var drawn = false
  }

  private let label: String
  private let total: Int
  private let enabled: Bool
  private let state = Mutex(State())

  init(label: String, total: Int, quiet: Bool) {
    self.label = label
    self.total = total
    enabled = !quiet && total > 0 && StandardError.isTerminal
  }

  /// `done` units out of `total` (bytes or contacts).
  func update(_ done: Int) {
    guard enabled else { return }
    let now = Clock.seconds()
    let draw = state.withLock { s -> Bool in
      guard now - s.lastDraw >= 0.1 || done >= total else { return false }
      s.lastDraw = now
      s.drawn = true
      return true
    }
    guard draw else { return }
    let fraction = min(1, Double(done) / Double(total))
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    Interrupts.progressLine(true)
    StandardError.write("\r\(label) [\(bar)] \(Int(fraction * 100))%")
  }

  func finish() {
    guard enabled, state.withLock({ $0.drawn }) else { return }
    StandardError.write("\r\u{1B}[K")
    Interrupts.progressLine(false)
  }
}

enum Clock {
  static func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}

enum ResourceUsage {
  /// Peak resident set size of this process, in bytes (getrusage).
  static func peakMemoryBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
      let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
      let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    #if canImport(Darwin)
      return Int(usage.ru_maxrss)
    #else
      return Int(usage.ru_maxrss) * 1024
    #endif
  }
}
