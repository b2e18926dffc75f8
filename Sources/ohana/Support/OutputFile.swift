import Ohana
import OhanaCore

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

/// An output written on a worker of the pool while the command writes
/// another: the two encodings fill each other's idle moments (a file's
/// writes wait on the page cache between its rounds of encoding). Only for
/// an output written to a temporary file of its own (``OutputTarget``'s
/// `.replace`), which nothing else can interleave with. With one worker it
/// is written when waited for.
struct WrittenBeside {
  private let task: BackgroundTask<Result<Void, any Error>>
  private let file: OutputFile

  /// Starts `write(file)` on the pool, or returns nil when `file` is not
  /// written to a temporary file of its own.
  init?(_ file: OutputFile, _ write: @escaping @Sendable (OutputFile) throws -> Void) {
    guard case .replace = file.target.method else { return nil }
    self.file = file
    let shared = SendableOutput(file)
    task = BackgroundTask { Result { try write(shared.file) } }
  }

  /// Waits for the write; rethrows its error.
  func wait() throws -> OutputFile {
    try task.wait().get()
    return file
  }
}

/// An output handed to the one task that writes it.
private struct SendableOutput: @unchecked Sendable {
  // Safe: only the task touches the file until it is waited for.
  let file: OutputFile
  init(_ file: OutputFile) { self.file = file }
}
