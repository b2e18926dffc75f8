extension PhoneNumberEngine {
  /// The number's type, as libphonenumber's `number_type` (UNKNOWN when invalid).
  public func numberType(_ number: PhoneNumber) -> PhoneNumberType {
    classify(number).type
  }

  /// Whether the number matches a valid pattern of its region (`is_valid_number`).
  public func isValid(_ number: PhoneNumber) -> Bool {
    classify(number).type != .unknown
  }

  /// The region the number belongs to (`region_code_for_number`), or nil.
  public func regionCode(for number: PhoneNumber) -> RegionCode? {
    classify(number).region
  }

  /// Region and type in one pass (what `isValid`, `numberType` and `regionCode(for:)` share).
  public func classify(_ number: PhoneNumber) -> (region: RegionCode?, type: PhoneNumberType) {
    var nsn = DigitString()
    nsn.setNationalNumber(number)
    let entries = tables.entries(forCountryCode: number.countryCode)
    guard let first = entries.first else { return (nil, .unknown) }
    if entries.count == 1 {
      let e = Int(first)
      return (tables.entryRegion[e], type(of: nsn, entry: e))
    }
    for entry in entries {
      let e = Int(entry)
      let leading = tables.entryLeadingDigits[e]
      if leading != 0 {
        if tables.prefixMatch(leading, nsn) { return (tables.entryRegion[e], type(of: nsn, entry: e)) }
      } else {
        let t = type(of: nsn, entry: e)
        if t != .unknown { return (tables.entryRegion[e], t) }
      }
    }
    return (nil, .unknown)
  }

  @inline(__always)
  private func matches(_ nsn: DigitString, _ e: Int, _ desc: PhoneMetadataTables.Desc) -> Bool {
    let index = e * 11 + desc.rawValue
    let pattern = tables.descPattern[index]
    guard pattern != 0 else { return false }
    let lengths = tables.descLengths[index]
    guard nsn.count < 32, lengths & (1 << UInt32(nsn.count)) != 0 else { return false }
    return tables.fullMatch(pattern, nsn)
  }

  /// libphonenumber's `_number_type_helper`.
  func type(of nsn: DigitString, entry e: Int) -> PhoneNumberType {
    guard matches(nsn, e, .general) else { return .unknown }
    if matches(nsn, e, .premiumRate) { return .premiumRate }
    if matches(nsn, e, .tollFree) { return .tollFree }
    if matches(nsn, e, .sharedCost) { return .sharedCost }
    if matches(nsn, e, .voip) { return .voip }
    if matches(nsn, e, .personalNumber) { return .personalNumber }
    if matches(nsn, e, .pager) { return .pager }
    if matches(nsn, e, .uan) { return .uan }
    if matches(nsn, e, .voicemail) { return .voicemail }
    let sameMobileAndFixed = tables.entryFlags[e] & 1 != 0
    if matches(nsn, e, .fixedLine) {
      if sameMobileAndFixed || matches(nsn, e, .mobile) { return .fixedLineOrMobile }
      return .fixedLine
    }
    if !sameMobileAndFixed && matches(nsn, e, .mobile) { return .mobile }
    return .unknown
  }
}
