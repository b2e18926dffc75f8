/// A 64-bit hash of byte strings and a mixer for combining keys. Written
/// for blocking keys: fast, well spread, not cryptographic. The entity
/// store keeps block hashes made with it, so a change here must raise
/// ``LinkKeys/version``.
package enum Hash64 {
  @inline(__always)
  package static func mix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  @inline(__always)
  package static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 { mix(a ^ (b &* 0x2545_F491_4F6C_DD1D)) }

  package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    var h = mix(seed ^ UInt64(truncatingIfNeeded: bytes.count))
    var i = 0
    let n = bytes.count
    guard let p = bytes.baseAddress else { return h }
    while i + 8 <= n {
      h = mix(h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      i += 8
    }
    if i < n {
      var w: UInt64 = 0
      var shift: UInt64 = 0
      while i < n {
        w |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << shift
        shift &+= 8
        i += 1
      }
      h = mix(h ^ w)
    }
    return h
  }

  package static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
    bytes.withUnsafeBytes { hash($0, seed: seed) }
  }
}
