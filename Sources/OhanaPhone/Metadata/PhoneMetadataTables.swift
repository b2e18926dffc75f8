/// libphonenumber's metadata as flat tables (struct of arrays), decoded once
/// from the generated blob (`Generated/PhoneMetadata+Tables.swift`) at first use.
///
/// ### Layout
/// * An *entry* is one region's metadata (`US`, `GB`...) or one
///   non-geographic calling code's (`001` for +800, +882...). Entry columns
///   are parallel arrays indexed by entry.
/// * Every national-number, leading-digits and format-selection pattern is a
///   minimal DFA over the ten digits in one shared table: `transitions[state
///   * 10 + digit]`, state 0 is the dead state, `accepting[state]`. A pattern
///   is named by its start state (0 = no pattern).
/// * Number descriptions are indexed `entry * 11 + desc` (desc order:
///   general, premium rate, toll free, shared cost, VoIP, personal number,
///   pager, UAN, voicemail, fixed line, mobile), with a DFA and a bit mask of
///   possible lengths (bit n = length n).
/// * Formats are parallel arrays too; a format's pattern is a run of digit
///   groups `groupMin...groupMax` long; templates are strings whose bytes
///   0x01...0x09 stand for group references.
/// * `countryEntries[countryStart[cc] ..< + countryCount[cc]]` are the entries
///   sharing calling code `cc`, main country first.
///
/// Immutable after construction, so `Sendable` and safe to share.
final class PhoneMetadataTables: Sendable {
  static let shared = PhoneMetadataTables()

  enum Desc: Int {
    case general = 0, premiumRate, tollFree, sharedCost, voip, personalNumber, pager, uan, voicemail, fixedLine,
      mobile
  }

  let transitions: [UInt16]
  let accepting: [UInt8]
  let stringOffsets: [UInt32]
  let stringBytes: [UInt8]

  // Entry columns.
  let entryCode: [UInt16]
  let entryCountryCode: [UInt16]
  let entryIDD: [UInt16]
  let entryNationalPrefixForParsing: [UInt16]
  let entryTransformRule: [UInt16]
  let entryExtensionPrefix: [UInt16]
  let entryLeadingDigits: [UInt16]
  let entryFormatStart: [UInt16]
  let entryFormatCount: [UInt16]
  let entryIntlFormatStart: [UInt16]
  let entryIntlFormatCount: [UInt16]
  let entryFlags: [UInt8]
  let entryLocalOnlyLengths: [UInt32]
  let descPattern: [UInt16]
  let descLengths: [UInt32]

  // Format columns.
  let formatGroupStart: [UInt16]
  let formatGroupCount: [UInt16]
  let formatTemplate: [UInt16]
  let formatNationalTemplate: [UInt16]
  let formatRFCTemplate: [UInt16]
  let formatLeadingDigits: [UInt16]
  let groupMin: [UInt8]
  let groupMax: [UInt8]

  let countryStart: [UInt16]
  let countryCount: [UInt8]
  let countryEntries: [UInt16]

  let ndZeros: [UInt32]
  let wordRanges: [UInt32]

  // Derived at load.
  /// Total digits a format's pattern accepts, per format.
  let formatMinLength: [UInt8]
  let formatMaxLength: [UInt8]
  /// Entry index per two-letter region (`(a - 65) * 26 + (b - 65)`), -1 if none.
  let regionEntry: [Int16]
  /// Compiled prefix patterns, and per entry an index into them (-1 = none).
  let prefixPatterns: [PrefixPattern]
  let entryIDDPattern: [Int16]
  let entryNationalPrefixPattern: [Int16]
  /// Transform rule templates per entry (bytes 0x01...0x09 = groups), nil if none.
  let entryTransform: [[UInt8]?]
  /// Region code per entry.
  let entryRegion: [RegionCode]

  static let stringNone: UInt16 = 0xFFFF

