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
///
/// The three columns and the cache are raw buffers described by one
/// ``Columns`` record that a ``Storage`` object owns, so adding a string
/// checks uniqueness once (not once per array) and copies short strings with
/// a few word moves instead of a `memcpy` call (`StringPool.copyBytes`). The
/// batch is still a value: the storage is copied on write (see
/// `makeUnique()`), like an array's.
public struct StringBatch: Sendable {
  /// Where the batch's strings are: `bytes[0 ..< byteCount]` holds them end
  /// to end, string k being `bytes[ends[k-1] ..< ends[k]]` with hash
  /// `hashes[k]` for k in `1 ..< count` (`ends[0] == 0`, `hashes[0] == 0`).
  @usableFromInline
  struct Columns {
    @usableFromInline var bytes: UnsafeMutableRawPointer
    @usableFromInline var byteCount = 0
    var byteCapacity: Int
    @usableFromInline var ends: UnsafeMutablePointer<Int>
    @usableFromInline var hashes: UnsafeMutablePointer<UInt32>
    @usableFromInline var count = 1
    var capacity: Int
    /// `hash << 32 | provisional id` of a recent string per slot (0 = empty).
    var recent: UnsafeMutablePointer<UInt64>

    static let recentSlots = 16384

    init(capacity: Int, bytes byteCapacity: Int) {
      self.capacity = max(capacity, 16)
      self.byteCapacity = max(byteCapacity, 64)
      bytes = .allocate(byteCount: self.byteCapacity, alignment: 8)
      ends = .allocate(capacity: self.capacity)
      hashes = .allocate(capacity: self.capacity)
      ends.initialize(to: 0)
      hashes.initialize(to: 0)
      recent = .allocate(capacity: Self.recentSlots)
      recent.initialize(repeating: 0, count: Self.recentSlots)
    }

    /// A copy of `other`'s contents, in buffers of its capacity.
    init(copying other: Columns) {
      self.init(capacity: other.capacity, bytes: other.byteCapacity)
      bytes.copyMemory(from: other.bytes, byteCount: other.byteCount)
      byteCount = other.byteCount
      ends.update(from: other.ends, count: other.count)
      hashes.update(from: other.hashes, count: other.count)
      count = other.count
      recent.update(from: other.recent, count: Self.recentSlots)
    }

    func deallocate() {
      bytes.deallocate()
      ends.deallocate()
      hashes.deallocate()
      recent.deallocate()
    }

    /// Appends the `n` bytes at `src` with hash `h`; returns their id.
    @inline(__always)
    mutating func append(_ src: UnsafeRawPointer, _ n: Int, hash h: UInt32) -> Int {
      if n > byteCapacity &- byteCount { growBytes(to: byteCount + n) }
      if count == capacity { growEntries() }
      StringPool.copyBytes(to: bytes + byteCount, from: src, count: n)
      byteCount &+= n
      let id = count
      ends[id] = byteCount
      hashes[id] = h
      count = id &+ 1
      return id
    }

    @inline(never)
    mutating func growBytes(to needed: Int) {
      let newCapacity = max(needed, byteCapacity * 2)
      let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
      grown.copyMemory(from: bytes, byteCount: byteCount)
      bytes.deallocate()
      bytes = grown
      byteCapacity = newCapacity
    }

    @inline(never)
    mutating func growEntries() {
      let newCapacity = capacity * 2
      let newEnds = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
      newEnds.moveInitialize(from: ends, count: count)
      ends.deallocate()
      ends = newEnds
      let newHashes = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
      newHashes.moveInitialize(from: hashes, count: count)
      hashes.deallocate()
      hashes = newHashes
      capacity = newCapacity
    }
  }

  /// Owns a batch's ``Columns``, shared between copies of the batch until
  /// one of them is mutated: every mutating method of ``StringBatch`` first
  /// calls `makeUnique()`, which copies a shared storage. Reads (`count`,
  /// `bytes(of:)`, interning) never write, so a storage that several values
  /// share, even on several threads, is never written; that is why it can be
  /// `@unchecked Sendable`. The record is behind a pointer, not in stored
  /// `var`s of the class, whose every access the runtime would check for
  /// exclusivity.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @usableFromInline let columns: UnsafeMutablePointer<Columns>

    init(_ columns: Columns) {
      self.columns = .allocate(capacity: 1)
      self.columns.initialize(to: columns)
    }

