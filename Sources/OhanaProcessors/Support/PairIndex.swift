/// Dense indices for distinct pairs of 64-bit words: an open-addressing
/// table (linear probing, load factor at most 1/2) of `(a, b) -> index`,
/// where indices are handed out 0, 1, 2... in first-seen order.
///
/// A flat replacement for `[Key: Int32]` on hot paths (one cache line per
/// probe, no `Hasher`).
///
/// - Complexity: `index(_:_:)` is O(1) expected.
struct PairIndex: Sendable {
  private struct Slot {
    var a: UInt64
    var b: UInt64
    var index: Int32  // -1: empty
  }

  private var slots: [Slot]
  private var mask: Int
  /// The number of distinct pairs seen.
  private(set) var count = 0

  /// Room for about `capacity` pairs before the first growth.
  init(capacity: Int = 0) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: Slot(a: 0, b: 0, index: -1), count: size)
    mask = size - 1
  }

  /// A well-mixed 64-bit hash of a pair (also usable to partition pairs).
  @inline(__always)
  static func hash(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var h = (a ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
    h ^= (b &+ 0x632B_E59B_D9B4_E019) &* 0x94D0_49BB_1331_11EB
    h ^= h >> 31
    h = h &* 0xD6E8_FEB8_6659_FD93
    h ^= h >> 32
    return h
  }

  /// The index of `(a, b)`, and whether it was new (then it is `count - 1`).
  /// `h` must be `PairIndex.hash(a, b)` (growing re-places pairs with it).
  @inline(__always)
  mutating func index(_ a: UInt64, _ b: UInt64, hash h: UInt64) -> (index: Int32, inserted: Bool) {
    let found: (Int32, Int) = slots.withUnsafeBufferPointer { s in
      var slot = Int(truncatingIfNeeded: h) & mask
      while true {
        let e = s[slot]
        if e.index < 0 { return (-1, slot) }
        if e.a == a && e.b == b { return (e.index, slot) }
        slot = (slot + 1) & mask
      }
    }
    if found.0 >= 0 { return (found.0, false) }
    let new = Int32(truncatingIfNeeded: count)
    slots[found.1] = Slot(a: a, b: b, index: new)
    count += 1
    if count * 2 > slots.count { grow() }
    return (new, true)
  }

  mutating func index(_ a: UInt64, _ b: UInt64) -> (index: Int32, inserted: Bool) {
    index(a, b, hash: Self.hash(a, b))
  }

  private mutating func grow() {
    let size = slots.count * 2
    var bigger = [Slot](repeating: Slot(a: 0, b: 0, index: -1), count: size)
    let newMask = size - 1
    bigger.withUnsafeMutableBufferPointer { ns in
      for e in slots where e.index >= 0 {
        var slot = Int(truncatingIfNeeded: Self.hash(e.a, e.b)) & newMask
        while ns[slot].index >= 0 { slot = (slot + 1) & newMask }
        ns[slot] = e
      }
    }
    slots = bigger
    mask = newMask
  }
}
