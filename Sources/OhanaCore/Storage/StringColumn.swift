/// A column of ``StringID``s stored in as few bytes a cell as its values need.
///
/// A contact list is mostly columns that repeat a few values (field labels,
/// parameters, groups, countries, attributes most contacts leave empty) next
/// to a few that hardly repeat (uids, phone numbers, streets). Coded (below),
/// a column of few values takes one byte a cell or less, where a plain
/// `[StringID]` takes four.
///
/// ### Encodings
/// A cell's stored value is one of two encodings:
/// - **Coded**: each cell holds a code into ``dictionary`` (code 0 is
///   ``StringID/absent``): 0 bytes a cell while the column holds no value, 1
///   byte for up to 255 distinct values, 2 bytes for up to 65,535.
/// - **Plain**: each cell holds the id itself, in as many bytes as the
///   largest id needs (3 bytes below 2^24 ids, else 4).
///
/// and the cells are laid out in one of two forms:
/// - **Dense**: one cell a row.
/// - **Sparse**: one cell a present row, plus a ``Presence`` directory of
///   12 bytes per 64 rows (a 64-bit mask of the rows that hold a value and
///   the count of present rows before the block). An absent row costs 1.5
///   bits; a present one its cell plus 1.5 bits.
///
/// ```
/// dense   rows  | c0 | c1 | c2 | c3 | c4 | ... |      one cell a row
/// sparse  masks | 0b0010_0101 ... (64 rows) | rank |  one block a 64 rows
///         cells | c0 | c2 | c5 | ...                 present rows only
/// ```
///
/// The encoding follows the values. Appending a 256th distinct value widens
/// the codes to 2 bytes, a 65,536th makes the column plain, and a plain
/// column widens at the first id that does not fit. Each change rewrites the
/// column once (amortized O(1) an append, like an array's growth). A column
/// built from ids at once (``init(_:)``) starts in the smaller encoding.
///
/// The form follows the share of present rows. With `n` rows, `p` present
/// and `w` bytes a cell, dense takes `n * w` bytes and sparse
/// `p * w + 12 * ceil(n / 64)`. A column is built sparse (from ids, by the
/// chunk encoder, by ``gathering(_:)``) when that is at most 7/8 of dense,
/// and a sparse column turns dense only when sparse would be more than
/// 15/16 of dense: for 1-byte cells, sparse up to 68.75% present and dense
/// again past 75% (2-byte cells: 78% and 84%). An empty column, and one
/// whose cells take 0 bytes, is dense. The rule is applied, with that
/// hysteresis, whenever the column is rebuilt or grows in bulk: after an
/// appended column, at a change of encoding, and every 64 single appends;
/// between two changes of form the column grows by a fixed share of
/// itself, so the rewrites are amortized O(1) a row. ``truncate(to:)``
/// keeps the form.
///
/// ### Equality and performance
/// Reads see ids, whatever the encoding and form: two columns are equal
/// when they hold the same ids in the same order. Reading a dense cell is a
/// switch on the width, a load and, when coded, one lookup in a small
/// array; a sparse cell adds one test of its bit (an absent row ends
/// there) and, when present, a popcount of the bits before it.
/// ``gathering(_:)`` keeps the encoding and shares the dictionary.
public struct StringColumn: Sendable {
  /// The stored cells, little-endian, ``width`` bytes each: one a row when
  /// dense (`count * width` bytes), one a present row when sparse
  /// (`presentCount * width` bytes).
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
  /// The number of cells (rows).
  public internal(set) var count: Int
  /// The number of cells that hold a value (not absent).
  public internal(set) var presentCount: Int
  /// Which rows hold a value when the column is sparse; nil when dense.
  @usableFromInline var presence: Presence?

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
    presentCount = 0
    presence = nil
  }

  /// `count` cells of `id`.
  public init(repeating id: StringID, count: Int) {
    self.init()
    if id.isPresent { _ = encode(id) }
    let n = Swift.max(0, count)
    let v = isCoded ? UInt32(dictionary.count - 1) : id.rawValue
    storeRepeated(v, n)
  }

  /// The ids of `ids`, in the smaller of the two encodings, sparse or
  /// dense by the rule in "Encodings".
  public init<C: Collection>(_ ids: C) where C.Element == StringID {
    self.init()
    var distinct = CodeTable()
    var maxID: UInt32 = 0
    var present = 0
    var dictionary: [StringID] = [.absent]
    for id in ids {
      maxID = Swift.max(maxID, id.rawValue)
      if id.isPresent {
        present += 1
        if dictionary.count <= Self.maxCodes && distinct.find(id.rawValue) == nil {
          distinct.insert(id.rawValue, code: UInt32(dictionary.count))
          dictionary.append(id)
        }
      }
    }
    let n = ids.count
    let plainWidth = Swift.max(1, Self.bytesNeeded(maxID))
    if dictionary.count <= Self.maxCodes, Self.bytesNeeded(UInt32(dictionary.count - 1)) < plainWidth {
      self.dictionary = dictionary
      self.codes = distinct
      width = Self.bytesNeeded(UInt32(dictionary.count - 1))
      if Self.prefersSparse(count: n, present: present, width: width, isSparse: false) { presence = Presence() }
      reserveCells(rows: n, present: present)
      for id in ids { store(id.isPresent ? distinct.find(id.rawValue) ?? 0 : 0) }
    } else {
      isCoded = false
      self.dictionary = []
      width = plainWidth
      if Self.prefersSparse(count: n, present: present, width: width, isSparse: false) { presence = Presence() }
      reserveCells(rows: n, present: present)
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

  /// Whether the column is rewritten sparse or dense, given `count` rows,
  /// `present` of them set, cells of `width` bytes and its current form
  /// (see "Encodings": sparse at most 7/8 of dense to turn sparse, more
  /// than 15/16 to turn back).
  static func prefersSparse(count: Int, present: Int, width: Int, isSparse: Bool) -> Bool {
    guard count > 0, width > 0 else { return false }
    let dense = count * width
    let sparse = present * width + Presence.blocks(count) * Presence.stride * 4
    return isSparse ? sparse * 16 <= dense * 15 : sparse * 8 <= dense * 7
  }

  /// Stored cell `k` (a row's when dense, the `k`th present row's when
  /// sparse), unchecked.
  @inlinable @inline(__always)
  func cell(_ k: Int) -> UInt32 {
    bytes.withUnsafeBytes { b in
      switch width {
      case 0: return 0
      case 1: return UInt32(b[k])
      case 2: return UInt32(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: k &* 2, as: UInt16.self)))
      case 3:
        let o = k &* 3
        return UInt32(b[o]) | UInt32(b[o &+ 1]) << 8 | UInt32(b[o &+ 2]) << 16
      default: return UInt32(littleEndian: b.loadUnaligned(fromByteOffset: k &* 4, as: UInt32.self))
      }
    }
  }

  /// The stored value (code or id; 0 when absent) of row `i`, unchecked.
  @inlinable @inline(__always)
  func stored(_ i: Int) -> UInt32 {
    guard let presence else { return cell(i) }
    let (present, k) = presence.lookup(i)
    return present ? cell(k) : 0
  }

  /// Stored cells: `count` when dense, `presentCount` when sparse.
  var cellCount: Int { presence == nil ? count : presentCount }

  /// Whether the column is sparse (see "Encodings").
  public var isSparse: Bool { presence != nil }

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
        // No cells, no loads (width 0).
        let w = b.isEmpty ? 0 : width
        let dict = isCoded ? d.baseAddress : nil
        guard let presence else {
          return try body(UnsafeReader(base: b.baseAddress, width: w, dictionary: dict, blocks: nil, count: count))
        }
        return try presence.words.withUnsafeBytes { p in
          // A sparse column of 0 rows has no blocks: read as dense.
          try body(UnsafeReader(base: b.baseAddress, width: w, dictionary: dict, blocks: p.baseAddress, count: count))
        }
      }
    }
  }

  /// The cells of a column, read through pointers (see ``withUnsafeReader(_:)``).
  @frozen
  public struct UnsafeReader {
    @usableFromInline let base: UnsafeRawPointer?
    @usableFromInline let width: Int
    @usableFromInline let dictionary: UnsafePointer<StringID>?
    /// The presence blocks (see ``StringColumn/Presence``) when the column
    /// is sparse, else nil.
    @usableFromInline let blocks: UnsafeRawPointer?
    public let count: Int

    @inlinable
    init(
      base: UnsafeRawPointer?, width: Int, dictionary: UnsafePointer<StringID>?, blocks: UnsafeRawPointer?, count: Int
    ) {
      self.base = base
      self.width = width
      self.dictionary = dictionary
      self.blocks = blocks
      self.count = count
    }

    /// The id of cell `i` (checked in debug builds only).
    @inlinable
    public subscript(i: Int) -> StringID {
      let s = stored(i)
      if let dictionary { return dictionary[Int(s)] }
      return StringID(rawValue: s)
    }

    /// What cell `i` stores: a code when the column is coded, else the id;
    /// 0 exactly when absent. Equal cells store equal values, so a pass can
    /// key a cache on it (codes are small: a 256-entry cache keyed on them
    /// never misses for a column of few values).
    @inlinable
    public func stored(_ i: Int) -> UInt32 {
      assert(i >= 0 && i < count, "StringColumn.UnsafeReader index out of range")
      guard let blocks else { return cell(i) }
      // Sparse: 0 when the row's bit is clear (one load, one test: most
      // rows of a sparse column), else cell number `rank`. (Not a masked
      // load of cell 0 instead of the branch: that computes the rank for
      // every row, and without a popcount instruction in the baseline
      // x86-64 target the rank is a dozen instructions.)
      let p: UnsafeRawPointer = blocks + (i >> 6) &* 12
      let half: UInt32 = p.load(fromByteOffset: ((i >> 5) & 1) &* 4, as: UInt32.self)
      if (half &>> UInt32(i & 31)) & 1 == 0 { return 0 }
      let m = UInt64(p.load(as: UInt32.self)) | UInt64(p.load(fromByteOffset: 4, as: UInt32.self)) << 32
      let below = m & ((1 &<< UInt64(i & 63)) &- 1)
      return cell(Int(p.load(fromByteOffset: 8, as: UInt32.self)) &+ below.nonzeroBitCount)
    }

    /// Stored cell `k`.
    @inlinable @inline(__always)
    func cell(_ k: Int) -> UInt32 {
      switch width {
      case 0: return 0
      case 1: return UInt32(base.unsafelyUnwrapped.load(fromByteOffset: k, as: UInt8.self))
      case 2: return UInt32(UInt16(littleEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: k &* 2, as: UInt16.self)))
      case 3:
        let p = base.unsafelyUnwrapped + k &* 3
        return UInt32(p.load(as: UInt8.self)) | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8
          | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
      default: return UInt32(littleEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: k &* 4, as: UInt32.self))
      }
    }

    /// Whether cell `i` holds a value (not absent): its stored value is not
    /// 0 (only code 0 stands for absent; no lookup needed), or in a sparse
    /// column its bit is set (no rank).
    @inlinable
    public func isPresent(_ i: Int) -> Bool {
      assert(i >= 0 && i < count, "StringColumn.UnsafeReader index out of range")
      guard let blocks else { return cell(i) != 0 }
      let offset: Int = (i >> 6) &* 12 &+ ((i >> 5) & 1) &* 4
      let word: UInt32 = blocks.load(fromByteOffset: offset, as: UInt32.self)
      return (word &>> UInt32(i & 31)) & 1 != 0
    }
  }

  /// Bytes a stored cell in the current encoding (0 ... 4): a row's when
  /// dense, a present row's when sparse (see ``isSparse``).
  public var bytesPerCell: Int { width }
  /// Whether cells are dictionary codes.
  public var isDictionaryCoded: Bool { isCoded }

  /// Approximate heap bytes held.
  public var memoryFootprint: Int {
    bytes.capacity + dictionary.capacity * 4 + codes.memoryFootprint + (presence?.memoryFootprint ?? 0)
  }
}

