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
    var t = text
    return t.withUTF8 { parse(utf8: UnsafeRawBufferPointer($0), order: order) }.map { String(decoding: $0, as: UTF8.self) }
  }

  /// ``parse(_:order:)`` over UTF-8 bytes: the ISO form's bytes, nil when
  /// they are no date. Blanks (space, tab) around the date are ignored,
  /// and so is a time after it (`T` or a space); any other byte than a
  /// digit, `-`, `/` or `.` makes it no date.
  static func parse(utf8 bytes: UnsafeRawBufferPointer, order: Order) -> [UInt8]? {
    var lo = 0, hi = bytes.count
    while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
    while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
    // At most 40 characters (every byte but a UTF-8 continuation starts one).
    var characters = 0
    for i in lo..<hi where bytes[i] & 0xC0 != 0x80 { characters += 1 }
    guard characters > 0, characters <= 40 else { return nil }
    // Split into runs of digits and the separators between them.
    var parts: [Int] = []
    var widths: [Int] = []
    parts.reserveCapacity(4)
    widths.reserveCapacity(4)
    var current = 0, width = 0
    for i in lo..<hi {
      let c = bytes[i]
      if c >= 0x30 && c <= 0x39 {
        current = current * 10 + Int(c - 0x30)
        width += 1
        if width > 8 { return nil }
        continue
      }
      if width > 0 {
        parts.append(current)
        widths.append(width)
      }
      current = 0
      width = 0
      if c == UInt8(ascii: "T") || c == 0x20 { break }  // a time after the date
      guard c == UInt8(ascii: "-") || c == UInt8(ascii: "/") || c == UInt8(ascii: ".") else { return nil }
    }
    if width > 0 {
      parts.append(current)
      widths.append(width)
    }
    func iso(_ y: Int, _ m: Int?, _ d: Int?) -> [UInt8]? {
      guard (1000...2999).contains(y) else { return nil }
      var s: [UInt8] = []
      s.reserveCapacity(10)
      func digits(_ v: Int, _ n: Int) {
        var div = 1
        for _ in 1..<n { div *= 10 }
        while div > 0 {
          s.append(UInt8(0x30 + v / div % 10))
          div /= 10
        }
      }
      digits(y, 4)
      guard let m else { return s }
      guard (1...12).contains(m) else { return nil }
      s.append(UInt8(ascii: "-"))
      digits(m, 2)
      guard let d else { return s }
      guard (1...daysIn(m, y)).contains(d) else { return nil }
      s.append(UInt8(ascii: "-"))
      digits(d, 2)
      return s
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
