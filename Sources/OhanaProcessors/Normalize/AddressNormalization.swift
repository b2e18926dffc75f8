import OhanaCore

/// Postal addresses in one form (issue 46, item 2), written into the
/// address columns:
/// - the country, named in any language or by an ISO code, becomes its
///   ISO 3166-1 alpha-2 code, or its CLDR name in ``countryLocale``
///   (``CountryText``);
/// - the region becomes its ISO 3166-2 code where this project holds the
///   country's table (``RegionText``: US, CA, AU, DE);
/// - the postcode takes its country's format (``PostcodeText``).
///
/// The country of an address is its own, or ``defaultCountry`` when it
/// names none (nil: such an address's region and postcode are left).
/// Streets are not rewritten. A value that is not recognised is left as
/// typed and counted (`addresses.<part>.unrecognized`, listed by line);
/// `addresses.<part>.changed` counts the rewritten ones. An enricher:
/// keeps rows, order and every other column.
public struct AddressNormalization: PostProcessor {
  public let countryLocale: String?
  public let defaultCountry: String?
  public let role: StageRole
  public static let listedLines = 1000

  /// `countryLocale`: nil writes ISO codes; a locale (`en`, `de`) writes
  /// CLDR's names in it.
  public init(countryLocale: String? = nil, defaultCountry: String? = nil, role: StageRole = .core) {
    self.countryLocale = countryLocale
    self.defaultCountry = defaultCountry
    self.role = role
  }

  public var name: String { "normalize-addresses" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    guard table.addresses.count > 0 else { return frame }
    let countries = CountryText.shared
    var country = Array(table.addresses[.country])
    var region = Array(table.addresses[.region])
    var postcode = Array(table.addresses[.postalCode])
    var pool = table.pool
    var counts: [String: Int] = [:]
    var lines: [String] = []
    var codeMemo: [StringID: String?] = [:]
    var writtenMemo: [String: StringID] = [:]
    func text(_ id: StringID) -> String? { id.isPresent ? pool.string(id) : nil }
    func note(_ row: Int, _ what: String) {
      guard lines.count < Self.listedLines else { return }
      let line = row < table.sourceLine.count ? Int(table.sourceLine[row]) : 0
      lines.append((line > 0 ? "line \(line)" : "contact \(row + 1)") + ": \(what) not recognised; left as typed")
    }
    for row in 0..<table.rowCount {
      for a in table.addressRange(of: row) {
        // The country.
        var code: String? = defaultCountry
        if let typed = text(country[a]) {
          let found: String?
          if let known = codeMemo[country[a]] { found = known } else {
            found = countries.code(typed)
            codeMemo[country[a]] = found
          }
          if let found {
            code = found
            let written: StringID
            if let w = writtenMemo[found] { written = w } else {
              let name = countryLocale.flatMap { countries.name(found, locale: $0) } ?? found
              written = pool.intern(name)
              writtenMemo[found] = written
            }
            if written != country[a] {
              country[a] = written
              counts["addresses.country.changed", default: 0] += 1
            }
          } else {
            code = nil
            counts["addresses.country.unrecognized", default: 0] += 1
            note(row, "a country")
          }
        }
        guard let code else { continue }
        if let typed = text(region[a]), RegionText.tables[code] != nil {
          if let r = RegionText.code(typed, country: code) {
            if r != typed {
              region[a] = pool.intern(r)
              counts["addresses.region.changed", default: 0] += 1
            }
          } else {
            counts["addresses.region.unrecognized", default: 0] += 1
            note(row, "a region")
          }
        }
        if let typed = text(postcode[a]), code == "GB" || PostcodeText.formats[code] != nil {
          if let p = PostcodeText.normalized(typed, country: code) {
            if p != typed {
              postcode[a] = pool.intern(p)
              counts["addresses.postcode.changed", default: 0] += 1
            }
          } else {
            counts["addresses.postcode.unrecognized", default: 0] += 1
            note(row, "a postcode")
          }
        }
      }
    }
    table.pool = pool
    table.addresses.columns[AddressAttribute.country.rawValue] = StringColumn(country)
    table.addresses.columns[AddressAttribute.region.rawValue] = StringColumn(region)
    table.addresses.columns[AddressAttribute.postalCode.rawValue] = StringColumn(postcode)
    for (k, v) in counts { context.count(k, v) }
    for l in lines { context.note(l) }
    var result = frame
    result.table = table
    return result
  }
}
