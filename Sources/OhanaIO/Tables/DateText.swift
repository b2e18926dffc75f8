/// Dates as tables write them, read into ISO 8601 (`1964-03-26`, or the
/// partial `1964` and `1964-03`): ISO (`1964-03-26`, `1964/03/26`,
/// `1964-03-26T00:00:00`), `19640326`, `26/03/1964`, `26.03.1964`,
/// `26-03-1964` (day first) or `03/26/1964` (month first), and a year or a
/// year and month alone. Whether day or month comes first is decided per
/// column from its values (``order(of:)``), or given (`--date-format`).
public enum DateText {
  public enum Order: String, Sendable, CaseIterable {
    case dayFirst = "dd/mm/yyyy"
    case monthFirst = "mm/dd/yyyy"
  }

  /// The ISO form of `text`, nil when it is no date.
  public static func parse(_ text: String, order: Order) -> String? {
    let t = text.trimmedBlanks
    let scalars = Array(t.unicodeScalars)
    guard !scalars.isEmpty, scalars.count <= 40 else { return nil }
    // Split into runs of digits and the separators between them.
    var parts: [Int] = []
    var widths: [Int] = []
    var current = 0, width = 0
    var separators: [Character] = []
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      if ("0"..."9").contains(c) {
        current = current * 10 + Int(c.value - 48)
        width += 1
        if width > 8 { return nil }
      } else {
        if width > 0 {
          parts.append(current)
          widths.append(width)
        }
        current = 0
        width = 0
        if c == "T" || c == " " { break }  // a time after the date
        guard c == "-" || c == "/" || c == "." else { return nil }
        separators.append(Character(c))
      }
      i += 1
    }
    if width > 0 {
      parts.append(current)
      widths.append(width)
    }
    func iso(_ y: Int, _ m: Int?, _ d: Int?) -> String? {
      guard (1000...2999).contains(y) else { return nil }
      var s = String(y)
      guard let m else { return s }
      guard (1...12).contains(m) else { return nil }
      s += "-" + (m < 10 ? "0" : "") + String(m)
      guard let d else { return s }
      guard (1...daysIn(m, y)).contains(d) else { return nil }
      return s + "-" + (d < 10 ? "0" : "") + String(d)
    }
    switch parts.count {
    case 1:
      if widths[0] == 8 { return iso(parts[0] / 10000, parts[0] / 100 % 100, parts[0] % 100) }
      if widths[0] == 4 { return iso(parts[0], nil, nil) }
      return nil
    case 2:
      if widths[0] == 4 { return iso(parts[0], parts[1], nil) }
      if widths[1] == 4 { return iso(parts[1], parts[0], nil) }
      return nil
    case 3:
      if widths[0] == 4 { return iso(parts[0], parts[1], parts[2]) }
      guard widths[2] == 4 || widths[2] == 2 else { return nil }
      var year = parts[2]
      if widths[2] == 2 { year += year < 30 ? 2000 : 1900 }
      let (d, m) = order == .dayFirst ? (parts[0], parts[1]) : (parts[1], parts[0])
      return iso(year, m, d)
    default:
      return nil
    }
  }

  static func daysIn(_ m: Int, _ y: Int) -> Int {
    switch m {
    case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The order a column's values take: month first when some value's
  /// second number is above 12 (and none's first), else day first.
  public static func order(of values: [String]) -> Order {
    var dayFirst = 0, monthFirst = 0
    for v in values {
      let nums = v.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
      guard nums.count == 3, nums[0] <= 31, nums[2] > 31 || String(v.split(whereSeparator: { !$0.isNumber }).last ?? "").count == 2
      else { continue }
      if nums[0] > 12 && nums[1] <= 12 { dayFirst += 1 }
      if nums[1] > 12 && nums[0] <= 12 { monthFirst += 1 }
    }
    return monthFirst > dayFirst ? .monthFirst : .dayFirst
  }
}

extension String {
  fileprivate var trimmedBlanks: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
