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
///  fields ──value id bits──▶ KeyPart p     distinct (value, region) keys, chained per
///                                          value; each parsed once (a region-free
///                                          parse serves every region of its value)
///  keys   ──number hash────▶ NumberPart w  distinct numbers: classified, formatted
///                                          (appendFormats), each string hashed
///  parts' strings ─────────▶ table pool    intern(_:hash:), serial: the one step on one core
///  fields ──ranges─────────▶ Output        ids, type, region, valid bits (every row written)
/// ```
///
/// The same number typed many ways (or read in many regions) is formatted
/// and interned once. Workers share the per-field arrays through
/// ``SharedBuffer`` (disjoint indices), and nothing else.
enum PhonePass {
  static let noPart: UInt8 = 0xFF
  static let unparsed = UInt64.max

  /// Parts per step: the largest power of two up to the number of cores
  /// (at most 64). More parts than cores would split equal numbers apart;
  /// a power of two lets a value id's part and its index inside the part
  /// be a mask and a shift, so the per-value tables of all parts together
  /// take one entry per pool id whatever the number of parts.
  static func partitionCount() -> Int {
    powerOfTwoParts(Workers.count)
  }

  /// `requested` clamped to 1...64 and rounded down to a power of two.
  static func powerOfTwoParts(_ requested: Int) -> Int {
    let n = Swift.min(64, Swift.max(1, requested))
    return 1 << (Int.bitWidth - 1 - n.leadingZeroBitCount)
  }

  /// Runs `body(0..<n)` on all cores and returns the results in order.
  static func parallel<R: Sendable>(_ n: Int, _ body: @Sendable (Int) -> R) -> [R] {
    Parallel.map(n, body)
  }

