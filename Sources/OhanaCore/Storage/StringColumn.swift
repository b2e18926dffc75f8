/// A column of ``StringID``s stored in as few bytes a cell as its values need.
///
/// A contact list is mostly columns that repeat a few values (field labels,
/// parameters, groups, countries, attributes most contacts leave empty) next
/// to a few that hardly repeat (uids, phone numbers, streets). Four bytes a
/// cell for all of them was 165 MB of a million-card store; coded, the same
/// columns take about a third of that.
///
/// ### Encodings
/// - **Coded**: each cell holds a code into ``dictionary`` (code 0 is
///   ``StringID/absent``): 0 bytes a cell while the column holds no value, 1
///   byte for up to 255 distinct values, 2 bytes for up to 65,535.
/// - **Plain**: each cell holds the id itself, in as many bytes as the
///   largest id needs (3 bytes below 2^24 ids, else 4).
///
/// The encoding follows the values. Appending a 256th distinct value widens
/// the codes to 2 bytes, a 65,536th makes the column plain, and a plain
/// column widens at the first id that does not fit. Each change rewrites the
/// column once (amortized O(1) an append, like an array's growth). A column
/// built from ids at once (``init(_:)``) starts in the smaller encoding.
///
/// ### Equality and performance
/// Reads see ids, whatever the encoding: two columns are equal when they
/// hold the same ids in the same order. Reading a cell is a switch on the
/// width, a load and, when coded, one lookup in a small array.
/// ``gathering(_:)`` keeps the encoding and shares the dictionary.
public struct StringColumn: Sendable {
  /// The cells, little-endian, ``width`` bytes each (`count * width` bytes).
  @usableFromInline var bytes: [UInt8]
  /// Bytes a cell: 0 ... 4.
  @usableFromInline var width: Int
  /// Whether cells are codes into ``dictionary`` (else ids).
  @usableFromInline var isCoded: Bool
  /// Code -> id when coded; code 0 is absent and no other code is. Empty
  /// when plain.
  @usableFromInline var dictionary: [StringID]
  /// Id -> code when coded, for appends; empty until the first append
  /// needs it (a column built at once or mapped has none yet).
  var codes: CodeTable
  /// The number of cells.
  public private(set) var count: Int

  /// Most distinct values a coded column holds before it turns plain.
  static let maxCodes = 65_535

  /// An empty column.
  public init() {
    bytes = []
    width = 0
    isCoded = true
    dictionary = [.absent]
    codes = CodeTable()
    count = 0
  }

  /// `count` cells of `id`.
  public init(repeating id: StringID, count: Int) {
    self.init()
    if id.isPresent { _ = encode(id) }
    let n = Swift.max(0, count)
    let v = isCoded ? UInt32(dictionary.count - 1) : id.rawValue
    storeRepeated(v, n)
  }

  /// The ids of `ids`, in the smaller of the two encodings.
  public init<C: Collection>(_ ids: C) where C.Element == StringID {
    self.init()
    var distinct = CodeTable()
    var maxID: UInt32 = 0
    var dictionary: [StringID] = [.absent]
    for id in ids {
      maxID = Swift.max(maxID, id.rawValue)
      if id.isPresent && dictionary.count <= Self.maxCodes && distinct.find(id.rawValue) == nil {
        distinct.insert(id.rawValue, code: UInt32(dictionary.count))
        dictionary.append(id)
      }
    }
    let plainWidth = Swift.max(1, Self.bytesNeeded(maxID))
    if dictionary.count <= Self.maxCodes, Self.bytesNeeded(UInt32(dictionary.count - 1)) < plainWidth {
      self.dictionary = dictionary
      self.codes = distinct
      width = Self.bytesNeeded(UInt32(dictionary.count - 1))
      bytes.reserveCapacity(ids.count * width)
      for id in ids { store(id.isPresent ? distinct.find(id.rawValue) ?? 0 : 0) }
    } else {
      isCoded = false
      self.dictionary = []
      width = plainWidth
      bytes.reserveCapacity(ids.count * width)
      for id in ids { store(id.rawValue) }
    }
  }

  /// The ids of `ids`, like the generic initializer: the array case,
  /// specialized here for callers in other modules.
  public init(_ ids: [StringID]) {
    self.init(ids[...])
  }

