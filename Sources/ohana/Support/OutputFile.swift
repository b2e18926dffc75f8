import Dispatch
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

/// An output written on a Dispatch worker while the command writes
/// another: the two encodings fill each other's idle moments (a file's
/// writes wait on the page cache between its rounds of encoding). Only for
/// an output written to a temporary file of its own (``OutputTarget``'s
/// `.replace`), which nothing else can interleave with.
final class WrittenBeside: @unchecked Sendable {
  // Safe: the worker alone touches `file` and `failure` until it signals
  // `done`; the caller reads them only after `wait()`.
  private let file: OutputFile
  private var failure: (any Error)?
  private let done = DispatchSemaphore(value: 0)

  /// Starts `write(file)` on a worker, or returns nil when `file` is not
  /// written to a temporary file of its own.
  init?(_ file: OutputFile, _ write: @escaping @Sendable (OutputFile) throws -> Void) {
    guard case .replace = file.target.method else { return nil }
    self.file = file
    DispatchQueue.global().async {
      do { try write(self.file) } catch { self.failure = error }
      self.done.signal()
    }
  }

  /// Waits for the write; rethrows its error.
  func wait() throws -> OutputFile {
    done.wait()
    done.signal()
    if let failure { throw failure }
    return file
  }
}
