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
/// - Complexity: O(rows + fields), on two cores; a label is checked once per
///   distinct label id a worker meets (a 256-entry cache keyed by id).
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
    // Two halves of the rows on two cores, each into its own arrays; joined
    // after (appending arrays is a copy at memory speed).
    let parts = n >= 1 << 16 ? 2 : 1
    let results = (0..<parts).map { _ in ResultSlots<Counts>(count: 1) }
    let source = table
    // Part boundaries on multiples of 64, so the mobile bitmaps' words join.
    let bounds = (0...parts).map { p in p == parts ? n : (n * p / parts) & ~63 }
    ColumnOps.run((0..<parts).map { p in
      { results[p].set(0, Self.counts(source, rows: bounds[p]..<bounds[p + 1])) }
    })
    var all = Counts()
    for r in results { if let v = r.value(0) { all.append(v) } }
    let valid = Bitmap(count: n, allSet: true)
    table.setColumn(Self.fieldCount, .int(all.fields, valid: valid))
    table.setColumn(Self.phoneCount, .int(all.phones, valid: valid))
    table.setColumn(Self.emailCount, .int(all.emails, valid: valid))
    table.setColumn(Self.hasMobile, .bool(Bitmap(words: all.mobileWords, count: n), valid: valid))
    var f = frame
    f.table = table
    return f
  }

  /// The statistics of a range of rows (a multiple of 64 long except at the end).
  struct Counts {
    var fields: [Int64] = [], phones: [Int64] = [], emails: [Int64] = []
    var mobileWords: [UInt64] = []

    mutating func append(_ o: Counts) {
      fields += o.fields
      phones += o.phones
      emails += o.emails
      mobileWords += o.mobileWords
    }
  }

  /// One pass over the fields of `rows`, without a data-dependent branch per
  /// field: kinds are compared into counts, and a label's "is mobile" comes
  /// from a small cache keyed by the label's stored code or id (computed once
  /// per distinct label a worker meets).
  static func counts(_ table: ContactTable, rows: Range<Int>) -> Counts {
    let count = rows.count
    var out = Counts()
    var cacheIDs = [UInt32](repeating: UInt32.max, count: 256)
    var cacheValues = [UInt8](repeating: 0, count: 256)
    var mobileWords = [UInt64](repeating: 0, count: (count + 63) >> 6)
    // The labels' stored codes (or ids) of these rows' fields, decoded in
    // one loop for the column's width: the same label, the same key.
    let firstField = count > 0 ? Int(table.fieldOffsets[rows.lowerBound]) : 0
    let lastField = count > 0 ? Int(table.fieldOffsets[rows.upperBound]) : 0
    let stored = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, lastField - firstField))
    defer { stored.deallocate() }
    table.fields.label.copyStored(firstField..<lastField, into: stored)
    table.fieldOffsets.withUnsafeBufferPointer { off in
      table.fields.kind.withUnsafeBufferPointer { kinds in
        table.fields.label.withUnsafeReader { labels in
          out.fields = [Int64](unsafeUninitializedCapacity: count) { fc, fcCount in
            out.phones = [Int64](unsafeUninitializedCapacity: count) { pc, pcCount in
              out.emails = [Int64](unsafeUninitializedCapacity: count) { ec, ecCount in
                for k in 0..<count {
                  let r = rows.lowerBound + k
                  let s = Int(off[r]), e = Int(off[r + 1])
                  var phones: Int64 = 0, emails: Int64 = 0
                  var mobile: UInt8 = 0
                  for i in s..<e {
                    let isPhone: UInt8 = kinds[i] == .phone ? 1 : 0
                    phones &+= Int64(isPhone)
                    emails &+= kinds[i] == .email ? 1 : 0
                    let l = stored[i &- firstField]
                    let slot = Int(l & 255)
                    if cacheIDs[slot] != l {
                      cacheIDs[slot] = l
                      cacheValues[slot] = l != 0 && table.pool.withBytes(of: labels[i]) { isMobileLabel($0) } ? 1 : 0
                    }
                    mobile |= isPhone & cacheValues[slot]
                  }
                  fc.initializeElement(at: k, to: Int64(e - s))
                  pc.initializeElement(at: k, to: phones)
                  ec.initializeElement(at: k, to: emails)
                  mobileWords[k >> 6] |= UInt64(mobile) << UInt64(k & 63)
                }
                ecCount = count
              }
              pcCount = count
            }
            fcCount = count
          }
        }
      }
    }
    out.mobileWords = mobileWords
    return out
  }

  /// Whether a label names a mobile phone: one of its tokens (split at
  /// `, ; space / _ $ ! < >`) is `cell`, `mobile` or `iphone` in any case, so
  /// Apple's `_$!<Mobile>!$_` counts too.
  public static func isMobileLabel(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var start = 0
    for i in 0...bytes.count {
      let atEnd = i == bytes.count
      if !atEnd {
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "/"),
          UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"):
          break
        default: continue
        }
      }
      if isMobileToken(UnsafeRawBufferPointer(rebasing: bytes[start..<i])) { return true }
      start = i + 1
    }
    return false
  }

  private static func isMobileToken(_ token: UnsafeRawBufferPointer) -> Bool {
    func equals(_ word: StaticString) -> Bool {
      guard token.count == word.utf8CodeUnitCount else { return false }
      let w = word.utf8Start
      for k in 0..<token.count {
        var b = token[k]
        if b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") { b += 32 }
        if b != w[k] { return false }
      }
      return true
    }
    return equals("cell") || equals("mobile") || equals("iphone")
  }

  public static func isMobileLabel(_ label: String) -> Bool {
    var s = label
    return s.withUTF8 { isMobileLabel(UnsafeRawBufferPointer($0)) }
  }
}
