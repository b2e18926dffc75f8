import ArgumentParser
import Ohana

@main
struct OhanaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ohana",
    abstract: "A data-oriented batch engine for contact lists.",
    version: VersionInfo.text,
    subcommands: [
      Convert.self,
      Process.self,
      Stats.self,
      Phone.self,
      Generate.self,
      Dedupe.self,
    ]
  )

  /// Runs the command after fixing the C library's mmap threshold for a
  /// batch job (see `ProcessMemory`): about 10 MB less peak memory on a
  /// million-card read.
  static func main() {
    ProcessMemory.fixMmapThreshold()
    Self.main(nil)
  }
}
