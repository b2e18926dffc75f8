extension PhoneNumberEngine {
  static let maxInputLength = 250
  static let minNSN = 2
  static let maxNSN = 17

  /// Parses a phone number as libphonenumber's `parse(raw, default_region)` does.
  ///
  /// - Complexity: O(n) in the input length for ordinary input.
  public func parse(_ text: String, defaultRegion: RegionCode) throws(PhoneNumberError) -> PhoneNumber {
    try parse(utf8: text.utf8, defaultRegion: defaultRegion)
  }

  /// Parses UTF-8 bytes (ill-formed sequences read as U+FFFD).
  public func parse(utf8 bytes: some Collection<UInt8>, defaultRegion: RegionCode) throws(PhoneNumberError)
    -> PhoneNumber
  {
    var regionFree = false
    return try parse(utf8: bytes, defaultRegion: defaultRegion, regionFree: &regionFree)
  }

  /// Parses like ``parse(utf8:defaultRegion:)`` and sets `regionFree` when
  /// the number parsed without consulting the default region (it starts
  /// with a plus and a known calling code), so parsing the same bytes in
  /// any other region gives the same number. False does not mean the
  /// region mattered.
  package func parse(utf8 bytes: some Collection<UInt8>, defaultRegion: RegionCode, regionFree: inout Bool)
    throws(PhoneNumberError) -> PhoneNumber
  {
    regionFree = false
    var input = ScalarBuffer()
    guard input.decode(utf8: bytes, limit: Self.maxInputLength) else {
      throw PhoneNumberError(.tooLong, "The string supplied was too long to parse.")
    }
    return try parse(scalars: input, defaultRegion: defaultRegion, regionFree: &regionFree)
  }

  func parse(scalars input: consuming ScalarBuffer, defaultRegion: RegionCode, regionFree: inout Bool)
    throws(PhoneNumberError) -> PhoneNumber
  {
    var usedDefaultRegion = true
    var number = try buildNationalNumberForParsing(input)
    guard PhoneScanners.isViable(number, 0..<number.count) else {
      throw PhoneNumberError(.notANumber, "The string supplied did not seem to be a phone number.")
    }
    let defaultEntry = tables.entry(for: defaultRegion)
    let startsWithPlus = number.count > 0 && UnicodeClasses.isPlus(number[0])
    if defaultEntry == nil && !startsWithPlus {
      throw PhoneNumberError(.invalidCountryCode, "Missing or invalid default region.")
    }
    var numberExtension: String? = nil
    if let (end, digits) = PhoneScanners.stripExtension(number, 0..<number.count) {
      var ext = ""
      for i in digits { if let u = Unicode.Scalar(number[i]) { ext.unicodeScalars.append(u) } }
      numberExtension = ext
      number.truncate(to: end)
    }

    var countryCode = 0
    var nsn = DigitString()
    do {
      (countryCode, nsn) = try extractCountryCode(number, from: 0, entry: defaultEntry)
      // After a plus, extractCountryCode reads the calling code from the
      // digits alone; everything below depends on that code's region only.
      if startsWithPlus && countryCode != 0 { usedDefaultRegion = false }
    } catch {
      guard error.code == .invalidCountryCode, startsWithPlus else { throw error }
      var plusEnd = 0
      while plusEnd < number.count && UnicodeClasses.isPlus(number[plusEnd]) { plusEnd += 1 }
      (countryCode, nsn) = try extractCountryCode(number, from: plusEnd, entry: defaultEntry)
      if countryCode == 0 {
        throw PhoneNumberError(.invalidCountryCode, "Could not interpret numbers after plus-sign.")
      }
    }

    var entry: Int? = defaultEntry
    if countryCode != 0 {
      entry = tables.mainEntry(forCountryCode: countryCode)
    } else {
      // `nsn` already holds the whole number normalized (see extractCountryCode).
      if let d = defaultEntry { countryCode = Int(tables.entryCountryCode[d]) }
    }
    if nsn.overflowed {
      throw PhoneNumberError(.tooLong, "The string supplied is too long to be a phone number.")
    }
    if nsn.count < Self.minNSN {
      throw PhoneNumberError(.tooShortNSN, "The string supplied is too short to be a phone number.")
    }
    if let e = entry {
      let stripped = stripNationalPrefix(nsn, entry: e)
      switch testLength(stripped.count, entry: e) {
      case .tooShort, .possibleLocalOnly, .invalidLength: break
      case .possible, .tooLong: nsn = stripped
      }
    }
    if nsn.count < Self.minNSN {
      throw PhoneNumberError(.tooShortNSN, "The string supplied is too short to be a phone number.")
    }
    if nsn.count > Self.maxNSN {
      throw PhoneNumberError(.tooLong, "The string supplied is too long to be a phone number.")
    }
    regionFree = !usedDefaultRegion
    return PhoneNumber(
      countryCode: countryCode, nationalNumber: nsn.value, nationalNumberLength: nsn.count,
      numberExtension: numberExtension)
  }

  // MARK: Steps

  /// RFC3966 `tel:` with `phone-context`, or the possible number cut from the text; then `;isub=` dropped.
  func buildNationalNumberForParsing(_ input: consuming ScalarBuffer) throws(PhoneNumberError) -> ScalarBuffer {
    let hasSemicolon = input.mayContain(ScalarBuffer.Kind.semicolon)
    let contextIndex = hasSemicolon ? input.find(";phone-context=") : -1
    guard contextIndex >= 0 else {
      var out = input
      out.keep(PhoneScanners.possibleNumberRange(out))
      let isub = hasSemicolon ? out.find(";isub=") : -1
      if isub > 0 { out.truncate(to: isub) }
      return out
    }
    let s = input
    var out = ScalarBuffer()
    do {
      let contextStart = contextIndex + 15
      var contextEnd = s.count
      if contextStart < s.count {
        let semicolon = s.find(";", from: contextStart)
        if semicolon >= 0 { contextEnd = semicolon }
      }
      let context = contextStart..<Swift.max(contextStart, contextEnd)
      guard contextStart < s.count, PhoneScanners.isValidPhoneContext(s, context) else {
        throw PhoneNumberError(.notANumber, "The phone-context value is invalid")
      }
      if s[contextStart] == 0x2B {
        for i in context { out.append(s[i]) }
      }
      let tel = s.find("tel:")
      let start = tel >= 0 ? tel + 4 : 0
      var i = start
      while i < contextIndex {
        out.append(s[i])
        i += 1
      }
    }
    let isub = out.find(";isub=")
    if isub > 0 { out.truncate(to: isub) }
    return out
  }

  /// libphonenumber's `_normalize`: keypad letters when there are three or
  /// more ASCII letters (other digits are then dropped), else decimal digits only.
  func normalize(_ s: ScalarBuffer, _ range: Range<Int>) -> DigitString {
    var out = DigitString()
    if !s.mayContain(ScalarBuffer.Kind.letter | ScalarBuffer.Kind.nonASCII) {
      for i in range {
        let d = s[i] &- 0x30
        if d < 10 { out.append(UInt8(truncatingIfNeeded: d) &+ 0x30) }
      }
      return out
    }
    var letters = 0
    for i in range where UnicodeClasses.isASCIILetter(s[i]) {
      letters += 1
      if letters >= 3 { break }
    }
    if letters >= 3 {
      for i in range {
        let c = s[i]
        if c >= 0x30 && c <= 0x39 {
          out.append(UInt8(c))
        } else if let d = UnicodeClasses.keypadDigit(c) {
          out.append(d)
        }
      }
    } else {
      for i in range {
        let v = UnicodeClasses.digitValue(s[i])
        if v >= 0 { out.append(UInt8(0x30 + v)) }
      }
    }
    return out
  }

  /// libphonenumber's `_maybe_extract_country_code` on `s[from...]`.
  /// Returns the code and the rest of the number, or, when no calling code
  /// is present, 0 and `s[from...]` normalized.
  func extractCountryCode(_ s: ScalarBuffer, from: Int, entry: Int?) throws(PhoneNumberError) -> (Int, DigitString) {
    guard from < s.count else { return (0, DigitString()) }
    let normalized: DigitString
    var full: DigitString
    var international = false
    if UnicodeClasses.isPlus(s[from]) {
      var i = from
      while i < s.count && UnicodeClasses.isPlus(s[i]) { i += 1 }
      full = normalize(s, i..<s.count)
      normalized = full
      international = true
    } else {
      full = normalize(s, from..<s.count)
      normalized = full
      if let e = entry, tables.entryIDDPattern[e] >= 0,
        let m = tables.prefixPatterns[Int(tables.entryIDDPattern[e])].match(full)
      {
        if m.end >= full.count || full[m.end] != 0x30 {
          full = full.dropping(first: m.end)
          international = true
        }
      }
    }
    if international {
      if full.count <= Self.minNSN {
        throw PhoneNumberError(
          .tooShortAfterIDD, "Phone number had an IDD, but after this was not long enough to be a viable phone number.")
      }
      if full[0] != 0x30 {
        var cc = 0
        var i = 0
        while i < Swift.min(3, full.count) {
          cc = cc * 10 + Int(full[i] - 0x30)
          i += 1
          if tables.mainEntry(forCountryCode: cc) != nil {
            return (cc, full.dropping(first: i))
          }
        }
      }
      throw PhoneNumberError(.invalidCountryCode, "Country calling code supplied was not recognised.")
    }
    if let e = entry {
      let cc = Int(tables.entryCountryCode[e])
      if full.hasPrefix(cc) {
        var ccLength = 0
        var v = cc
        while v > 0 {
          ccLength += 1
          v /= 10
        }
        let potential = stripNationalPrefix(full.dropping(first: ccLength), entry: e)
        let general = tables.descPattern[e * 11]
        if (!tables.fullMatch(general, full) && tables.fullMatch(general, potential))
          || testLength(full.count, entry: e) == .tooLong
        {
          return (cc, potential)
        }
      }
    }
    return (0, normalized)
  }

  /// libphonenumber's `_maybe_strip_national_prefix_carrier_code` (the carrier code itself is not kept).
  func stripNationalPrefix(_ number: DigitString, entry e: Int) -> DigitString {
    let patternIndex = tables.entryNationalPrefixPattern[e]
    guard number.count > 0, patternIndex >= 0,
      let m = tables.prefixPatterns[Int(patternIndex)].match(number)
    else { return number }
    let general = tables.descPattern[e * 11]
    let viableOriginal = tables.fullMatch(general, number)
    if let rule = tables.entryTransform[e], m.groupCount > 0, m.group(m.groupCount) != nil {
      var transformed = DigitString()
      for b in rule {
        if b >= 1 && b <= 9 {
          if let r = m.group(Int(b)) { for i in r { transformed.append(number[i]) } }
        } else {
          transformed.append(b)
        }
      }
      var i = m.end
      while i < number.count {
        transformed.append(number[i])
        i += 1
      }
      if viableOriginal && !tables.fullMatch(general, transformed) { return number }
      return transformed
    }
    if viableOriginal && !tables.fullMatch(general, number, from: m.end) { return number }
    return number.dropping(first: m.end)
  }

  enum LengthResult {
    case possible, possibleLocalOnly, tooShort, tooLong, invalidLength
  }

  /// libphonenumber's `_test_number_length` against the general description.
  func testLength(_ length: Int, entry e: Int) -> LengthResult {
    let mask = tables.descLengths[e * 11]
    let local = tables.entryLocalOnlyLengths[e]
    let bit: UInt32 = length < 32 ? 1 << UInt32(length) : 0
    if local & bit != 0 { return .possibleLocalOnly }
    guard mask != 0 else { return .invalidLength }
    let minimum = mask.trailingZeroBitCount
    let maximum = 31 - mask.leadingZeroBitCount
    if length == minimum { return .possible }
    if minimum > length { return .tooShort }
    if maximum < length { return .tooLong }
    return mask & bit != 0 ? .possible : .invalidLength
  }
}
