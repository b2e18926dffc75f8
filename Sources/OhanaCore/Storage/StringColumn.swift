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
  public internal(set) var count: Int

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
