/// The four output formats of libphonenumber's `format`.
public enum PhoneNumberFormat: UInt8, Sendable, CaseIterable {
  case e164
  case international
  case national
  case rfc3966
}

/// The number types of libphonenumber's `number_type`.
public enum PhoneNumberType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
  case fixedLine
  case mobile
  case fixedLineOrMobile
  case tollFree
  case premiumRate
  case sharedCost
  case voip
  case personalNumber
  case pager
  case uan
  case voicemail
  case unknown

  /// libphonenumber's name, e.g. `FIXED_LINE_OR_MOBILE`.
  public var description: String {
    switch self {
    case .fixedLine: return "FIXED_LINE"
    case .mobile: return "MOBILE"
    case .fixedLineOrMobile: return "FIXED_LINE_OR_MOBILE"
    case .tollFree: return "TOLL_FREE"
    case .premiumRate: return "PREMIUM_RATE"
    case .sharedCost: return "SHARED_COST"
    case .voip: return "VOIP"
    case .personalNumber: return "PERSONAL_NUMBER"
    case .pager: return "PAGER"
    case .uan: return "UAN"
    case .voicemail: return "VOICEMAIL"
    case .unknown: return "UNKNOWN"
    }
  }
}
