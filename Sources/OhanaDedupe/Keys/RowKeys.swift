import OhanaCore
import OhanaPhone

/// The keys of a range of contacts (see ``ContactKeys``), computed by one
/// worker: ends are relative to the range's own lists.
struct RowKeys: Sendable {
  var fieldKeys: [UInt64] = []
  var phones: [UInt64] = []
  var phoneEnds: [UInt32] = []
  var emails: [UInt64] = []
  var emailEnds: [UInt32] = []
  var birthday: [UInt32] = []
  var records: [ScoreRecord] = []
  var addresses: [UInt64] = []
  var postcodes: [UInt64] = []
  var houses: [UInt64] = []
  var addressTexts: [AddressText] = []
  var addressEnds: [UInt32] = []
  var addressKeys: [UInt64] = []

  init(
    _ table: ContactTable, rows: Range<Int>, countryRegions: [UInt32], defaultRegion: RegionCode
  ) {
    let pool = table.pool
    let fieldBase = Int(table.fieldOffsets[rows.lowerBound])
    let fieldEnd = Int(table.fieldOffsets[rows.upperBound])
    let addressBase = Int(table.addressOffsets[rows.lowerBound])
    let addressEnd = Int(table.addressOffsets[rows.upperBound])
    fieldKeys = [UInt64](repeating: 0, count: fieldEnd - fieldBase)
    addressKeys = [UInt64](repeating: 0, count: addressEnd - addressBase)
    phones.reserveCapacity(fieldEnd - fieldBase)
    emails.reserveCapacity((fieldEnd - fieldBase) / 2)
    addresses.reserveCapacity(addressEnd - addressBase)
    postcodes.reserveCapacity(addressEnd - addressBase)
    houses.reserveCapacity(addressEnd - addressBase)
    addressTexts.reserveCapacity(addressEnd - addressBase)
    phoneEnds.reserveCapacity(rows.count)
    emailEnds.reserveCapacity(rows.count)
    addressEnds.reserveCapacity(rows.count)
    birthday.reserveCapacity(rows.count)
    records.reserveCapacity(rows.count)
    let kinds = table.fields.kind, values = table.fields.value
    let countryCol = table.addresses[.country]
    let pcs = table.addresses[.postalCode], streets = table.addresses[.street]
    let extendeds = table.addresses[.extended], localities = table.addresses[.locality]
    let cols = table.addresses.columns
    let bdays = table[.birthday]
    let streetTypes = StreetTypes.shared
    // The values' bytes are scattered over the pool: touch those of the
    // next rows first, so that their cache misses overlap instead of
    // coming one value at a time.
    let batch = 8
    var touched: UInt8 = 0
    var nextTouch = rows.lowerBound
    for r in rows {
      if r == nextTouch {
        nextTouch = min(r + batch, rows.upperBound)
        pool.withStorage { arena, ends in
          @inline(__always) func touch(_ id: StringID) {
            let i = id.index
            if i > 0 && i < ends.count {
              let start = ends[i - 1]
              if start < arena.count { touched &+= arena[start] }
            }
          }
          for t in r..<nextTouch {
            for f in table.fieldRange(of: t) { touch(values[f]) }
            for a in table.addressRange(of: t) {
              touch(pcs[a])
              touch(streets[a])
              touched &+= UInt8(truncatingIfNeeded: countryRegions[countryCol[a].index])
            }
            touch(bdays[t])
          }
        }
      }
      let fr = table.fieldRange(of: r)
      // The region for national numbers: the address country, else a
      // country-code e-mail domain, else the configured default.
      var region = defaultRegion
      var found = false
      for a in table.addressRange(of: r) {
        let raw = countryRegions[countryCol[a].index]
        if raw != 0 { region = RegionCode(rawValue: raw); found = true; break }
      }
      if !found {
        for f in fr where kinds[f] == .email {
          if let rc = pool.withBytes(of: values[f], { KeyFunctions.emailRegion($0) }) {
            region = rc
            found = true
            break
          }
        }
      }
      let ps = phones.count, es = emails.count
      for f in fr {
        switch kinds[f] {
        case .phone:
          let k = pool.withBytes(of: values[f]) { KeyFunctions.phoneKey($0, region: region, regionKnown: found) }
          fieldKeys[f - fieldBase] = k
          if k != 0 { phones.append(k) }
        case .email:
          let k = pool.withBytes(of: values[f]) { KeyFunctions.emailKey($0) }
          fieldKeys[f - fieldBase] = k
          if k != 0 { emails.append(k) }
        default: break
        }
      }
      ContactKeys.sortUnique(&phones, from: ps)
      ContactKeys.sortUnique(&emails, from: es)
      phoneEnds.append(UInt32(truncatingIfNeeded: phones.count))
      emailEnds.append(UInt32(truncatingIfNeeded: emails.count))

      let b = bdays[r]
      let bday = b.isAbsent ? 0 : pool.withBytes(of: b) { KeyFunctions.birthdayKey($0) }
      birthday.append(bday)
      let as0 = addresses.count

      for a in table.addressRange(of: r) {
        let pk = pcs[a].isAbsent ? 0 : pool.withBytes(of: pcs[a]) { KeyFunctions.postalKey($0) }
        let language = streetTypes.language(region: countryRegions[countryCol[a].index])
        let sk =
          streets[a].isAbsent
          ? 0 : pool.withBytes(of: streets[a]) { KeyFunctions.streetKey($0, language: language, types: streetTypes) }
        // An address without a postcode but with a locality (a table's
        // town column, a card's ADR without one) is compared and blocked
        // on its locality and street.
        let place = pk == 0 && localities[a].isPresent
        if pk != 0 || place {
          addressTexts.append(Self.addressText(pool, street: streets[a], extended: extendeds[a], locality: localities[a], postcode: pcs[a]))
        }
        if pk != 0 && sk != 0 {
          let key = Hash64.combine(pk, sk)
          addresses.append(key)
          postcodes.append(pk)
          houses.append(pool.withBytes(of: streets[a]) { KeyFunctions.houseNumber($0) })
          addressKeys[a - addressBase] = key
        } else {
          if pk != 0 {
            addresses.append(0)
            postcodes.append(pk)
            houses.append(0)
          } else if place {
            addresses.append(0)
            postcodes.append(0)
            houses.append(sk == 0 ? 0 : pool.withBytes(of: streets[a]) { KeyFunctions.houseNumber($0) })
          }
          // Without postcode and street, an address is its columns.
          var h: UInt64 = 0xADD
          for c in 1...7 where c < cols.count { h = Hash64.combine(h, UInt64(cols[c][a].rawValue)) }
          addressKeys[a - addressBase] = h
        }
      }
      addressEnds.append(UInt32(truncatingIfNeeded: addresses.count))
      records.append(
        ScoreRecord(
          phones: phones[ps...], emailCount: emails.count - es, birthday: bday,
          names: (.absent, .absent, .absent, false),  // set once laid (see `ContactKeys.init`)
          addressCount: addresses.count - as0, first: addresses.count > as0 ? (addressTexts[as0].postcode, houses[as0]) : nil))
    }
    // Keeps the touching loads alive (never true of real keys).
    if touched == 1 && records.isEmpty { birthday.append(0) }
  }
}

extension RowKeys {
  /// The ``AddressText`` of one address row.
  static func addressText(
    _ pool: StringPool, street: StringID, extended: StringID, locality: StringID, postcode: StringID
  ) -> AddressText {
    func letters(_ id: StringID) -> Letters16 {
      id.isAbsent ? Letters16() : pool.withBytes(of: id) { Letters16($0) }
    }
    var t = AddressText()
    t.street = letters(street)
    t.extended = letters(extended)
    t.locality = letters(locality)
    if postcode.isPresent { t.postcode = pool.withBytes(of: postcode) { AddressText.postcodePrint($0) } }
    return t
  }
}