  /// The bytes a value up to `v` needs (0 for 0).
  @inlinable
  static func bytesNeeded(_ v: UInt32) -> Int { (32 - v.leadingZeroBitCount + 7) >> 3 }

  // MARK: Reading

  /// The stored value (code or id) of cell `i`, unchecked.
  @inlinable @inline(__always)
  func stored(_ i: Int) -> UInt32 {
    bytes.withUnsafeBytes { b in
      switch width {
      case 0: return 0
      case 1: return UInt32(b[i])
      case 2: return UInt32(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
      case 3:
        let o = i &* 3
        return UInt32(b[o]) | UInt32(b[o &+ 1]) << 8 | UInt32(b[o &+ 2]) << 16
      default: return UInt32(littleEndian: b.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
      }
    }
  }

  /// The id of cell `i`. - Precondition: `0 <= i < count`.
  @inlinable @inline(__always)
  public subscript(i: Int) -> StringID {
    precondition(i >= 0 && i < count, "StringColumn index out of range")
    let s = stored(i)
    return isCoded ? dictionary[Int(s)] : StringID(rawValue: s)
  }

  /// Calls `body` with a reader of the cells for a hot loop: the ids the
  /// subscript gives, without its bounds check or array accesses. The
  /// reader is valid only inside `body`.
  @inlinable
  public func withUnsafeReader<R>(_ body: (UnsafeReader) throws -> R) rethrows -> R {
    try bytes.withUnsafeBytes { b in
      try dictionary.withUnsafeBufferPointer { d in
        try body(UnsafeReader(base: b.baseAddress, width: width, dictionary: isCoded ? d.baseAddress : nil, count: count))
      }
    }
  }

  /// The cells of a column, read through pointers (see ``withUnsafeReader(_:)``).
  @frozen
  public struct UnsafeReader {
    @usableFromInline let base: UnsafeRawPointer?
    @usableFromInline let width: Int
    @usableFromInline let dictionary: UnsafePointer<StringID>?
    public let count: Int

    @inlinable
    init(base: UnsafeRawPointer?, width: Int, dictionary: UnsafePointer<StringID>?, count: Int) {
      self.base = base
      self.width = width
      self.dictionary = dictionary
      self.count = count
    }

    /// The id of cell `i` (checked in debug builds only).
    @inlinable
    public subscript(i: Int) -> StringID {
      let s = stored(i)
      if let dictionary { return dictionary[Int(s)] }
      return StringID(rawValue: s)
    }

    /// What cell `i` stores: a code when the column is coded, else the id.
    /// Equal cells store equal values, so a pass can key a cache on it
    /// (codes are small: a 256-entry cache keyed on them never misses for a
    /// column of few values).
    @inlinable
    public func stored(_ i: Int) -> UInt32 {
      assert(i >= 0 && i < count, "StringColumn.UnsafeReader index out of range")
      let s: UInt32
      switch width {
      case 0: s = 0
      case 1: s = UInt32(base.unsafelyUnwrapped.load(fromByteOffset: i, as: UInt8.self))
      case 2: s = UInt32(UInt16(littleEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
      case 3:
        let p = base.unsafelyUnwrapped + i &* 3
        s = UInt32(p.load(as: UInt8.self)) | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8
          | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
      default: s = UInt32(littleEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
      }
      return s
    }

    /// Whether cell `i` holds a value (not absent): its stored value is not
    /// 0 (only code 0 stands for absent; no lookup needed).
    @inlinable
    public func isPresent(_ i: Int) -> Bool { stored(i) != 0 }
  }

  /// Bytes a cell in the current encoding (0 ... 4).
  public var bytesPerCell: Int { width }
  /// Whether cells are dictionary codes.
  public var isDictionaryCoded: Bool { isCoded }

  /// Approximate heap bytes held.
  public var memoryFootprint: Int { bytes.capacity + dictionary.capacity * 4 + codes.memoryFootprint }

  // MARK: Building

  /// The value to store for `id` in the current encoding, after changing
  /// the encoding when `id` does not fit it.
  mutating func encode(_ id: StringID) -> UInt32 {
    if !isCoded {
      if Self.bytesNeeded(id.rawValue) > width { reencode(coded: false, width: Self.bytesNeeded(id.rawValue)) }
      return id.rawValue
    }
    if id.isAbsent { return 0 }
    if codes.isEmpty && dictionary.count > 1 { rebuildCodes() }
    if let c = codes.find(id.rawValue) { return c }
    let code = dictionary.count
    if code > Self.maxCodes {
      // Too many values to code: plain, wide enough for every id so far.
      var maxID = id.rawValue
      for d in dictionary { maxID = Swift.max(maxID, d.rawValue) }
      reencode(coded: false, width: Swift.max(1, Self.bytesNeeded(maxID)))
      return id.rawValue
    }
    dictionary.append(id)
    codes.insert(id.rawValue, code: UInt32(code))
    if Self.bytesNeeded(UInt32(code)) > width { reencode(coded: true, width: Self.bytesNeeded(UInt32(code))) }
    return UInt32(code)
  }

  /// Fills ``codes`` from the dictionary (first code of a value wins).
  private mutating func rebuildCodes() {
    for (c, d) in dictionary.enumerated().dropFirst() where codes.find(d.rawValue) == nil {
      codes.insert(d.rawValue, code: UInt32(c))
    }
  }

  /// Rewrites every cell in a new encoding (`coded` true keeps the
  /// dictionary and only widens; false turns codes into ids).
  mutating func reencode(coded: Bool, width newWidth: Int) {
    var new = StringColumn()
    new.isCoded = coded
    new.width = newWidth
    new.dictionary = coded ? dictionary : []
    new.codes = coded ? codes : CodeTable()
    new.bytes.reserveCapacity(Swift.max(bytes.capacity / Swift.max(width, 1), count) * newWidth)
    for i in 0..<count {
      let s = stored(i)
      new.store(isCoded && !coded ? dictionary[Int(s)].rawValue : s)
    }
    self = new
  }

  /// Appends a stored value (which fits ``width``).
  @inline(__always)
  mutating func store(_ v: UInt32) {
    switch width {
    case 0: break
    case 1: bytes.append(UInt8(truncatingIfNeeded: v))
    case 2:
      bytes.append(UInt8(truncatingIfNeeded: v))
      bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    case 3:
      bytes.append(UInt8(truncatingIfNeeded: v))
      bytes.append(UInt8(truncatingIfNeeded: v >> 8))
      bytes.append(UInt8(truncatingIfNeeded: v >> 16))
    default:
      bytes.append(UInt8(truncatingIfNeeded: v))
      bytes.append(UInt8(truncatingIfNeeded: v >> 8))
      bytes.append(UInt8(truncatingIfNeeded: v >> 16))
      bytes.append(UInt8(truncatingIfNeeded: v >> 24))
    }
    count += 1
  }

  mutating func storeRepeated(_ v: UInt32, _ n: Int) {
    guard n > 0 else { return }
    if width > 0 {
      bytes.reserveCapacity(bytes.count + n * width)
      for _ in 0..<n { store(v) }
    } else {
      count += n
    }
  }

  /// Appends `id`.
  public mutating func append(_ id: StringID) {
    store(encode(id))
  }

  /// Appends every id of `ids`.
  public mutating func append<S: Sequence>(contentsOf ids: S) where S.Element == StringID {
    for id in ids { append(id) }
  }

  /// Appends every cell of `other`, each id `i` replaced by `map(i)`:
  /// when `other` is coded, each of its values is mapped and encoded once,
  /// not once a cell.
  package mutating func append(contentsOf other: StringColumn, mappedBy map: (StringID) -> StringID) {
    let n = other.count
    guard n > 0 else { return }
    if other.isCoded {
      var translated: [UInt32] = []
      var before = (isCoded, width)
      repeat {
        // Encoding every value first can change this column's encoding
        // (and so the earlier values' stored form): repeat until it holds.
        before = (isCoded, width)
        if isCoded {
          translated = other.dictionary.map { encode(map($0)) }
        } else {
          translated = other.dictionary.map { map($0).rawValue }
          let maxID = translated.max() ?? 0
          if Self.bytesNeeded(maxID) > width { reencode(coded: false, width: Self.bytesNeeded(maxID)) }
        }
      } while before != (isCoded, width)
      let values = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
      defer { values.deallocate() }
      other.copyStored(into: values)
      translated.withUnsafeBufferPointer { t in
        for k in 0..<n { values[k] = t[Int(values[k])] }
      }
      appendStored(UnsafeBufferPointer(start: values, count: n))
    } else if !isCoded {
      let values = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
      defer { values.deallocate() }
      other.copyStored(into: values)
      var maxID: UInt32 = 0
      for k in 0..<n {
        values[k] = map(StringID(rawValue: values[k])).rawValue
        maxID = Swift.max(maxID, values[k])
      }
      if Self.bytesNeeded(maxID) > width { reencode(coded: false, width: Self.bytesNeeded(maxID)) }
      appendStored(UnsafeBufferPointer(start: values, count: n))
    } else {
      for i in 0..<n { store(encode(map(StringID(rawValue: other.stored(i))))) }
    }
  }

  /// Writes the stored value (code or id) of every cell to `out`, which
  /// has room for ``count`` values.
  func copyStored(into out: UnsafeMutablePointer<UInt32>) {
    copyStored(0..<count, into: out)
  }

  /// Writes the stored value (code or id, see
  /// ``UnsafeReader/stored(_:)``) of cells `range` to `out`, which has room
  /// for `range.count` values: one loop per cell width, for passes that
  /// read many cells of one column. - Precondition: `range` is within the
  /// column.
  package func copyStored(_ range: Range<Int>, into out: UnsafeMutablePointer<UInt32>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "StringColumn.copyStored: range out of bounds")
    let n = range.count
    bytes.withUnsafeBytes { b in
      guard let p0 = b.baseAddress, width > 0 else {
        out.initialize(repeating: 0, count: n)
        return
      }
      let p = p0 + range.lowerBound &* width
      switch width {
      case 1: for k in 0..<n { out[k] = UInt32(p.load(fromByteOffset: k, as: UInt8.self)) }
      case 2: for k in 0..<n { out[k] = UInt32(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* k, as: UInt16.self))) }
      case 3:
        for k in 0..<n {
          let q = p + 3 &* k
          out[k] = UInt32(UInt16(littleEndian: q.loadUnaligned(as: UInt16.self)))
            | UInt32(q.load(fromByteOffset: 2, as: UInt8.self)) << 16
        }
      default: for k in 0..<n { out[k] = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* k, as: UInt32.self)) }
      }
    }
  }

