import ArgumentParser
import Foundation
import Ohana
import OhanaParquet

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing contact files for the verbs, on top of `ContactIO`:
/// progress on a terminal, and errors turned into one-line `CLIError`s.
enum ContactFiles {
  /// The inputs of `options` as files: directories walked (contact files
  /// by extension, hidden ones left out, in name order), globs expanded,
  /// each with its source name (`--source NAME=PATH`, else the path).
  static func inputs(_ options: InputOptions) throws -> [ContactInput] {
    var named: [String: String] = [:]
    for s in options.sourceNames {
      if let eq = s.firstIndex(of: "=") {
        named[String(s[s.index(after: eq)...])] = String(s[..<eq])
      } else if let only = options.inputs.first {
        named[only] = s
      }
    }
    var out: [ContactInput] = []
    var used = Set<String>()
    for arg in options.inputs {
      let files: [String]
      do {
        // A directory of Parquet parts is one table (Spark's output).
        files = ParquetTable.isParquet(path: arg) ? [arg] : try InputDiscovery.files(arg)
      } catch {
        throw CLIError(error.message, exitCode: CLIError.noInput)
      }
      for f in files {
        let name = named[f] ?? named[arg] ?? f
        if named[f] != nil { used.insert(f) }
        if named[arg] != nil { used.insert(arg) }
        out.append(ContactInput(path: f, format: options.from?.format, name: name))
      }
    }
    for path in named.keys where !used.contains(path) {
      throw CLIError("--source names \(path), which is not one of the inputs", exitCode: CLIError.usage)
    }
    return out
  }

  static func read(_ options: InputOptions, quiet: Bool) throws -> ReadResult {
    let result = try readInputs(options, quiet: quiet)
    try checkColumns(result.columns, path: options.input, options: options, quiet: quiet)
    return result
  }

  private static func readInputs(_ options: InputOptions, quiet: Bool) throws -> ReadResult {
    if options.inputs.contains(where: CardDAVInput.isURL) { return try CardDAVInput.read(options, quiet: quiet) }
    let inputs = try Self.inputs(options)
    if inputs.count > 1 || !options.sourceNames.isEmpty { return try readSeveral(inputs, options, quiet: quiet) }
    let path = inputs.first?.path ?? "-"
    var total: Int? = nil
    if path != "-" {
      var st = stat()
      guard stat(path, &st) == 0 else {
        throw CLIError("cannot read \(path): \(OutputFile.reason(errno))", exitCode: CLIError.noInput)
      }
      guard (st.st_mode & S_IFMT) != S_IFDIR || ParquetTable.isParquet(path: path) else {
        throw CLIError("cannot read \(path): is a directory", exitCode: CLIError.noInput)
      }
      total = Int(st.st_size)
    }
    let bar = ProgressBar(label: "read", total: total ?? 0, quiet: quiet || total == nil)
    // Chunks no bigger than the file: small inputs need no 2 MiB buffers.
    let standard = ReadOptions().chunkSize
    let chunkSize = total.map { min(standard, max(64 << 10, $0 + 1)) } ?? standard
    var readOptions = ReadOptions(
      strict: options.strict, chunkSize: chunkSize, declaredCharset: options.charset,
      minimumDetectionConfidence: options.detectionConfidence ?? ReadOptions.defaultDetectionConfidence,
      progress: { done, _ in bar.update(done) })
    readOptions.columnMapping = try options.columnMapping()
    readOptions.dateOrder = options.dateOrder
    readOptions.delimiter = options.delimiterByte
    readOptions.multiSeparator = options.multiSeparator.map { Array($0.utf8) }
    do {
      let result: ReadResult
      if path == "-" {
        result = try ContactIO.readStandardInput(format: options.from?.format, options: readOptions)
      } else if options.from == nil && ParquetTable.isParquet(path: path) {
        // A Parquet table: Arrow reads it, the table route maps it (README "Parquet").
        result = try ParquetTable.read(path: path, options: readOptions)
      } else {
        result = try ContactIO.read(path: path, format: options.from?.format, options: readOptions)
      }
      bar.finish()
      if !quiet {
        if let charset = result.undeclaredCharset {
          StandardError.write("\(path): \(charset)\(charset.couldNotReread ? "; use --charset" : "")\n")
        }
        announce(result.errors)
      }
      return result
    } catch {
      bar.finish()
      switch error.code {
      case .invalidInput, .charset:
        throw CLIError("\(path): \(error.description)", exitCode: CLIError.dataError)
      case .io:
        throw CLIError("cannot read \(path)", exitCode: CLIError.noInput)
      case .unsupportedFormat:
        throw CLIError(
          "\(path): \(error.message)",
          exitCode: ParquetTable.isParquet(path: path) ? CLIError.unavailable : CLIError.dataError)
      }
    }
  }

