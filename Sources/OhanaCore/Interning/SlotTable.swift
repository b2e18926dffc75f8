/// The memory of ``StringPool``'s hash table: `count` slots of 32 bits
/// (narrow) or 64 bits (wide), zero when made, shared by copies of a pool
/// until one of them writes (copy on write, like an array's). What a slot
/// holds is ``NarrowSlot`` or ``WideSlot``'s business; the table only
/// stores words of one width or the other, fixed when it is made.
///
/// Not an array because of its size and the way it is filled: a table of
/// tens of megabytes is written at random, every page of it, right after it
/// is made. As a ``ScratchMemory`` mapping with huge pages that costs a few
/// dozen page faults, with the zeroing done by the kernel, instead of one
/// fault per 4 KiB page after a `memset`.
@usableFromInline
struct SlotTable: Sendable {
  /// Owns the memory, bound to `UInt32` (narrow) or `UInt64` (wide).
  /// Written only through a table that holds the only reference to it (see
  /// ``withUnsafeMutableBufferPointer(as:_:)``), so a buffer that several
  /// tables share, on several threads, is only read.
  @usableFromInline
  final class Buffer: @unchecked Sendable {
    let memory: ScratchMemory
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let count: Int
    @usableFromInline let isNarrow: Bool

    init(count: Int, narrow: Bool) {
      let n = max(count, 1)
      let stride = narrow ? 4 : 8
      memory = ScratchMemory(byteCount: n * stride)
      base = memory.base
      if narrow {
        let p = base.bindMemory(to: UInt32.self, capacity: n)
        if !memory.isZeroed { p.initialize(repeating: 0, count: n) }
      } else {
        let p = base.bindMemory(to: UInt64.self, capacity: n)
        if !memory.isZeroed { p.initialize(repeating: 0, count: n) }
      }
      self.count = count
      isNarrow = narrow
    }

    deinit { memory.release() }
  }

  @usableFromInline var buffer: Buffer

  /// `count` empty (zero) slots of 32 bits (`narrow`) or 64.
  init(count: Int, narrow: Bool = false) { buffer = Buffer(count: count, narrow: narrow) }

  @inlinable var count: Int { buffer.count }

  /// Whether the slots are 32-bit words (else 64-bit).
  @inlinable var isNarrow: Bool { buffer.isNarrow }

  /// Bytes of slot memory: 4 or 8 a slot.
  var byteCount: Int { buffer.count * (buffer.isNarrow ? 4 : 8) }

  /// Slot `i`, widened to 64 bits; a value set in a narrow table must fit
  /// in 32 bits. For tests and single writes: the pool's loops go through
  /// the buffer pointers.
  @inlinable
  subscript(_ i: Int) -> UInt64 {
    get {
      precondition(i >= 0 && i < buffer.count, "slot out of range")
      if buffer.isNarrow { return UInt64(buffer.base.assumingMemoryBound(to: UInt32.self)[i]) }
      return buffer.base.assumingMemoryBound(to: UInt64.self)[i]
    }
    set {
      precondition(i >= 0 && i < buffer.count, "slot out of range")
      makeUnique()
      if buffer.isNarrow {
        precondition(newValue <= UInt64(UInt32.max), "narrow slot value out of range")
        buffer.base.assumingMemoryBound(to: UInt32.self)[i] = UInt32(truncatingIfNeeded: newValue)
      } else {
        buffer.base.assumingMemoryBound(to: UInt64.self)[i] = newValue
      }
    }
  }

  /// Calls `body` with the slots as words of type `S`, which must be the
  /// table's width (`UInt32` when ``isNarrow``, else `UInt64`).
  @inlinable
  func withUnsafeBufferPointer<S: FixedWidthInteger & UnsignedInteger, R>(
    as _: S.Type, _ body: (UnsafeBufferPointer<S>) throws -> R
  ) rethrows -> R {
    try withExtendedLifetime(buffer) { b in
      precondition(MemoryLayout<S>.size == (b.isNarrow ? 4 : 8), "slot width mismatch")
      return try body(UnsafeBufferPointer(start: b.base.assumingMemoryBound(to: S.self), count: b.count))
    }
  }

