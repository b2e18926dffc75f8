/// Interned UTF-8 strings: every distinct byte string lives once in one arena
/// and is named by a 32-bit ``StringID``.
///
/// ### Layout
/// ```
///  arena    [ M a r g e S i m p s o n H o m e r ... ]   UInt8, append-only
///  ends     [ 0 | 5 | 12 | 17 | ... ]                    ends[id] = end of id, start = ends[id-1]
///  slots    [ 0 | h3:3 | 0 | h1:1 | 0 | 0 | h2:2 | ... ]  UInt64: hash << 32 | id, 0 = empty;
///                                                        open addressing, linear probing,
///                                                        load factor at most 3/4
/// ```
/// Each slot carries its id's hash, so a probe skips other candidates
/// without touching `ends` or the arena (one cache miss for a new string),
/// growing re-places ids without rehashing, and merging one pool into
/// another (``internAll(of:into:)``) skips hashing.
/// Id 0 is the empty (absent) string: `ends[0] == 0`.
///
/// Interning hashes the bytes eight at a time and compares candidates with
/// `memcmp`-like word loops; no Swift `String` is created. Work that depends
/// only on a value (a sort key, a parsed phone number, a folded name) is done
/// once per id and cached in an array indexed by ``StringID/index``.
///
/// - Complexity: `intern` is O(length) expected; `bytes(of:)` is O(1).
public struct StringPool: Sendable {
  @usableFromInline var arena: [UInt8] = []
  @usableFromInline var ends: [Int] = [0]
  @usableFromInline var slots: [UInt64]
  @usableFromInline var mask: Int

  /// An empty pool with room for about `capacity` distinct strings.
  public init(capacity: Int = 0) {
    var size = 16
    while size * 3 < capacity * 4 { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    if capacity > 0 {
      ends.reserveCapacity(capacity + 1)
    }
  }

  /// The number of ids issued, including ``StringID/absent``.
  @inlinable public var count: Int { ends.count }

  /// Bytes held by the arena (the sum of the distinct strings' lengths).
  @inlinable public var arenaByteCount: Int { arena.count }

  /// Approximate heap bytes used by the pool.
  public var memoryFootprint: Int {
    arena.capacity + ends.capacity * 8 + slots.capacity * 8
  }

  // MARK: Lookup

  /// The length in bytes of the string named by `id`.
  @inlinable
  public func length(of id: StringID) -> Int {
    let i = id.index
    return i == 0 ? 0 : ends[i] - ends[i - 1]
  }

  /// Calls `body` with the bytes of `id` (empty for ``StringID/absent``).
  /// - Warning: the buffer is valid only inside `body`.
  @inlinable
  public func withBytes<R>(
    of id: StringID, _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    let i = id.index
    let start = i == 0 ? 0 : ends[i - 1]
    let end = ends[i]
    return try arena.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> R in
      try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
    }
  }

  /// Calls `body` with the whole arena and the `ends` table, for passes
  /// that visit many ids: the bytes of id `i > 0` are `arena[ends[i-1]..<ends[i]]`.
  /// - Warning: the buffers are valid only inside `body`.
  @inlinable
  public func withStorage<R>(
    _ body: (UnsafeRawBufferPointer, UnsafeBufferPointer<Int>) throws -> R
  ) rethrows -> R {
    try arena.withUnsafeBytes { a in
      try ends.withUnsafeBufferPointer { e in
        try body(a, e)
      }
    }
  }

  /// The bytes of `id` as an array.
  public func bytes(of id: StringID) -> [UInt8] {
    withBytes(of: id) { Array($0) }
  }

  /// The string named by `id`, or nil when it is absent.
  public func string(_ id: StringID) -> String? {
    if id.isAbsent { return nil }
    return withBytes(of: id) { String(decoding: $0, as: UTF8.self) }
  }

  /// The id of `bytes` if it was interned, without interning it.
  public func lookup(_ bytes: UnsafeRawBufferPointer) -> StringID? {
    if bytes.isEmpty { return .absent }
    let (id, _) = find(bytes, hash: Self.hash(bytes))
    return id == 0 ? nil : StringID(rawValue: id)
  }

  /// The id of `string` if it was interned.
  public func lookup(_ string: String) -> StringID? {
    var s = string
    return s.withUTF8 { lookup(UnsafeRawBufferPointer($0)) }
  }

  // MARK: Interning

  /// Interns `bytes`, returning the id of an equal string if there is one.
  /// The empty string interns to ``StringID/absent``.
  public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> StringID {
    if bytes.isEmpty { return .absent }
    return intern(bytes, hash: Self.hash(bytes))
  }

