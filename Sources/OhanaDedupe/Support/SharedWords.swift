import COhanaCore

/// 32-bit words that many workers read and write at once, every access
/// atomic (relaxed: the pool's joins order one step's writes before the
/// next step's reads): lists filled at disjoint places, counts, minimums,
/// claims. With ``ConcurrentKeySet`` and ``ParallelFill``, the only unsafe
/// code of the clustering, the keys and the merge's member lists.
final class SharedWords: @unchecked Sendable {
  // @unchecked Sendable: every access to `storage` after `init` is atomic.
  private let storage: UnsafeMutableBufferPointer<UInt32>

  /// `count` words of `value`.
  init(count: Int, value: UInt32 = 0) {
    storage = .allocate(capacity: max(0, count))
    storage.initialize(repeating: value)
  }

  deinit { storage.deallocate() }

  var count: Int { storage.count }

  @inline(__always) private func at(_ i: Int) -> UnsafeMutablePointer<UInt32> {
    precondition(i >= 0 && i < storage.count, "SharedWords index out of range")
    return storage.baseAddress.unsafelyUnwrapped + i
  }

  subscript(i: Int) -> UInt32 {
    get { ohana_atomic_load_u32(at(i)) }
    set { ohana_atomic_store_u32(at(i), newValue) }
  }

  /// Adds one to word `i`; returns its value before.
  @discardableResult
  func add(_ i: Int) -> UInt32 { ohana_atomic_add_u32(at(i), 1) }

  /// Lowers word `i` to `value` if it is 0 or above it (an atomic minimum
  /// of the values given, 0 meaning none yet).
  func lower(_ i: Int, to value: UInt32) {
    let p = at(i)
    var old = ohana_atomic_load_u32(p)
    while old == 0 || old > value {
      if ohana_atomic_cas_u32(p, old, value) != 0 { return }
      old = ohana_atomic_load_u32(p)
    }
  }

  /// Sets word `i` to `new` if it holds `old`; whether it did.
  func replace(_ i: Int, _ old: UInt32, with new: UInt32) -> Bool { ohana_atomic_cas_u32(at(i), old, new) != 0 }

  /// The words, once the workers are done.
  func array() -> [UInt32] { Array(storage) }

  /// The words as signed values, once the workers are done.
  func signedArray() -> [Int32] { storage.map { Int32(bitPattern: $0) } }
}

/// A set of nonzero 64-bit keys that many workers insert into at once: an
/// open-addressing table with linear probing, each slot claimed by an
/// atomic compare-and-swap. A slot never changes once it holds a key, so a
/// key lands in exactly one slot, whichever worker inserts it first; its
/// slot number is its id (which slot depends on the order of insertion,
/// so only the equality of ids means anything).
final class ConcurrentKeySet: @unchecked Sendable {
  // @unchecked Sendable: every access to `slots` is atomic.
  private let slots: UnsafeMutableBufferPointer<UInt64>
  private let mask: Int

  /// Room for `count` keys (at most half the slots used).
  init(capacity count: Int) {
    var capacity = 16
    while capacity < count * 2 { capacity <<= 1 }
    slots = .allocate(capacity: capacity)
    slots.initialize(repeating: 0)
    mask = capacity - 1
  }

  deinit { slots.deallocate() }

  /// Starts loading `key`'s first slot (a hint).
  @inline(__always) func prefetch(_ key: UInt64) {
    ohana_prefetch(slots.baseAddress.unsafelyUnwrapped + (Int(truncatingIfNeeded: Hash64.mix(key)) & mask))
  }

  /// The id (1 or more) of `key`, inserting it if it is new; 0 for the
  /// key 0, which the set cannot hold.
  func insert(_ key: UInt64) -> UInt32 {
    if key == 0 { return 0 }
    let base = slots.baseAddress.unsafelyUnwrapped
    var slot = Int(truncatingIfNeeded: Hash64.mix(key)) & mask
    while true {
      let held = ohana_atomic_load_u64(UnsafePointer(base + slot))
      if held == key { return UInt32(truncatingIfNeeded: slot + 1) }
      if held == 0 {
        if ohana_atomic_cas_u64(base + slot, 0, key) != 0 { return UInt32(truncatingIfNeeded: slot + 1) }
        continue  // lost the slot: look at what it holds now
      }
      slot = (slot + 1) & mask
    }
  }
}
