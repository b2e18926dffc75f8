import ArgumentParser

/// A failure reported to the user as one line on stderr, with a non-zero
/// exit status. Messages name files, lines and counts, never contact values.
///
/// Exit statuses follow sysexits: 64 bad usage (argument-parser's own),
/// 65 bad input data (`--strict`), 66 input missing or unreadable,
/// 73 output cannot be created, 1 anything else.
struct CLIError: Error, CustomStringConvertible {
  var description: String
  var exitCode: Int32

  init(_ message: String, exitCode: Int32 = 1) {
    description = message
    self.exitCode = exitCode
  }

  static let usage: Int32 = 64
  static let dataError: Int32 = 65
  static let noInput: Int32 = 66
  static let cannotCreate: Int32 = 73
  /// EX_UNAVAILABLE: a feature this build does not have (Parquet without the trait).
  static let unavailable: Int32 = 69

  /// Runs a verb's body; a `CLIError` becomes its one-line message and
  /// exit status instead of argument-parser's generic handling.
  static func reporting(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as CLIError {
      StandardError.write("Error: \(error.description)\n")
      throw ExitCode(error.exitCode)
    }
  }
}
