import COhanaICU

/// An ICU status code (`UErrorCode`).
///
/// Positive values are failures, negative values warnings, zero is success.
/// The names follow ICU's (`U_FILE_ACCESS_ERROR` is ``fileAccessError``);
/// ``description`` is ICU's own spelling, from `u_errorName`.
public struct ICUStatus: RawRepresentable, Hashable, Sendable, Error, CustomStringConvertible {
  public let rawValue: Int32

  @inlinable
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `U_ZERO_ERROR`.
  public static let zeroError = ICUStatus(rawValue: OHANA_ICU_ZERO_ERROR)
  /// `U_USING_FALLBACK_WARNING`: a parent locale's data was used.
  public static let usingFallbackWarning = ICUStatus(rawValue: OHANA_ICU_USING_FALLBACK_WARNING)
  /// `U_USING_DEFAULT_WARNING`: the root data was used (locale unknown to ICU).
  public static let usingDefaultWarning = ICUStatus(rawValue: OHANA_ICU_USING_DEFAULT_WARNING)
  /// `U_STRING_NOT_TERMINATED_WARNING`: output filled the buffer exactly.
  public static let stringNotTerminatedWarning = ICUStatus(
    rawValue: OHANA_ICU_STRING_NOT_TERMINATED_WARNING)
  /// `U_ILLEGAL_ARGUMENT_ERROR`.
  public static let illegalArgumentError = ICUStatus(rawValue: OHANA_ICU_ILLEGAL_ARGUMENT_ERROR)
  /// `U_MISSING_RESOURCE_ERROR`.
  public static let missingResourceError = ICUStatus(rawValue: OHANA_ICU_MISSING_RESOURCE_ERROR)
  /// `U_INVALID_FORMAT_ERROR`.
  public static let invalidFormatError = ICUStatus(rawValue: OHANA_ICU_INVALID_FORMAT_ERROR)
  /// `U_FILE_ACCESS_ERROR`: e.g. an unknown charset name.
  public static let fileAccessError = ICUStatus(rawValue: OHANA_ICU_FILE_ACCESS_ERROR)
  /// `U_INTERNAL_PROGRAM_ERROR`.
  public static let internalProgramError = ICUStatus(rawValue: OHANA_ICU_INTERNAL_PROGRAM_ERROR)
  /// `U_MEMORY_ALLOCATION_ERROR`.
  public static let memoryAllocationError = ICUStatus(
    rawValue: OHANA_ICU_MEMORY_ALLOCATION_ERROR)
  /// `U_INDEX_OUTOFBOUNDS_ERROR`.
  public static let indexOutOfBoundsError = ICUStatus(
    rawValue: OHANA_ICU_INDEX_OUTOFBOUNDS_ERROR)
  /// `U_INVALID_CHAR_FOUND`.
  public static let invalidCharFound = ICUStatus(rawValue: OHANA_ICU_INVALID_CHAR_FOUND)
  /// `U_ILLEGAL_CHAR_FOUND`.
  public static let illegalCharFound = ICUStatus(rawValue: OHANA_ICU_ILLEGAL_CHAR_FOUND)
  /// `U_BUFFER_OVERFLOW_ERROR`.
  public static let bufferOverflowError = ICUStatus(rawValue: OHANA_ICU_BUFFER_OVERFLOW_ERROR)
  /// `U_UNSUPPORTED_ERROR`.
  public static let unsupportedError = ICUStatus(rawValue: OHANA_ICU_UNSUPPORTED_ERROR)

  /// True for failures (`U_FAILURE`).
  @inlinable public var isFailure: Bool { rawValue > 0 }
  /// True for warnings (negative codes).
  @inlinable public var isWarning: Bool { rawValue < 0 }

  /// ICU's name for the code, e.g. `U_FILE_ACCESS_ERROR`.
  public var description: String { icu_errorName(self) }
}

/// Collation calls report ``ICUStatus`` codes.
public typealias CollationStatus = ICUStatus
