import OhanaCore

/// Writes every birthday as an ISO 8601 date, partial ones in vCard 4.0's
/// truncated forms (``BirthdayText``). A birthday that is refused (not a
/// date, a day that does not exist, an ambiguous `4/12/1985` with no
/// ``order``) is left as typed, counted (`dates.birthday.unrecognized`)
/// and listed by line; `dates.birthday.changed` counts the rewritten ones.
/// An enricher: keeps rows, order and every other column.
public struct BirthdayNormalization: PostProcessor {
  public let order: BirthdayText.Order?
  public let role: StageRole
  public static let listedLines = 1000

  public init(order: BirthdayText.Order? = nil, role: StageRole = .core) {
    self.order = order
    self.role = role
  }

  public var name: String { "normalize-dates" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    var column = Array(table[.birthday])
    var pool = table.pool
    var memo: [StringID: StringID?] = [:]
    var changed = 0, refused = 0
    var lines: [String] = []
    for row in 0..<table.rowCount where column[row].isPresent {
      let typed = column[row]
      let out: StringID?
      if let known = memo[typed] {
        out = known
      } else {
        out = pool.string(typed).flatMap { BirthdayText.normalized($0, order: order) }.map { pool.intern($0) }
        memo[typed] = out
      }
      guard let out else {
        refused += 1
        if lines.count < Self.listedLines {
          let line = row < table.sourceLine.count ? Int(table.sourceLine[row]) : 0
          lines.append((line > 0 ? "line \(line)" : "contact \(row + 1)") + ": a birthday not recognised as a date; left as typed")
        }
        continue
      }
      if out != typed {
        column[row] = out
        changed += 1
      }
    }
    table.pool = pool
    table.setAttribute(.birthday, column)
    if changed > 0 { context.count("dates.birthday.changed", changed) }
    if refused > 0 { context.count("dates.birthday.unrecognized", refused) }
    for l in lines { context.note(l) }
    var result = frame
    result.table = table
    return result
  }
}
