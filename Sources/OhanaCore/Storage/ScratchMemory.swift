#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Big, short-lived scratch memory for bulk passes (the interner's batch
/// buffers): on Linux an anonymous mapping that asks for transparent huge
/// pages, so filling hundreds of megabytes costs hundreds of page faults
/// instead of tens of thousands; elsewhere, or when the mapping fails, an
/// ordinary allocation. Contents start zeroed or undefined; the owner frees
/// it with ``release()`` exactly once.
package struct ScratchMemory {
  package let bytes: UnsafeMutableRawBufferPointer
  /// The first byte (never nil, unlike `bytes.baseAddress`).
  package let base: UnsafeMutableRawPointer
  private let mapped: Bool

  /// At least `byteCount` bytes (one byte when `byteCount` is 0), aligned to 16.
  package init(byteCount: Int) {
    let size = max(byteCount, 1)
    #if os(Linux)
    let huge = 2 << 20
    if size >= huge {
      let length = (size + huge - 1) / huge * huge
      let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
      if let p, p != MAP_FAILED {
        _ = madvise(p, length, MADV_HUGEPAGE)
        bytes = UnsafeMutableRawBufferPointer(start: p, count: length)
        base = p
        mapped = true
        return
      }
    }
    #endif
    base = .allocate(byteCount: size, alignment: 16)
    bytes = UnsafeMutableRawBufferPointer(start: base, count: size)
    mapped = false
  }

  package var baseAddress: UnsafeMutableRawPointer? { bytes.baseAddress }

  /// Whether the memory is a fresh mapping, which the kernel fills with
  /// zeros (an ordinary allocation's contents are undefined).
  package var isZeroed: Bool { mapped }

  /// Frees the memory; the buffer must not be used afterwards.
  package func release() {
    #if os(Linux)
    if mapped {
      _ = munmap(bytes.baseAddress, bytes.count)
      return
    }
    #endif
    bytes.deallocate()
  }
}

/// Transparent huge pages for memory that is about to be filled: advises
/// the 2 MiB-aligned part of `byteCount` bytes at `base` (Linux; nothing
/// elsewhere). For big arrays that are written once and then read at
/// random (the pool's arena and ends), where 4 KiB pages cost a page fault
/// per page when filled and a TLB miss per lookup after. Advice only: the
/// memory stays the array's, and the kernel may ignore it.
package enum HugePages {
  package static func advise(_ base: UnsafeMutableRawPointer?, byteCount: Int) {
    #if os(Linux)
    guard let base, byteCount > 0 else { return }
    let huge = 2 << 20
    let address = Int(bitPattern: base)
    let start = (address + huge - 1) / huge * huge
    let end = (address + byteCount) / huge * huge
    if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
    #endif
  }
}