extension StringColumn {
  /// Checks the encoding's invariants: ``cellCount`` cells of `width`
  /// bytes; when coded, code 0 and only code 0 absent, every stored code in
  /// the dictionary and codes no wider than needed to be read; when plain,
  /// no code table; ``presentCount`` cells not absent; when sparse, a
  /// block per 64 rows, no bit past the last row, each block's rank the
  /// set bits before it, as many set bits as cells and no absent cell.
  /// Compiled in with OHANA_INTERNAL_CHECKS (debug builds); a no-op otherwise.
  public func checkInvariants() {
    #if OHANA_INTERNAL_CHECKS
    precondition(width >= 0 && width <= 4, "StringColumn width")
    precondition(bytes.count == cellCount * width, "StringColumn byte count")
    if isCoded {
      precondition(dictionary.first == .absent, "StringColumn: code 0 must be absent")
      precondition(!dictionary.dropFirst().contains(.absent), "StringColumn: only code 0 may be absent")
      precondition(width <= 2, "StringColumn: codes are at most 2 bytes")
      for k in 0..<cellCount { precondition(Int(cell(k)) < dictionary.count, "StringColumn: code out of dictionary") }
    } else {
      precondition(dictionary.isEmpty && codes.isEmpty, "StringColumn: plain column with a dictionary")
    }
    if let presence {
      precondition(presence.words.count == Presence.blocks(count) * Presence.stride, "StringColumn: presence blocks")
      var set = 0
      for b in 0..<presence.blockCount {
        precondition(presence.base(b) == set, "StringColumn: presence rank")
        set += presence.mask(b).nonzeroBitCount
      }
      if count & 63 != 0 {
        precondition(presence.mask(count >> 6) >> UInt64(count & 63) == 0, "StringColumn: presence past the end")
      }
      precondition(set == presentCount, "StringColumn: present rows and cells")
      for k in 0..<cellCount { precondition(cell(k) != 0, "StringColumn: absent cell in a sparse column") }
    } else {
      var set = 0
      for k in 0..<count where cell(k) != 0 { set += 1 }
      precondition(set == presentCount, "StringColumn: present count")
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
