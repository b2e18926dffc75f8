import ArgumentParser

extension OhanaCommand {
  struct Process: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Not yet available.")
    func run() throws { throw CLIError("not yet available") }
  }
}
