import ArgumentParser
import Foundation
import Ohana
import OhanaParquet

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
        // Rows back in Parquet for `-o FILE.parquet` (RowsBack's rule).
        let parquetOut = output.to == nil && RowsBack.isParquet(output: output.output)
        if !asContacts, let tablePath, let delimiter = result.tableDelimiter, TableOutput.isUserTable(result),
          try parquetOut || output.format() == .csv
        {
          try tableRows(result, path: tablePath, delimiter: delimiter, parquetOut: parquetOut, start: start)
          tableDone = true
        } else if parquetOut {
          throw CLIError(
            "-o \(output.output): Parquet is written for a table's own rows: give one CSV, TSV or Parquet table as the input, or --to another format",
            exitCode: CLIError.usage)
        }
      }
      guard !tableDone, let read else { return }
      try Process.run(
        input: input, output: output, processing: processing, report: report, global: global, read: read, start: start)
    }

    /// The table's rows with their mapped cells normalized (``TableNormalize``):
    /// a CSV or TSV input's records again, or a Parquet input's rows (read
    /// as the table route reads them); written as CSV, or as Parquet for
    /// `-o FILE.parquet`.
    ///
    /// Decided for a Parquet output: from a Parquet input, the columns in
    /// which normalization changed some value are written anew as text
    /// (null where empty), in their place; every other column keeps its
    /// values and Arrow type. From a CSV input every column is text.
    private func tableRows(_ read: ReadResult, path: String, delimiter: UInt8, parquetOut: Bool, start: Double) throws {
      let roles: [ColumnRole?] = read.columns.map(\.role)
      let table = read.table
      let birthdays = (0..<table.rowCount).map { table.string(.birthday, at: $0) }
      var work = TableNormalize(
        kinds: Set(only.kinds), roles: roles, countryLocale: normalizers.countryNames,
        addressCountry: normalizers.addressCountry,
        region: region.code, phoneFormat: phoneFormat?.formats.first ?? .e164, birthdays: birthdays,
        streetStyle: normalizers.streetTypes?.style, comparisonKeys: normalizers.comparisonKeys)
      let parquetIn = ParquetTable.isParquet(path: path)
      let text: [UInt8]
      if parquetIn {
        do { text = try ParquetTable.csvText(path: path).bytes } catch {
          throw CLIError(error.message, exitCode: CLIError.dataError)
        }
      } else {
        guard let bytes = FileManagerBytes.contents(path) else {
          throw CLIError("cannot read \(path) again to write its rows", exitCode: CLIError.noInput)
        }
        text = bytes
      }
      let out = try OutputFile(path: output.output)
      let lines = table.sourceLine
      let keyNames = work.keyColumns.map { read.columns[$0].column + "_key" }
      if parquetOut {
        try out.write(parquetRows(text, delimiter: delimiter, parquetIn: parquetIn, path: path, keyNames: keyNames, work: &work, lines: lines))
      } else {
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
      }
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

    /// The Parquet file of a table's normalized rows (see ``tableRows``).
    private func parquetRows(
      _ text: [UInt8], delimiter: UInt8, parquetIn: Bool, path: String, keyNames: [String], work: inout TableNormalize,
      lines: [UInt32]
    ) throws -> [UInt8] {
      let records = TableRows.records(text, delimiter: delimiter, lines: lines, cells: true, keepBlank: parquetIn)
      let width = records.header.count
      var columns = [[String?]](repeating: [], count: width)
      var keys = [[String?]](repeating: [], count: keyNames.count)
      var changed = [Bool](repeating: !parquetIn, count: width)
      for i in records.rows.indices {
        let typed = (0..<width).map { records.columns[$0][i] ?? "" }
        var cells = typed
        let row = Int(records.rows[i])
        if row >= 0 {
          cells = work.cells(row: row, line: row < lines.count ? Int(lines[row]) : 0, typed)
          for (k, key) in work.lastKeys.enumerated() where k < keys.count { keys[k].append(key.isEmpty ? nil : key) }
        } else {
          for k in keys.indices { keys[k].append(nil) }
        }
        for c in 0..<width {
          let v = c < cells.count ? cells[c] : ""
          if v != typed[c] { changed[c] = true }
          columns[c].append(v.isEmpty ? nil : v)
        }
      }
      var parts: [ParquetTable.Column] = []
      for c in 0..<width where changed[c] { parts.append(.text(name: records.header[c], values: columns[c])) }
      let own = Set(records.header)
      for (k, name) in keyNames.enumerated() {
        parts.append(.text(name: own.contains(name) ? "ohana_" + name : name, values: keys[k]))
      }
      // Nothing changed and no keys asked: the Parquet input is the output.
      if parts.isEmpty { return parquetIn ? (FileManagerBytes.contents(path) ?? []) : [] }
      do {
        return try ParquetTable.write(base: parquetIn ? path : nil, columns: parts)
      } catch {
        throw CLIError("cannot write \(output.output): \(error.message)", exitCode: CLIError.dataError)
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
