import OhanaIO

/// An error crossing the C interface: a code of `ohana_arrow.h`'s enum,
/// the input line when known, and a one-line message (never a contact value).
struct FFIError: Error {
  enum Code: Int32 {
    case io = 1, format, invalidInput, charset, argument, arrow
  }

  var code: Code
  var message: String
  var line: Int

  init(_ code: Code, _ message: String, line: Int = 0) {
    self.code = code
    self.message = message
    self.line = line
  }

  init(_ error: ContactIOError) {
    let code: Code =
      switch error.code {
      case .io: .io
      case .unsupportedFormat: .format
      case .invalidInput: .invalidInput
      case .charset: .charset
      }
    self.init(code, error.message, line: error.line ?? 0)
  }
}
