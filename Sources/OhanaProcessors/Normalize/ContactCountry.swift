import OhanaCore
import OhanaPhone

/// Writes each contact's country, as the ISO code of the first of its
/// addresses that names a country (``CountryText``) and that phone
/// metadata knows, into the contact-level column ``column``, for
/// ``PhoneNumberFormatting/regionColumn``: a normalization job reads a
/// national number (`020 7946 0958`) in its contact's country, and only a
/// contact with none in the default region. An enricher: adds one derived
/// column.
public struct ContactCountry: PostProcessor {
  public static let column = "contact.country"
  public let role: StageRole

  public init(role: StageRole = .core) { self.role = role }

  public var name: String { "contact-country" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    let countries = CountryText.shared
    let engine = PhoneNumberEngine()
    let typed = table.addresses[.country]
    var memo: [StringID: StringID] = [:]
    var out = [StringID](repeating: .absent, count: table.rowCount)
    var known = 0
    var pool = table.pool
    for row in 0..<table.rowCount {
      for a in table.addressRange(of: row) where typed[a].isPresent {
        let id: StringID
        if let m = memo[typed[a]] {
          id = m
        } else {
          let code = pool.string(typed[a]).flatMap(countries.code)
          let supported = code.flatMap { RegionCode($0) }.map { engine.isSupportedRegion($0) } ?? false
          id = supported ? pool.intern(code ?? "") : .absent
          memo[typed[a]] = id
        }
        if id.isPresent {
          out[row] = id
          known += 1
          break
        }
      }
    }
    table.pool = pool
    table.setColumn(Self.column, .string(out))
    context.count("contacts.with-country", known)
    var result = frame
    result.table = table
    return result
  }
}
