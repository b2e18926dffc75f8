import Ohana

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
  static func read(_ options: InputOptions, quiet: Bool) throws -> ReadResult {
    let path = options.input
    var total: Int? = nil
    if path != "-" {
      var st = stat()
      guard stat(path, &st) == 0 else {
        throw CLIError("cannot read \(path): \(OutputFile.reason(errno))", exitCode: CLIError.noInput)
      }
      guard (st.st_mode & S_IFMT) != S_IFDIR else {
        throw CLIError("cannot read \(path): is a directory", exitCode: CLIError.noInput)
      }
      total = Int(st.st_size)
    }
    let bar = ProgressBar(label: "read", total: total ?? 0, quiet: quiet || total == nil)
    // Chunks no bigger than the file: small inputs need no 2 MiB buffers.
    let standard = ReadOptions().chunkSize
    let chunkSize = total.map { min(standard, max(64 << 10, $0 + 1)) } ?? standard
    let readOptions = ReadOptions(
      strict: options.strict, chunkSize: chunkSize, declaredCharset: options.charset,
      minimumDetectionConfidence: options.detectionConfidence ?? ReadOptions.defaultDetectionConfidence,
      progress: { done, _ in bar.update(done) })
    do {
      let result: ReadResult
      if path == "-" {
        result = try ContactIO.readStandardInput(format: options.from?.format, options: readOptions)
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
        throw CLIError("\(path): \(error.message)", exitCode: CLIError.dataError)
      }
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
    let bar = ProgressBar(label: "write", total: frame.count, quiet: quiet)
    defer { bar.finish() }
    do {
      if path == "-" {
        try ContactIO.writeStandardOutput(frame, format: format, progress: { done, _ in bar.update(done) })
      } else {
        try ContactIO.write(frame, format: format, to: path, progress: { done, _ in bar.update(done) })
      }
    } catch {
      // OutputTarget's messages already name the path.
      let message = error.code == .io ? error.message : "cannot write \(path): \(error.message)"
      throw CLIError(message, exitCode: CLIError.cannotCreate)
    }
  }
}