  private init() {
    var reader = BlobReader(base64: PhoneMetadataTables.blobBase64)
    transitions = reader.u16()
    accepting = reader.u8()
    let offsets = reader.u32()
    let bytes = reader.u8()
    stringOffsets = offsets
    stringBytes = bytes
    let codes = reader.u16()
    entryCode = codes
    entryCountryCode = reader.u16()
    let idd = reader.u16()
    let npfp = reader.u16()
    let transform = reader.u16()
    entryIDD = idd
    entryNationalPrefixForParsing = npfp
    entryTransformRule = transform
    entryExtensionPrefix = reader.u16()
    entryLeadingDigits = reader.u16()
    entryFormatStart = reader.u16()
    entryFormatCount = reader.u16()
    entryIntlFormatStart = reader.u16()
    entryIntlFormatCount = reader.u16()
    entryFlags = reader.u8()
    entryLocalOnlyLengths = reader.u32()
    descPattern = reader.u16()
    descLengths = reader.u32()
    let groupStarts = reader.u16()
    let groupCounts = reader.u16()
    formatGroupStart = groupStarts
    formatGroupCount = groupCounts
    formatTemplate = reader.u16()
    formatNationalTemplate = reader.u16()
    formatRFCTemplate = reader.u16()
    formatLeadingDigits = reader.u16()
    let mins = reader.u8()
    let maxs = reader.u8()
    groupMin = mins
    groupMax = maxs
    var minLengths: [UInt8] = []
    var maxLengths: [UInt8] = []
    for (start, n) in zip(groupStarts, groupCounts) {
      var lo = 0
      var hi = 0
      for g in Int(start)..<Int(start) + Int(n) where g < mins.count && g < maxs.count {
        lo += Int(mins[g])
        hi += Int(maxs[g])
      }
      minLengths.append(UInt8(clamping: lo))
      maxLengths.append(UInt8(clamping: hi))
    }
    formatMinLength = minLengths
    formatMaxLength = maxLengths
    countryStart = reader.u16()
    countryCount = reader.u8()
    countryEntries = reader.u16()
    ndZeros = reader.u32()
    wordRanges = reader.u32()

    func text(_ id: UInt16) -> [UInt8] {
      guard id != Self.stringNone, Int(id) + 1 < offsets.count else { return [] }
      return Array(bytes[Int(offsets[Int(id)])..<Int(offsets[Int(id) + 1])])
    }

    var regions: [RegionCode] = []
    var lookup = [Int16](repeating: -1, count: 26 * 26)
    for (i, id) in codes.enumerated() {
      let code = RegionCode(utf8: text(id)) ?? .unknown
      regions.append(code)
      let a = Int(code.rawValue >> 8) - 65
      let b = Int(code.rawValue & 0xFF) - 65
      if code.rawValue >> 16 == 0, a >= 0, a < 26, b >= 0, b < 26 { lookup[a * 26 + b] = Int16(i) }
    }
    entryRegion = regions
    regionEntry = lookup

    var patterns: [PrefixPattern] = []
    var byString: [UInt16: Int16] = [:]
    func compile(_ id: UInt16) -> Int16 {
      guard id != Self.stringNone else { return -1 }
      if let known = byString[id] { return known }
      guard let p = PrefixPattern(text(id)) else { return -1 }
      patterns.append(p)
      let index = Int16(patterns.count - 1)
      byString[id] = index
      return index
    }
    entryIDDPattern = idd.map(compile)
    entryNationalPrefixPattern = npfp.map(compile)
    prefixPatterns = patterns
    entryTransform = transform.map { id -> [UInt8]? in
      guard id != Self.stringNone else { return nil }
      var out: [UInt8] = []
      var bytes = text(id)[...]
      while let c = bytes.popFirst() {
        if c == UInt8(ascii: "\\") || c == UInt8(ascii: "$"), let d = bytes.first, d >= 0x31, d <= 0x39 {
          out.append(d - 0x30)
          bytes.removeFirst()
        } else {
          out.append(c)
        }
      }
      return out
    }
  }

  // MARK: Lookups

  @inline(__always)
  func string(_ id: UInt16) -> ArraySlice<UInt8> {
    guard id != Self.stringNone, Int(id) + 1 < stringOffsets.count else { return [] }
    return stringBytes[Int(stringOffsets[Int(id)])..<Int(stringOffsets[Int(id) + 1])]
  }

  /// The entry of a supported two-letter region, or nil.
  func entry(for region: RegionCode) -> Int? {
    guard region.rawValue >> 16 == 0 else { return nil }
    let a = Int(region.rawValue >> 8) - 65
    let b = Int(region.rawValue & 0xFF) - 65
    guard a >= 0, a < 26, b >= 0, b < 26 else { return nil }
    let e = regionEntry[a * 26 + b]
    return e >= 0 ? Int(e) : nil
  }

  /// Entries sharing a calling code, main country first.
  @inline(__always)
  func entries(forCountryCode cc: Int) -> ArraySlice<UInt16> {
    guard cc > 0, cc < 1000 else { return [] }
    let start = Int(countryStart[cc])
    return countryEntries[start..<start + Int(countryCount[cc])]
  }

  @inline(__always)
  func mainEntry(forCountryCode cc: Int) -> Int? {
    guard cc > 0, cc < 1000, countryCount[cc] > 0 else { return nil }
    return Int(countryEntries[Int(countryStart[cc])])
  }

  // MARK: DFAs

