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
}