  /// The high 32 bits of `hash` mapped onto `0..<parts` with a multiply
  /// instead of a division (Lemire's range reduction).
  @inline(__always)
  static func reduce(_ hash: UInt64, _ parts: UInt64) -> Int {
    Int(truncatingIfNeeded: ((hash >> 32) &* parts) >> 32)
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
    let values: StringColumn
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
      // A value's keys as a chain of entries `region << 32 | key`
      // (`UInt64.max` ends it): `head[2 * value]` and `head[2 * value + 1]`
      // are the first two, side by side, and `link[key]` is the one after
      // `key` from the second on. One cache line answers the common case
      // (most values come with one or a few regions). A value with
      // `maxChain` keys sends further regions to `overflow`, so a lookup
      // never walks more than `maxChain` entries.
      let maxChain = 8
      // Value ids of this part are those with `id & mask == p`; `id >> shift`
      // indexes the per-value tables.
      let mask = input.parts - 1, shift = input.parts.trailingZeroBitCount
      let slots = (input.pool.count + mask) >> shift
      var head = [UInt64](repeating: .max, count: 2 * slots)
      var link: [UInt64] = []
      var chainLength = [UInt8](repeating: 0, count: slots)
      var overflow = PairIndex()
      var overflowKey: [Int32] = []
      var keyValue: [UInt32] = []
      var keyRegion: [RegionCode] = []
      let rows = input.fieldOffsets.count - 1
      input.kinds.withUnsafeBufferPointer { kinds in
        input.values.withUnsafeReader { values in
          for r in 0..<rows {
            let region = input.regionOfRow?[r] ?? input.defaultRegion
            let tag = UInt64(region.rawValue) << 32
            for i in Int(input.fieldOffsets[r])..<Int(input.fieldOffsets[r + 1]) where kinds[i] == .phone {
              let value = values[i]
              guard value.isPresent, value.index & mask == p else { continue }
              let v = value.index >> shift
              var e = head[2 &* v]
              if e != .max && e & 0xFFFF_FFFF_0000_0000 != tag {
                e = head[2 &* v &+ 1]
                while e != .max && e & 0xFFFF_FFFF_0000_0000 != tag { e = link[Int(e & 0xFFFF_FFFF)] }
              }
              let k: Int32
              if e != .max {
                k = Int32(truncatingIfNeeded: e & 0xFFFF_FFFF)
              } else if chainLength[v] < maxChain {
                k = Int32(truncatingIfNeeded: keyValue.count)
                let entry = tag | UInt64(UInt32(bitPattern: k))
                link.append(.max)
                if head[2 &* v] == .max {
                  head[2 &* v] = entry
                } else if head[2 &* v &+ 1] == .max {
                  head[2 &* v &+ 1] = entry
                } else {
                  // Third and later: right after the second.
                  let second = Int(head[2 &* v &+ 1] & 0xFFFF_FFFF)
                  link[Int(k)] = link[second]
                  link[second] = entry
                }
                chainLength[v] += 1
                keyValue.append(value.rawValue)
                keyRegion.append(region)
              } else {
                let (o, inserted) = overflow.index(UInt64(value.rawValue), UInt64(region.rawValue))
                if inserted {
                  overflowKey.append(Int32(truncatingIfNeeded: keyValue.count))
                  link.append(.max)
                  keyValue.append(value.rawValue)
                  keyRegion.append(region)
                }
                k = overflowKey[Int(o)]
              }
              partOfField[i] = UInt8(truncatingIfNeeded: p)
              keyOfField[i] = UInt32(bitPattern: k)
            }
          }
        }
      }
      let n = keyValue.count
      countryCode.reserveCapacity(n)
      nationalNumber.reserveCapacity(n)
      length.reserveCapacity(n)
      extensionIndex.reserveCapacity(n)
      // A value that parsed without its region (a plus and a known calling
      // code) parses the same in every region: its other keys copy the result.
      var regionFreeKey = [Int32](repeating: -1, count: slots)
      for k in 0..<n {
        let v = Int(keyValue[k]) >> shift
        let same = Int(regionFreeKey[v])
        if same >= 0 {
          countryCode.append(countryCode[same])
          nationalNumber.append(nationalNumber[same])
          length.append(length[same])
          extensionIndex.append(extensionIndex[same])
          continue
        }
        var regionFree = false
        let parsed = input.pool.withBytes(of: StringID(rawValue: keyValue[k])) { raw in
          try? engine.parse(utf8: raw, defaultRegion: keyRegion[k], regionFree: &regionFree)
        }
        if parsed != nil && regionFree { regionFreeKey[v] = Int32(truncatingIfNeeded: k) }
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
    /// Number `n`'s format `f` is string `n * slots + f` (slots: the
    /// formats, then with `extensions` the extension, empty for none): the bytes
    /// `text[ends[i - 1] ..< ends[i]]` (`ends[-1]` = 0), with their
    /// ``StringPool/hash(_:)`` in `hashes[i]`, computed here in parallel.
    var text: [UInt8] = []
    var ends: [Int] = []
    var hashes: [UInt32] = []
    var types: [UInt8] = []
    /// Index into `regionList` per number.
    var regionSlots: [UInt16] = []
    /// The distinct regions of the part's numbers (0 = none).
    var regionList: [UInt32] = []
    /// Bit `t` set when some number has type raw value `t`.
    var typesSeen: UInt32 = 0

    init(
      part w: Int, parts: Int, keyParts: [KeyPart], numberOfKey: [SharedBuffer<UInt64>], formats: [PhoneNumberFormat],
      extensions: Bool = false, engine: PhoneNumberEngine
    ) {
      let expected = keyParts.reduce(0) { $0 + $1.count } / (2 * parts)
      var index = PairIndex(capacity: expected)
      ends.reserveCapacity(expected * formats.count)
      hashes.reserveCapacity(expected * formats.count)
      text.reserveCapacity(expected * formats.count * 16)
      var regionSlot: [UInt32: UInt16] = [:]
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
          guard PhonePass.reduce(h, UInt64(parts)) == w else { continue }
          let (n, inserted) = index.index(a, b, hash: h)
          out[k] = UInt64(n) << 8 | UInt64(w)
          guard inserted else { continue }
          let number = keys.number(k)
          let (region, type) = engine.classify(number)
          var start = text.count
          let first = ends.count
          engine.appendFormats(number, formats, to: &text, ends: &ends)
          if extensions {
            if let e = number.numberExtension { text.append(contentsOf: e.utf8) }
            ends.append(text.count)
          }
          text.withUnsafeBytes { bytes in
            for i in first..<ends.count {
              hashes.append(StringPool.hash(UnsafeRawBufferPointer(rebasing: bytes[start..<ends[i]])))
              start = ends[i]
            }
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

  /// Everything the last step reads, flat and in the table pool's ids.
  struct Lookup: Sendable {
    /// Where part `p`'s keys start in `numberOfKey`.
    var keyBase: [Int] = []
    /// The number of each key (over all parts), `UInt32.max` when it did not parse.
    var numberOfKey: [UInt32] = []
    /// `values[n * stride ..< n * stride + stride]`: number `n`'s formats, type and region.
    var values: [StringID] = []
    var stride = 0
    var valid: [Bool] = []
  }

  /// The derived columns, filled by disjoint field ranges.
  final class Output: Sendable {
    let formats: [SharedBuffer<StringID>]
    /// The type, region and validity columns (nil when not asked for).
    let type: SharedBuffer<StringID>?
    let region: SharedBuffer<StringID>?
    let valid: SharedBuffer<UInt64>?
    let known: SharedBuffer<UInt64>?

    init(fieldCount: Int, formatCount: Int, details: Bool) {
      // Every row is written by `fill` (the chunks cover all rows), so the
      // string columns start uninitialized: no serial pass over them.
      formats = (0..<formatCount).map { _ in SharedBuffer(uninitializedCount: fieldCount) }
      type = details ? SharedBuffer(uninitializedCount: fieldCount) : nil
      region = details ? SharedBuffer(uninitializedCount: fieldCount) : nil
      valid = details ? SharedBuffer(repeating: 0, count: (fieldCount + 63) >> 6) : nil
      known = details ? SharedBuffer(repeating: 0, count: (fieldCount + 63) >> 6) : nil
    }

    /// Fills every row of `range` (starting at a multiple of 64) and returns
    /// its count of unparsable phones.
    func fill(
      _ range: Range<Int>, partOfField: SharedBuffer<UInt8>, keyOfField: SharedBuffer<UInt32>, lookup: Lookup
    ) -> Int {
      var unparsable = 0
      let formatCount = formats.count
      let stride = lookup.stride
      lookup.keyBase.withUnsafeBufferPointer { keyBase in
        lookup.numberOfKey.withUnsafeBufferPointer { numberOfKey in
          lookup.values.withUnsafeBufferPointer { values in
            lookup.valid.withUnsafeBufferPointer { valid in
              for i in range {
                let p = partOfField[i]
                let n = p == PhonePass.noPart ? UInt32.max : numberOfKey[keyBase[Int(p)] + Int(keyOfField[i])]
                guard n != UInt32.max else {
                  if p != PhonePass.noPart { unparsable += 1 }
                  for f in 0..<formatCount { formats[f][i] = .absent }
                  type?[i] = .absent
                  region?[i] = .absent
                  continue
                }
                let base = Int(n) * stride
                for f in 0..<formatCount { formats[f][i] = values[base + f] }
                guard let type, let region, let known, let validOut = self.valid else { continue }
                type[i] = values[base + formatCount]
                region[i] = values[base + formatCount + 1]
                let bit: UInt64 = 1 << UInt64(i & 63)
                known[i >> 6] |= bit
                if valid[Int(n)] { validOut[i >> 6] |= bit }
              }
            }
          }
        }
      }
      return unparsable
    }
  }
}

extension PhonePass.NumberPart {
  /// Interns the part's strings into `pool` with their known hashes; `ids`
  /// gets one id per string (cleared first).
  func intern(into pool: inout StringPool, ids: inout [StringID]) {
    ids.removeAll(keepingCapacity: true)
    ids.reserveCapacity(ends.count)
    pool.reserve(additional: ends.count, bytes: text.count)
    text.withUnsafeBytes { bytes in
      var start = 0
      for (i, end) in ends.enumerated() {
        // An empty string is no value (a number without an extension).
        ids.append(end == start ? .absent : pool.intern(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), hash: hashes[i]))
        start = end
      }
    }
  }
}
