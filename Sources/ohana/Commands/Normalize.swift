import ArgumentParser
import Ohana

extension OhanaCommand {
  /// `ohana normalize`: `process` with the normalizers only (issue 46,
  /// item 2). The same stages run in `process --normalize LIST`.
  struct Normalize: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write contacts with names, e-mails and phones in one consistent form.",
      discussion: """
        Every normalizer runs unless --only names some (README "Normalizing"):
        names (case of all-capitals or all-lower-case names, titles and
        suffixes into their own parts, a full name split into parts, NFC and
        white space), emails (trimmed, NFC, the domain in IDNA 2008 Unicode
        form and lower case, the syntax checked; a refused address is left
        as typed and listed by line), phones (E.164 unless --phone-format
        names another; a number that does not parse is left as typed and
        listed by line). What each changed, left or refused is printed on
        standard error by field, and written to --report.
        """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Only these normalizers (comma-separated): names, emails, phones.", valueName: "list"))
    var only: NormalizerList = NormalizerList(kinds: NormalizerList.Kind.allCases)

    @Option(name: .customLong("phone-format"), help: "The phone format written: e164, international, national or rfc3966.")
    var phoneFormat: PhoneFormatList?

    @Option(name: .customLong("region"), help: "Default region for national phone numbers (ISO 3166 code, e.g. US, GB, DE).")
    var region: RegionName = RegionName(code: .us)

    @Flag(help: "Keep a rewritten phone number's typed text in the parameter X-OHANA-ORIGINAL (vCard).")
    var keepOriginal = false

    @Flag(name: .customLong("rebuild-full-name"), help: "Write the full name (FN) anew from the name parts.")
    var rebuildFullName = false

    @Option(help: "Write a JSON report (counts by normalizer and field, every refused value's line) to this file (- for standard output).")
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
      var arguments = ["--normalize", only.kinds.map(\.rawValue).joined(separator: ","), "--region", region.code.description]
      if let phoneFormat, only.kinds.contains(.phones) {
        arguments += ["--format-phones", phoneFormat.formats.map(\.argument).joined(separator: ",")]
      }
      if keepOriginal { arguments.append("--keep-original") }
      if rebuildFullName { arguments.append("--rebuild-full-name") }
      let processing = try ProcessingOptions.parse(arguments)
      try Process.run(input: input, output: output, processing: processing, report: report, global: global)
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
