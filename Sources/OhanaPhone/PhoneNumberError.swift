/// A failure to parse a phone number, with the kind libphonenumber reports.
public struct PhoneNumberError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The failure kinds of libphonenumber's `NumberParseException`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let rawValue: UInt8

    @usableFromInline init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidCountryCode = Code(0)
    public static let notANumber = Code(1)
    public static let tooShortAfterIDD = Code(2)
    public static let tooShortNSN = Code(3)
    public static let tooLong = Code(4)

    /// libphonenumber's name for the kind, e.g. `NOT_A_NUMBER`.
    public var description: String {
      switch rawValue {
      case 0: return "INVALID_COUNTRY_CODE"
      case 1: return "NOT_A_NUMBER"
      case 2: return "TOO_SHORT_AFTER_IDD"
      case 3: return "TOO_SHORT_NSN"
      default: return "TOO_LONG"
      }
    }
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code): \(message)" }
}