  /// Interns `bytes` whose ``hash(_:)`` is already known (`hash` must be
  /// `StringPool.hash(bytes)`; a wrong hash breaks the pool's invariant).
  package mutating func intern(_ bytes: UnsafeRawBufferPointer, hash h: UInt32) -> StringID {
    if bytes.isEmpty { return .absent }
    let (found, slot) = find(bytes, hash: h)
    if found != 0 { return StringID(rawValue: found) }
    // Not found: append. Ids are dense and fit UInt32 (a pool of more than
    // 4 billion distinct strings would not fit in memory first).
    let newID = UInt32(truncatingIfNeeded: ends.count)
    arena.append(contentsOf: bytes)
    ends.append(arena.count)
    slots[slot] = UInt64(h) << 32 | UInt64(newID)
    if ends.count * 4 > slots.count * 3 { grow() }
    return StringID(rawValue: newID)
  }

  /// Interns every string of `other` in id order and writes the new id of
  /// each of `other`'s ids to `remap` (cleared first; `remap[0]` is absent).
  /// Uses `other`'s stored hashes, so no string is hashed again.
  ///
  /// - Complexity: O(other's bytes) expected.
  package mutating func internAll(of other: StringPool, into remap: inout [StringID]) {
    remap.removeAll(keepingCapacity: true)
    remap.reserveCapacity(other.ends.count)
    remap.append(.absent)
    // Each id's hash, read back from the other pool's slots.
    var hashes = [UInt32](repeating: 0, count: other.ends.count)
    hashes.withUnsafeMutableBufferPointer { hs in
      other.slots.withUnsafeBufferPointer { os in
        for v in os where v != 0 {
          let id = Int(truncatingIfNeeded: v & 0xFFFF_FFFF)
          if id < hs.count { hs[id] = UInt32(truncatingIfNeeded: v >> 32) }
        }
      }
    }
    reserve(additional: other.ends.count - 1, bytes: other.arena.count)
    other.arena.withUnsafeBytes { a in
      other.ends.withUnsafeBufferPointer { e in
        hashes.withUnsafeBufferPointer { hs in
          for id in 1..<e.count {
            remap.append(intern(UnsafeRawBufferPointer(rebasing: a[e[id - 1]..<e[id]]), hash: hs[id]))
          }
        }
      }
    }
  }

  /// Interns a Swift string's UTF-8 bytes.
  public mutating func intern(_ string: String) -> StringID {
    var s = string
    return s.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
  }

  /// Interns an optional string (nil and "" give ``StringID/absent``).
  public mutating func intern(_ string: String?) -> StringID {
    guard let string else { return .absent }
    return intern(string)
  }

  /// Interns a byte array.
  public mutating func intern(bytes: [UInt8]) -> StringID {
    bytes.withUnsafeBytes { intern($0) }
  }

  /// Bulk path: interns the strings `buffer[offsets[i] ..< offsets[i+1]]`
  /// for every `i`, writing their ids to `ids` (which is cleared first).
  ///
  /// - Complexity: O(total bytes) expected.
  public mutating func intern(
    contentsOf buffer: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>,
    into ids: inout [StringID]
  ) {
    ids.removeAll(keepingCapacity: true)
    guard offsets.count > 1 else { return }
    ids.reserveCapacity(offsets.count - 1)
    for i in 0..<(offsets.count - 1) {
      let start = offsets[i], end = offsets[i + 1]
      guard start >= 0, end >= start, end <= buffer.count else {
        ids.append(.absent)
        continue
      }
      ids.append(intern(UnsafeRawBufferPointer(rebasing: buffer[start..<end])))
    }
  }

  /// Bulk path over a buffer of strings separated by `separator` (for example
  /// newline-separated names), appending one id per string.
  public mutating func intern(
    separatedBy separator: UInt8, in buffer: UnsafeRawBufferPointer, into ids: inout [StringID]
  ) {
    var start = 0
    var i = 0
    let n = buffer.count
    while i < n {
      if buffer[i] == separator {
        ids.append(intern(UnsafeRawBufferPointer(rebasing: buffer[start..<i])))
        start = i + 1
      }
      i += 1
    }
    if start < n { ids.append(intern(UnsafeRawBufferPointer(rebasing: buffer[start..<n]))) }
  }

  /// Reserves room for `additional` more distinct strings and `bytes` more arena bytes.
  /// Capacity grows geometrically, so calling this once per part of a
  /// concatenation stays linear.
  public mutating func reserve(additional: Int, bytes: Int = 0) {
    let needEnds = ends.count + additional
    if needEnds > ends.capacity { ends.reserveCapacity(max(needEnds, ends.capacity * 2)) }
    let needBytes = arena.count + bytes
    if bytes > 0 && needBytes > arena.capacity { arena.reserveCapacity(max(needBytes, arena.capacity * 2)) }
    while (ends.count + additional) * 4 > slots.count * 3 { grow() }
  }

  // MARK: Internals

