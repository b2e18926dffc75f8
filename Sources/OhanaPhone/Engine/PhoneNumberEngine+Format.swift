extension PhoneNumberEngine {
  /// Formats as libphonenumber's `format_number`.
  public func format(_ number: PhoneNumber, as format: PhoneNumberFormat) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(32)
    self.format(number, as: format, appendingTo: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the UTF-8 of the formatted number to `out` (no String on the way).
  public func format(_ number: PhoneNumber, as format: PhoneNumberFormat, appendingTo out: inout [UInt8]) {
    var nsn = DigitString()
    nsn.setNationalNumber(number)
    let cc = number.countryCode
    if format == .e164 {
      out.append(0x2B)
      appendDecimal(cc, to: &out)
      appendDigits(nsn, 0..<nsn.count, to: &out)
      return
    }
    guard let e = tables.mainEntry(forCountryCode: cc) else {
      appendDigits(nsn, 0..<nsn.count, to: &out)
      return
    }
    switch format {
    case .international:
      out.append(0x2B)
      appendDecimal(cc, to: &out)
      out.append(0x20)
    case .rfc3966:
      out.append(contentsOf: [0x74, 0x65, 0x6C, 0x3A, 0x2B])  // "tel:+"
      appendDecimal(cc, to: &out)
      out.append(0x2D)
    case .national, .e164:
      break
    }
    appendFormattedNSN(nsn, entry: e, format: format, to: &out)
    if let ext = number.numberExtension, !ext.isEmpty {
      if format == .rfc3966 {
        out.append(contentsOf: [0x3B, 0x65, 0x78, 0x74, 0x3D])  // ";ext="
      } else {
        let prefixID = tables.entryExtensionPrefix[e]
        if prefixID != PhoneMetadataTables.stringNone {
          out.append(contentsOf: tables.string(prefixID))
        } else {
          out.append(contentsOf: [0x20, 0x65, 0x78, 0x74, 0x2E, 0x20])  // " ext. "
        }
      }
      out.append(contentsOf: ext.utf8)
    }
  }

  private func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    var digits = DigitString()
    digits.appendDecimal(value)
    appendDigits(digits, 0..<digits.count, to: &out)
  }

  @inline(__always)
  private func appendDigits(_ digits: DigitString, _ range: Range<Int>, to out: inout [UInt8]) {
    for i in range { out.append(digits[i]) }
  }

  /// Chooses the first format whose last leading-digits pattern matches the
  /// start of the NSN and whose group widths fit it, then applies its template.
  private func appendFormattedNSN(_ nsn: DigitString, entry e: Int, format: PhoneNumberFormat, to out: inout [UInt8]) {
    let useIntl = format != .national && tables.entryIntlFormatCount[e] > 0
    let start = Int(useIntl ? tables.entryIntlFormatStart[e] : tables.entryFormatStart[e])
    let count = Int(useIntl ? tables.entryIntlFormatCount[e] : tables.entryFormatCount[e])
    let length = nsn.count
    for f in start..<(start + count) {
      let leading = tables.formatLeadingDigits[f]
      if leading != 0 && !tables.prefixMatch(leading, nsn) { continue }
      let g0 = Int(tables.formatGroupStart[f])
      let gn = Int(tables.formatGroupCount[f])
      var minTotal = 0
      var maxTotal = 0
      for g in g0..<(g0 + gn) {
        minTotal += Int(tables.groupMin[g])
        maxTotal += Int(tables.groupMax[g])
      }
      guard length >= minTotal, length <= maxTotal else { continue }
      // Group bounds: the one variable group takes what is left.
      var bounds = InlineArray<10, Int16>(repeating: 0)
      var position = 0
      for k in 0..<Swift.min(gn, 9) {
        let g = g0 + k
        var width = Int(tables.groupMin[g])
        if tables.groupMax[g] != tables.groupMin[g] { width += length - minTotal }
        position += width
        bounds[k + 1] = Int16(position)
      }
      let templateID: UInt16
      switch format {
      case .national: templateID = tables.formatNationalTemplate[f]
      case .rfc3966: templateID = tables.formatRFCTemplate[f]
      case .international, .e164: templateID = tables.formatTemplate[f]
      }
      for b in tables.string(templateID) {
        if b >= 1 && b <= 9 {
          let k = Int(b)
          if k <= gn { appendDigits(nsn, Int(bounds[k - 1])..<Int(bounds[k]), to: &out) }
        } else {
          out.append(b)
        }
      }
      return
    }
    appendDigits(nsn, 0..<length, to: &out)
  }
}
