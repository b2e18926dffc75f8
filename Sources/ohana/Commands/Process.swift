import ArgumentParser
import Ohana

extension OhanaCommand {
  struct Process: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run contacts through a pipeline of processors and write the result.",
      discussion: """
        Stages run in this order: --require filters, --format-phones (with a
        vCard or CSV output, then phone-values: the first format written as
        each number's value), --dedupe,
        --split, --stats, --sort (then --descending), --reverse.
        --disable NAME skips a stage by name (see the report). --report writes a
        JSON report: input counts, every read warning and skip with its line, per-stage rows
        in/out and timings, and peak memory.
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var processing: ProcessingOptions

    @Option(help: "Write a JSON report to this file (- for standard output).")
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
      try Self.run(input: input, output: output, processing: processing, report: report, global: global)
    }

    /// Reads, runs `processing`'s stages, writes, reports: `ohana process`
    /// and `ohana normalize` (which is `process --normalize all`).
    static func run(
      input: InputOptions, output: OutputOptions, processing: ProcessingOptions, report: String?,
      global: GlobalOptions, read: ReadResult? = nil, start: Double? = nil
    ) throws {
      try CLIError.reporting {
        let start = start ?? Clock.seconds()
        let format = try output.format()
        var result = try read ?? ContactFiles.read(input, quiet: global.quiet)
        let readDone = Clock.seconds()
        // The read table goes into the pipeline and is not kept here, so
        // each stage's input is freed once the next stage has its output
        // (kept here, the read table would live to the end).
        let source = Frame(table: result.table)
        result.table = ContactTable()

        let stages = processing.stages(provenance: format == .ndjson, output: format)
        let pipeline = Pipeline(stages, disabled: Set(processing.disable))
        let unknown = Set(processing.disable).subtracting(stages.map(\.name))
        if !global.quiet {
          for name in unknown.sorted() {
            StandardError.write("warning: --disable \(name) matches no stage of this run\n")
          }
          // Decided: ohana's CSV header has no parameter columns, so the
          // keys cannot be written there; said, not dropped in silence.
          if processing.normalizers.comparisonKeys && format == .csv {
            StandardError.write(
              "warning: --comparison-keys: ohana's CSV header has no parameters; the keys are written in vCard and NDJSON outputs and in a table's own rows\n"
            )
          }
        }
        let frame: Frame
        let run: RunReport
        do {
          (frame, run) = try pipeline.run(consume source)
        } catch let error as PipelineError {
          throw CLIError("stage \(error.stage) failed: \(error.underlying)")
        }
        let pipelineDone = Clock.seconds()

        try ContactFiles.write(frame, format: format, to: output.output, quiet: global.quiet)
        let end = Clock.seconds()

        if let report {
          let (errors, truncated) = ErrorEntry.list(result.errors)
          let r = ProcessReport(
            input: InputSummary(path: input.input, result: result),
            errors: errors, errorsTruncated: truncated, stages: run.stages,
            output: .init(path: output.output, format: format.rawValue, contacts: frame.count),
            timings: .init(
              read: readDone - start, pipeline: pipelineDone - readDone, write: end - pipelineDone,
              total: end - start),
            peakMemoryBytes: ResourceUsage.peakMemoryBytes())
          try JSON.write(r, to: report)
        }
        if !global.quiet {
          // What each normalizer did, by field (counts only, never values).
          for s in run.stages where s.name.hasPrefix("normalize-") || s.name == "phone-values" {
            let counts = s.counters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            if !counts.isEmpty { StandardError.write("\(s.name): \(counts.joined(separator: ", "))\n") }
          }
          for s in run.stages where s.status == .failed {
            StandardError.write("warning: optional stage \(s.name) failed and was switched off\n")
          }
          StandardError.write(
            "processed \(result.recordsRead) contacts (\(ProblemCounts(result.errors).summary)), "
              + "wrote \(frame.count) in \(formatSeconds(end - start)) s\n")
        }
      }
    }
  }
}
