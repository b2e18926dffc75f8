import ArgumentParser
import OhanaDatasets

extension OhanaCommand {
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Generate a realistic, international vCard dataset.",
      discussion: """
        The output depends only on the options: the same seed gives the same bytes.
        With --dup-rate R, that share of people get 1-3 duplicate records with
        realistic variations, shuffled into the file. --truth writes uid,cluster_id
        for every contact.
        """
    )

    enum VersionChoice: String, ExpressibleByArgument, CaseIterable {
      case v21 = "2.1"
      case v30 = "3.0"
      case v40 = "4.0"
      case mixed
    }

    enum Preset: String, ExpressibleByArgument, CaseIterable {
      case ohanaExample = "ohana-example"
    }

    @Option(help: "Number of contacts (records, duplicates included).")
    var contacts: Int = 1000

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 1

    @Option(help: "vCard version of the cards: 2.1, 3.0, 4.0 or mixed.")
    var version: VersionChoice = .mixed

    @Option(name: .customLong("dup-rate"), help: "Share of people (0-1) who get 1-3 duplicates.")
    var dupRate: Double = 0

    @Option(
      help: ArgumentHelp(
        "address-book (synced contacts: phones and e-mails) or hand-keyed (customer and member records: most people without phone or e-mail, typos in names, streets, postcodes and birth dates).",
        valueName: "style"))
    var style: String = "address-book"

    @Option(name: [.short, .customLong("output")], help: "Output .vcf file, or - for standard output.")
    var output: String

    @Option(help: "Also write uid,cluster_id for every contact to this CSV file.")
    var truth: String?

    @Option(help: "Write a fixed dataset instead: ohana-example (the eight contacts of Ohana's example app).")
    var preset: Preset?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard contacts >= 0 else { throw ValidationError("--contacts must be 0 or more") }
      guard (0...1).contains(dupRate) else { throw ValidationError("--dup-rate must be between 0 and 1") }
      guard style == "address-book" || style == "hand-keyed" else {
        throw ValidationError("--style must be address-book or hand-keyed")
      }
      if truth == "-" && output == "-" {
        throw ValidationError("--truth and --output cannot both be standard output")
      }
    }

    func run() throws {
      let start = Clock.seconds()
      let out = try OutputFile(path: output)
      if preset == .ohanaExample {
        try out.write(OhanaExample.vcard())
        try out.commit()
        if !global.quiet {
          StandardError.write("wrote \(OhanaExample.contactCount) contacts to \(output)\n")
        }
        return
      }
      let mode: VersionMode
      switch version {
      case .v21: mode = .fixed(.v21)
      case .v30: mode = .fixed(.v30)
      case .v40: mode = .fixed(.v40)
      case .mixed: mode = .mixed
      }
      let generator = DatasetGenerator(
        options: GeneratorOptions(
          contacts: contacts, seed: seed, version: mode, dupRate: dupRate, handKeyed: style == "hand-keyed"))
      let truthFile = try truth.map { try OutputFile(path: $0) }
      let bar = ProgressBar(label: "generate", total: contacts, quiet: global.quiet)
      let summary = try generator.generate(
        vcard: { try out.write($0) },
        truth: truthFile.map { file in { try file.write($0) } },
        progress: { bar.update($0) })
      bar.finish()
      try out.commit()
      try truthFile?.commit()
      if !global.quiet {
        let seconds = Clock.seconds() - start
        let rate = seconds > 0 ? Int(Double(summary.contacts) / seconds) : 0
        StandardError.write(
          "generated \(summary.contacts) contacts (\(summary.people) people, "
            + "\(summary.duplicates) duplicates) in \(formatSeconds(seconds)) s, \(rate) contacts/s\n")
      }
    }
  }
}

func formatSeconds(_ s: Double) -> String {
  let ms = Int((s * 1000).rounded())
  let frac = ms % 1000
  return String(ms / 1000) + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + String(frac)
}
