import ArgumentParser
import OhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Options every verb shares.
struct GlobalOptions: ParsableArguments {
  @Flag(name: [.short, .long], help: "No progress bar and no summary on stderr.")
  var quiet = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Worker threads for every stage (default: $OHANA_THREADS, else the CPUs this process may use: its affinity mask, capped by its cgroup's CPU quota).",
      valueName: "N"))
  var threads: String?

  /// Sets the process's worker count (``Workers``); `--threads` and
  /// `OHANA_THREADS` must be whole numbers of 1 or more (exit 64).
  func validate() throws {
    if let env = getenv("OHANA_THREADS").map({ String(cString: $0) }), Workers.parse(env) == nil {
      throw ValidationError("OHANA_THREADS=\(env) is not a number of threads (1 or more)")
    }
    if let threads {
      guard let n = Workers.parse(threads) else {
        throw ValidationError("--threads \(threads) is not a number of threads (1 or more)")
      }
      Workers.set(n)
    }
  }
}
