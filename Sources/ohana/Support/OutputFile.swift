import Ohana

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output of the tool (`-o`, `--clusters`, `--explain`, `--report`,
/// `--truth`): OhanaIO's `OutputTarget` with its errors as one-line
/// `CLIError`s (exit status 73). A regular file is written to a temporary
/// file renamed into place by `commit()`; a link is followed; a device,
/// FIFO or socket is written to directly; `-` is standard output.
///
/// A command with several outputs writes them all, then commits them all
/// (``commit(_:)``): a failure on the way leaves every output as it was,
/// and the flush of one file to disk overlaps the writing of the next.
final class OutputFile {
  let path: String
  let target: OutputTarget

  init(path: String) throws {
    self.path = path
    do {
      target = try OutputTarget(path: path)
    } catch {
      throw CLIError(error.message, exitCode: CLIError.cannotCreate)
    }
  }

  func write(_ bytes: [UInt8]) throws {
    do {
      try target.write(bytes)
    } catch {
      throw CLIError(error.message, exitCode: CLIError.cannotCreate)
    }
  }

  /// Says that this output is complete: its flush to disk starts in the
  /// background while the command goes on (see `OutputTarget.startFlush()`).
  func startFlush() { target.startFlush() }

  /// Finishes the output (renames a temporary file into place).
  func commit() throws {
    do {
      try target.commit()
    } catch {
      throw CLIError(error.message, exitCode: CLIError.cannotCreate)
    }
  }

  /// Commits `outputs` in order (the first failure stops: the outputs
  /// after it are discarded, those before it stay written).
  static func commit(_ outputs: [OutputFile]) throws {
    for o in outputs { try o.commit() }
  }

  static func reason(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    return String(cString: s).lowercased()
  }
}
