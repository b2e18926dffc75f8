import ArgumentParser
import Ohana

extension OhanaCommand {
  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Convert contacts between vCard 2.1/3.0/4.0, CSV and NDJSON.",
      discussion: """
        Formats come from the file extensions unless --from / --to say otherwise;
        - is standard input or output (vCard 4.0 by default). Records that cannot be
        read are skipped and counted (with --strict the command fails instead).
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
      try CLIError.reporting {
        let start = Clock.seconds()
        let format = try output.format()
        let result = try ContactFiles.read(input, quiet: global.quiet)
        try ContactFiles.write(Frame(table: result.table), format: format, to: output.output, quiet: global.quiet)
        if !global.quiet {
          StandardError.write(
            "converted \(result.recordsRead) contacts (\(result.recordsSkipped) skipped) "
              + "to \(format) in \(formatSeconds(Clock.seconds() - start)) s\n")
        }
      }
    }
  }
}
