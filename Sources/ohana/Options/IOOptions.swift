import ArgumentParser
import Foundation
import Ohana

/// The inputs every reading verb takes: files of any of the formats,
/// directories (the contact files in them, recursively, by extension) and
/// globs (expanded here when the shell did not), or `-` for standard input.
struct InputOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Input files (.vcf, .csv, .ndjson), directories, globs, or - for standard input.",
      discussion: "Several inputs are read into one list; each contact and field records its source.",
      valueName: "input"))
  var inputs: [String] = []

  @Option(
    name: .customLong("source"),
    help: ArgumentHelp(
      "Name an input's contacts as their source: NAME=PATH (repeatable); with one input, NAME alone.",
      valueName: "NAME=PATH"))
  var sourceNames: [String] = []

  @Option(name: .customLong("from"), help: "Input format when the extension does not say: vcard, csv, ndjson.")
  var from: FormatName?

  @Flag(help: "Fail on the first record that cannot be read instead of skipping it.")
  var strict = false

  @Option(
    help: ArgumentHelp(
      "Charset of undeclared 8-bit text in vCard and CSV files (e.g. windows-1255, Shift_JIS).",
      discussion: """
        vCard: applies to values that are not UTF-8 and have no CHARSET parameter. CSV: to the \
        cells that are not UTF-8. Without it, ICU's detector guesses over all such \
        text of the file, else windows-1252.
        """,
      valueName: "name"))
  var charset: String?

  @Option(help: ArgumentHelp("CardDAV inputs: the user to log in as (the password from --password-file, $OHANA_CARDDAV_PASSWORD or ~/.netrc; never on the command line).", valueName: "name"))
  var user: String?

  @Option(name: .customLong("password-file"), help: ArgumentHelp("CardDAV inputs: a file whose first line is the password.", valueName: "path"))
  var passwordFile: String?

  @Option(name: .customLong("ca-file"), help: ArgumentHelp("CardDAV inputs: trust the certificate authorities in this PEM file instead of the system's.", valueName: "path"))
  var caFile: String?

  @Flag(name: .customLong("insecure-http"), help: "CardDAV inputs: allow plain http:// to a host that is not this machine (the password then travels in clear).")
  var insecureHTTP = false

  @Option(name: .customLong("address-book"), help: ArgumentHelp("CardDAV inputs: read only the address book of this name (its last path segment or display name).", valueName: "name"))
  var addressBook: String?

  @Option(
    name: .customLong("map"),
    help: ArgumentHelp(
      "A table's column roles: ROLE=COLUMN[,COLUMN...] (repeatable), e.g. given=first_name family=surname.",
      discussion: """
        Roles: id, name, given, middle, family, prefix, suffix, nickname, organization, department, \
        title, birthday, email, phone, phone.mobile, phone.work, phone.home, phone.fax, street, extended, \
        locality, region, postcode, country, address, gender, note. Columns not named are detected from \
        their header and values (unless --no-detect); every other column travels through untouched.
        """,
      valueName: "role=column"))
  var map: [String] = []

  @Option(name: .customLong("columns"), help: ArgumentHelp("A file of column roles, one ROLE=COLUMN[,COLUMN...] a line (# comments; detect=off).", valueName: "path"))
  var columnsFile: String?

  @Flag(name: .customLong("no-detect"), help: "Map only the columns --map or --columns name (and headers of ours, Google's and Outlook's).")
  var noDetect = false

  @Option(name: .customLong("date-format"), help: ArgumentHelp("Day and month order of a table's dates: dd/mm/yyyy or mm/dd/yyyy (default: decided per column from its values).", valueName: "order"))
  var dateFormat: String?

  @Option(name: .customLong("delimiter"), help: ArgumentHelp("A table's delimiter: , ; tab or | (default: sniffed from the header line).", valueName: "char"))
  var delimiter: String?

  /// The delimiter as a byte (``validate()`` checked it).
  var delimiterByte: UInt8? {
    switch delimiter {
    case ",": 0x2C
    case ";": 0x3B
    case "tab", "\t", "\\t": 0x09
    case "|": 0x7C
    default: nil
    }
  }

  @Option(
    name: .customLong("multi-separator"),
    help: ArgumentHelp("A table's phone and e-mail cells holding several values: split them at this text (e.g. ';' or ' | ').", valueName: "text"))
  var multiSeparator: String?

  @Flag(name: .customLong("show-mapping"), help: "Print how a table's columns map onto the contact model, and stop.")
  var showMapping = false

  /// The column mapping the options give.
  func columnMapping() throws -> ColumnMapping {
    var m = ColumnMapping()
    if let columnsFile {
      guard let data = FileManager.default.contents(atPath: columnsFile) else {
        throw CLIError("cannot read \(columnsFile)", exitCode: CLIError.noInput)
      }
      do { m = try ColumnMapping(file: String(decoding: data, as: UTF8.self)) } catch {
        throw CLIError("\(columnsFile): \(error.description)", exitCode: CLIError.usage)
      }
    }
    for a in map {
      do { try m.add(argument: a) } catch { throw CLIError("--map \(error.description)", exitCode: CLIError.usage) }
    }
    if noDetect { m.detect = false }
    return m
  }

  var dateOrder: DateText.Order? { dateFormat.flatMap { DateText.Order(rawValue: $0.lowercased()) } }

  /// The detector's minimum confidence (`ReadOptions.minimumDetectionConfidence`);
  /// for measurement (Benchmarks/compare/charset), hence hidden.
  @Option(name: .customLong("detection-confidence"), help: .hidden)
  var detectionConfidence: Int?

  /// The inputs as given (for reports): the one path, or all joined by `, `.
  var input: String { inputs.joined(separator: ", ") }

  /// What a run read, as the entity store's `runs.source` says it: the
  /// source names given, else the inputs. (Each contact keeps its own
  /// input's name in `contacts.source`.)
  var sourceLabel: String {
    sourceNames.isEmpty ? input : sourceNames.map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? $0 }.joined(separator: ", ")
  }

  /// Every verb needs an input, except dedupe's `--apply` and `--undo`
  /// (the plan or the log names the address book).
  func requireInputs() throws {
    if inputs.isEmpty { throw ValidationError("give at least one input (a file, a directory, a glob, or - )") }
  }

  func validate() throws {
    if inputs.filter({ $0 == "-" }).count > 0 && inputs.count > 1 {
      throw ValidationError("standard input (-) cannot be read together with other inputs")
    }
    for s in sourceNames where !s.contains("=") && inputs.count > 1 {
      throw ValidationError("--source \(s): with several inputs, name each as NAME=PATH")
    }
    let urls = inputs.filter { CardDAVInput.isURL($0) }
    if !urls.isEmpty && urls.count != inputs.count {
      throw ValidationError("give address book URLs or files, not both in one run")
    }
    if delimiter != nil && delimiterByte == nil { throw ValidationError("--delimiter must be , ; tab or |") }
    if multiSeparator?.isEmpty == true { throw ValidationError("--multi-separator must not be empty") }
    if let dateFormat, DateText.Order(rawValue: dateFormat.lowercased()) == nil {
      throw ValidationError("--date-format must be dd/mm/yyyy or mm/dd/yyyy")
    }
    if let charset, CharsetConverter.canonicalName(charset) == nil {
      throw ValidationError("unknown charset '\(charset)' (use an ICU charset name such as windows-1255)")
    }
  }
}

/// Where and how a verb writes contacts.
struct OutputOptions: ParsableArguments {
  @Option(
    name: [.short, .customLong("output")],
    help: ArgumentHelp("Output file, or - for standard output (required, except by dedupe's --plan, --apply and --undo).", valueName: "output"))
  var outputPath: String?

  /// The output path (``require()`` has made sure there is one).
  var output: String { outputPath ?? "-" }

  func require() throws {
    if outputPath == nil { throw ValidationError("Missing expected argument '--output <output>'") }
  }

  @Option(name: .customLong("to"), help: "Output format: vcard4, vcard3, csv, ndjson (default: from the extension).")
  var to: FormatName?

  /// The format to write: `--to`, else the output's extension, else vCard 4.0 for `-`.
  func format() throws -> ContactFormat {
    if let to { return to.format }
    if output == "-" { return .vcard4 }
    if RowsBack.isParquet(output: output) {
      throw CLIError(
        "\(output): Parquet is written by dedupe and link, as a table's own rows with their cluster columns "
          + "(the input a table: CSV, TSV or Parquet); here use --to csv|ndjson|vcard4", exitCode: CLIError.usage)
    }
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