  /// Appends stored values, each of which fits ``width``.
  mutating func appendStored(_ values: UnsafeBufferPointer<UInt32>) {
    let n = values.count
    guard n > 0 else { return }
    let w = width
    if w > 0 && bytes.isEmpty && bytes.capacity < n * w {
      // A new column: no zero fill before the stores.
      bytes = [UInt8](unsafeUninitializedCapacity: n * w) { b, initialized in
        initialized = 0
        guard let d = UnsafeMutableRawPointer(b.baseAddress) else { return }
        Self.write(values, width: w, to: d)
        initialized = n * w
      }
    } else if w > 0 {
      let start = bytes.count
      bytes.append(contentsOf: repeatElement(0, count: n * w))
      bytes.withUnsafeMutableBytes { b in
        guard let base = b.baseAddress else { return }
        Self.write(values, width: w, to: base + start)
      }
    }
    count += n
  }

  /// Writes `values` at `width` bytes each to `d`.
  private static func write(_ values: UnsafeBufferPointer<UInt32>, width: Int, to d: UnsafeMutableRawPointer) {
    let n = values.count
    switch width {
    case 1: for k in 0..<n { d.storeBytes(of: UInt8(truncatingIfNeeded: values[k]), toByteOffset: k, as: UInt8.self) }
    case 2:
      for k in 0..<n {
        d.storeBytes(of: UInt16(truncatingIfNeeded: values[k]).littleEndian, toByteOffset: 2 &* k, as: UInt16.self)
      }
    case 3:
      for k in 0..<n {
        let v = values[k]
        d.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: 3 &* k, as: UInt16.self)
        d.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: 3 &* k &+ 2, as: UInt8.self)
      }
    default: for k in 0..<n { d.storeBytes(of: values[k].littleEndian, toByteOffset: 4 &* k, as: UInt32.self) }
    }
  }

  /// A column of the `count` ids `ids[0], ids[stride], ids[2 * stride], ...`,
  /// every one below `idLimit`, encoded through `scratch`: a map from id to
  /// code with room for `idLimit` entries, all zero before and after (no
  /// hashing; for a chunk's provisional ids, which are dense). A tie in
  /// size goes to coding, so that a merge maps each distinct value once.
  package init(
    count n: Int, ids: UnsafePointer<UInt32>, stride: Int = 1, idLimit: Int, scratch: inout [UInt32]
  ) {
    self.init()
    if scratch.count < idLimit { scratch.append(contentsOf: repeatElement(0, count: idLimit - scratch.count)) }
    var dictionary: [StringID] = [.absent]
    var maxID: UInt32 = 0
    let values = UnsafeMutablePointer<UInt32>.allocate(capacity: Swift.max(n, 1))
    defer { values.deallocate() }
    scratch.withUnsafeMutableBufferPointer { map in
      for k in 0..<n {
        let v = ids[k &* stride]
        values[k] = v
        maxID = Swift.max(maxID, v)
        if v != 0 && Int(v) < map.count && map[Int(v)] == 0 && dictionary.count <= Self.maxCodes {
          map[Int(v)] = UInt32(dictionary.count)
          dictionary.append(StringID(rawValue: v))
        }
      }
      let plainWidth = Swift.max(1, Self.bytesNeeded(maxID))
      let codedWidth = Self.bytesNeeded(UInt32(dictionary.count - 1))
      if dictionary.count <= Self.maxCodes && codedWidth <= plainWidth && Int(maxID) < map.count {
        self.dictionary = dictionary
        width = codedWidth
        for k in 0..<n { values[k] = map[Int(values[k])] }
      } else {
        isCoded = false
        self.dictionary = []
        width = plainWidth
      }
      for d in dictionary { map[d.index] = 0 }
    }
    appendStored(UnsafeBufferPointer(start: values, count: n))
  }

  /// Appends every cell of `other` (same pool).
  public mutating func append(contentsOf other: StringColumn) {
    append(contentsOf: other, mappedBy: { $0 })
  }

  /// Reserves room for `n` cells in the current encoding.
  public mutating func reserveCapacity(_ n: Int) {
    bytes.reserveCapacity(n * width)
  }

  /// Drops the cells from `n` on (nothing when `n >= count`). The
  /// dictionary keeps its values.
  public mutating func truncate(to n: Int) {
    guard n >= 0 && n < count else { return }
    bytes.removeSubrange((n * width)...)
    count = n
  }

  // MARK: Whole-column operations

  /// Cells `rows[0], rows[1], ...` as a new column in the same encoding
  /// (sharing the dictionary). Rows must be valid indices.
  public func gathering(_ rows: [UInt32]) -> StringColumn {
    var out = self
    out.count = rows.count
    let w = width
    out.bytes = bytes.withUnsafeBytes { src in
      rows.withUnsafeBufferPointer { r in
        [UInt8](unsafeUninitializedCapacity: r.count * w) { dst, initialized in
          #if OHANA_INTERNAL_CHECKS
          for row in r { precondition(Int(row) < count, "gather: row out of range") }
          #endif
          guard let s = src.baseAddress, let d = UnsafeMutableRawPointer(dst.baseAddress), w > 0 else {
            initialized = 0
            return
          }
          switch w {
          case 1:
            for k in 0..<r.count { d.storeBytes(of: s.load(fromByteOffset: Int(r[k]), as: UInt8.self), toByteOffset: k, as: UInt8.self) }
          case 2:
            for k in 0..<r.count {
              d.storeBytes(of: s.loadUnaligned(fromByteOffset: 2 * Int(r[k]), as: UInt16.self), toByteOffset: 2 * k, as: UInt16.self)
            }
          case 4:
            for k in 0..<r.count {
              d.storeBytes(of: s.loadUnaligned(fromByteOffset: 4 * Int(r[k]), as: UInt32.self), toByteOffset: 4 * k, as: UInt32.self)
            }
          default:
            for k in 0..<r.count { (d + w * k).copyMemory(from: s + w * Int(r[k]), byteCount: w) }
          }
          initialized = r.count * w
        }
      }
    }
    return out
  }

  /// Every id `i` replaced by `map[i]` (ids past `map` become absent).
  /// A coded column maps its dictionary only, when `map` keeps distinct ids
  /// distinct (a remap between pools does).
  package func mapped(_ map: [StringID]) -> StringColumn {
    func m(_ id: StringID) -> StringID { id.index < map.count ? map[id.index] : .absent }
    if isCoded {
      var out = self
      out.dictionary = dictionary.map(m)
      var seen = CodeTable()
      var injective = true
      for (c, id) in out.dictionary.enumerated().dropFirst() {
        if id.isAbsent || seen.find(id.rawValue) != nil { injective = false; break }
        seen.insert(id.rawValue, code: UInt32(c))
      }
      out.codes = seen
      if injective { return out }
    }
    var out = StringColumn()
    out.append(contentsOf: self, mappedBy: m)
    return out
  }
}

