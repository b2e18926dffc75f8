import ArgumentParser
import Ohana

/// The input every reading verb takes.
struct InputOptions: ParsableArguments {
  @Argument(help: "Input file (.vcf, .csv, .ndjson), or - for standard input.")
  var input: String

  @Option(name: .customLong("from"), help: "Input format when the extension does not say: vcard, csv, ndjson.")
  var from: FormatName?

  @Flag(help: "Fail on the first record that cannot be read instead of skipping it.")
  var strict = false

  @Option(
    help: ArgumentHelp(
      "Charset of undeclared 8-bit text in vCard files (e.g. windows-1255, Shift_JIS).",
      discussion: """
        Applies to values that are not UTF-8 and have no CHARSET parameter. Without it, \
        ICU's detector guesses over all such text of the file, else windows-1252.
        """,
      valueName: "name"))
  var charset: String?

  /// The detector's minimum confidence (`ReadOptions.minimumDetectionConfidence`);
  /// for measurement (Benchmarks/compare/charset), hence hidden.
  @Option(name: .customLong("detection-confidence"), help: .hidden)
  var detectionConfidence: Int?

  func validate() throws {
    if let charset, CharsetConverter.canonicalName(charset) == nil {
      throw ValidationError("unknown charset '\(charset)' (use an ICU charset name such as windows-1255)")
    }
  }
}

/// Where and how a verb writes contacts.
struct OutputOptions: ParsableArguments {
  @Option(name: [.short, .customLong("output")], help: "Output file, or - for standard output.")
  var output: String

  @Option(name: .customLong("to"), help: "Output format: vcard4, vcard3, csv, ndjson (default: from the extension).")
  var to: FormatName?

  /// The format to write: `--to`, else the output's extension, else vCard 4.0 for `-`.
  func format() throws -> ContactFormat {
    if let to { return to.format }
    if output == "-" { return .vcard4 }
    guard let f = ContactFormat(path: output) else {
      throw CLIError("cannot tell the output format from \(output); use --to vcard4|vcard3|csv|ndjson")
    }
    return f
  }

  func validate() throws {
    if let to, !to.format.canWrite {
      throw ValidationError("cannot write \(to.rawValue); use vcard4, vcard3, csv or ndjson")
    }
  }
}

/// A format name on the command line.
struct FormatName: ExpressibleByArgument, Sendable {
  var rawValue: String
  var format: ContactFormat

  init?(argument: String) {
    guard let f = ContactFormat(name: argument) else { return nil }
    rawValue = argument
    format = f
  }

  static var defaultCompletionKind: CompletionKind {
    .list(["vcard4", "vcard3", "vcard21", "csv", "ndjson"])
  }
}