  /// The id equal to `bytes` (0 if none) and the slot where the probe
  /// stopped (where a new id goes). `bytes` is not empty.
  @inline(__always)
  func find(_ bytes: UnsafeRawBufferPointer, hash h: UInt32) -> (id: UInt32, slot: Int) {
    let n = bytes.count
    let mask = self.mask
    let tag = UInt64(h) << 32
    return slots.withUnsafeBufferPointer { s in
      ends.withUnsafeBufferPointer { e in
        arena.withUnsafeBytes { a in
          var slot = Int(h) & mask
          while true {
            let v = s[slot]
            if v == 0 { return (0, slot) }
            if v & 0xFFFF_FFFF_0000_0000 == tag {
              let i = Int(truncatingIfNeeded: v & 0xFFFF_FFFF)
              let start = e[i - 1]
              if e[i] - start == n, let ab = a.baseAddress, let bb = bytes.baseAddress,
                Self.bytesEqual(ab + start, bb, n)
              {
                return (UInt32(truncatingIfNeeded: i), slot)
              }
            }
            slot = (slot + 1) & mask
          }
        }
      }
    }
  }

  mutating func grow() {
    let size = slots.count * 2
    var newSlots = [UInt64](repeating: 0, count: size)
    let newMask = size - 1
    slots.withUnsafeBufferPointer { old in
      newSlots.withUnsafeMutableBufferPointer { ns in
        for v in old where v != 0 {
          var slot = Int(truncatingIfNeeded: v >> 32) & newMask
          while ns[slot] != 0 { slot = (slot + 1) & newMask }
          ns[slot] = v
        }
      }
    }
    slots = newSlots
    mask = newMask
  }

  /// Word-at-a-time equality of two byte ranges of length `n`; the last
  /// partial word is compared with overlapping loads, not byte by byte.
  @usableFromInline @inline(__always)
  static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
    if n >= 8 {
      var i = 0
      while i + 8 <= n {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
      }
      if i == n { return true }
      return a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }
    return tailWord(a, 0, n) == tailWord(b, 0, n)
  }

  /// The `n < 8` bytes at `p + i` as a little-endian integer (byte `k` in
  /// bits `8k ..< 8k+8`, zero above), read with at most two overlapping
  /// loads instead of a byte loop.
  @usableFromInline @inline(__always)
  static func tailWord(_ p: UnsafeRawPointer, _ i: Int, _ n: Int) -> UInt64 {
    if n >= 4 {
      let lo = UInt64(p.loadUnaligned(fromByteOffset: i, as: UInt32.self))
      let hi = UInt64(p.loadUnaligned(fromByteOffset: i + n - 4, as: UInt32.self))
      return lo | (hi << UInt64(truncatingIfNeeded: (n - 4) * 8))
    }
    if n >= 2 {
      let lo = UInt64(p.loadUnaligned(fromByteOffset: i, as: UInt16.self))
      let hi = UInt64(p.loadUnaligned(fromByteOffset: i + n - 2, as: UInt16.self))
      return lo | (hi << UInt64(truncatingIfNeeded: (n - 2) * 8))
    }
    if n == 1 { return UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
    return 0
  }

  /// A fast 32-bit hash of a byte string: eight bytes per step, multiply and
  /// rotate mixing, a final avalanche. Written here for the interner; not
  /// cryptographic and not stable across versions (never persist it).
  @inlinable
  public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    let n = bytes.count
    guard let p = bytes.baseAddress else { return 0 }
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
    var i = 0
    while i + 8 <= n {
      let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      h = (h ^ (w &* 0xBF58_476D_1CE4_E5B9)) &* 0x94D0_49BB_1331_11EB
      h = (h << 29) | (h >> 35)
      i += 8
    }
    if i < n {
      // The remaining n - i < 8 bytes as a little-endian word (the same
      // value a byte loop would build), from overlapping loads.
      let r = n - i
      let w: UInt64
      if n >= 8 {
        w = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) >> UInt64(truncatingIfNeeded: (8 - r) * 8)
      } else {
        w = tailWord(p, i, r)
      }
      h = (h ^ (w &* 0xBF58_476D_1CE4_E5B9)) &* 0x94D0_49BB_1331_11EB
    }
    h ^= h >> 31
    h = h &* 0xD6E8_FEB8_6659_FD93
    h ^= h >> 32
    return UInt32(truncatingIfNeeded: h)
  }
}

extension StringPool {
  /// Checks the pool's invariants (debug builds with OHANA_INTERNAL_CHECKS).
  public func checkInvariants() {
    #if OHANA_INTERNAL_CHECKS
    precondition(ends.first == 0, "id 0 must be empty")
    precondition(ends.last == arena.count, "arena length mismatch")
    precondition(slots.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } == ends.count - 1, "one slot per id")
    precondition(slots.count.nonzeroBitCount == 1 && mask == slots.count - 1, "bad table size")
    precondition(ends.count * 4 <= slots.count * 3, "load factor exceeded")
    #endif
  }
}
