import OhanaCore

/// Adds per-contact statistics as derived columns (Ohana's
/// OHStatisticsPostProcessor): `stats.fieldCount`, `stats.phoneCount`,
/// `stats.emailCount` (integers) and `stats.hasMobile` (boolean: a phone
/// field labelled cell, mobile or iPhone, any case; Apple's `_$!<Mobile>!$_`
/// wrapping counts too).
///
/// An enricher: keeps selection and order. Optional by default (Riblets:
/// statistics are not core output).
///
/// - Complexity: O(rows + fields); label checks once per distinct label id.
public struct Statistics: PostProcessor {
  public static let fieldCount = "stats.fieldCount"
  public static let phoneCount = "stats.phoneCount"
  public static let emailCount = "stats.emailCount"
  public static let hasMobile = "stats.hasMobile"

  public let role: StageRole
  public init(role: StageRole = .optional) { self.role = role }
  public var name: String { "stats" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    let n = table.rowCount
    let mobile = Self.mobileLabelIDs(table)
    var fieldCount = [Int64](repeating: 0, count: n)
    var phoneCount = [Int64](repeating: 0, count: n)
    var emailCount = [Int64](repeating: 0, count: n)
    var hasMobileWords = [UInt64](repeating: 0, count: (n + 63) >> 6)
    table.fieldOffsets.withUnsafeBufferPointer { off in
      table.fields.kind.withUnsafeBufferPointer { kinds in
        table.fields.label.withUnsafeBufferPointer { labels in
          mobile.withUnsafeBufferPointer { mob in
            for r in 0..<n {
              let s = Int(off[r]), e = Int(off[r + 1])
              var phones: Int64 = 0, emails: Int64 = 0
              var hasMobile = false
              for i in s..<e {
                switch kinds[i] {
                case .phone:
                  phones += 1
                  let l = labels[i].index
                  if l != 0 && l < mob.count && mob[l] { hasMobile = true }
                case .email: emails += 1
                default: break
                }
              }
              fieldCount[r] = Int64(e - s)
              phoneCount[r] = phones
              emailCount[r] = emails
              if hasMobile { hasMobileWords[r >> 6] |= 1 << UInt64(r & 63) }
            }
          }
        }
      }
    }
    let all = Bitmap(count: n, allSet: true)
    table.setColumn(Self.fieldCount, .int(fieldCount, valid: all))
    table.setColumn(Self.phoneCount, .int(phoneCount, valid: all))
    table.setColumn(Self.emailCount, .int(emailCount, valid: all))
    table.setColumn(Self.hasMobile, .bool(Bitmap(words: hasMobileWords, count: n), valid: all))
    var f = frame
    f.table = table
    return f
  }

  /// For every string id used as a phone label, whether it names a mobile.
  static func mobileLabelIDs(_ table: ContactTable) -> [Bool] {
    var checked = [UInt8](repeating: 0, count: table.pool.count)  // 0 unknown, 1 no, 2 yes
    for (i, kind) in table.fields.kind.enumerated() where kind == .phone {
      let l = table.fields.label[i].index
      if l == 0 || checked[l] != 0 { continue }
      checked[l] = table.pool.withBytes(of: StringID(rawValue: UInt32(l))) { isMobileLabel($0) } ? 2 : 1
    }
    return checked.map { $0 == 2 }
  }

  /// Whether a label names a mobile phone: one of its tokens (split at
  /// `, ; space /`) is `cell`, `mobile` or `iphone` in any case, also inside
  /// Apple's `_$!<...>!$_`.
  public static func isMobileLabel(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var token: [UInt8] = []
    func check() -> Bool {
      defer { token.removeAll(keepingCapacity: true) }
      return token == Array("cell".utf8) || token == Array("mobile".utf8) || token == Array("iphone".utf8)
    }
    for b in bytes {
      switch b {
      case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "/"),
        UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"):
        if check() { return true }
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): token.append(b + 32)
      default: token.append(b)
      }
    }
    return check()
  }

  public static func isMobileLabel(_ label: String) -> Bool {
    var s = label
    return s.withUTF8 { isMobileLabel(UnsafeRawBufferPointer($0)) }
  }
}
