import COhanaCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Interned UTF-8 strings: every distinct byte string lives once in one arena
/// and is named by a 32-bit ``StringID``.
///
/// ### Layout
/// ```
///  arena    [ M a r g e S i m p s o n H o m e r ... ]   UInt8, append-only
///  ends     [ 0 | 5 | 12 | 17 | ... ]                    UInt32: ends[id] = end of id, start = ends[id-1]
///                                                        (the low 32 bits; see `wraps`)
///  slots    [ 0 | 1:t1 | 0 | 3:t3 | 0 | 0 | 2:t2 | ... ] narrow, UInt32: id << 8 | h & 0xFF
///       or  [ 0 | h1:1 | 0 | h3:3 | 0 | 0 | h2:2 | ... ] wide,   UInt64: h << 32 | id
///                                                        0 = empty; open addressing, linear
///                                                        probing, load factor at most 3/4;
///                                                        the home slot of hash h is h * count >> 32
/// ```
/// The home slot is the hash's top bits scaled to the table, so the table
/// can have any size: it is sized to its load (grown when full, or
/// to a reader's estimate) rather than to a power of two, which can be up
/// to twice as big. The home is monotonic in the hash,
/// so slots are in hash order, which the
/// bulk path uses: it sorts a batch by hash, so its probes sweep the table
/// from start to end, one cache-sized region at a time, instead of missing
/// the cache on every string (see ``intern(contentsOf:offsets:into:)``).
///
/// Each slot carries part of its id's hash beside the id (its key), so a
/// probe skips most other candidates without touching `ends` or the arena
/// (one cache miss for a new string). The width of the slots follows the
/// size of the table (``SlotWidths``):
/// - *narrow*, 4 bytes (``NarrowSlot``): the id in the top 24 bits and an
///   8-bit tag, the hash's low bits, which the home does not use. Half the
///   memory of a wide slot; a probe
///   compares bytes for about one mismatching candidate in 256. The rest
///   of the hash is not stored, so growing the table hashes every string
///   again: a pass over `ends` and the arena in id order, each new home
///   prefetched.
///   For tables whose ids all fit 24 bits: below 2^24 * 4/3 slots.
/// - *wide*, 8 bytes (``WideSlot``): the whole 32-bit hash and the id.
///   Growing re-places ids without rehashing, and merging the pool into
///   another (``internAll(of:into:)``) reads the hashes back, so small
///   tables (at most 2^16 slots: a reader's chunk pools, merged on the
///   reader's one merging thread) stay wide, and so do tables of more than
///   2^24 ids. A table changes width only when it is rebuilt at another
///   size: then every id fits the new width, and the loops that fill a
///   table never check.
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
  /// Each id's end offset in the arena, its low ``endShift`` bits: four
  /// bytes a string instead of eight.
  @usableFromInline var ends: [UInt32] = [0]
  /// The ids at which the arena's end passed another multiple of
  /// 2^``endShift`` (once per multiple, ascending): the end of id `i` is
  /// `ends[i] + (wraps <= i) << endShift`. Empty below 4 GiB of distinct
  /// bytes, where an end is just `ends[i]`.
  @usableFromInline var wraps: [UInt32] = []
  /// 32; smaller only in tests, to reach `wraps` with little data.
  @usableFromInline let endShift: Int
  @usableFromInline var slots: SlotTable
  /// `slots.count`: the home slot of hash `h` is `h * width >> 32`.
  @usableFromInline var width: UInt64
  /// Which table sizes get narrow slots; ``SlotWidths/standard`` except in tests.
  let slotWidths: SlotWidths

  /// An empty pool with room for about `capacity` distinct strings.
  public init(capacity: Int = 0) {
    self.init(capacity: capacity, endShift: 32)
  }

  /// A pool whose ends wrap every 2^`endShift` arena bytes (tests).
  package init(capacity: Int = 0, endShift: Int) {
    self.init(capacity: capacity, endShift: endShift, slotWidths: .standard)
  }

  /// A pool whose table is narrow at the sizes `slotWidths` says (tests:
  /// narrow from the start, or wide again after a few thousand ids).
  package init(capacity: Int = 0, endShift: Int = 32, slotWidths: SlotWidths) {
    self.endShift = max(8, min(32, endShift))
    self.slotWidths = slotWidths
    let size = Self.tableSize(for: capacity)
    slots = SlotTable(count: size, narrow: slotWidths.isNarrow(slots: size))
    width = UInt64(size)
    if capacity > 0 {
      ends.reserveCapacity(capacity + 1)
    }
  }

  /// The table sizes whose slots are narrow (see the layout above): more
  /// than ``wideUpTo`` slots, and few enough that every id a table of that
  /// size holds (at most 3/4 of its slots) is below ``narrowIDLimit``.
  package struct SlotWidths: Sendable {
    /// Tables of at most this many slots stay wide.
    package let wideUpTo: Int
    /// Narrow tables hold ids below this (at most 2^24, what fits beside the tag).
    package let narrowIDLimit: Int

    /// Narrow from 2^16 + 1 slots to 2^24 ids.
    package static let standard = SlotWidths(wideUpTo: 1 << 16, narrowIDLimit: 1 << 24)

    package init(wideUpTo: Int, narrowIDLimit: Int) {
      self.wideUpTo = max(0, wideUpTo)
      self.narrowIDLimit = max(1, min(narrowIDLimit, NarrowSlot.idLimit))
    }

    /// Whether a table of `size` slots is narrow. Its ids are at most
    /// `size * 3 / 4` (the load limit; see ``StringPool/tableSize(for:)``).
    package func isNarrow(slots size: Int) -> Bool {
      size > wideUpTo && size * 3 / 4 < narrowIDLimit
    }
  }

  /// The number of ids issued, including ``StringID/absent``.
  @inlinable public var count: Int { ends.count }

  /// Bytes held by the arena (the sum of the distinct strings' lengths).
  @inlinable public var arenaByteCount: Int { arena.count }

  /// Approximate heap bytes used by the pool.
  public var memoryFootprint: Int {
    arena.capacity + ends.capacity * 4 + wraps.capacity * 4 + slots.byteCount
  }

  // MARK: Lookup

  /// The length in bytes of the string named by `id`.
  @inlinable
  public func length(of id: StringID) -> Int {
    let i = id.index
    return i == 0 ? 0 : end(i) - end(i - 1)
  }

  /// Calls `body` with the bytes of `id` (empty for ``StringID/absent``).
  /// - Warning: the buffer is valid only inside `body`.
  @inlinable
  public func withBytes<R>(
    of id: StringID, _ body: (UnsafeRawBufferPointer) throws -> R
  ) rethrows -> R {
    let i = id.index
    let start = i == 0 ? 0 : end(i - 1)
    let end = end(i)
    return try arena.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> R in
      try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
    }
  }

  /// Calls `body` with the whole arena and the ends, for passes that visit
  /// many ids: the bytes of id `i > 0` are `arena[ends[i-1]..<ends[i]]`.
  /// - Warning: the buffers are valid only inside `body`.
  @inlinable
  public func withStorage<R>(
    _ body: (UnsafeRawBufferPointer, Ends) throws -> R
  ) rethrows -> R {
    try arena.withUnsafeBytes { a in
      try ends.withUnsafeBufferPointer { e in
        try wraps.withUnsafeBufferPointer { w in
          try body(a, Ends(low: e, wraps: w, shift: endShift))
        }
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
    appendEnd(arena.count)
    let id = Int(newID)
    slots[slot] = slots.isNarrow ? UInt64(NarrowSlot.slot(id, key: NarrowSlot.key(h))) : WideSlot.slot(id, key: WideSlot.key(h))
    if ends.count * 4 > slots.count * 3 { ensureTable(for: ends.count) }
    return StringID(rawValue: newID)
  }

  /// Interns every string of `other` in id order and writes the new id of
  /// each of `other`'s ids to `remap` (cleared first; `remap[0]` is absent).
  /// A wide `other` (a small pool, such as a reader's chunk) gives its
  /// stored hashes, so no string is hashed again; a narrow one is hashed in
  /// one pass over its arena.
  ///
  /// - Complexity: O(other's bytes) expected.
  package mutating func internAll(of other: StringPool, into remap: inout [StringID]) {
    remap.removeAll(keepingCapacity: true)
    remap.reserveCapacity(other.ends.count)
    remap.append(.absent)
    let hashes = other.hashes()
    let otherEnds = other.withStorage { _, e in Array(e) }
    other.arena.withUnsafeBytes { a in
      otherEnds.withUnsafeBufferPointer { e in
        hashes.withUnsafeBufferPointer { hs in
          internHashed(arena: a, ends: e, hashes: hs, into: &remap)
        }
      }
    }
  }

  /// Every id's hash (`hashes[0] == 0`): read back from wide slots, or
  /// computed from the arena in id order for narrow ones.
  func hashes() -> [UInt32] {
    var hashes = [UInt32](repeating: 0, count: ends.count)
    hashes.withUnsafeMutableBufferPointer { hs in
      if slots.isNarrow {
        withStorage { a, e in
          guard let ab = a.baseAddress else { return }
          for id in 1..<e.count {
            let start = e[id - 1]
            hs[id] = Self.hash(UnsafeRawBufferPointer(start: ab + start, count: e[id] - start))
          }
        }
      } else {
        slots.withUnsafeBufferPointer(as: UInt64.self) { os in
          for v in os where v != 0 {
            let id = WideSlot.id(v)
            if id < hs.count { hs[id] = WideSlot.hash(v) }
          }
        }
      }
    }
    return hashes
  }

  /// Interns strings `k = 1 ..< ends.count`, string `k` being
  /// `arena[ends[k-1] ..< ends[k]]` with hash `hashes[k]`, and writes their
  /// ids to `remap` (cleared first; `remap[0]` is absent). Shared by merging
  /// pools and interning a ``StringBatch``.
  ///
  /// The home slots are random in a table far bigger than the caches, so
  /// each is prefetched `ahead` strings before its probe: the misses overlap
  /// instead of being waited for one by one. The table is sized for all of
  /// them first, so it does not move inside the loop.
  package mutating func internHashed(
    arena a: UnsafeRawBufferPointer, ends e: UnsafeBufferPointer<Int>, hashes hs: UnsafeBufferPointer<UInt32>,
    into remap: inout [StringID]
  ) {
    let n = min(e.count, hs.count)
    remap.removeAll(keepingCapacity: true)
    remap.reserveCapacity(max(n, 1))
    remap.append(.absent)
    guard n > 1, let base = a.baseAddress else { return }
    // Ids are 32-bit: like growing the table past 2^32 slots, this needs
    // more memory than any machine has (tens of gigabytes of ends alone).
    precondition(n - 1 < Int(UInt32.max) - ends.count, "StringPool: more than 2^32 strings")
    guard wraps.isEmpty && arena.count + a.count < 1 << endShift else {
      // Past 4 GiB of distinct bytes the ends wrap: one string at a time.
      let limit = a.count
      for k in 1..<n {
        let start = e[k - 1], end = e[k]
        guard start >= 0, end > start, end <= limit else {
          remap.append(.absent)
          continue
        }
        remap.append(intern(UnsafeRawBufferPointer(rebasing: a[start..<end]), hash: hs[k]))
      }
      return
    }
    // Room for every string being new: the table (so it does not move or
    // grow inside the loop), then `arena`, `ends` and `remap` extended to
    // their worst case and trimmed after, so the loop writes through
    // pointers with no per-string call, capacity or uniqueness check.
    reserve(additional: n - 1, bytes: a.count)
    let firstNew = ends.count
    let arenaStart = arena.count
    arena.append(contentsOf: repeatElement(0, count: a.count))
    ends.append(contentsOf: repeatElement(0, count: n - 1))
    remap.append(contentsOf: repeatElement(.absent, count: n - 1))
    var newCount = 0
    var arenaEnd = arenaStart
    // The table is sized for every string: its width is settled.
    if slots.isNarrow {
      internHashed(NarrowSlot.self, base, e, hs, a.count, firstNew, &newCount, &arenaEnd, &remap)
    } else {
      internHashed(WideSlot.self, base, e, hs, a.count, firstNew, &newCount, &arenaEnd, &remap)
    }
    arena.removeLast(arena.count - arenaEnd)
    ends.removeLast(ends.count - (firstNew + newCount))
  }

  /// The loop of ``internHashed(arena:ends:hashes:into:)`` over slots of
  /// layout `L`: interns strings `1 ..< n` of `base` into the room reserved
  /// at ids `firstNew...` and arena offset `arenaEnd...`, counting the new
  /// ones in `newCount`.
  @inline(__always)
  private mutating func internHashed<L: SlotLayout>(
    _: L.Type, _ base: UnsafeRawPointer, _ e: UnsafeBufferPointer<Int>, _ hs: UnsafeBufferPointer<UInt32>,
    _ limit: Int, _ firstNew: Int, _ newCount: inout Int, _ arenaEnd: inout Int, _ remap: inout [StringID]
  ) {
    let n = min(e.count, hs.count)
    let width = self.width, count = slots.count
    slots.withUnsafeMutableBufferPointer(as: L.Slot.self) { sl in
      ends.withUnsafeMutableBufferPointer { en in
        arena.withUnsafeMutableBytes { ar in
          remap.withUnsafeMutableBufferPointer { out in
            guard let sb = sl.baseAddress, let eb = en.baseAddress, let ab = ar.baseAddress else { return }
            // Three stages of prefetch, for the three places a probe reads:
            // the home slot 32 strings ahead; 16 ahead, when that slot (in
            // cache by now) holds an id with the same key, that id's end;
            // 8 ahead, its bytes. Most repeats are found in their home slot,
            // so a repeat costs no wait either. (16 / 8 / 4 left the second
            // stage waiting for slots that had not arrived yet.)
            for k in 1..<min(n, 33) { ohana_prefetch(sb + Self.home(hs[k], width)) }
            for k in 1..<n {
              if k + 32 < n { ohana_prefetch(sb + Self.home(hs[k + 32], width)) }
              if k + 16 < n {
                let h = hs[k + 16]
                let v = sb[Self.home(h, width)]
                let id = L.id(v)
                if L.matches(v, L.key(h)), id > 0 { ohana_prefetch(eb + (id - 1)) }
              }
              if k + 8 < n {
                let h = hs[k + 8]
                let v = sb[Self.home(h, width)]
                let id = L.id(v)
                if L.matches(v, L.key(h)), id > 0 { ohana_prefetch(ab + Int(eb[id - 1])) }
              }
              let start = e[k - 1], end = e[k]
              guard start >= 0, end > start, end <= limit else { continue }  // absent
              let length = end - start
              let p = base + start
              let h = hs[k]
              let key = L.key(h)
              var slot = Self.home(h, width)
              while true {
                let v = sb[slot]
                if v == 0 {
                  let id = firstNew + newCount
                  Self.copyBytes(to: ab + arenaEnd, from: p, count: length)
                  arenaEnd += length
                  eb[id] = UInt32(truncatingIfNeeded: arenaEnd)  // below 2^endShift: checked above
                  newCount += 1
                  sb[slot] = L.slot(id, key: key)
                  out[k] = StringID(rawValue: UInt32(truncatingIfNeeded: id))
                  break
                }
                if L.matches(v, key) {
                  let i = L.id(v)
                  let s0 = Int(eb[i - 1])
                  if Int(eb[i]) - s0 == length && Self.bytesEqual(ab + s0, p, length) {
                    out[k] = StringID(rawValue: UInt32(truncatingIfNeeded: i))
                    break
                  }
                }
                slot += 1
                if slot == count { slot = 0 }
              }
            }
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
  /// for every `i`, writing their ids to `ids` (which is cleared first). A
  /// range that is empty or out of bounds gives ``StringID/absent``.
  ///
  /// Large batches are interned in hash order rather than input order:
  /// 1. hash every string (a sequential read of `buffer`) into a key
  ///    `hash << 32 | index`;
  /// 2. counting-sort the keys on the hash's top bits, which are the slot
  ///    index's top bits (see the layout above);
  /// 3. intern in that order: the probes sweep the slot table front to back,
  ///    new strings of one region land next to each other in the arena, and
  ///    each string's bytes are prefetched a few keys ahead.
  /// So a batch far bigger than the caches costs a few sequential passes
  /// instead of a cache miss or three per string. New ids are issued in that
  /// order (deterministic for the same pool and input, not first-seen order).
  ///
  /// - Complexity: O(total bytes) expected; 16 bytes of scratch per string and a copy of the bytes.
  public mutating func intern(
    contentsOf buffer: UnsafeRawBufferPointer, offsets: UnsafeBufferPointer<Int>,
    into ids: inout [StringID]
  ) {
    ids.removeAll(keepingCapacity: true)
    guard offsets.count > 1 else { return }
    internBatch(buffer, count: offsets.count - 1, into: &ids) { i in
      (offsets[i], offsets[i + 1])
    }
  }

  /// Bulk path over a buffer of strings separated by `separator` (for example
  /// newline-separated names), appending one id per string: an empty string
  /// gives ``StringID/absent``, and a final separator ends the last string.
  /// Interns in hash order like ``intern(contentsOf:offsets:into:)``.
  public mutating func intern(
    separatedBy separator: UInt8, in buffer: UnsafeRawBufferPointer, into ids: inout [StringID]
  ) {
    // starts[k] ..< starts[k + 1] - 1 is string k (the separator excluded);
    // a sentinel start one past the end closes a last string with no separator.
    var starts: [Int] = [0]
    let n = buffer.count
    for i in 0..<n where buffer[i] == separator { starts.append(i + 1) }
    if starts.last != n { starts.append(n + 1) }
    let count = starts.count - 1
    guard count > 0 else { return }
    var batch: [StringID] = []
    starts.withUnsafeBufferPointer { st in
      internBatch(buffer, count: count, into: &batch) { k in
        (st[k], st[k + 1] - 1)
      }
    }
    ids.append(contentsOf: batch)
  }

  /// The bulk algorithm over `count` strings, string `i` being
  /// `buffer[range(i).start ..< range(i).end]` (out of bounds: absent).
  /// Writes `count` ids to the empty `ids`.
  ///
  /// 1. `BatchCensus`: hash every string (a sequential read), counting
  ///    strings and bytes per partition of the hash's top bits, which are
  ///    the slot index's top bits (see the layout above);
  /// 2. `BatchScratch.scatter`: hash again and scatter each string's record
  ///    and its bytes into its partition: the records end up in hash order,
  ///    bytes beside them;
  /// 3. `sweepBatch`: probe in that order: records and bytes are read front
  ///    to back and the slot table is swept one cache-sized region at a
  ///    time; a new string's bytes are copied, while in cache, to the
  ///    arena's next bytes; then the new bytes and ends are committed to
  ///    the arena at once;
  /// 4. `BatchScratch.writeIDs`: each input string's id from its record.
  /// Strings of 1 MiB or more skip the batch and are interned one by one.
  @inline(__always)
  private mutating func internBatch(
    _ buffer: UnsafeRawBufferPointer, count n: Int, into ids: inout [StringID],
    range: (Int) -> (start: Int, end: Int)
  ) {
    ids.reserveCapacity(n)
    let size = buffer.count
    // The sweep keeps ends in 32 bits, so it runs while the arena stays
    // below 2^endShift bytes (4 GiB); past that, one string at a time.
    guard n >= Self.bulkThreshold, n < Int(UInt32.max), wraps.isEmpty, arena.count + size < 1 << endShift,
      let base = buffer.baseAddress
    else {
      internEach(buffer, count: n, into: &ids, range: range)
      return
    }
    ids.append(contentsOf: repeatElement(.absent, count: n))
    var census = BatchCensus(base, size: size, count: n, range: range)
    let scratch = BatchScratch(strings: n, records: census.records, bytes: census.bytes)
    defer { scratch.release() }
    scratch.scatter(
      base, size: size, down: census.down, counts: &census.counts, byteCounts: &census.byteCounts, range: range)
    sizeTableForBatch(census)
    let swept = sweepBatch(scratch, records: census.records, bytes: census.bytes)
    internUnswept(scratch, from: swept.stoppedAt, offset: swept.offset)
    scratch.writeIDs(into: &ids)
    for i in census.long {
      let (start, end) = range(i)
      ids[i] = intern(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
    }
    let fit = Self.tableSize(for: ends.count)
    if fit < slots.count / 2 { rebuild(size: fit + fit / 2) }
  }

  /// `internBatch` one string at a time (a small batch, or an arena near
  /// 2^endShift bytes).
  @inline(__always)
  private mutating func internEach(
    _ buffer: UnsafeRawBufferPointer, count n: Int, into ids: inout [StringID],
    range: (Int) -> (start: Int, end: Int)
  ) {
    let size = buffer.count
    for i in 0..<n {
      let (start, end) = range(i)
      guard start >= 0, end >= start, end <= size else {
        ids.append(.absent)
        continue
      }
      ids.append(intern(UnsafeRawBufferPointer(rebasing: buffer[start..<end])))
    }
  }

  /// Strings of this length or more are interned one by one, outside the
  /// batch (a record keeps a length below 1 MiB).
  @inline(__always)
  private static var batchLengthLimit: UInt64 { (1 << 20) - 1 }

  /// Step 1 of `internBatch`, the hash pass: per top-bits partition, the
  /// number of strings and of bytes; a HyperLogLog sketch of the distinct
  /// count. Reads `buffer` in order and writes nothing big.
  private struct BatchCensus {
    /// The shift that takes a hash to its partition.
    let down: UInt32
    /// Per partition, its first record and its first byte in the batch
    /// (prefix sums; one more entry than partitions).
    var counts: [Int]
    var byteCounts: [Int]
    /// The HyperLogLog registers (see `estimateDistinct`).
    var sketch: [UInt8]
    /// The strings of `batchLengthLimit` bytes or more, by input index.
    var long: [Int] = []
    /// The strings in the batch (present, in bounds, not long).
    var records = 0
    /// Their bytes in all.
    var bytes = 0

    @inline(__always)
    init(_ base: UnsafeRawPointer, size: Int, count n: Int, range: (Int) -> (start: Int, end: Int)) {
      let bits = StringPool.partitionBits(for: n)
      let down = UInt32(32 - bits)
      let partitions = 1 << bits
      let lengthMask = StringPool.batchLengthLimit
      var counts = [Int](repeating: 0, count: partitions + 1)
      var byteCounts = [Int](repeating: 0, count: partitions + 1)
      var sketch = [UInt8](repeating: 0, count: StringPool.sketchRegisters)
      var long: [Int] = []
      var m = 0
      counts.withUnsafeMutableBufferPointer { c in
        byteCounts.withUnsafeMutableBufferPointer { bc in
          sketch.withUnsafeMutableBufferPointer { sk in
            for i in 0..<n {
              let (start, end) = range(i)
              guard start >= 0, end > start, end <= size else { continue }
              let length = end - start
              if UInt64(truncatingIfNeeded: length) >= lengthMask {
                long.append(i)
                continue
              }
              let h = StringPool.hash(UnsafeRawBufferPointer(start: base + start, count: length))
              let b = Int(truncatingIfNeeded: h >> down) + 1
              c[b] += 1
              bc[b] += length
              let rank = UInt8(truncatingIfNeeded: ((h << 11) | 0x400).leadingZeroBitCount + 1)
              let register = Int(truncatingIfNeeded: h & 0x7FF)
              if rank > sk[register] { sk[register] = rank }
              m += 1
            }
          }
        }
      }
      for b in 1...partitions {
        counts[b] += counts[b - 1]
        byteCounts[b] += byteCounts[b - 1]
      }
      self.down = down
      self.counts = counts
      self.byteCounts = byteCounts
      self.sketch = sketch
      self.long = long
      self.records = m
      self.bytes = byteCounts[partitions]
    }
  }

  /// The scratch memory of one `internBatch`, freed by `release()`: the
  /// records (`hash << 32 | length`) in hash order, their bytes end to end
  /// in the same order, and the transpose from input strings to records.
  ///
  /// Ids are written back through the transpose: the probe writes them in
  /// record order (`byRecord`, sequential) and a last pass reads them for
  /// each input string by its record's position (`position`, written
  /// sequentially by the scatter): scattered reads instead of scattered
  /// writes, which would each fetch a line and write it back dirty.
  private struct BatchScratch {
    private let partedMemory: ScratchMemory
    private let recordMemory: ScratchMemory
    private let transposeMemory: ScratchMemory
    /// The strings' bytes, partition by partition.
    let parted: UnsafeMutableRawPointer
    /// The records, in hash order (by top bits) once scattered.
    let sorted: UnsafeMutableBufferPointer<UInt64>
    /// Per input string, its record's index (`unplaced`: none).
    let position: UnsafeMutableBufferPointer<UInt32>
    /// Per record, its id.
    let byRecord: UnsafeMutableBufferPointer<UInt32>

    /// The `position` of a string not in the batch (absent or long).
    @inline(__always)
    static var unplaced: UInt32 { .max }

    @inline(__always)
    init(strings n: Int, records m: Int, bytes: Int) {
      partedMemory = ScratchMemory(byteCount: bytes)
      recordMemory = ScratchMemory(byteCount: 8 * m)
      transposeMemory = ScratchMemory(byteCount: 4 * n + 4 * m)
      parted = partedMemory.base
      sorted = UnsafeMutableBufferPointer(start: recordMemory.base.bindMemory(to: UInt64.self, capacity: m), count: m)
      let transpose = transposeMemory.base.bindMemory(to: UInt32.self, capacity: n + m)
      position = UnsafeMutableBufferPointer(start: transpose, count: n)
      byRecord = UnsafeMutableBufferPointer(start: transpose + n, count: m)
    }

    func release() {
      partedMemory.release()
      recordMemory.release()
      transposeMemory.release()
    }

    /// Step 2 of `internBatch`, the scatter pass: hashes again and writes
    /// each string's record and its bytes into its partition, in input
    /// order within a partition. Afterwards the records are in hash order
    /// (by top bits) and every string's bytes sit next to its neighbours'
    /// in `parted`, in the records' order. Moves the partitions' starts
    /// (`counts`, `byteCounts`: the census's) to their ends.
    @inline(__always)
    func scatter(
      _ base: UnsafeRawPointer, size: Int, down: UInt32, counts: inout [Int], byteCounts: inout [Int],
      range: (Int) -> (start: Int, end: Int)
    ) {
      let n = position.count
      let lengthMask = StringPool.batchLengthLimit
      let sr = sorted, pb = parted
      counts.withUnsafeMutableBufferPointer { c in
        byteCounts.withUnsafeMutableBufferPointer { bc in
          for i in 0..<n {
            let (start, end) = range(i)
            guard start >= 0, end > start, end <= size else {
              position[i] = Self.unplaced
              continue
            }
            let length = end - start
            if UInt64(truncatingIfNeeded: length) >= lengthMask {
              position[i] = Self.unplaced
              continue
            }
            let p = UnsafeRawBufferPointer(start: base + start, count: length)
            let h = StringPool.hash(p)
            let b = Int(truncatingIfNeeded: h >> down)
            let d = c[b]
            let o = bc[b]
            c[b] = d + 1
            bc[b] = o + length
            sr[d] = UInt64(h) << 32 | UInt64(truncatingIfNeeded: length)
            position[i] = UInt32(truncatingIfNeeded: d)
            StringPool.copyBytes(to: pb + o, from: base + start, count: length)
          }
        }
      }
    }

    /// Step 4 of `internBatch`, the transpose: each input string's id from
    /// its record (strings not in the batch keep theirs).
    @inline(__always)
    func writeIDs(into ids: inout [StringID]) {
      let n = position.count
      ids.withUnsafeMutableBufferPointer { out in
        guard let rb = byRecord.baseAddress else { return }
        for i in 0..<n {
          if i + 16 < n {
            let ahead = position[i + 16]
            if ahead != Self.unplaced { ohana_prefetch(rb + Int(truncatingIfNeeded: ahead)) }
          }
          let d = position[i]
          if d != Self.unplaced { out[i] = StringID(rawValue: rb[Int(truncatingIfNeeded: d)]) }
        }
      }
    }
  }

  /// Sizes the table for a batch's estimated new strings (plus a margin)
  /// before the sweep: growing from a small table in the middle would crowd
  /// the low hashes inserted so far into its front (one long probe run).
  /// The sweep runs at load at most 3/8 (twice the room), where probe runs
  /// stay short; the table is trimmed to load 1/2 after.
  @inline(__always)
  private mutating func sizeTableForBatch(_ census: BatchCensus) {
    let estimate = min(census.records, Self.estimateDistinct(census.sketch) * 5 / 4)
    ensureTable(for: (ends.count + estimate + census.long.count) * 2)
  }

  /// Step 3 of `internBatch`: probes the scattered records in hash order
  /// (`sweep`), records and bytes read front to
  /// back, the slots region by region. A new string's bytes go, while in
  /// cache, to `tail` (the arena's next bytes): id `firstNew + k` is
  /// `tail[ne[k] - arenaBase ..< ne[k+1] - arenaBase]`. Then the new
  /// strings are committed: the tail becomes the arena's next bytes.
  /// Returns the first record not probed (the sweep stops where the table
  /// would pass its load limit) and the offset of its bytes in `parted`.
  @inline(__always)
  private mutating func sweepBatch(
    _ scratch: BatchScratch, records m: Int, bytes batchBytes: Int
  ) -> (stoppedAt: Int, offset: Int) {
    let firstNew = ends.count
    let arenaBase = arena.count
    var newCount = 0
    var added = 0
    // If the estimate was low and the table would pass its load limit, the
    // sweep stops there and the rest is interned one string at a time.
    let limit = slots.count * 3 / 4 - firstNew
    var stoppedAt = m
    // Records and their bytes are in the same order, so a record's bytes
    // start where the previous record's end.
    var offset = 0
    var newEnds: [UInt32] = []  // below 2^endShift: checked at the start
    let pb = scratch.parted, byRecord = scratch.byRecord
    let tail = [UInt8](unsafeUninitializedCapacity: max(batchBytes, 1)) { tailBuffer, tailCount in
      newEnds = [UInt32](unsafeUninitializedCapacity: m + 1) { ne, neCount in
        guard let tb = tailBuffer.baseAddress else {
          neCount = 0
          return
        }
        ne.initializeElement(at: 0, to: UInt32(truncatingIfNeeded: arenaBase))
        let sr = UnsafeBufferPointer(scratch.sorted)
        if slots.isNarrow {
          stoppedAt = sweep(NarrowSlot.self, sr, pb, tb, ne, byRecord, firstNew, arenaBase, limit, &offset, &added, &newCount)
        } else {
          stoppedAt = sweep(WideSlot.self, sr, pb, tb, ne, byRecord, firstNew, arenaBase, limit, &offset, &added, &newCount)
        }
        neCount = newCount + 1
      }
      tailCount = added
    }
    if arena.isEmpty { arena = tail } else { arena.append(contentsOf: tail) }
    if ends.count == 1 && arenaBase == 0 {
      ends = newEnds  // newEnds[0] == 0 == ends[0]
    } else {
      ends.append(contentsOf: newEnds.dropFirst())
    }
    return (stoppedAt, offset)
  }

  /// The records a stopped sweep left, from `j0` (their bytes from
  /// `offset` in `parted`), interned one at a time.
  @inline(__always)
  private mutating func internUnswept(_ scratch: BatchScratch, from j0: Int, offset: Int) {
    let sr = scratch.sorted, pb = scratch.parted, byRecord = scratch.byRecord
    var offset = offset
    for j in j0..<sr.count {
      let key = sr[j]
      let length = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
      let bytes = UnsafeRawBufferPointer(start: pb + offset, count: length)
      offset += length
      byRecord[j] = intern(bytes, hash: UInt32(truncatingIfNeeded: key >> 32)).rawValue
    }
  }

  /// The probe loop of `sweepBatch` over slots of layout `L`: probes the
  /// records
  /// `sr` (hash-ordered, their bytes end to end at `pb + offset`) until
  /// `limit` new strings are added, copying new strings to `tb` (new id
  /// `firstNew + k` ends at `ne[k + 1]`) and each record's id to
  /// `byRecord`. Returns the index of the first record not probed.
  @inline(__always)
  private mutating func sweep<L: SlotLayout>(
    _: L.Type, _ sr: UnsafeBufferPointer<UInt64>, _ pb: UnsafeMutableRawPointer, _ tb: UnsafeMutablePointer<UInt8>,
    _ ne: UnsafeMutableBufferPointer<UInt32>, _ byRecord: UnsafeMutableBufferPointer<UInt32>,
    _ firstNew: Int, _ arenaBase: Int, _ limit: Int, _ offset: inout Int, _ added: inout Int, _ newCount: inout Int
  ) -> Int {
    let m = sr.count
    let width = self.width, count = slots.count
    let ahead = 16
    var stoppedAt = m
    slots.withUnsafeMutableBufferPointer(as: L.Slot.self) { sl in
      ends.withUnsafeBufferPointer { e in
        arena.withUnsafeBytes { a in
          for j in 0..<m {
            if newCount >= limit {
              stoppedAt = j
              break
            }
            if j + ahead < m {
              ohana_prefetch(sl.baseAddress.map { $0 + Int(truncatingIfNeeded: Self.home(UInt32(truncatingIfNeeded: sr[j + ahead] >> 32), width)) })
            }
            let record = sr[j]
            let p = pb + offset
            let length = Int(truncatingIfNeeded: record & 0xFFFF_FFFF)
            offset += length
            let h = UInt32(truncatingIfNeeded: record >> 32)
            let key = L.key(h)
            var slot = Self.home(h, width)
            var found = 0
            while true {
              let v = sl[slot]
              if v == 0 { break }
              if L.matches(v, key) {
                let id = L.id(v)
                if id >= firstNew {
                  let k = id - firstNew
                  let start = Int(ne[k]) - arenaBase
                  if Int(ne[k + 1]) - arenaBase - start == length, Self.bytesEqual(tb + start, p, length) {
                    found = id
                    break
                  }
                } else {
                  let start = Int(e[id - 1])
                  if Int(e[id]) - start == length, let ab = a.baseAddress, Self.bytesEqual(ab + start, p, length) {
                    found = id
                    break
                  }
                }
              }
              slot += 1
              if slot == count { slot = 0 }
            }
            if found == 0 {
              found = firstNew + newCount
              Self.copyBytes(to: tb + added, from: p, count: length)
              added += length
              newCount += 1
              ne.initializeElement(at: newCount, to: UInt32(truncatingIfNeeded: arenaBase + added))
              sl[slot] = L.slot(found, key: key)
            }
            byRecord[j] = UInt32(truncatingIfNeeded: found)
          }
        }
      }
    }
    return stoppedAt
  }

  /// Registers of the HyperLogLog sketch that sizes a batch's table.
  static let sketchRegisters = 2048

  /// The distinct count estimated from a HyperLogLog sketch whose register
  /// `h & 2047` holds the largest `1 + leading zeros` of the other 21 bits
  /// of a hash `h` (Flajolet et al. 2007, with the small-range correction;
  /// standard error about 2.3%).
  static func estimateDistinct(_ registers: [UInt8]) -> Int {
    let m = Double(registers.count)
    var sum = 0.0
    var zeros = 0
    for r in registers {
      sum += 1 / Double(UInt64(1) << UInt64(r))
      if r == 0 { zeros += 1 }
    }
    let alpha = 0.7213 / (1 + 1.079 / m)
    var e = alpha * m * m / sum
    if e <= 2.5 * m && zeros > 0 { e = m * log(m / Double(zeros)) }
    return Int(e.rounded(.up))
  }

  /// Batches smaller than this are interned one string at a time.
  static let bulkThreshold = 4096

  /// Top-bit partitions for a batch of `n`: about 256 strings a partition,
  /// between 16 and 256 partitions (more partitions make each one's slot
  /// region smaller, but spread its strings' bytes and ids further apart).
  static func partitionBits(for n: Int) -> Int {
    let log2n = Int.bitWidth - 1 - n.leadingZeroBitCount
    return min(8, max(4, log2n - 8))
  }

  /// Reserves arena and `ends` room for `strings` more strings of `bytes`
  /// bytes in all, leaving the hash table as it is.
  package mutating func reserveStorage(strings: Int, bytes: Int) {
    if ends.count + strings > ends.capacity { ends.reserveCapacity(ends.count + strings) }
    if arena.count + bytes > arena.capacity { arena.reserveCapacity(arena.count + bytes) }
    // The room reserved is about to be filled and then read at random by
    // the merge's probes: huge pages (see `HugePages`).
    let arenaCapacity = arena.capacity, endsCapacity = ends.capacity
    arena.withUnsafeMutableBytes { b in HugePages.advise(b.baseAddress, byteCount: arenaCapacity) }
    ends.withUnsafeMutableBufferPointer { b in HugePages.advise(UnsafeMutableRawPointer(b.baseAddress), byteCount: endsCapacity * 4) }
  }

  /// Reserves room for `additional` more distinct strings and `bytes` more arena bytes.
  /// Capacity grows geometrically, so calling this once per part of a
  /// concatenation stays linear.
  public mutating func reserve(additional: Int, bytes: Int = 0) {
    let needEnds = ends.count + additional
    if needEnds > ends.capacity { ends.reserveCapacity(max(needEnds, ends.capacity * 2)) }
    let needBytes = arena.count + bytes
    if bytes > 0 && needBytes > arena.capacity { arena.reserveCapacity(max(needBytes, arena.capacity * 2)) }
    ensureTable(for: ends.count + additional)
  }

  // MARK: Internals

  /// The id equal to `bytes` (0 if none) and the slot where the probe
  /// stopped (where a new id goes). `bytes` is not empty.
  @inline(__always)
  func find(_ bytes: UnsafeRawBufferPointer, hash h: UInt32) -> (id: UInt32, slot: Int) {
    slots.isNarrow ? find(NarrowSlot.self, bytes, hash: h) : find(WideSlot.self, bytes, hash: h)
  }

  @inline(__always)
  private func find<L: SlotLayout>(_: L.Type, _ bytes: UnsafeRawBufferPointer, hash h: UInt32) -> (id: UInt32, slot: Int) {
    let n = bytes.count
    let width = self.width, count = slots.count
    let key = L.key(h)
    return slots.withUnsafeBufferPointer(as: L.Slot.self) { s in
      withStorage { a, e in
        var slot = Self.home(h, width)
        while true {
          let v = s[slot]
          if v == 0 { return (0, slot) }
          if L.matches(v, key) {
            let i = L.id(v)
            let start = e[i - 1]
            if e[i] - start == n, let ab = a.baseAddress, let bb = bytes.baseAddress,
              Self.bytesEqual(ab + start, bb, n)
            {
              return (UInt32(truncatingIfNeeded: i), slot)
            }
          }
          slot += 1
          if slot == count { slot = 0 }
        }
      }
    }
  }

  /// The home slot of hash `h` in a table of `width` slots: the hash's top
  /// bits scaled to the table (monotonic in `h`).
  @usableFromInline @inline(__always)
  static func home(_ h: UInt32, _ width: UInt64) -> Int {
    Int(truncatingIfNeeded: (UInt64(h) &* width) >> 32)
  }

  /// Whether the table holds `ids` ids (including id 0) without growing.
  package func tableFits(_ ids: Int) -> Bool { Self.tableSize(for: ids) <= slots.count }

  /// Slots in the hash table (4 bytes each when narrow, 8 when wide; at
  /// most 3/4 of them in use).
  public var tableSlotCount: Int { slots.count }

  /// Sizes the table for `ids` ids (including id 0) at load at most 3/4,
  /// exactly (no growth by half): for a caller that knows about how many
  /// strings are coming. Never shrinks.
  package mutating func reserveTable(for ids: Int) {
    let need = Self.tableSize(for: ids)
    if need > slots.count { rebuild(size: need) }
  }

  /// Makes the table big enough for `ids` ids (including id 0) at load at
  /// most 3/4, growing it by at least half (wide) or to at least twice its
  /// size (narrow) so that growing one string at a time stays linear. A
  /// narrow table hashes every string again when it grows: doubling does
  /// that about 1.4 times per string in all instead of 2.4, and a doubled
  /// narrow table is still smaller than a wide one grown by half.
  mutating func ensureTable(for ids: Int) {
    let need = Self.tableSize(for: ids)
    if need > slots.count {
      rebuild(size: max(need, slots.isNarrow ? slots.count * 2 : slots.count + slots.count / 2))
    }
  }

  /// Re-places every id in a table of `size` slots (at least
  /// ``tableSize(for:)`` of the ids), narrow or wide as ``slotWidths`` says
  /// for that size. From wide slots the hashes are read back, walking the
  /// old slots in order: homes are monotonic in the hash, so old slots map
  /// to new ones in order and the pass writes the new table front to back.
  /// From narrow slots every id's bytes are hashed again, in id order (see
  /// ``rehash(into:as:)``).
  mutating func rebuild(size: Int) {
    // A table of more than 2^32 slots would hold more than 2^32 ids, which
    // `internHashed` refuses first.
    guard size <= 1 << 32 else { fatalError("StringPool: more than 2^32 slots") }
    let narrow = slotWidths.isNarrow(slots: size)
    var newSlots = SlotTable(count: size, narrow: narrow)
    switch (slots.isNarrow, narrow) {
    case (false, false): replace(into: &newSlots, as: WideSlot.self)
    case (false, true): replace(into: &newSlots, as: NarrowSlot.self)
    case (true, false): rehash(into: &newSlots, as: WideSlot.self)
    case (true, true): rehash(into: &newSlots, as: NarrowSlot.self)
    }
    slots = newSlots
    width = UInt64(size)
  }

  /// Re-places every id of the (wide) table in `table` (empty, of layout
  /// `New`) by the hash its slot keeps, walking the old slots in order.
  @inline(__always)
  private func replace<New: SlotLayout>(into table: inout SlotTable, as _: New.Type) {
    let size = table.count
    let newWidth = UInt64(size)
    slots.withUnsafeBufferPointer(as: UInt64.self) { old in
      table.withUnsafeMutableBufferPointer(as: New.Slot.self) { ns in
        for v in old where v != 0 {
          let h = WideSlot.hash(v)
          var slot = Self.home(h, newWidth)
          while ns[slot] != 0 {
            slot += 1
            if slot == size { slot = 0 }
          }
          ns[slot] = New.slot(WideSlot.id(v), key: New.key(h))
        }
      }
    }
  }

  /// Places every id in `table` (empty, of layout `New`), hashing its
  /// bytes: in id order, so `ends` and the arena are read front to back,
  /// with each id's home prefetched 16 ids before it is written.
  @inline(__always)
  private func rehash<New: SlotLayout>(into table: inout SlotTable, as _: New.Type) {
    let size = table.count
    let newWidth = UInt64(size)
    let count = ends.count
    let ahead = 16
    table.withUnsafeMutableBufferPointer(as: New.Slot.self) { ns in
      withStorage { a, e in
        guard let ab = a.baseAddress, let nb = ns.baseAddress else { return }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: ahead) { ring in
          // Hashes of ids `id ..< id + ahead`, at `ring[id % ahead]`.
          var hashedEnd = 0
          for k in 1..<min(count, 1 + ahead) {
            let end = e[k]
            let h = Self.hash(UnsafeRawBufferPointer(start: ab + hashedEnd, count: end - hashedEnd))
            hashedEnd = end
            ring[k & (ahead - 1)] = h
            ohana_prefetch(nb + Self.home(h, newWidth))
          }
          for id in 1..<count {
            let h = ring[id & (ahead - 1)]
            let k = id + ahead
            if k < count {
              let end = e[k]
              let hk = Self.hash(UnsafeRawBufferPointer(start: ab + hashedEnd, count: end - hashedEnd))
              hashedEnd = end
              ring[k & (ahead - 1)] = hk
              ohana_prefetch(nb + Self.home(hk, newWidth))
            }
            var slot = Self.home(h, newWidth)
            while ns[slot] != 0 {
              slot += 1
              if slot == size { slot = 0 }
            }
            ns[slot] = New.slot(id, key: New.key(h))
          }
        }
      }
    }
  }

  /// The smallest table for `ids` ids (including id 0) at load at most 3/4:
  /// at least 16 slots, a multiple of 8 (whole 64-byte lines when wide).
  static func tableSize(for ids: Int) -> Int {
    let minimum = (ids * 4 + 2) / 3
    return max(16, (minimum + 7) & ~7)
  }

  /// Copies `n` bytes with at most two overlapping loads and stores for
  /// `n <= 16` (no call), `copyMemory` above. Writes exactly `dst ..< dst+n`.
  /// Shared by the pool, `StringBatch` and OhanaIO's `ByteBuffer`.
  @usableFromInline @inline(__always)
  package static func copyBytes(to dst: UnsafeMutableRawPointer, from src: UnsafeRawPointer, count n: Int) {
    if n > 16 {
      dst.copyMemory(from: src, byteCount: n)
    } else if n >= 8 {
      let a = src.loadUnaligned(as: UInt64.self), b = src.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      dst.storeBytes(of: a, as: UInt64.self)
      dst.storeBytes(of: b, toByteOffset: n - 8, as: UInt64.self)
    } else if n >= 4 {
      let a = src.loadUnaligned(as: UInt32.self), b = src.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
      dst.storeBytes(of: a, as: UInt32.self)
      dst.storeBytes(of: b, toByteOffset: n - 4, as: UInt32.self)
    } else if n >= 2 {
      let a = src.loadUnaligned(as: UInt16.self), b = src.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)
      dst.storeBytes(of: a, as: UInt16.self)
      dst.storeBytes(of: b, toByteOffset: n - 2, as: UInt16.self)
    } else if n == 1 {
      dst.storeBytes(of: src.load(as: UInt8.self), as: UInt8.self)
    }
  }

  /// Word-at-a-time equality of two byte ranges of length `n`; the last
  /// partial word is compared with overlapping loads, not byte by byte.
  @usableFromInline @inline(__always)
  package static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
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
    precondition(end(ends.count - 1) == arena.count, "arena length mismatch")
    for k in 1..<max(1, wraps.count) { precondition(wraps[k - 1] <= wraps[k], "wraps out of order") }
    precondition(width == UInt64(slots.count) && slots.count >= 16, "bad table size")
    precondition(ends.count * 4 <= slots.count * 3, "load factor exceeded")
    precondition(slots.isNarrow == slotWidths.isNarrow(slots: slots.count), "slot width does not follow the table size")
    precondition(!slots.isNarrow || ends.count <= slotWidths.narrowIDLimit, "id too big for a narrow slot")
    if slots.isNarrow { checkSlots(NarrowSlot.self) } else { checkSlots(WideSlot.self) }
    #endif
  }

  #if OHANA_INTERNAL_CHECKS
  /// Every id `1 ..< count` in exactly one slot, which is the slot of that
  /// id and its bytes' hash, and is reached by a probe from the hash's home
  /// (no empty slot in between).
  private func checkSlots<L: SlotLayout>(_: L.Type) {
    var seen = [Bool](repeating: false, count: ends.count)
    var occupied = 0
    let count = slots.count
    slots.withUnsafeBufferPointer(as: L.Slot.self) { s in
      withStorage { a, e in
        for i in 0..<count {
          let v = s[i]
          if v == 0 { continue }
          occupied += 1
          let id = L.id(v)
          precondition(id > 0 && id < e.count, "slot holds an unknown id")
          precondition(!seen[id], "id in two slots")
          seen[id] = true
          let h = Self.hash(UnsafeRawBufferPointer(rebasing: a[e[id - 1]..<e[id]]))
          precondition(v == L.slot(id, key: L.key(h)), "slot does not hold its id's hash")
          var j = Self.home(h, width)
          while j != i {
            precondition(s[j] != 0, "id not reachable from its home slot")
            j += 1
            if j == count { j = 0 }
          }
        }
      }
    }
    precondition(occupied == ends.count - 1, "one slot per id")
  }
  #endif
}
