/// Parses, validates, classifies and formats phone numbers with
/// libphonenumber's semantics (metadata of phonenumbers 9.0.43).
///
/// A value type over immutable shared tables: create one anywhere and use it
/// from any number of threads.
///
/// ```swift
/// let engine = PhoneNumberEngine()
/// let number = try engine.parse("020 7031 3000", defaultRegion: RegionCode("GB")!)
/// engine.format(number, as: .international)  // "+44 20 7031 3000"
/// ```
public struct PhoneNumberEngine: Sendable {
  let tables: PhoneMetadataTables

  public init() {
    tables = PhoneMetadataTables.shared
  }

  /// The libphonenumber metadata version the tables were generated from.
  public static var metadataVersion: String { PhoneMetadataTables.version }

  /// Whether `region` is a region libphonenumber can parse national numbers for.
  public func isSupportedRegion(_ region: RegionCode) -> Bool {
    tables.entry(for: region) != nil
  }

  /// The calling code of `region` (`GB` → 44), or nil for a region
  /// libphonenumber does not know.
  public func countryCode(for region: RegionCode) -> Int? {
    tables.entry(for: region).map { Int(tables.entryCountryCode[$0]) }
  }

  /// The main region of a calling code (`1` → US, `44` → GB, `800` → 001), or nil.
  public func regionCode(forCountryCode cc: Int) -> RegionCode? {
    tables.mainEntry(forCountryCode: cc).map { tables.entryRegion[$0] }
  }
}
