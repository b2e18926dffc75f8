import ArgumentParser
import Ohana
import OhanaCore

#if canImport(Glibc)
  import Glibc
#endif

@main
struct OhanaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ohana",
    abstract: "A data-oriented batch engine for contact lists.",
    version: VersionInfo.text,
    subcommands: [
      Convert.self,
      Process.self,
      Normalize.self,
      Stats.self,
      Phone.self,
      Generate.self,
      Dedupe.self,
      Link.self,
      Review.self,
    ]
  )

  /// Runs the command after fixing the C library's mmap threshold for a
  /// batch job (see `ProcessMemory`): less peak memory on a large read.
  /// `OHANA_DYNAMIC_MMAP=1` leaves glibc's dynamic threshold on (to
  /// measure the difference).
  static func main() {
    if getenv("OHANA_DYNAMIC_MMAP") == nil { ProcessMemory.fixMmapThreshold() }
    // Ctrl-C and SIGTERM leave nothing behind: temporary outputs and a
    // store being built are removed, exit 130 or 143 (Interrupts).
    Interrupts.install()
    // The trace's origin (OHANA_TRACE_PHASES): the stages are timed from here.
    PhaseTrace.mark("start")
    Self.main(nil)
  }
}