  /// Whether the DFA starting at `start` accepts all of `digits[from...]`.
  @inline(__always)
  func fullMatch(_ start: UInt16, _ digits: DigitString, from: Int = 0) -> Bool {
    guard start != 0 else { return false }
    return transitions.withUnsafeBufferPointer { table in
      var s = Int(start)
      var i = from
      while i < digits.count {
        let d = Int(digits[i] &- 0x30)
        guard d < 10 else { return false }
        s = Int(table[s &* 10 &+ d])
        if s == 0 { return false }
        i += 1
      }
      return accepting[s] != 0
    }
  }

  /// Whether the DFA starting at `start` accepts some prefix of `digits` (`re.match`).
  @inline(__always)
  func prefixMatch(_ start: UInt16, _ digits: DigitString) -> Bool {
    guard start != 0 else { return false }
    return transitions.withUnsafeBufferPointer { table in
      var s = Int(start)
      var i = 0
      while i < digits.count {
        let d = Int(digits[i] &- 0x30)
        guard d < 10 else { return false }
        s = Int(table[s &* 10 &+ d])
        if s == 0 { return false }
        if accepting[s] != 0 { return true }
        i += 1
      }
      return false
    }
  }

  // MARK: Unicode

  func ndDigitValue(_ c: UInt32) -> Int {
    var lo = 0
    var hi = ndZeros.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if ndZeros[mid] <= c { lo = mid + 1 } else { hi = mid }
    }
    guard lo > 0 else { return -1 }
    let zero = ndZeros[lo - 1]
    return c - zero < 10 ? Int(c - zero) : -1
  }

  func isWordScalar(_ c: UInt32) -> Bool {
    let pairs = wordRanges.count / 2
    var lo = 0
    var hi = pairs
    while lo < hi {
      let mid = (lo + hi) / 2
      if wordRanges[2 * mid] <= c { lo = mid + 1 } else { hi = mid }
    }
    guard lo > 0 else { return false }
    return c <= wordRanges[2 * (lo - 1) + 1]
  }
}

/// Reads the blob's sections: each a little-endian UInt32 count, the values,
/// then padding to 4 bytes.
struct BlobReader {
  private var bytes: [UInt8]
  private var offset = 0

  init(base64: StaticString) {
    bytes = BlobReader.decodeBase64(base64)
  }

  static func decodeBase64(_ text: StaticString) -> [UInt8] {
    // Value of each base64 character; 255 for characters to skip (newlines, `=`).
    var values = [UInt8](repeating: 255, count: 256)
    for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      values[Int(c)] = UInt8(i)
    }
    return text.withUTF8Buffer { input in
      // Safe: every 4 input characters give at most 3 bytes, so `capacity`
      // bounds the writes, and exactly `written` elements are initialized.
      let capacity = input.count / 4 * 3 + 3
      return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
        var written = 0
        var acc: UInt32 = 0
        var bits = 0
        values.withUnsafeBufferPointer { table in
          for c in input {
            let v = table[Int(c)]
            if v == 255 { continue }
            acc = (acc << 6) | UInt32(v)
            bits += 6
            if bits >= 8 && written < capacity {
              bits -= 8
              buffer[written] = UInt8(truncatingIfNeeded: acc >> UInt32(bits))
              written += 1
            }
          }
        }
        initialized = written
      }
    }
  }

  private mutating func count() -> Int {
    guard offset + 4 <= bytes.count else { return 0 }
    let n = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    offset += 4
    return n
  }

  private mutating func align() {
    while offset % 4 != 0 { offset += 1 }
  }

  mutating func u8() -> [UInt8] {
    let n = count()
    guard offset + n <= bytes.count else { return [] }
    let out = Array(bytes[offset..<offset + n])
    offset += n
    align()
    return out
  }

  mutating func u16() -> [UInt16] {
    let n = count()
    guard offset + 2 * n <= bytes.count else { return [] }
    let base = offset
    let out = bytes.withUnsafeBufferPointer { b in
      // Safe: the guard above keeps every read inside `bytes`; all `n` elements are written.
      [UInt16](unsafeUninitializedCapacity: n) { buffer, initialized in
        for i in 0..<n { buffer[i] = UInt16(b[base + 2 * i]) | UInt16(b[base + 2 * i + 1]) << 8 }
        initialized = n
      }
    }
    offset += 2 * n
    align()
    return out
  }

  mutating func u32() -> [UInt32] {
    let n = count()
    guard offset + 4 * n <= bytes.count else { return [] }
    var out = [UInt32]()
    out.reserveCapacity(n)
    for i in 0..<n {
      let o = offset + 4 * i
      out.append(UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24)
    }
    offset += 4 * n
    align()
    return out
  }
}
