/// An error thrown by OhanaIO: a file that cannot be opened or written, an
/// unsupported format, or (with `ReadOptions.strict`) the first bad card.
public struct ContactIOError: Error, CustomStringConvertible, Sendable {
  public enum Code: Sendable, Equatable {
    case io
    case unsupportedFormat
    case invalidInput
    case charset
  }

  public var code: Code
  public var message: String
  /// 1-based line where the problem starts, when known.
  public var line: Int?

  public init(_ code: Code, _ message: String, line: Int? = nil) {
    self.code = code
    self.message = message
    self.line = line
  }

  public var description: String {
    if let line { return "line \(line): \(message)" }
    return message
  }
}
