import ArgumentParser
import Ohana

extension OhanaCommand {
  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Convert contacts between vCard 2.1/3.0/4.0, CSV and NDJSON.",
      discussion: """
        Formats come from the file extensions unless --from / --to say otherwise;
        - is standard input or output (vCard 4.0 by default). A line that cannot be
        read costs that line, not the contact: it is kept verbatim and reported as a
        warning (FILE:LINE: reason); text that cannot be a record is skipped and
        reported. The first few go to standard error, all of them to --report.
        With --strict the command fails at the first one instead.
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Write a JSON report (counts, every warning and skip with its line) to this file (- for standard output).")
    var report: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      try input.requireInputs()
      try output.require()
      if report == "-" && output.outputPath == "-" {
        throw ValidationError("--report and --output cannot both be standard output")
      }
    }

    func run() throws {
      try CLIError.reporting {
        let start = Clock.seconds()
        let format = try output.format()
        let result = try ContactFiles.read(input, quiet: global.quiet)
        try ContactFiles.write(Frame(table: result.table), format: format, to: output.output, quiet: global.quiet)
        if let report {
          try JSON.write(
            ReadReport(
              command: "convert", path: input.input, result: result,
              output: .init(path: output.output, format: format.rawValue, contacts: result.table.rowCount),
              seconds: Clock.seconds() - start), to: report)
        }
        if !global.quiet {
          StandardError.write(
            "converted \(result.recordsRead) contacts (\(ProblemCounts(result.errors).summary)) "
              + "to \(format) in \(formatSeconds(Clock.seconds() - start)) s\n")
        }
      }
    }
  }
}
