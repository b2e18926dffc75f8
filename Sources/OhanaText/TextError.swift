/// An error from a text service: what failed, ICU's status, and a message.
///
/// A struct with an open set of codes (like swift-nio's `FileSystemError`),
/// so new codes can be added without breaking callers.
public struct TextError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of operation failed.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    /// The charset name is not known to ICU.
    public static let unknownCharset = Code("unknownCharset")
    /// Conversion between charsets failed.
    public static let conversionFailed = Code("conversionFailed")
    /// ICU could not open a collator for the locale.
    public static let collatorUnavailable = Code("collatorUnavailable")
    /// A collator attribute was rejected.
    public static let invalidAttribute = Code("invalidAttribute")
    /// The transliterator id is unknown or malformed.
    public static let unknownTransliterator = Code("unknownTransliterator")
    /// Normalization or case mapping failed.
    public static let transformFailed = Code("transformFailed")
    /// The input is larger than ICU's 32-bit lengths allow.
    public static let inputTooLarge = Code("inputTooLarge")
    public var description: String { name }
  }

  /// What failed.
  public let code: Code
  /// ICU's status code.
  public let status: ICUStatus
  /// A human-readable message naming the input (charset, locale, id).
  public let message: String

  public init(code: Code, status: ICUStatus, message: String) {
    self.code = code
    self.status = status
    self.message = message
  }

  public var description: String { "\(code): \(message) (\(status))" }
}
