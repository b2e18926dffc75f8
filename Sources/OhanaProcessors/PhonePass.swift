import Dispatch
import OhanaCore
import OhanaPhone
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parallel steps of ``PhoneNumberFormatting``:
///
/// ```
///  fields ──(value, region) hash──▶ KeyPart p    distinct keys, parsed once each
///  keys   ──number hash──────────▶ NumberPart w  distinct numbers: classified, formatted,
///                                                 interned into the part's own StringPool
///  parts' pools ──internAll──────▶ table pool    (serial; no string hashed again)
///  fields ──ranges───────────────▶ Output        ids, type, region, valid bits
/// ```
///
/// Every step but the merge runs on all cores; the same number typed many
/// ways (or read in many regions) is formatted and interned once.
enum PhonePass {
  static let noPart: UInt8 = 0xFF
  static let unparsed = UInt64.max

  /// Parts per step: one per core (more would split equal numbers apart).
  static func partitionCount() -> Int {
    let n = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    return Swift.min(64, Swift.max(1, n))
  }

  /// Runs `body(0..<n)` on all cores and returns the results in order.
  static func parallel<R: Sendable>(_ n: Int, _ body: @Sendable (Int) -> R) -> [R] {
    if n == 1 { return [body(0)] }
    let slots = Mutex<[R?]>(Array(repeating: nil, count: n))
    DispatchQueue.concurrentPerform(iterations: n) { i in
      let r = body(i)
      slots.withLock { $0[i] = r }
    }
    return slots.withLock { $0.compactMap { $0 } }
  }

  /// Field ranges of the last step: multiples of 64 rows, so that chunks
  /// write disjoint bitmap words.
  static let chunkSize = 1 << 16
  static func chunkCount(_ fieldCount: Int) -> Int { Swift.max(1, (fieldCount + chunkSize - 1) / chunkSize) }
  static func chunkRange(_ c: Int, _ fieldCount: Int) -> Range<Int> {
    (c * chunkSize)..<Swift.min(fieldCount, (c + 1) * chunkSize)
  }

  /// What the parts read: the table's columns (shared, read-only).
  struct Input: Sendable {
    let pool: StringPool
    let kinds: [FieldKind]
    let values: [StringID]
    let fieldOffsets: [UInt32]
    let regionOfRow: [RegionCode]?
    let defaultRegion: RegionCode
    let parts: Int
  }

  /// Part `p` of the distinct (value id, region) keys, each parsed.
  struct KeyPart: Sendable {
    /// Per key: the parsed number's calling code, NSN value and NSN length
    /// (0 when the key did not parse), and the index of its extension in
    /// `extensions` (-1 when none).
    var countryCode: [UInt16] = []
    var nationalNumber: [UInt64] = []
    var length: [UInt8] = []
    var extensionIndex: [Int32] = []
    var extensions: [String] = []

    var count: Int { length.count }

    init(
      part p: Int, input: Input, engine: PhoneNumberEngine, partOfField: SharedBuffer<UInt8>,
      keyOfField: SharedBuffer<UInt32>
    ) {
      let parts = UInt64(input.parts)
      var index = PairIndex(capacity: input.pool.count / input.parts)
      var keyValue: [UInt32] = []
      var keyRegion: [RegionCode] = []
      let rows = input.fieldOffsets.count - 1
      for r in 0..<rows {
        let region = input.regionOfRow?[r] ?? input.defaultRegion
        for i in Int(input.fieldOffsets[r])..<Int(input.fieldOffsets[r + 1]) where input.kinds[i] == .phone {
          let value = input.values[i]
          guard value.isPresent else { continue }
          let a = UInt64(value.rawValue), b = UInt64(region.rawValue)
          let h = PairIndex.hash(a, b)
          guard (h >> 32) % parts == UInt64(p) else { continue }
          let (k, inserted) = index.index(a, b, hash: h)
          if inserted {
            keyValue.append(value.rawValue)
            keyRegion.append(region)
          }
          partOfField[i] = UInt8(truncatingIfNeeded: p)
          keyOfField[i] = UInt32(truncatingIfNeeded: k)
        }
      }
      let n = keyValue.count
      countryCode.reserveCapacity(n)
      nationalNumber.reserveCapacity(n)
      length.reserveCapacity(n)
      extensionIndex.reserveCapacity(n)
      for k in 0..<n {
        let parsed = input.pool.withBytes(of: StringID(rawValue: keyValue[k])) { raw in
          try? engine.parse(utf8: raw, defaultRegion: keyRegion[k])
        }
        guard let number = parsed, number.nationalNumberLength > 0 else {
          countryCode.append(0)
          nationalNumber.append(0)
          length.append(0)
          extensionIndex.append(-1)
          continue
        }
        countryCode.append(UInt16(truncatingIfNeeded: number.countryCode))
        nationalNumber.append(number.nationalNumber)
        length.append(UInt8(truncatingIfNeeded: number.nationalNumberLength))
        if let ext = number.numberExtension {
          extensionIndex.append(Int32(truncatingIfNeeded: extensions.count))
          extensions.append(ext)
        } else {
          extensionIndex.append(-1)
        }
      }
    }

