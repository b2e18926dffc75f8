import ArgumentParser
import Ohana

extension OhanaCommand {
  struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a JSON summary of a contact file.",
      discussion: """
        Counts only: contacts, fields by kind, contacts having each kind, addresses,
        photos, extra (unmodelled) properties by name, and read errors with line numbers.
        """
    )

    @OptionGroup var input: InputOptions

    @Option(help: "Also write a JSON report (counts, every warning and skip with its line) to this file.")
    var report: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws { try input.requireInputs() }

    struct Summary: Encodable {
      var contacts: Int
      var warnings: Int
      var skipped: Int
      var bytes: Int
      var fields: [String: Int]
      var contactsWith: [String: Int]
      var addresses: Int
      var photos: Int
      var extraProperties: Int
      var extraPropertyNames: [String: Int]
      var errors: [ErrorEntry]
      var errorsTruncated: Bool
      var charset: CharsetEntry?
    }

    func run() throws {
      try CLIError.reporting {
        let start = Clock.seconds()
        let result = try ContactFiles.read(input, quiet: global.quiet)
        if let report {
          try JSON.write(
            ReadReport(command: "stats", path: input.input, result: result, output: nil, seconds: Clock.seconds() - start),
            to: report)
        }
        let summary = Self.summarize(result)
        let bytes = try JSON.encode(summary)
        let out = try OutputFile(path: "-")
        try out.write(bytes)
      }
    }

    static func summarize(_ result: ReadResult) -> Summary {
      let t = result.table
      var fields: [String: Int] = [:]
      for k in FieldKind.allCases { fields[k.name] = 0 }
      var with: [String: Int] = [:]
      for k in FieldKind.allCases { with[k.name] = 0 }
      var seen = [Bool](repeating: false, count: FieldKind.allCases.count)
      for r in 0..<t.rowCount {
        for i in seen.indices { seen[i] = false }
        for i in t.fieldRange(of: r) {
          let k = t.fields.kind[i]
          fields[k.name, default: 0] += 1
          seen[Int(k.rawValue)] = true
        }
        for k in FieldKind.allCases where seen[Int(k.rawValue)] { with[k.name, default: 0] += 1 }
      }
      with["address"] = Requirement.postalAddress.rows(of: t).popCount
      with["photo"] = Requirement.photo.rows(of: t).popCount
      with["givenName"] = Requirement.givenName.rows(of: t).popCount
      with["familyName"] = Requirement.familyName.rows(of: t).popCount
      var names: [StringID: Int] = [:]
      for id in t.extras.name { names[id, default: 0] += 1 }
      var extraNames: [String: Int] = [:]
      for (id, n) in names { extraNames[(t.pool.string(id) ?? "").uppercased(), default: 0] += n }
      let (errors, truncated) = ErrorEntry.list(result.errors, limit: 100)
      return Summary(
        contacts: t.rowCount, warnings: ProblemCounts(result.errors).warnings,
        skipped: ProblemCounts(result.errors).skipped, bytes: result.bytesRead, fields: fields,
        contactsWith: with, addresses: t.addresses.count, photos: with["photo"] ?? 0,
        extraProperties: t.extras.count, extraPropertyNames: extraNames, errors: errors,
        errorsTruncated: truncated, charset: CharsetEntry(result.undeclaredCharset))
    }
  }
}
