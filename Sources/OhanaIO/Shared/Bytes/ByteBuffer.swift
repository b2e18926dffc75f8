import OhanaCore

/// Where the writers' escaping helpers put their bytes: a `[UInt8]`, or a
/// ``ByteBuffer``.
protocol ByteOutput {
  mutating func append(_ byte: UInt8)
  mutating func append(bytes: UnsafeRawBufferPointer)
}

extension Array: ByteOutput where Element == UInt8 {
  @inline(__always)
  mutating func append(bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// A growable byte buffer for building output a few bytes at a time: an append
/// is a capacity test and a store (short runs are copied as one or two words),
/// where `Array.append(contentsOf:)` is a generic call with a uniqueness check
/// and a `memcpy`. The vCard writer builds each card here and hands it to the
/// block's array in one append.
///
/// A reference to memory it owns: copies of a `ByteBuffer` share it, so it
/// is kept by one writer and never copied.
struct ByteBuffer: ByteOutput {
  struct Header {
    var base: UnsafeMutableRawPointer
    var count = 0
    var capacity: Int
  }

  /// Owns the memory; the header is behind a pointer, so appends are not
  /// checked for exclusive access as a class's stored properties would be.
  final class Storage {
    let h: UnsafeMutablePointer<Header>
    init(capacity: Int) {
      let c = max(capacity, 64)
      h = .allocate(capacity: 1)
      h.initialize(to: Header(base: .allocate(byteCount: c, alignment: 8), capacity: c))
    }
    deinit {
      h.pointee.base.deallocate()
      h.deinitialize(count: 1)
      h.deallocate()
    }
  }

  private let storage: Storage

  init(capacity: Int = 4096) { storage = Storage(capacity: capacity) }

  @inline(__always) private var h: UnsafeMutablePointer<Header> { storage.h }

  var count: Int { h.pointee.count }

  /// The bytes written so far (valid until the next append or reset).
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: h.pointee.base, count: h.pointee.count) }

  @inline(__always)
  func append(_ byte: UInt8) {
    if h.pointee.count == h.pointee.capacity { grow(1) }
    h.pointee.base.storeBytes(of: byte, toByteOffset: h.pointee.count, as: UInt8.self)
    h.pointee.count += 1
  }

  @inline(__always)
  func append(bytes src: UnsafeRawBufferPointer) {
    let n = src.count
    guard n > 0, let p = src.baseAddress else { return }
    if n > h.pointee.capacity - h.pointee.count { grow(n) }
    StringPool.copyBytes(to: h.pointee.base + h.pointee.count, from: p, count: n)
    h.pointee.count += n
  }

  @inline(__always)
  func append(_ s: StaticString) {
    append(bytes: UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
  }

  /// Drops everything from byte `n` on (nothing when `n >= count`).
  func truncate(to n: Int) {
    if n >= 0 && n < h.pointee.count { h.pointee.count = n }
  }

  @inline(never)
  private func grow(_ more: Int) {
    let c = max(h.pointee.count + more, h.pointee.capacity * 2)
    let new = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 8)
    new.copyMemory(from: h.pointee.base, byteCount: h.pointee.count)
    h.pointee.base.deallocate()
    h.pointee.base = new
    h.pointee.capacity = c
  }
}