extension StringColumn {
  /// Checks the encoding's invariants: `count * width` bytes; when coded,
  /// code 0 and only code 0 absent, every stored code in the dictionary and
  /// codes no wider than needed to be read; when plain, no code table.
  /// Compiled in with OHANA_INTERNAL_CHECKS (debug builds); a no-op otherwise.
  public func checkInvariants() {
    #if OHANA_INTERNAL_CHECKS
    precondition(width >= 0 && width <= 4, "StringColumn width")
    precondition(bytes.count == count * width, "StringColumn byte count")
    if isCoded {
      precondition(dictionary.first == .absent, "StringColumn: code 0 must be absent")
      precondition(!dictionary.dropFirst().contains(.absent), "StringColumn: only code 0 may be absent")
      precondition(width <= 2, "StringColumn: codes are at most 2 bytes")
      for i in 0..<count { precondition(Int(stored(i)) < dictionary.count, "StringColumn: code out of dictionary") }
    } else {
      precondition(dictionary.isEmpty && codes.isEmpty, "StringColumn: plain column with a dictionary")
    }
    #endif
  }
}

extension StringColumn: RandomAccessCollection {
  public typealias Index = Int
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { count }
}

extension StringColumn: Equatable {
  public static func == (a: StringColumn, b: StringColumn) -> Bool {
    a.count == b.count && a.elementsEqual(b)
  }
}

