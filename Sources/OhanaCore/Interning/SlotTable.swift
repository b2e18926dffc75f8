/// The memory of ``StringPool``'s hash table: `count` slots of 64 bits,
/// zero when made, shared by copies of a pool until one of them writes
/// (copy on write, like an array's).
///
/// Not an array because of its size and the way it is filled: a table of
/// tens of megabytes is written at random, every page of it, right after it
/// is made. As a ``ScratchMemory`` mapping with huge pages that costs a few
/// dozen page faults, with the zeroing done by the kernel, instead of one
/// fault per 4 KiB page after a `memset`.
@usableFromInline
struct SlotTable: Sendable {
  /// Owns the memory. Written only through a table that holds the only
  /// reference to it (see ``withUnsafeMutableBufferPointer(_:)``), so a
  /// buffer that several tables share, on several threads, is only read.
  @usableFromInline
  final class Buffer: @unchecked Sendable {
    let memory: ScratchMemory
    @usableFromInline let base: UnsafeMutablePointer<UInt64>
    @usableFromInline let count: Int

    init(count: Int) {
      let n = max(count, 1)
      memory = ScratchMemory(byteCount: n * 8)
      base = memory.base.bindMemory(to: UInt64.self, capacity: n)
      if !memory.isZeroed { base.initialize(repeating: 0, count: n) }
      self.count = count
    }

    deinit { memory.release() }
  }

  @usableFromInline var buffer: Buffer

  /// `count` empty (zero) slots.
  init(count: Int) { buffer = Buffer(count: count) }

  @inlinable var count: Int { buffer.count }

  @inlinable
  subscript(_ i: Int) -> UInt64 {
    get {
      precondition(i >= 0 && i < buffer.count, "slot out of range")
      return buffer.base[i]
    }
    set {
      precondition(i >= 0 && i < buffer.count, "slot out of range")
      makeUnique()
      buffer.base[i] = newValue
    }
  }

  @inlinable
  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
    try withExtendedLifetime(buffer) { b in try body(UnsafeBufferPointer(start: b.base, count: b.count)) }
  }

  /// Calls `body` with the slots to write, after copying them if another
  /// table shares them.
  @inlinable
  mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<UInt64>) throws -> R) rethrows -> R {
    makeUnique()
    return try withExtendedLifetime(buffer) { b in try body(UnsafeMutableBufferPointer(start: b.base, count: b.count)) }
  }

  /// The number of slots that are not empty.
  func occupiedCount() -> Int {
    withUnsafeBufferPointer { s in s.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }
  }

  @inlinable
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&buffer) { copyBuffer() }
  }

  @usableFromInline
  mutating func copyBuffer() {
    let copy = Buffer(count: buffer.count)
    copy.base.update(from: buffer.base, count: buffer.count)
    buffer = copy
  }
}
