import ArgumentParser

/// A failure reported to the user as one line, with a non-zero exit
/// status. Messages name files and counts, never contact values.
struct CLIError: Error, CustomStringConvertible {
  var description: String
  var exitCode: Int32 = 1

  init(_ message: String, exitCode: Int32 = 1) {
    description = message
    self.exitCode = exitCode
  }
}
