/// Byte strings stored back to back in one arena.
///
/// ### Layout
/// ```
/// bytes   │M ü l l e r│K i m│       │佐 藤│
/// offsets 0           7     10      10    16      (count + 1 entries)
/// ```
/// String `i` is `bytes[offsets[i]..<offsets[i + 1]]`. Used both for input
/// strings (UTF-8) and for sort keys (``SortKeys``).
///
/// - Invariant: `offsets.first == 0`, `offsets` is non-decreasing and
///   `offsets.last == bytes.count`.
public struct ByteStrings: Sendable, Hashable, RandomAccessCollection {
  /// All strings' bytes, back to back.
  public private(set) var bytes: [UInt8]
  /// Start of each string, plus the end of the last one.
  public private(set) var offsets: [Int]

  /// An empty arena.
  public init() {
    bytes = []
    offsets = [0]
  }

  /// An arena from its parts.
  /// - Precondition: the offsets satisfy the invariant (checked).
  public init(bytes: [UInt8], offsets: [Int]) {
    precondition(offsets.first == 0 && offsets.last == bytes.count, "ByteStrings: bad offsets")
    var previous = 0
    for o in offsets {
      precondition(o >= previous, "ByteStrings: offsets must not decrease")
      previous = o
    }
    self.bytes = bytes
    self.offsets = offsets
  }

  /// An arena holding the UTF-8 of each string.
  public init<S: Sequence>(_ strings: S) where S.Element: StringProtocol {
    self.init()
    for s in strings { append(s) }
  }

  /// Reserves room for `count` more strings of `byteCount` bytes in total.
  public mutating func reserveCapacity(count: Int, byteCount: Int) {
    offsets.reserveCapacity(offsets.count + count)
    bytes.reserveCapacity(bytes.count + byteCount)
  }

  /// Appends one byte string.
  public mutating func append<C: Collection<UInt8>>(bytes newBytes: C) {
    bytes.append(contentsOf: newBytes)
    offsets.append(bytes.count)
  }

  /// Appends the UTF-8 of a string.
  public mutating func append(_ string: some StringProtocol) {
    bytes.append(contentsOf: string.utf8)
    offsets.append(bytes.count)
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { offsets.count - 1 }

  /// The bytes of string `i`.
  public subscript(i: Int) -> ArraySlice<UInt8> {
    bytes[offsets[i]..<offsets[i + 1]]
  }

  /// The byte range of string `i` in ``bytes``.
  @inlinable
  public func range(_ i: Int) -> Range<Int> { offsets[i]..<offsets[i + 1] }

  /// String `i` decoded as UTF-8 (ill-formed bytes become U+FFFD).
  public func string(_ i: Int) -> String { String(decoding: self[i], as: UTF8.self) }
}
