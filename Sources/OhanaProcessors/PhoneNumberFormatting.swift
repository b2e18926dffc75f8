import Dispatch
import OhanaCore
import OhanaPhone
import Synchronization

/// Parses every phone field with libphonenumber's semantics and adds derived
/// columns over fields (Ohana's OHPhoneNumberFormattingPostProcessor):
///
/// | column | kind | value |
/// |---|---|---|
/// | `phone.e164`, `phone.international`, `phone.national`, `phone.rfc3966` | string | the formats asked for |
/// | `phone.valid` | bool | `is_valid_number` |
/// | `phone.type` | string | `FIXED_LINE`, `MOBILE`, ... |
/// | `phone.region` | string | region of the number (`US`, `001`...) |
///
/// Fields that are not phones, and phones that do not parse, have no value
/// in any column; the unparsable ones are counted (`phone.unparsable`). The
/// region used for national numbers is `defaultRegion`, or per contact the
/// region code in the contact-level string column `regionColumn` when given.
///
/// An enricher: keeps rows, selection and order (drops nothing).
///
/// - Complexity: one parse per distinct (value id, region) pair, spread over
///   all cores; then O(fields).
public struct PhoneNumberFormatting: PostProcessor {
  public static let e164 = "phone.e164"
  public static let international = "phone.international"
  public static let national = "phone.national"
  public static let rfc3966 = "phone.rfc3966"
  public static let valid = "phone.valid"
  public static let type = "phone.type"
  public static let region = "phone.region"
  /// Counter of phone fields that did not parse.
  public static let unparsableCounter = "phone.unparsable"

  public let formats: [PhoneNumberFormat]
  public let defaultRegion: RegionCode
  public let regionColumn: String?
  public let role: StageRole

  public init(
    formats: [PhoneNumberFormat] = PhoneNumberFormat.allCases, defaultRegion: RegionCode = RegionCode.us,
    regionColumn: String? = nil, role: StageRole = .core
  ) {
    self.formats = formats
    self.defaultRegion = defaultRegion
    self.regionColumn = regionColumn
    self.role = role
  }

  public var name: String { "phone-number-formatting" }

  static func columnName(_ format: PhoneNumberFormat) -> String {
    switch format {
    case .e164: return e164
    case .international: return international
    case .national: return national
    case .rfc3966: return rfc3966
    }
  }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var table = frame.table
    let fieldCount = table.fields.count
    let regionsPerRow = contactRegions(table)

    // Distinct (value id, region slot) keys, and each phone field's key.
    var keyOfField = [Int32](repeating: -1, count: fieldCount)
    var keyValues: [UInt32] = []
    var keyRegions: [RegionCode] = []
    var bySlot0 = [Int32](repeating: -1, count: table.pool.count)
    var byPair: [UInt64: Int32] = [:]
    let owners = regionsPerRow == nil ? [] : table.fieldOwners()
    for i in 0..<fieldCount where table.fields.kind[i] == .phone {
      let value = table.fields.value[i]
      guard value.isPresent else { continue }
      let region = regionsPerRow.map { $0[Int(owners[i])] } ?? defaultRegion
      if region == defaultRegion {
        if bySlot0[value.index] < 0 {
          bySlot0[value.index] = Int32(keyValues.count)
          keyValues.append(value.rawValue)
          keyRegions.append(region)
        }
        keyOfField[i] = bySlot0[value.index]
      } else {
        let pair = UInt64(value.rawValue) | UInt64(region.rawValue) << 32
        if let k = byPair[pair] {
          keyOfField[i] = k
        } else {
          let k = Int32(keyValues.count)
          byPair[pair] = k
          keyValues.append(value.rawValue)
          keyRegions.append(region)
          keyOfField[i] = k
        }
      }
    }

    // Raw bytes of the distinct values, copied out of the pool so that the
    // parallel pass only sees Sendable arrays.
    var rawBytes: [UInt8] = []
    var rawEnds: [Int] = []
    rawEnds.reserveCapacity(keyValues.count)
    for v in keyValues {
      table.pool.withBytes(of: StringID(rawValue: v)) { rawBytes.append(contentsOf: $0) }
      rawEnds.append(rawBytes.count)
    }
    let results = PhoneResults.compute(
      rawBytes: rawBytes, rawEnds: rawEnds, regions: keyRegions, formats: formats)

    // Intern the results once per key, then spread them over the fields.
    var formatIDs = [[StringID]](repeating: [], count: formats.count)
    for f in 0..<formats.count { formatIDs[f].reserveCapacity(keyValues.count) }
    var typeIDs: [UInt8: StringID] = [:]
    var regionIDs: [UInt32: StringID] = [:]
    var keyType = [StringID](repeating: .absent, count: keyValues.count)
    var keyRegion = [StringID](repeating: .absent, count: keyValues.count)
    for k in 0..<keyValues.count {
      let r = results.entry(k)
      guard r.parsed else {
        for f in 0..<formats.count { formatIDs[f].append(.absent) }
        continue
      }
      for f in 0..<formats.count {
        let range = results.textRange(k, f)
        let id = results.text.withUnsafeBytes { table.pool.intern(UnsafeRawBufferPointer(rebasing: $0[range])) }
        formatIDs[f].append(id)
      }
      if let id = typeIDs[r.type] {
        keyType[k] = id
      } else {
        let name = (PhoneNumberType(rawValue: r.type) ?? .unknown).description
        let id = table.pool.intern(name)
        typeIDs[r.type] = id
        keyType[k] = id
      }
      if r.region != 0 {
        if let id = regionIDs[r.region] {
          keyRegion[k] = id
        } else {
          let id = table.pool.intern(RegionCode(rawValue: r.region).description)
          regionIDs[r.region] = id
          keyRegion[k] = id
        }
      }
    }

