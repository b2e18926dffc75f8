import ArgumentParser
import Foundation
import Ohana

extension OhanaCommand {
  /// `ohana normalize`: `process` with the normalizers only (issue 46,
  /// item 2). The same stages run in `process --normalize LIST`.
  struct Normalize: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write contacts with names, e-mails, phones, addresses and birthdays in one consistent form.",
      discussion: """
        Every normalizer runs unless --only names some (README "Normalizing"):
        names (case of all-capitals or all-lower-case names, titles and
        suffixes into their own parts, a full name split into parts, NFC and
        white space), emails (trimmed, NFC, the domain in IDNA 2008 Unicode
        form and lower case, the syntax checked), phones (E.164 unless
        --phone-format names another), addresses (countries in any language
        to ISO 3166-1 codes or --country-names; US, CA, AU and DE regions to
        ISO 3166-2; postcodes in their country's format), dates (birthdays
        in ISO 8601, partial ones in vCard 4.0's truncated forms). A value a
        normalizer cannot read is left as typed and listed by line. What
        each changed, left or refused is printed on standard error by
        field, and written to --report.
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Only these normalizers (comma-separated): names, emails, phones, addresses, dates.", valueName: "list"))
    var only: NormalizerList = NormalizerList(kinds: NormalizerList.Kind.allCases)

    @Option(name: .customLong("phone-format"), help: "The phone format written: e164, international, national or rfc3966.")
    var phoneFormat: PhoneFormatList?

    @Option(name: .customLong("region"), help: "Default region for national phone numbers (ISO 3166 code, e.g. US, GB, DE).")
    var region: RegionName = RegionName(code: .us)

    @Flag(help: "Keep a rewritten phone number's typed text in the parameter X-OHANA-ORIGINAL (vCard).")
    var keepOriginal = false

    @OptionGroup var normalizers: NormalizerOptions

    @Option(help: "Write a JSON report (counts by normalizer and field, every refused value's line) to this file (- for standard output).")
    var report: String?

    @Flag(name: .customLong("as-contacts"), help: "A table's input written to CSV: write contacts in ohana's CSV header instead of the table's own rows with normalized cells.")
    var asContacts = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      try input.requireInputs()
      try output.require()
      if report == "-" && output.outputPath == "-" {
        throw ValidationError("--report and --output cannot both be standard output")
      }
    }

    func run() throws {
      var arguments = ["--normalize", only.kinds.map(\.rawValue).joined(separator: ","), "--region", region.code.description]
      if let phoneFormat, only.kinds.contains(.phones) {
        arguments += ["--format-phones", phoneFormat.formats.map(\.argument).joined(separator: ",")]
      }
      if keepOriginal { arguments.append("--keep-original") }
      arguments += normalizers.arguments
      let processing = try ProcessingOptions.parse(arguments)
      let start = Clock.seconds()
      var tableDone = false
      var read: ReadResult? = nil
      try CLIError.reporting {
        let result = try ContactFiles.read(input, quiet: global.quiet)
        read = result
        // A table of the user's written to CSV: its own rows, cells normalized.
        let tablePath = input.inputs.count == 1 && input.inputs[0] != "-" ? input.inputs[0] : nil
        if !asContacts, let tablePath, let delimiter = result.tableDelimiter, TableOutput.isUserTable(result),
          !RowsBack.isParquet(output: tablePath), try output.format() == .csv, !RowsBack.isParquet(output: output.output)
        {
          try tableRows(result, path: tablePath, delimiter: delimiter, start: start)
          tableDone = true
        }
      }
      guard !tableDone, let read else { return }
      try Process.run(
        input: input, output: output, processing: processing, report: report, global: global, read: read, start: start)
    }

    /// The table's rows with their mapped cells normalized (``TableNormalize``).
    private func tableRows(_ read: ReadResult, path: String, delimiter: UInt8, start: Double) throws {
      let roles: [ColumnRole?] = read.columns.map(\.role)
      let table = read.table
      let birthdays = (0..<table.rowCount).map { table.string(.birthday, at: $0) }
      var work = TableNormalize(
        kinds: Set(only.kinds), roles: roles, countryLocale: normalizers.countryNames,
        addressCountry: normalizers.addressCountry,
        region: region.code, phoneFormat: phoneFormat?.formats.first ?? .e164, birthdays: birthdays,
        streetStyle: normalizers.streetTypes?.style, comparisonKeys: normalizers.comparisonKeys)
      guard let text = FileManagerBytes.contents(path) else {
        throw CLIError("cannot read \(path) again to write its rows", exitCode: CLIError.noInput)
      }
      let out = try OutputFile(path: output.output)
      let lines = table.sourceLine
      let keyNames = work.keyColumns.map { read.columns[$0].column + "_key" }
      try TableRows.rewrite(
        text, delimiter: delimiter, appended: keyNames, lines: lines,
        cellsOf: { row, cells in work.cells(row: row, line: row < lines.count ? Int(lines[row]) : 0, cells) },
        appendRow: { _, bytes in
          for k in work.lastKeys {
            bytes.append(delimiter)
            TableRows.writeCell(k.utf8, delimiter: delimiter, into: &bytes)
          }
          return true
        }
      ) { try out.write($0) }
      out.startFlush()
      try out.commit()
      let end = Clock.seconds()
      if let report {
        let r = TableNormalizeReport(
          input: InputSummary(path: input.input, result: read), counts: work.counts, notes: work.notes,
          output: output.output, rows: table.rowCount, seconds: end - start)
        try JSON.write(r, to: report)
      }
      if !global.quiet {
        let counts = work.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !counts.isEmpty { StandardError.write("normalize-table: \(counts.joined(separator: ", "))\n") }
        StandardError.write(
          "normalized \(table.rowCount) rows of \(path) (\(ProblemCounts(read.errors).summary)), "
            + "their own columns written, in \(formatSeconds(end - start)) s\n")
      }
    }
  }
}

extension PhoneNumberFormat {
  /// The name `--format-phones` reads.
  fileprivate var argument: String {
    switch self {
    case .e164: "e164"
    case .international: "international"
    case .national: "national"
    case .rfc3966: "rfc3966"
    }
  }
}

/// `normalize --report` for a table's rows.
struct TableNormalizeReport: Encodable {
  var input: InputSummary
  var counts: [String: Int]
  var notes: [String]
  var output: String
  var rows: Int
  var seconds: Double
}

/// A file's bytes, nil when it cannot be read.
enum FileManagerBytes {
  static func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
  }
}