  /// Several inputs (or one with a source name) into one table, each
  /// contact tagged with its source; a line per input on standard error.
  static func readSeveral(_ inputs: [ContactInput], _ options: InputOptions, quiet: Bool) throws -> ReadResult {
    var total = 0
    for input in inputs where input.format == nil && ParquetTable.isParquet(path: input.path) {
      throw CLIError(
        "\(input.path): a Parquet table is read alone (one input, no --source); to link two tables use `ohana link`",
        exitCode: CLIError.usage)
    }
    for input in inputs {
      var st = stat()
      guard stat(input.path, &st) == 0 else {
        throw CLIError("cannot read \(input.path): \(OutputFile.reason(errno))", exitCode: CLIError.noInput)
      }
      guard (st.st_mode & S_IFMT) != S_IFDIR else {
        throw CLIError("cannot read \(input.path): is a directory", exitCode: CLIError.noInput)
      }
      total += Int(st.st_size)
    }
    let bar = ProgressBar(label: "read", total: total, quiet: quiet)
    let readOptions = ReadOptions(
      strict: options.strict, declaredCharset: options.charset,
      minimumDetectionConfidence: options.detectionConfidence ?? ReadOptions.defaultDetectionConfidence)
    do {
      let result = try ContactIO.read(inputs: inputs, options: readOptions, progress: { done, _ in bar.update(done) })
      bar.finish()
      if !quiet {
        var text = ""
        for s in result.sources {
          text += "\(s.name): \(s.contacts) contacts"
          if s.warnings + s.skipped > 0 { text += " (\(s.warnings) warnings, \(s.skipped) skipped)" }
          if let c = s.charset { text += "; undeclared 8-bit text read as \(c)" }
          text += "\n"
        }
        StandardError.write(text)
        announce(result.errors)
      }
      return result
    } catch {
      bar.finish()
      switch error.code {
      case .invalidInput, .charset, .unsupportedFormat:
        throw CLIError(error.description, exitCode: CLIError.dataError)
      case .io:
        throw CLIError("cannot read: \(error.message)", exitCode: CLIError.noInput)
      }
    }
  }

  /// A table's mapping: shown on standard error when detection or the
  /// user's mapping decided some of it (or, with `--show-mapping`, on
  /// standard output, and the run stops there).
  static func checkColumns(_ columns: [MappedColumn], path: String, options: InputOptions, quiet: Bool) throws {
    guard !columns.isEmpty else {
      if options.showMapping { throw CLIError("\(path): --show-mapping is for tables (CSV); this input is not one", exitCode: CLIError.usage) }
      return
    }
    if options.showMapping {
      FileHandle.standardOutput.write(Data(mappingText(columns, path: path).utf8))
      throw ExitCode.success
    }
    let mapped = columns.filter { $0.role != nil }
    if !quiet && columns.contains(where: { $0.how != "known" && $0.how != "unmapped" }) {
      let text = mapped.map { "\($0.column)=\($0.role.map(\.description) ?? "")" }.joined(separator: ", ")
      let passed = columns.count - mapped.count
      StandardError.write("\(path): columns mapped: \(text); \(passed) passed through (--show-mapping lists them)\n")
    }
  }

  /// `--show-mapping`'s text: a line per column, its role and how it was
  /// decided.
  static func mappingText(_ columns: [MappedColumn], path: String) -> String {
    var text = "\(path): \(columns.count) columns\n"
    for c in columns { text += "  \(c.column) -> \(c.role.map(\.description) ?? "(passed through)")  [\(c.how)]\n" }
    return text
  }

  /// A table where no column is a name, an e-mail or a phone cannot be
  /// deduped: an error (exit 65) naming its columns and showing how to map
  /// them, never a run that finds "0 clusters".
  static func requireIdentifying(_ columns: [MappedColumn], path: String) throws {
    guard !columns.isEmpty else { return }
    if !columns.contains(where: { $0.role?.identifies == true }) {
      let names = columns.map(\.column)
      let shown = names.prefix(12).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 12 ? ", ..." : "")
      throw CLIError(
        "\(path): no column is a name, an e-mail or a phone, so no contact can be told from another (columns: \(shown)). "
          + "Map them, for example: --map given=\(names.first ?? "COLUMN") --map email=COLUMN (roles: ohana dedupe --help); "
          + "--show-mapping shows what was found",
        exitCode: CLIError.dataError)
    }
  }

  /// How many warnings and skips standard error shows; `--report` lists all.
  static let shownProblems = 5

  /// The first few warnings and skips, `FILE:LINE: warning: PROP: reason`,
  /// then how many more there are. Never a contact value.
  static func announce(_ errors: [InputError]) {
    guard !errors.isEmpty else { return }
    var text = ""
    for e in errors.prefix(shownProblems) {
      text += "\(e.source.map { "\($0):" } ?? "line ")\(e.line): \(e.severity.rawValue): "
      text += "\(e.property.map { "\($0): " } ?? "")\(e.reason)\n"
    }
    if errors.count > shownProblems {
      text += "... and \(errors.count - shownProblems) more (--report FILE lists them all)\n"
    }
    StandardError.write(text)
  }

  static func write(_ frame: Frame, format: ContactFormat, to path: String, quiet: Bool) throws {
    try writePending(frame, format: format, to: path, quiet: quiet).commit()
  }

  /// Writes `frame` to `path` without committing: the caller commits the
  /// returned output once every output of the run is written (a failure
  /// before that leaves all of them as they were).
  static func writePending(_ frame: Frame, format: ContactFormat, to path: String, quiet: Bool) throws -> OutputFile {
    let out = try OutputFile(path: path)
    let bar = ProgressBar(label: "write", total: frame.count, quiet: quiet)
    defer { bar.finish() }
    do {
      try ContactIO.write(frame, format: format, to: out.target, progress: { done, _ in bar.update(done) })
    } catch {
      // OutputTarget's messages already name the path.
      let message = error.code == .io ? error.message : "cannot write \(path): \(error.message)"
      throw CLIError(message, exitCode: CLIError.cannotCreate)
    }
    out.startFlush()
    return out
  }
}
