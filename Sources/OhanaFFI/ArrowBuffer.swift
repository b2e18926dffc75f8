#if canImport(Glibc)
  import Glibc
#endif

/// One buffer handed to an Arrow consumer: `byteCount` bytes, 64-byte
/// aligned (the Arrow specification recommends it), owned by this object
/// and freed when the last reference goes, which is when the consumer has
/// released every array that points into it.
///
/// The memory is the engine's own allocation, never a Swift array's
/// storage: a Swift array gives out pointers only for the length of a
/// closure, and an exported buffer outlives every closure. Building a
/// buffer is therefore a copy of the column's cells (indices, offsets),
/// which is also what decoding the store's narrow or sparse cells to
/// Arrow's fixed-width ones needs; the strings themselves are copied once
/// per pool, not per row (see ``PoolDictionary``).
///
/// The bytes past `byteCount` up to the next multiple of 64 are zeroed, so
/// a consumer that reads whole words (bitmaps) sees no stray bits.
final class ArrowBuffer: @unchecked Sendable {
  // @unchecked: the pointer is written only while the buffer is being
  // built, on one thread, before it is exported; afterwards it is read only.
  let base: UnsafeMutableRawPointer
  let byteCount: Int

  /// A buffer of `byteCount` bytes (uninitialized but for the padding).
  init(byteCount: Int) {
    let padded = max(64, (max(0, byteCount) + 63) & ~63)
    var raw: UnsafeMutableRawPointer? = nil
    if posix_memalign(&raw, 64, padded) != 0 || raw == nil {
      // Out of memory: as Swift's own allocations do, stop here.
      fatalError("out of memory allocating an Arrow buffer of \(padded) bytes")
    }
    base = raw.unsafelyUnwrapped
    self.byteCount = max(0, byteCount)
    (base + self.byteCount).initializeMemory(as: UInt8.self, repeating: 0, count: padded - self.byteCount)
  }

  /// A buffer of `count` elements of `T`, filled by `body` (which must
  /// initialize all of them).
  static func filled<T: BitwiseCopyable>(
    _: T.Type, count: Int, _ body: (UnsafeMutableBufferPointer<T>) -> Void
  ) -> ArrowBuffer {
    let b = ArrowBuffer(byteCount: count * MemoryLayout<T>.stride)
    body(UnsafeMutableBufferPointer(start: b.base.bindMemory(to: T.self, capacity: count), count: count))
    return b
  }

  /// A zeroed validity bitmap of `count` bits (bit i = row i, least
  /// significant bit first, as Arrow's and ``Bitmap``'s words are).
  static func bitmap(count: Int) -> ArrowBuffer {
    let bytes = (count + 7) / 8
    let b = ArrowBuffer(byteCount: bytes)
    b.base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    return b
  }

  /// Sets bit `i` of a bitmap buffer.
  @inline(__always)
  func setBit(_ i: Int) {
    let p = base.assumingMemoryBound(to: UInt8.self) + (i >> 3)
    p.pointee |= UInt8(1) << UInt8(i & 7)
  }

  /// Whether bit `i` of a bitmap buffer is set.
  @inline(__always)
  func bit(_ i: Int) -> Bool {
    let p = base.assumingMemoryBound(to: UInt8.self) + (i >> 3)
    return p.pointee & (UInt8(1) << UInt8(i & 7)) != 0
  }

  /// A copy of `bytes`.
  static func copy(_ bytes: UnsafeRawBufferPointer) -> ArrowBuffer {
    let b = ArrowBuffer(byteCount: bytes.count)
    if let src = bytes.baseAddress, bytes.count > 0 { b.base.copyMemory(from: src, byteCount: bytes.count) }
    return b
  }

  deinit { free(base) }
}