    var formatColumns = [[StringID]](repeating: [StringID](repeating: .absent, count: fieldCount), count: formats.count)
    var typeColumn = [StringID](repeating: .absent, count: fieldCount)
    var regionColumnValues = [StringID](repeating: .absent, count: fieldCount)
    var validBits = [UInt64](repeating: 0, count: (fieldCount + 63) >> 6)
    var knownBits = [UInt64](repeating: 0, count: (fieldCount + 63) >> 6)
    var unparsable = 0
    for i in 0..<fieldCount {
      let k = Int(keyOfField[i])
      guard k >= 0 else { continue }
      let r = results.entry(k)
      guard r.parsed else {
        unparsable += 1
        continue
      }
      for f in 0..<formats.count { formatColumns[f][i] = formatIDs[f][k] }
      typeColumn[i] = keyType[k]
      regionColumnValues[i] = keyRegion[k]
      knownBits[i >> 6] |= 1 << UInt64(i & 63)
      if r.valid { validBits[i >> 6] |= 1 << UInt64(i & 63) }
    }
    for (f, format) in formats.enumerated() {
      table.setFieldColumn(Self.columnName(format), .string(formatColumns[f]))
    }
    let known = Bitmap(words: knownBits, count: fieldCount)
    table.setFieldColumn(Self.valid, .bool(Bitmap(words: validBits, count: fieldCount), valid: known))
    table.setFieldColumn(Self.type, .string(typeColumn))
    table.setFieldColumn(Self.region, .string(regionColumnValues))
    if unparsable > 0 { context.count(Self.unparsableCounter, unparsable) }
    var out = frame
    out.table = table
    return out
  }

  /// Per-contact regions from `regionColumn`, or nil when every contact uses the default.
  private func contactRegions(_ table: ContactTable) -> [RegionCode]? {
    guard let name = regionColumn, case .string(let ids)? = table.annotations[column: name] else { return nil }
    var cache: [UInt32: RegionCode] = [:]
    return ids.map { id in
      if id.isAbsent { return defaultRegion }
      if let r = cache[id.rawValue] { return r }
      let r = table.pool.withBytes(of: id) { RegionCode(utf8: $0) } ?? defaultRegion
      cache[id.rawValue] = r
      return r
    }
  }
}

/// The outcome of parsing each distinct key: flags, type and region per key,
/// and the formatted strings in one byte buffer.
struct PhoneResults: Sendable {
  struct Entry {
    var parsed: Bool
    var valid: Bool
    var type: UInt8
    var region: UInt32
  }

  var flags: [UInt8] = []  // bit 0 parsed, bit 1 valid
  var types: [UInt8] = []
  var regions: [UInt32] = []
  var text: [UInt8] = []
  /// End of each (key, format) string in `text`: index `key * formatCount + format`.
  var textEnds: [Int] = []
  var formatCount = 0

  func entry(_ k: Int) -> Entry {
    Entry(parsed: flags[k] & 1 != 0, valid: flags[k] & 2 != 0, type: types[k], region: regions[k])
  }

  func textRange(_ k: Int, _ f: Int) -> Range<Int> {
    let i = k * formatCount + f
    let start = i == 0 ? 0 : textEnds[i - 1]
    return start..<textEnds[i]
  }

  mutating func append(_ other: PhoneResults) {
    let base = text.count
    flags += other.flags
    types += other.types
    regions += other.regions
    text += other.text
    textEnds += other.textEnds.map { $0 + base }
  }

  /// Parses `rawBytes[rawEnds[k-1] ..< rawEnds[k]]` in `regions[k]` for every
  /// key, in parallel chunks, and returns the results in key order.
  static func compute(rawBytes: [UInt8], rawEnds: [Int], regions: [RegionCode], formats: [PhoneNumberFormat])
    -> PhoneResults
  {
    let keys = rawEnds.count
    let chunkSize = 4096
    let chunks = (keys + chunkSize - 1) / chunkSize
    let slots = Mutex<[PhoneResults?]>(Array(repeating: nil, count: chunks))
    let engine = PhoneNumberEngine()
    DispatchQueue.concurrentPerform(iterations: chunks) { c in
      var part = PhoneResults()
      part.formatCount = formats.count
      let lo = c * chunkSize
      let hi = Swift.min(keys, lo + chunkSize)
      for k in lo..<hi {
        let start = k == 0 ? 0 : rawEnds[k - 1]
        let raw = rawBytes[start..<rawEnds[k]]
        if let number = try? engine.parse(utf8: raw, defaultRegion: regions[k]) {
          let (region, type) = engine.classify(number)
          part.flags.append(type == .unknown ? 1 : 3)
          part.types.append(type.rawValue)
          part.regions.append(region?.rawValue ?? 0)
          for f in formats {
            engine.format(number, as: f, appendingTo: &part.text)
            part.textEnds.append(part.text.count)
          }
        } else {
          part.flags.append(0)
          part.types.append(PhoneNumberType.unknown.rawValue)
          part.regions.append(0)
          for _ in formats { part.textEnds.append(part.text.count) }
        }
      }
      slots.withLock { $0[c] = part }
    }
    var all = PhoneResults()
    all.formatCount = formats.count
    for part in slots.withLock({ $0 }) {
      if let part { all.append(part) }
    }
    return all
  }
}
