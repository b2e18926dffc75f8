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
/// Streets are rewritten only with ``streetStyle``: their type in full or
/// abbreviated (``StreetText``, `addresses.street.changed`). With
/// ``comparisonKeys`` each address gets its street's comparison key in the
/// parameter `X-OHANA-KEY` (`addresses.keys`). A value that is not recognised is left as
/// typed and counted (`addresses.<part>.unrecognized`, listed by line);
/// `addresses.<part>.changed` counts the rewritten ones. An enricher:
/// keeps rows, order and every other column.
public struct AddressNormalization: PostProcessor {
  public let countryLocale: String?
  public let defaultCountry: String?
  public let streetStyle: StreetText.Style?
  public let comparisonKeys: Bool
  public let role: StageRole
  public static let listedLines = 1000

  /// `countryLocale`: nil writes ISO codes; a locale (`en`, `de`) writes
  /// CLDR's names in it.
  public init(
    countryLocale: String? = nil, defaultCountry: String? = nil, streetStyle: StreetText.Style? = nil,
    comparisonKeys: Bool = false, role: StageRole = .core
  ) {
    self.countryLocale = countryLocale
    self.defaultCountry = defaultCountry
    self.streetStyle = streetStyle
    self.comparisonKeys = comparisonKeys
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
    var street = Array(table.addresses[.street])
    var parameters = comparisonKeys ? Array(table.addresses[.parameters]) : []
    let labels = table.addresses[.label]
    var pool = table.pool
    // country, region, postcode: changed, unrecognized
    var counts = [Int](repeating: 0, count: 6)
    var streetsChanged = 0, keys = 0
    var lines: [String] = []
    // Values repeat: each is worked out once, by its id (and the country
    // it is read in, by that country's index in `known`: no String is made
    // or hashed per address).
    var known: [Country] = []
    var countryIndex: [String: Int32] = [:]
    func index(of code: String?) -> Int32 {
      guard let code else { return -1 }
      if let i = countryIndex[code] { return i }
      let i = Int32(known.count)
      let written = countryLocale.flatMap { countries.name(code, locale: $0) } ?? code
      known.append(
        Country(
          code: code, written: pool.intern(written), regions: RegionText.tables[code] != nil,
          postcodes: code == "GB" || PostcodeText.formats[code] != nil))
      countryIndex[code] = i
      return i
    }
    let defaultIndex = index(of: defaultCountry)
    var codeMemo = IDMemo<Int32?>(count: pool.count)  // nil: not recognised
    var regionMemo: [Pair: StringID?] = [:]
    var postcodeMemo: [Pair: StringID?] = [:]
    var streetMemo: [Pair: StringID] = [:]
    var keyMemo: [Pair: String] = [:]
    func text(_ id: StringID) -> String? { id.isPresent ? pool.string(id) : nil }
    func note(_ row: Int, _ what: String) {
      guard lines.count < Self.listedLines else { return }
      let line = row < table.sourceLine.count ? Int(table.sourceLine[row]) : 0
      lines.append((line > 0 ? "line \(line)" : "contact \(row + 1)") + ": \(what) not recognised; left as typed")
    }
    for row in 0..<table.rowCount {
      for a in table.addressRange(of: row) {
        // The country.
        var c = defaultIndex
        if country[a].isPresent {
          let typed = country[a]
          let found = codeMemo.value(typed) { text(typed).flatMap { countries.code($0) }.map { index(of: $0) } }
          if let found {
            c = found
            let written = known[Int(found)].written
            if written != typed {
              country[a] = written
              counts[0] += 1
            }
          } else {
            c = -1
            counts[1] += 1
            note(row, "a country")
          }
        }
        let code = c >= 0 ? known[Int(c)].code : nil
        if street[a].isPresent, streetStyle != nil || comparisonKeys {
          if let streetStyle {
            let key = Pair(id: street[a], country: c)
            let out: StringID
            if let done = streetMemo[key] { out = done } else {
              out = text(street[a]).flatMap { StreetText.rewritten($0, country: code, style: streetStyle) }
                .map { pool.intern($0) } ?? street[a]
              streetMemo[key] = out
            }
            if out != street[a] {
              street[a] = out
              streetsChanged += 1
            }
          }
          if comparisonKeys {
            let key = Pair(id: street[a], country: c)
            let k: String
            if let done = keyMemo[key] { k = done } else {
              k = text(street[a]).map { StreetText.key($0, country: code) } ?? ""
              keyMemo[key] = k
            }
            if !k.isEmpty { keys += 1 }
            parameters[a] = ComparisonKeys.set(k, parameters: parameters[a], label: labels[a], pool: &pool)
          }
        } else if comparisonKeys {
          parameters[a] = ComparisonKeys.set(nil, parameters: parameters[a], label: labels[a], pool: &pool)
        }
        guard let code else { continue }
        let rules = known[Int(c)]
        if region[a].isPresent, rules.regions {
          let key = Pair(id: region[a], country: c)
          let out: StringID?
          if let done = regionMemo[key] { out = done } else {
            out = text(region[a]).flatMap { RegionText.code($0, country: code) }.map { pool.intern($0) }
            regionMemo[key] = out
          }
          if let out {
            if out != region[a] {
              region[a] = out
              counts[2] += 1
            }
          } else {
            counts[3] += 1
            note(row, "a region")
          }
        }
        if postcode[a].isPresent, rules.postcodes {
          let key = Pair(id: postcode[a], country: c)
          let out: StringID?
          if let done = postcodeMemo[key] { out = done } else {
            out = text(postcode[a]).flatMap { PostcodeText.normalized($0, country: code) }.map { pool.intern($0) }
            postcodeMemo[key] = out
          }
          if let out {
            if out != postcode[a] {
              postcode[a] = out
              counts[4] += 1
            }
          } else {
            counts[5] += 1
            note(row, "a postcode")
          }
        }
      }
    }
    table.pool = pool
    table.addresses.columns[AddressAttribute.country.rawValue] = StringColumn(country)
    table.addresses.columns[AddressAttribute.region.rawValue] = StringColumn(region)
    table.addresses.columns[AddressAttribute.postalCode.rawValue] = StringColumn(postcode)
    if streetStyle != nil {
      table.addresses.columns[AddressAttribute.street.rawValue] = StringColumn(street)
      if streetsChanged > 0 { context.count("addresses.street.changed", streetsChanged) }
    }
    if comparisonKeys {
      table.addresses.columns[AddressAttribute.parameters.rawValue] = StringColumn(parameters)
      context.count("addresses.keys", keys)
    }
    let names = ["country.changed", "country.unrecognized", "region.changed", "region.unrecognized", "postcode.changed", "postcode.unrecognized"]
    for (k, v) in zip(names, counts) where v > 0 { context.count("addresses." + k, v) }
    for l in lines { context.note(l) }
    var result = frame
    result.table = table
    return result
  }
}

/// A country met in the pass: its code, the id it is written as, and
/// whether its regions and postcodes have rules.
private struct Country {
  var code: String
  var written: StringID
  var regions: Bool
  var postcodes: Bool
}

/// A value's id with the country it is read in (its index in the pass's
/// countries, -1 for none).
private struct Pair: Hashable {
  var id: StringID
  var country: Int32
}