    func number(_ k: Int) -> PhoneNumber {
      let e = Int(extensionIndex[k])
      return PhoneNumber(
        countryCode: Int(countryCode[k]), nationalNumber: nationalNumber[k], nationalNumberLength: Int(length[k]),
        numberExtension: e >= 0 ? extensions[e] : nil)
    }
  }

  /// Part `w` of the distinct parsed numbers: their formats as ids in the
  /// part's own pool, their type and region.
  struct NumberPart: Sendable {
    var pool = StringPool()
    /// `formatIDs[n * formatCount + f]`: number `n`'s format `f` in `pool`.
    var formatIDs: [StringID] = []
    var types: [UInt8] = []
    /// Index into `regionList` per number.
    var regionSlots: [UInt16] = []
    /// The distinct regions of the part's numbers (0 = none).
    var regionList: [UInt32] = []
    /// Bit `t` set when some number has type raw value `t`.
    var typesSeen: UInt32 = 0

    init(
      part w: Int, parts: Int, keyParts: [KeyPart], numberOfKey: [SharedBuffer<UInt64>], formats: [PhoneNumberFormat],
      engine: PhoneNumberEngine
    ) {
      var index = PairIndex(capacity: keyParts.reduce(0) { $0 + $1.count } / (2 * parts))
      var regionSlot: [UInt32: UInt16] = [:]
      var scratch: [UInt8] = []
      scratch.reserveCapacity(64)
      for (p, keys) in keyParts.enumerated() {
        let out = numberOfKey[p]
        for k in 0..<keys.count where keys.length[k] > 0 {
          let a = keys.nationalNumber[k]
          // Numbers with an extension are not merged (they are rare): their
          // key is unique to the (part, key).
          let b =
            keys.extensionIndex[k] < 0
            ? UInt64(keys.countryCode[k]) << 8 | UInt64(keys.length[k])
            : 1 << 63 | UInt64(p) << 32 | UInt64(k)
          let h = PairIndex.hash(a, b)
          guard (h >> 32) % UInt64(parts) == UInt64(w) else { continue }
          let (n, inserted) = index.index(a, b, hash: h)
          out[k] = UInt64(n) << 8 | UInt64(w)
          guard inserted else { continue }
          let number = keys.number(k)
          let (region, type) = engine.classify(number)
          for f in formats {
            scratch.removeAll(keepingCapacity: true)
            engine.format(number, as: f, appendingTo: &scratch)
            formatIDs.append(scratch.withUnsafeBytes { pool.intern($0) })
          }
          types.append(type.rawValue)
          typesSeen |= 1 << UInt32(type.rawValue & 31)
          let r = region?.rawValue ?? 0
          if let s = regionSlot[r] {
            regionSlots.append(s)
          } else {
            let s = UInt16(truncatingIfNeeded: regionList.count)
            regionSlot[r] = s
            regionList.append(r)
            regionSlots.append(s)
          }
        }
      }
    }
  }

  /// Everything the last step reads, in the table pool's ids.
  struct Lookup: Sendable {
    let keyParts: [KeyPart]
    let numberOfKey: [SharedBuffer<UInt64>]
    let numberParts: [NumberPart]
    let remaps: [[StringID]]
    let typeIDs: [StringID]
    let regionIDs: [[StringID]]
  }

  /// The derived columns, filled by disjoint field ranges.
  final class Output: Sendable {
    let formats: [SharedBuffer<StringID>]
    let type: SharedBuffer<StringID>
    let region: SharedBuffer<StringID>
    let valid: SharedBuffer<UInt64>
    let known: SharedBuffer<UInt64>

    init(fieldCount: Int, formatCount: Int) {
      formats = (0..<formatCount).map { _ in SharedBuffer(repeating: .absent, count: fieldCount) }
      type = SharedBuffer(repeating: .absent, count: fieldCount)
      region = SharedBuffer(repeating: .absent, count: fieldCount)
      valid = SharedBuffer(repeating: 0, count: (fieldCount + 63) >> 6)
      known = SharedBuffer(repeating: 0, count: (fieldCount + 63) >> 6)
    }

    /// Fills `range` (starting at a multiple of 64) and returns its count of unparsable phones.
    func fill(
      _ range: Range<Int>, partOfField: SharedBuffer<UInt8>, keyOfField: SharedBuffer<UInt32>, lookup: Lookup
    ) -> Int {
      var unparsable = 0
      let formatCount = formats.count
      for i in range {
        let p = partOfField[i]
        guard p != PhonePass.noPart else { continue }
        let code = lookup.numberOfKey[Int(p)][Int(keyOfField[i])]
        guard code != PhonePass.unparsed else {
          unparsable += 1
          continue
        }
        let w = Int(code & 0xFF)
        let n = Int(truncatingIfNeeded: code >> 8)
        let part = lookup.numberParts[w]
        let remap = lookup.remaps[w]
        for f in 0..<formatCount {
          formats[f][i] = remap[part.formatIDs[n * formatCount + f].index]
        }
        let t = part.types[n]
        type[i] = lookup.typeIDs[Int(t)]
        region[i] = lookup.regionIDs[w][Int(part.regionSlots[n])]
        let bit: UInt64 = 1 << UInt64(i & 63)
        known[i >> 6] |= bit
        if t != PhoneNumberType.unknown.rawValue { valid[i >> 6] |= bit }
      }
      return unparsable
    }
  }
}
