import OhanaCore
import OhanaPhone
import Synchronization

/// Parses every phone field with libphonenumber's semantics and adds derived
/// columns over fields (Ohana's OHPhoneNumberFormattingPostProcessor):
///
/// | column | kind | value |
/// |---|---|---|
/// | `phone.e164`, `phone.international`, `phone.national`, `phone.rfc3966` | string | the formats asked for |
/// | `phone.valid` | bool | `is_valid_number` (with ``details``) |
/// | `phone.type` | string | `FIXED_LINE`, `MOBILE`, ... (with ``details``) |
/// | `phone.region` | string | region of the number (`US`, `001`...) (with ``details``) |
/// | `phone.extension` | string | the number's extension, where it has one (with ``extensions``) |
///
/// Fields that are not phones, and phones that do not parse, have no value
/// in any column; the unparsable ones are counted (`phone.unparsable`). The
/// region used for national numbers is `defaultRegion`, or per contact the
/// region code in the contact-level string column `regionColumn` when given.
///
/// An enricher: keeps rows, selection and order (drops nothing).
///
/// - Complexity: O(fields + distinct keys + distinct numbers), on all cores
///   but one step (see `PhonePass`): one parse per distinct (value id,
///   region) pair (a value that starts with a plus and a known calling code
///   is parsed once for all its regions); one classification and one
///   formatting per distinct parsed number, hashed on the worker; then the
///   only serial step, interning those strings into the table's pool with
///   their hashes, O(distinct output strings); then the columns, filled by
///   field ranges. Memory while it runs, besides the new columns: about 5
///   bytes per field, the columns once more (they are filled in shared
///   buffers, then copied out), and the per-key and per-number tables.
public struct PhoneNumberFormatting: PostProcessor {
  public static let e164 = "phone.e164"
  public static let international = "phone.international"
  public static let national = "phone.national"
  public static let rfc3966 = "phone.rfc3966"
  public static let valid = "phone.valid"
  public static let type = "phone.type"
  public static let region = "phone.region"
  public static let extensionColumn = "phone.extension"
  /// Counter of phone fields that did not parse.
  public static let unparsableCounter = "phone.unparsable"

  public let formats: [PhoneNumberFormat]
  public let defaultRegion: RegionCode
  public let regionColumn: String?
  public let role: StageRole
  /// Whether the `phone.valid`, `phone.type` and `phone.region` columns
  /// are made. A caller whose output writes none of them (the command
  /// line's vCard and CSV outputs) turns them off: two string columns and
  /// two bitmaps over all fields that nothing would read.
  public let details: Bool
  /// Whether the `phone.extension` column is made: ``PhoneValues`` writing
  /// E.164 reads the extension there (E.164 has none), instead of from a
  /// whole RFC 3966 column made for every number.
  public let extensions: Bool

  public init(
    formats: [PhoneNumberFormat] = PhoneNumberFormat.allCases, defaultRegion: RegionCode = RegionCode.us,
    regionColumn: String? = nil, role: StageRole = .core, details: Bool = true, extensions: Bool = false
  ) {
    self.extensions = extensions
    self.formats = formats
    self.defaultRegion = defaultRegion
    self.regionColumn = regionColumn
    self.role = role
    self.details = details
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
    process(frame, context: context, parts: PhonePass.partitionCount())
  }

