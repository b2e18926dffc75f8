/// Postcodes in their country's format (issue 46, item 2): upper case, the
/// country's spacing and hyphen, and the leading zeros a spreadsheet took
/// off put back where the country's codes are all digits and may begin
/// with zero. Per-country formats are facts from the postal
/// administrations, as Google's address metadata records them (NOTICE);
/// ``formats`` holds them as templates: `9` a digit, `A` a letter, `X`
/// either, anything else written as is.
///
/// A postcode that fits none of its country's templates is left as typed
/// (and counted by ``AddressNormalization``); a country without templates
/// here keeps its postcodes, upper-cased and with runs of white space
/// made one.
public enum PostcodeText {
  public static let formats: [String: [String]] = [
    "US": ["99999", "99999-9999"], "CA": ["A9A 9A9"], "DE": ["99999"], "FR": ["99999"], "IT": ["99999"],
    "ES": ["99999"], "NL": ["9999 AA"], "BE": ["9999"], "AT": ["9999"], "CH": ["9999"], "AU": ["9999"],
    "NZ": ["9999"], "SE": ["999 99"], "NO": ["9999"], "DK": ["9999"], "FI": ["99999"], "PL": ["99-999"],
    "PT": ["9999-999"], "BR": ["99999-999"], "JP": ["999-9999"], "IN": ["999999"], "CZ": ["999 99"],
    "SK": ["999 99"], "GR": ["999 99"], "IE": ["AXX XXXX"], "KR": ["99999"], "MX": ["99999"], "RU": ["999999"],
    "CN": ["999999"], "ZA": ["9999"], "LU": ["9999"], "HU": ["9999"], "SG": ["999999"], "TW": ["999", "99999"],
    "AR": ["A9999AAA", "9999"], "IL": ["9999999"], "TR": ["99999"], "UA": ["99999"], "RO": ["999999"],
  ]

  /// Countries whose all-digit postcodes may begin with zero: a code with
  /// fewer digits had its zeros taken by a spreadsheet, and gets them back.
  public static let leadingZeros: Set<String> = [
    "US", "DE", "FR", "IT", "ES", "FI", "AU", "NZ", "NO", "ZA", "KR", "MX", "DK", "SE", "BE", "AT", "CH", "PT", "BR",
    "JP", "CZ", "SK", "GR", "TR", "UA", "RO", "LU", "HU",
  ]

  /// `text` in `country`'s format, or nil when it fits none of the
  /// country's templates (or the country has none).
  public static func normalized(_ text: String, country: String) -> String? {
    let upper = text.uppercased()
    if country == "GB" { return british(upper) }
    guard let templates = formats[country] else { return nil }
    let compact = upper.filter { !$0.isWhitespace && $0 != "-" && $0 != "." }
    guard !compact.isEmpty, compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
    for t in templates {
      if let out = fill(t, compact) { return out }
    }
    if leadingZeros.contains(country), compact.allSatisfy(\.isNumber) {
      for t in templates where t.allSatisfy({ $0 == "9" || $0 == " " || $0 == "-" }) {
        let digits = t.filter { $0 == "9" }.count
        if compact.count < digits {
          if let out = fill(t, String(repeating: "0", count: digits - compact.count) + compact) { return out }
        }
      }
    }
    return nil
  }

  /// `compact` (letters and digits only) written in `template`, or nil.
  static func fill(_ template: String, _ compact: String) -> String? {
    let slots = template.filter { $0 == "9" || $0 == "A" || $0 == "X" }
    guard slots.count == compact.count else { return nil }
    var out = ""
    var it = compact.makeIterator()
    for t in template {
      switch t {
      case "9", "A", "X":
        guard let c = it.next() else { return nil }
        if t == "9" && !c.isNumber { return nil }
        if t == "A" && !c.isLetter { return nil }
        out.append(c)
      default: out.append(t)
      }
    }
    return out
  }

  /// A United Kingdom postcode: the outward code (a letter, then one to
  /// three letters and digits), a space, the inward code (a digit and two
  /// letters). `GIR 0AA` is one of them, and so are the British Forces'
  /// `BFPO` numbers.
  static func british(_ upper: String) -> String? {
    let compact = upper.filter { !$0.isWhitespace }
    // British Forces Post Office: "BFPO 61".
    if compact.hasPrefix("BFPO"), compact.count > 4, compact.count <= 8, compact.dropFirst(4).allSatisfy({ $0.isASCII && $0.isNumber }) {
      return "BFPO " + compact.dropFirst(4)
    }
    guard compact.count >= 5, compact.count <= 7, compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else { return nil }
    let inward = compact.suffix(3), outward = compact.dropLast(3)
    let i = Array(inward)
    guard i[0].isNumber, i[1].isLetter, i[2].isLetter, let first = outward.first, first.isLetter,
      outward.contains(where: \.isNumber) || outward == "GIR"
    else { return nil }
    return outward + " " + inward
  }
}
