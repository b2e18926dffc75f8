/// Birthdays as ISO 8601 dates (issue 46, item 2), the partial ones in
/// vCard 4.0's truncated forms (RFC 6350 §4.3.1):
///
/// | read | written |
/// | --- | --- |
/// | `1985-04-12`, `19850412`, `1985/4/12`, `1985.04.12`, a timestamp `1985-04-12T10:00:00Z` | `1985-04-12` |
/// | `12.04.1985` (day first, as dots are written) | `1985-04-12` |
/// | `4/12/1985`, `12/4/1985` | by the day that cannot be a month, else by ``Order`` |
/// | `1985-04`, `198504` | `1985-04` |
/// | `1985` | `1985` |
/// | `--0412`, `--04-12` | `--0412` |
/// | `---12` | `---12` |
///
/// A date that does not exist (`1985-02-30`), an ambiguous one with no
/// order given, or anything else is refused: left as typed, counted.
public enum BirthdayText {
  /// How an all-number date with slashes and no four-digit year first is
  /// read when both of its first numbers could be a month.
  public enum Order: String, Sendable, CaseIterable {
    /// Month first (`4/12/1985` is April 12), as in the United States.
    case mdy
    /// Day first (`4/12/1985` is 4 December), as in most of the world.
    case dmy
  }

  /// `text` in ISO form, or nil when refused.
  public static func normalized(_ text: String, order: Order? = nil) -> String? {
    var t = Substring(text.trimmingWhitespace)
    // A timestamp's date part.
    if let tIndex = t.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }), t.distance(from: t.startIndex, to: tIndex) >= 8 {
      t = t[..<tIndex]
    }
    let s = String(t)
    if s.hasPrefix("---") {
      let d = s.dropFirst(3)
      guard d.count == 2, let day = Int(d), (1...31).contains(day) else { return nil }
      return "---" + d
    }
    if s.hasPrefix("--") {
      let md = s.dropFirst(2).filter { $0 != "-" }
      guard md.count == 4, md.allSatisfy(\.isASCIINumber),
        isDate(year: 2000, month: number(md.prefix(2)[...]), day: number(md.suffix(2)[...]))
      else { return nil }
      return "--" + md
    }
    let parts = s.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "." }).map(String.init)
    guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(\.isASCIINumber) })
    else { return nil }
    if parts.count == 1 {
      let p = parts[0]
      switch p.count {
      case 4: return p
      case 6: return complete(number(p.prefix(4)), number(p.suffix(2)), nil)
      case 8: return complete(number(p.prefix(4)), number(p.dropFirst(4).prefix(2)), number(p.suffix(2)))
      default: return nil
      }
    }
    let n = parts.map { number($0[...]) }
    if parts[0].count == 4 {
      // Year first: y-m or y-m-d.
      return parts.count == 2 ? complete(n[0], n[1], nil) : parts.count == 3 ? complete(n[0], n[1], n[2]) : nil
    }
    guard parts.count == 3, parts[2].count == 4, parts[0].count <= 2, parts[1].count <= 2 else { return nil }
    let year = n[2]
    if s.contains(".") { return complete(year, n[1], n[0]) }  // 12.04.1985: day first
    let firstIsDay = n[0] > 12, secondIsDay = n[1] > 12
    if firstIsDay && !secondIsDay { return complete(year, n[1], n[0]) }
    if secondIsDay && !firstIsDay { return complete(year, n[0], n[1]) }
    if n[0] == n[1] { return complete(year, n[0], n[1]) }
    switch order {
    case .mdy: return complete(year, n[0], n[1])
    case .dmy: return complete(year, n[1], n[0])
    case nil: return nil
    }
  }

  /// The value of ASCII digits (checked by the caller; at most 8 of them).
  static func number(_ digits: Substring) -> Int {
    digits.unicodeScalars.reduce(0) { $0 * 10 + Int($1.value) - 48 }
  }

  static func complete(_ year: Int, _ month: Int, _ day: Int?) -> String? {
    guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
    let y = String(year), m = month < 10 ? "0\(month)" : "\(month)"
    let yy = String(repeating: "0", count: 4 - y.count) + y
    guard let day else { return "\(yy)-\(m)" }
    guard isDate(year: year, month: month, day: day) else { return nil }
    return "\(yy)-\(m)-" + (day < 10 ? "0\(day)" : "\(day)")
  }

  static func isDate(year: Int, month: Int, day: Int) -> Bool {
    guard (1...12).contains(month), day >= 1 else { return false }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return day <= days
  }
}

extension Character {
  fileprivate var isASCIINumber: Bool { isASCII && isNumber }
}
