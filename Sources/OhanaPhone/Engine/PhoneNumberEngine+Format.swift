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
    var w = ByteWriter()
    if format != .e164, let e = tables.mainEntry(forCountryCode: cc) {
      let intl = format != .national && tables.entryIntlFormatCount[e] > 0
      let chosen = chooseFormat(nsn, entry: e, intl: intl)
      appendFormatted(number, nsn, entry: e, format: format, chosen: chosen, to: &w)
    } else {
      appendE164(cc, nsn, format == .e164, to: &w)
    }
    w.flush(into: &out)
  }

  /// Appends each of `formats` in turn to `out` (each the bytes of
  /// `format(number, as:)`), appending the end of each to `ends`; the
  /// number's digits and each format pattern are worked out once.
  public func appendFormats(
    _ number: PhoneNumber, _ formats: [PhoneNumberFormat], to out: inout [UInt8], ends: inout [Int]
  ) {
    var nsn = DigitString()
    nsn.setNationalNumber(number)
    let cc = number.countryCode
    let entry = tables.mainEntry(forCountryCode: cc)
    var national = -2, international = -2  // -2: not chosen yet
    var w = ByteWriter()
    for format in formats {
      if format != .e164, let e = entry {
        let intl = format != .national && tables.entryIntlFormatCount[e] > 0
        let chosen: Int
        if intl {
          if international == -2 { international = chooseFormat(nsn, entry: e, intl: true) }
          chosen = international
        } else {
          if national == -2 { national = chooseFormat(nsn, entry: e, intl: false) }
          chosen = national
        }
        appendFormatted(number, nsn, entry: e, format: format, chosen: chosen, to: &w)
      } else {
        appendE164(cc, nsn, format == .e164, to: &w)
      }
      w.flush(into: &out)
      ends.append(out.count)
    }
  }

  /// Appends E164, INTERNATIONAL, NATIONAL and RFC3966, separated by tabs,
  /// choosing each format pattern once.
  public func appendAllFormats(_ number: PhoneNumber, separator: UInt8 = 0x09, to out: inout [UInt8]) {
    var nsn = DigitString()
    nsn.setNationalNumber(number)
    let cc = number.countryCode
    var w = ByteWriter()
    appendE164(cc, nsn, true, to: &w)
    guard let e = tables.mainEntry(forCountryCode: cc) else {
      for _ in 0..<3 {
        w.append(separator)
        w.append(nsn, 0..<nsn.count)
      }
      w.flush(into: &out)
      return
    }
    let national = chooseFormat(nsn, entry: e, intl: false)
    let international = tables.entryIntlFormatCount[e] > 0 ? chooseFormat(nsn, entry: e, intl: true) : national
    w.append(separator)
    appendFormatted(number, nsn, entry: e, format: .international, chosen: international, to: &w)
    w.flush(into: &out)
    w.append(separator)
    appendFormatted(number, nsn, entry: e, format: .national, chosen: national, to: &w)
    w.flush(into: &out)
    w.append(separator)
    appendFormatted(number, nsn, entry: e, format: .rfc3966, chosen: international, to: &w)
    w.flush(into: &out)
  }

  @inline(__always)
  private func appendE164(_ cc: Int, _ nsn: DigitString, _ withCode: Bool, to out: inout ByteWriter) {
    if withCode {
      out.append(0x2B)
      appendDecimal(cc, to: &out)
    }
    appendDigits(nsn, 0..<nsn.count, to: &out)
  }

  private func appendFormatted(
    _ number: PhoneNumber, _ nsn: DigitString, entry e: Int, format: PhoneNumberFormat, chosen: Int,
    to out: inout ByteWriter
  ) {
    let cc = number.countryCode
    switch format {
    case .international:
      out.append(0x2B)
      appendDecimal(cc, to: &out)
      out.append(0x20)
    case .rfc3966:
      out.append(0x74)  // "tel:+"
      out.append(0x65)
      out.append(0x6C)
      out.append(0x3A)
      out.append(0x2B)
      appendDecimal(cc, to: &out)
      out.append(0x2D)
    case .national, .e164:
      break
    }
    if chosen >= 0 {
      applyFormat(chosen, nsn, format: format, to: &out)
    } else {
      appendDigits(nsn, 0..<nsn.count, to: &out)
    }
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

  @inline(__always)
  private func appendDecimal(_ value: Int, to out: inout ByteWriter) {
    if value < 10 {
      out.append(UInt8(truncatingIfNeeded: 0x30 + value))
    } else if value < 100 {
      out.append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
      out.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
    } else {
      var digits = DigitString()
      digits.appendDecimal(value)
      appendDigits(digits, 0..<digits.count, to: &out)
    }
  }

  @inline(__always)
  private func appendDigits(_ digits: DigitString, _ range: Range<Int>, to out: inout ByteWriter) {
    out.append(digits, range)
  }

  /// The first format (index into the format columns) whose last
  /// leading-digits pattern matches the start of the NSN and whose group
  /// widths fit it; -1 if none.
  func chooseFormat(_ nsn: DigitString, entry e: Int, intl: Bool) -> Int {
    let start = Int(intl ? tables.entryIntlFormatStart[e] : tables.entryFormatStart[e])
    let count = Int(intl ? tables.entryIntlFormatCount[e] : tables.entryFormatCount[e])
    let length = nsn.count
    for f in start..<(start + count) {
      guard length >= Int(tables.formatMinLength[f]), length <= Int(tables.formatMaxLength[f]) else { continue }
      let leading = tables.formatLeadingDigits[f]
      if leading != 0 && !tables.prefixMatch(leading, nsn) { continue }
      return f
    }
    return -1
  }

  /// Applies format `f`'s template for `format` to the NSN: the one
  /// variable-width group takes what the fixed ones leave.
  private func applyFormat(_ f: Int, _ nsn: DigitString, format: PhoneNumberFormat, to out: inout ByteWriter) {
    let g0 = Int(tables.formatGroupStart[f])
    let gn = Swift.min(Int(tables.formatGroupCount[f]), 9)
    let minTotal = Int(tables.formatMinLength[f])
    var bounds = InlineArray<10, Int16>(repeating: 0)
    var position = 0
    for k in 0..<gn {
      let g = g0 + k
      var width = Int(tables.groupMin[g])
      if tables.groupMax[g] != tables.groupMin[g] { width += nsn.count - minTotal }
      position += width
      bounds[k + 1] = Int16(position)
    }
    let templateID: UInt16
    switch format {
    case .national: templateID = tables.formatNationalTemplate[f]
    case .rfc3966: templateID = tables.formatRFCTemplate[f]
    case .international, .e164: templateID = tables.formatTemplate[f]
    }
    guard templateID != PhoneMetadataTables.stringNone else { return }
    let t0 = Int(tables.stringOffsets[Int(templateID)])
    let t1 = Int(tables.stringOffsets[Int(templateID) + 1])
    for i in t0..<t1 {
      let b = tables.stringBytes[i]
      if b >= 1 && b <= 9 {
        let k = Int(b)
        if k <= gn { appendDigits(nsn, Int(bounds[k - 1])..<Int(bounds[k]), to: &out) }
      } else {
        out.append(b)
      }
    }
  }
}