  /// The pass with `parts` parts per step (rounded to a power of two in 1...64; tests vary it).
  func process(_ frame: Frame, context: ProcessingContext, parts requested: Int) -> Frame {
    var table = frame.table
    let fieldCount = table.fields.count
    let parts = PhonePass.powerOfTwoParts(requested)
    let input = PhonePass.Input(
      pool: table.pool, kinds: table.fields.kind, values: table.fields.value, fieldOffsets: table.fieldOffsets,
      regionOfRow: contactRegions(table), defaultRegion: defaultRegion, parts: parts)
    let engine = PhoneNumberEngine()

    // 1. Distinct (value, region) keys, split by the pair's hash; each part
    //    parses its keys. Every phone field learns its part and key.
    let partOfField = SharedBuffer<UInt8>(repeating: PhonePass.noPart, count: fieldCount)
    let keyOfField = SharedBuffer<UInt32>(uninitializedCount: fieldCount)  // read only where partOfField is set
    let keyParts = PhonePass.parallel(parts) { p in
      PhonePass.KeyPart(part: p, input: input, engine: engine, partOfField: partOfField, keyOfField: keyOfField)
    }
    PhaseTrace.mark("phones.keys")

    // 2. Distinct parsed numbers, split by the number's hash; each part
    //    classifies and formats its numbers once, into a pool of its own.
    let numberOfKey = keyParts.map { SharedBuffer<UInt64>(repeating: PhonePass.unparsed, count: $0.count) }
    // Each number's strings: its formats, then its extension when asked.
    let slots = formats.count + (extensions ? 1 : 0)
    let numberParts = PhonePass.parallel(parts) { w in
      PhonePass.NumberPart(
        part: w, parts: parts, keyParts: keyParts, numberOfKey: numberOfKey, formats: formats, extensions: extensions,
        engine: engine)
    }
    PhaseTrace.mark("phones.numbers")

    // 3. The parts' strings join the table's pool (hashed already),
    //    and every number's values are looked up once.
    var lookup = PhonePass.Lookup()
    lookup.stride = slots + 2
    var ids: [StringID] = []
    var typeIDs = [StringID](repeating: .absent, count: 32)
    var regionIDs: [UInt32: StringID] = [:]
    var numberBase: [Int] = []
    for part in numberParts {
      numberBase.append(lookup.valid.count)
      part.intern(into: &table.pool, ids: &ids)
      for t in 0..<32 where part.typesSeen & (1 << UInt32(t)) != 0 && typeIDs[t].isAbsent {
        typeIDs[t] = table.pool.intern((PhoneNumberType(rawValue: UInt8(t)) ?? .unknown).description)
      }
      let regionOfSlot = part.regionList.map { r in
        if r == 0 { return StringID.absent }
        if let id = regionIDs[r] { return id }
        let id = table.pool.intern(RegionCode(rawValue: r).description)
        regionIDs[r] = id
        return id
      }
      for n in 0..<part.types.count {
        for f in 0..<slots { lookup.values.append(ids[n * slots + f]) }
        lookup.values.append(typeIDs[Int(part.types[n] & 31)])
        lookup.values.append(regionOfSlot[Int(part.regionSlots[n])])
        lookup.valid.append(part.types[n] != PhoneNumberType.unknown.rawValue)
      }
    }
    for (p, keys) in keyParts.enumerated() {
      lookup.keyBase.append(lookup.numberOfKey.count)
      let codes = numberOfKey[p]
      for k in 0..<keys.count {
        let code = codes[k]
        lookup.numberOfKey.append(
          code == PhonePass.unparsed
            ? UInt32.max : UInt32(truncatingIfNeeded: numberBase[Int(code & 0xFF)] + Int(truncatingIfNeeded: code >> 8)))
      }
    }

    PhaseTrace.mark("phones.interned")
    let filled = lookup
    // 4. Every field takes its number's values, in parallel over field ranges.
    let output = PhonePass.Output(fieldCount: fieldCount, formatCount: slots, details: details)
    let unparsable = PhonePass.parallel(PhonePass.chunkCount(fieldCount)) { c in
      output.fill(PhonePass.chunkRange(c, fieldCount), partOfField: partOfField, keyOfField: keyOfField, lookup: filled)
    }.reduce(0, +)
    PhaseTrace.mark("phones.filled")

    // The columns leave their shared buffers as arrays, copied on all cores.
    let stringBuffers = output.formats + [output.type, output.region].compactMap { $0 }
    let strings = PhonePass.parallel(stringBuffers.count) { stringBuffers[$0].array() }
    for (f, format) in formats.enumerated() {
      table.setFieldColumn(Self.columnName(format), .string(strings[f]))
    }
    if extensions { table.setFieldColumn(Self.extensionColumn, .string(strings[formats.count])) }
    if let knownWords = output.known, let validWords = output.valid, strings.count == slots + 2 {
      let known = Bitmap(words: knownWords.array(), count: fieldCount)
      table.setFieldColumn(Self.valid, .bool(Bitmap(words: validWords.array(), count: fieldCount), valid: known))
      table.setFieldColumn(Self.type, .string(strings[slots]))
      table.setFieldColumn(Self.region, .string(strings[slots + 1]))
    }
    if unparsable > 0 { context.count(Self.unparsableCounter, unparsable) }
    PhaseTrace.mark("phones.columns")
    var out = frame
    out.table = table
    return out
  }

  /// Per-contact regions from `regionColumn`, or nil when every contact uses the default.
  private func contactRegions(_ table: ContactTable) -> [RegionCode]? {
    guard let name = regionColumn, case .string(let ids)? = table.annotations[column: name] else { return nil }
    // One region per distinct id (0 = not read yet; a region is never 0).
    var cache = [UInt32](repeating: 0, count: table.pool.count)
    return ids.map { id in
      if id.isAbsent || id.index >= cache.count { return defaultRegion }
      let known = cache[id.index]
      if known != 0 { return RegionCode(rawValue: known) }
      let r = table.pool.withBytes(of: id) { RegionCode(utf8: $0) } ?? defaultRegion
      cache[id.index] = r.rawValue
      return r
    }
  }
}

