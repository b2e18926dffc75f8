/// A parsed phone number: what libphonenumber's `PhoneNumber` holds after
/// `parse` without raw input (country code, national number with its leading
/// zeros, extension).
public struct PhoneNumber: Hashable, Sendable {
  /// The country calling code, e.g. 44.
  public var countryCode: Int
  /// The national significant number as an integer (leading zeros dropped).
  public var nationalNumber: UInt64
  /// Digits in the national significant number, leading zeros included (2...17).
  public var nationalNumberLength: Int
  /// The extension as typed (its digits may be any Unicode decimal digits), or nil.
  public var numberExtension: String?

  public init(countryCode: Int, nationalNumber: UInt64, nationalNumberLength: Int, numberExtension: String? = nil) {
    self.countryCode = countryCode
    self.nationalNumber = nationalNumber
    self.nationalNumberLength = nationalNumberLength
    self.numberExtension = numberExtension
  }

  /// libphonenumber's `italian_leading_zero`.
  public var italianLeadingZero: Bool { leadingZeroCount > 0 }

  /// Number of leading zeros in the national significant number.
  public var leadingZeroCount: Int {
    var digits = 0
    var value = nationalNumber
    repeat {
      digits += 1
      value /= 10
    } while value > 0
    return Swift.max(0, nationalNumberLength - digits)
  }

  /// The national significant number as ASCII digits.
  public var nationalSignificantNumber: String {
    var digits = DigitString()
    digits.setNationalNumber(self)
    return digits.string
  }
}