extension StringColumn: ExpressibleByArrayLiteral {
  public init(arrayLiteral ids: StringID...) { self.init(ids) }
}

extension StringColumn: CustomStringConvertible {
  public var description: String { Array(self).description }
}

/// Id -> code for a coded ``StringColumn``: open addressing over 64-bit
/// slots `id << 32 | code`, 0 = empty (id 0, absent, is never stored), at
/// most half full.
struct CodeTable: Sendable {
  private var slots: [UInt64] = []
  private var used = 0

  var memoryFootprint: Int { slots.capacity * 8 }
  var isEmpty: Bool { used == 0 }

  @inline(__always)
  private func home(_ id: UInt32, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(id) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  @inline(__always)
  func find(_ id: UInt32) -> UInt32? {
    guard !slots.isEmpty else { return nil }
    return slots.withUnsafeBufferPointer { s in
      let mask = s.count - 1
      var i = home(id, mask)
      while true {
        let e = s[i]
        if e == 0 { return nil }
        if UInt32(truncatingIfNeeded: e >> 32) == id { return UInt32(truncatingIfNeeded: e) }
        i = (i + 1) & mask
      }
    }
  }

  /// Inserts `id` (not present, not 0) with `code`.
  mutating func insert(_ id: UInt32, code: UInt32) {
    if (used + 1) * 2 > slots.count { grow() }
    let mask = slots.count - 1
    var i = home(id, mask)
    while slots[i] != 0 { i = (i + 1) & mask }
    slots[i] = UInt64(id) << 32 | UInt64(code)
    used += 1
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: Swift.max(8, old.count * 2))
    let mask = slots.count - 1
    for e in old where e != 0 {
      var i = home(UInt32(truncatingIfNeeded: e >> 32), mask)
      while slots[i] != 0 { i = (i + 1) & mask }
      slots[i] = e
    }
  }
}