  /// Calls `body` with the slots to write, as words of type `S` (the
  /// table's width), after copying them if another table shares them.
  @inlinable
  mutating func withUnsafeMutableBufferPointer<S: FixedWidthInteger & UnsignedInteger, R>(
    as _: S.Type, _ body: (UnsafeMutableBufferPointer<S>) throws -> R
  ) rethrows -> R {
    makeUnique()
    return try withExtendedLifetime(buffer) { b in
      precondition(MemoryLayout<S>.size == (b.isNarrow ? 4 : 8), "slot width mismatch")
      return try body(UnsafeMutableBufferPointer(start: b.base.assumingMemoryBound(to: S.self), count: b.count))
    }
  }

  /// The number of slots that are not empty.
  func occupiedCount() -> Int {
    if isNarrow {
      return withUnsafeBufferPointer(as: UInt32.self) { s in s.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }
    }
    return withUnsafeBufferPointer(as: UInt64.self) { s in s.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }
  }

  @inlinable
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&buffer) { copyBuffer() }
  }

  @usableFromInline
  mutating func copyBuffer() {
    let copy = Buffer(count: buffer.count, narrow: buffer.isNarrow)
    copy.base.copyMemory(from: buffer.base, byteCount: byteCount)
    buffer = copy
  }
}

/// What a slot of ``SlotTable`` holds: an id and as much of its string's
/// 32-bit hash as fits beside it (its *key*), or 0 for an empty slot (id 0,
/// the empty string, is never stored). ``StringPool``'s loops are written
/// once, generic over the layout, and specialized for both.
///
/// A probe compares the key of the string it looks for with each slot's
/// (one read, a mask and a compare), and only on a match the bytes.
protocol SlotLayout {
  associatedtype Slot: FixedWidthInteger & UnsignedInteger
  /// The part of hash `h` that a slot keeps, in the slot's bit positions.
  static func key(_ h: UInt32) -> Slot
  /// The slot of `id` (> 0) with key `key`.
  static func slot(_ id: Int, key: Slot) -> Slot
  /// Whether the occupied slot `v` has key `key`.
  static func matches(_ v: Slot, _ key: Slot) -> Bool
  /// The id in slot `v`.
  static func id(_ v: Slot) -> Int
}

/// A 64-bit slot: `hash << 32 | id`. The key is the whole hash, so a probe
/// compares bytes only for a string with the same 32-bit hash, and growing
/// the table or merging the pool into another reads hashes from the slots.
enum WideSlot: SlotLayout {
  @inline(__always)
  static func key(_ h: UInt32) -> UInt64 { UInt64(h) << 32 }

  @inline(__always)
  static func slot(_ id: Int, key: UInt64) -> UInt64 { key | UInt64(truncatingIfNeeded: id) & 0xFFFF_FFFF }

  @inline(__always)
  static func matches(_ v: UInt64, _ key: UInt64) -> Bool { v & 0xFFFF_FFFF_0000_0000 == key }

  @inline(__always)
  static func id(_ v: UInt64) -> Int { Int(truncatingIfNeeded: v & 0xFFFF_FFFF) }

  /// The hash of the id in slot `v`.
  @inline(__always)
  static func hash(_ v: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: v >> 32) }
}

/// A 32-bit slot: `id << 8 | tag`, the tag being the hash's low 8 bits
/// (`h & 0xFF`), which the home slot (`h * width >> 32`, the top bits)
/// does not use; so ids are below 2^24. A probe compares bytes for about
/// one occupied mismatching slot in 256 beyond those of the same string.
/// The rest of the hash is not kept: growing the table hashes the strings
/// again from the arena.
enum NarrowSlot: SlotLayout {
  /// Ids of narrow slots are below this.
  static var idLimit: Int { 1 << 24 }

  @inline(__always)
  static func key(_ h: UInt32) -> UInt32 { h & 0xFF }

  @inline(__always)
  static func slot(_ id: Int, key: UInt32) -> UInt32 { UInt32(truncatingIfNeeded: id) << 8 | key }

  @inline(__always)
  static func matches(_ v: UInt32, _ key: UInt32) -> Bool { v & 0xFF == key }

  @inline(__always)
  static func id(_ v: UInt32) -> Int { Int(truncatingIfNeeded: v >> 8) }
}
