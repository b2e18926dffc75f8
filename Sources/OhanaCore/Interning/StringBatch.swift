/// Strings collected for interning later, with their hashes: the way a
/// parallel reader names its strings before they reach the shared pool.
///
/// A parse task adds every value it meets and gets a provisional id (1, 2,
/// 3... in order; 0 for the empty string) that it stores in its columns like
/// a ``StringID``. One task later interns the whole batch into the table's
/// pool with ``StringPool/intern(_:into:)``, which writes the real id of
/// every provisional one, and remaps the columns. Hashing, the only work per
/// byte, is done here, on the parse task; the serial step only probes.
///
/// Repeats are folded as they come when they hash to a slot of a small
/// direct-mapped cache that still holds the earlier string (labels, groups,
/// countries, property names repeat card after card), so a chunk hands the
/// pool few duplicates. The cache is a hint: a repeat it misses gets a second
/// provisional id, and interning maps both to the same pool id.
///
/// ```
///  bytes   [ H o m e r C E L L + 1 5 5 5 ... ]
///  ends    [ 0 | 5 | 9 | ... ]        string k = bytes[ends[k-1] ..< ends[k]]
///  hashes  [ - | h1 | h2 | ... ]      StringPool.hash of string k
/// ```
public struct StringBatch: Sendable {
  @usableFromInline var bytes: [UInt8] = []
  @usableFromInline var ends: [Int] = [0]
  @usableFromInline var hashes: [UInt32] = [0]
  /// `hash << 32 | provisional id` of a recent string per slot (0 = empty).
  private var recent: [UInt64]

  private static let recentSlots = 16384

  public init(capacity: Int = 0, bytes byteCapacity: Int = 0) {
    recent = Array(repeating: 0, count: Self.recentSlots)
    if capacity > 0 {
      ends.reserveCapacity(capacity + 1)
      hashes.reserveCapacity(capacity + 1)
    }
    if byteCapacity > 0 { bytes.reserveCapacity(byteCapacity) }
  }

  /// Provisional ids issued, plus one (id 0 is the empty string).
  @inlinable public var count: Int { ends.count }

  /// Total bytes held.
  @inlinable public var byteCount: Int { bytes.count }

  /// Adds `raw` and returns its provisional id (``StringID/absent`` when empty).
  public mutating func add(_ raw: UnsafeRawBufferPointer) -> StringID {
    let n = raw.count
    guard n > 0, let src = raw.baseAddress else { return .absent }
    let h = StringPool.hash(raw)
    let slot = Int(truncatingIfNeeded: h) & (Self.recentSlots - 1)
    let seen = recent[slot]
    if seen >> 32 == UInt64(h) {
      let k = Int(truncatingIfNeeded: seen & 0xFFFF_FFFF)
      let start = ends[k - 1]
      if ends[k] - start == n {
        let same = bytes.withUnsafeBytes { b in
          b.baseAddress.map { StringPool.bytesEqual($0 + start, src, n) } ?? false
        }
        if same { return StringID(rawValue: UInt32(truncatingIfNeeded: k)) }
      }
    }
    bytes.append(contentsOf: raw)
    ends.append(bytes.count)
    hashes.append(h)
    let id = UInt32(truncatingIfNeeded: ends.count - 1)
    recent[slot] = UInt64(h) << 32 | UInt64(id)
    return StringID(rawValue: id)
  }

  /// Adds a byte array.
  public mutating func add(bytes value: [UInt8]) -> StringID {
    value.withUnsafeBytes { add($0) }
  }

  /// Adds a Swift string's UTF-8 bytes.
  public mutating func add(_ string: String) -> StringID {
    var s = string
    return s.withUTF8 { add(UnsafeRawBufferPointer($0)) }
  }

  /// The bytes of provisional id `id` (empty for absent or unknown ids).
  public func bytes(of id: StringID) -> [UInt8] {
    let k = id.index
    guard k > 0, k < ends.count else { return [] }
    return Array(bytes[ends[k - 1]..<ends[k]])
  }

  /// Empties the batch, keeping its capacity.
  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    ends.append(0)
    hashes.removeAll(keepingCapacity: true)
    hashes.append(0)
    for i in recent.indices { recent[i] = 0 }
  }
}

extension StringPool {
  /// Interns every string of `batch` in provisional-id order and writes the
  /// pool id of each provisional id to `remap` (cleared first; `remap[0]` is
  /// absent). The batch's hashes are used, so no string is hashed here.
  ///
  /// - Complexity: O(batch bytes) expected.
  public mutating func intern(_ batch: StringBatch, into remap: inout [StringID]) {
    batch.bytes.withUnsafeBytes { a in
      batch.ends.withUnsafeBufferPointer { e in
        batch.hashes.withUnsafeBufferPointer { hs in
          internHashed(arena: a, ends: e, hashes: hs, into: &remap)
        }
      }
    }
  }
}