    deinit {
      columns.pointee.deallocate()
      columns.deinitialize(count: 1)
      columns.deallocate()
    }
  }

  @usableFromInline var storage: Storage

  private static var recentSlots: Int { Columns.recentSlots }

  public init(capacity: Int = 0, bytes byteCapacity: Int = 0) {
    storage = Storage(Columns(capacity: capacity + 1, bytes: byteCapacity))
  }

  /// Provisional ids issued, plus one (id 0 is the empty string).
  @inlinable public var count: Int { storage.columns.pointee.count }

  /// Total bytes held.
  @inlinable public var byteCount: Int { storage.columns.pointee.byteCount }

  /// Copies the storage if another batch value shares it (copy on write).
  @inline(__always)
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = Storage(Columns(copying: storage.columns.pointee))
    }
  }

  /// Adds `raw` and returns its provisional id (``StringID/absent`` when empty).
  public mutating func add(_ raw: UnsafeRawBufferPointer) -> StringID {
    let n = raw.count
    guard n > 0, let src = raw.baseAddress else { return .absent }
    let h = StringPool.hash(raw)
    let slot = Int(truncatingIfNeeded: h) & (Self.recentSlots - 1)
    // A repeat of the string the slot remembers? (Reading only: no copy.)
    let seen = storage.columns.pointee.recent[slot]
    if seen >> 32 == UInt64(h) {
      let c = storage.columns
      let k = Int(truncatingIfNeeded: seen & 0xFFFF_FFFF)
      let start = c.pointee.ends[k &- 1]
      if c.pointee.ends[k] &- start == n && StringPool.bytesEqual(c.pointee.bytes + start, src, n) {
        return StringID(rawValue: UInt32(truncatingIfNeeded: k))
      }
    }
    makeUnique()
    let c = storage.columns
    let id = c.pointee.append(src, n, hash: h)
    c.pointee.recent[slot] = UInt64(h) << 32 | UInt64(truncatingIfNeeded: id)
    return StringID(rawValue: UInt32(truncatingIfNeeded: id))
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
    return withColumns { bytes, ends, _ in
      guard k > 0, k < ends.count else { return [] }
      return [UInt8](bytes[ends[k - 1]..<ends[k]])
    }
  }

  /// Calls `body` with the bytes of provisional id `id` (empty for absent
  /// or unknown ids), without copying them.
  /// - Warning: the buffer is valid only inside `body`, and only until the
  ///   batch is next changed.
  public func withBytes<R>(of id: StringID, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let k = id.index
    return try withExtendedLifetime(storage) { s in
      let c = s.columns
      guard k > 0, k < c.pointee.count else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
      let start = c.pointee.ends[k - 1]
      return try body(UnsafeRawBufferPointer(start: c.pointee.bytes + start, count: c.pointee.ends[k] - start))
    }
  }

  /// Empties the batch, keeping its capacity.
  public mutating func removeAll() {
    let c = storage.columns.pointee
    if !isKnownUniquelyReferenced(&storage) {
      // Shared: start an empty storage of the same size instead of a copy.
      storage = Storage(Columns(capacity: c.capacity, bytes: c.byteCapacity))
      return
    }
    storage.columns.pointee.byteCount = 0
    storage.columns.pointee.count = 1
    c.recent.update(repeating: 0, count: Self.recentSlots)
  }

  /// Calls `body` with the batch's bytes, ends and hashes (see ``Columns``),
  /// valid only inside `body`.
  func withColumns<R>(
    _ body: (UnsafeRawBufferPointer, UnsafeBufferPointer<Int>, UnsafeBufferPointer<UInt32>) throws -> R
  ) rethrows -> R {
    try withExtendedLifetime(storage) { s in
      let c = s.columns.pointee
      return try body(
        UnsafeRawBufferPointer(start: c.bytes, count: c.byteCount),
        UnsafeBufferPointer(start: c.ends, count: c.count),
        UnsafeBufferPointer(start: c.hashes, count: c.count))
    }
  }
}

extension StringPool {
  /// Interns every string of `batch` in provisional-id order and writes the
  /// pool id of each provisional id to `remap` (cleared first; `remap[0]` is
  /// absent). The batch's hashes are used, so no string is hashed here.
  ///
  /// - Complexity: O(batch bytes) expected.
  public mutating func intern(_ batch: StringBatch, into remap: inout [StringID]) {
    batch.withColumns { a, e, hs in
      internHashed(arena: a, ends: e, hashes: hs, into: &remap)
    }
  }
}
