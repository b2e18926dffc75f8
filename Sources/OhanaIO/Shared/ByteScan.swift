/// Word-at-a-time (SWAR) scans over borrowed bytes for the readers' hot
/// loops: eight bytes are tested per step with integer arithmetic, the tail
/// byte by byte. Every function reads only inside the buffer it is given.
enum ByteScan {
  @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
  @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

  /// A word whose high bit is set in every byte of `w` that equals zero
  /// (exact: no false positives, unlike the cheaper borrow-propagating form).
  @inline(__always)
  static func zeroBytes(_ w: UInt64) -> UInt64 {
    let low7s = ~highs  // 0x7F in every byte
    // Safe: adding 0x7F to a 7-bit value never carries out of its byte.
    return ~(((w & low7s) &+ low7s) | w | low7s)
  }

  /// True when some byte of `bytes` equals `a` or `b`.
  @inline(__always)
  static func contains(_ bytes: UnsafeRawBufferPointer, _ a: UInt8, or b: UInt8) -> Bool {
    guard let p = bytes.baseAddress else { return false }
    let n = bytes.count
    let pa = ones &* UInt64(a)
    let pb = ones &* UInt64(b)
    var i = 0
    while i + 8 <= n {
      let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      if zeroBytes(w ^ pa) | zeroBytes(w ^ pb) != 0 { return true }
      i += 8
    }
    if i < n && n >= 8 {
      // The last partial word, as an overlapping load of the last 8 bytes.
      let w = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      return zeroBytes(w ^ pa) | zeroBytes(w ^ pb) != 0
    }
    while i < n {
      let c = p.load(fromByteOffset: i, as: UInt8.self)
      if c == a || c == b { return true }
      i += 1
    }
    return false
  }

  /// The offset of the first byte at or after `start` that equals `a` or
  /// `b` (`bytes.count` if none, also when `start` is past the end).
  @inline(__always)
  static func firstIndex(_ bytes: UnsafeRawBufferPointer, _ a: UInt8, or b: UInt8, from start: Int) -> Int {
    let n = bytes.count
    guard let p = bytes.baseAddress, start < n else { return n }
    let pa = ones &* UInt64(a)
    let pb = ones &* UInt64(b)
    var i = max(start, 0)
    while i + 8 <= n {
      let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let m = zeroBytes(w ^ pa) | zeroBytes(w ^ pb)
      // Little-endian: the lowest set bit marks the first matching byte.
      if m != 0 { return i + m.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < n {
      let c = p.load(fromByteOffset: i, as: UInt8.self)
      if c == a || c == b { return i }
      i += 1
    }
    return n
  }

  /// True when some byte of `bytes` equals `a`.
  @inline(__always)
  static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ a: UInt8) -> Bool {
    guard let b = bytes.baseAddress else { return false }
    let p = UnsafeRawPointer(b)
    let n = bytes.count
    let pa = ones &* UInt64(a)
    var i = 0
    while i + 8 <= n {
      if zeroBytes(p.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pa) != 0 { return true }
      i += 8
    }
    while i < n {
      if p.load(fromByteOffset: i, as: UInt8.self) == a { return true }
      i += 1
    }
    return false
  }

  /// The `n <= 8` bytes at `p` as a little-endian integer (byte `k` in bits
  /// `8k ..< 8k+8`, zero above), from at most two overlapping loads.
  @inline(__always)
  static func smallWord(_ p: UnsafeRawPointer, _ n: Int) -> UInt64 {
    if n >= 8 { return p.loadUnaligned(as: UInt64.self) }
    if n >= 4 {
      let lo = UInt64(p.loadUnaligned(as: UInt32.self))
      let hi = UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
      return lo | (hi << UInt64(truncatingIfNeeded: (n - 4) * 8))
    }
    if n >= 2 {
      let lo = UInt64(p.loadUnaligned(as: UInt16.self))
      let hi = UInt64(p.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self))
      return lo | (hi << UInt64(truncatingIfNeeded: (n - 2) * 8))
    }
    if n == 1 { return UInt64(p.load(as: UInt8.self)) }
    return 0
  }

  /// `ASCII.upper` applied to each of the eight bytes of `w`: 'a'...'z'
  /// lose bit 0x20, every other byte (also those >= 0x80) is unchanged.
  @inline(__always)
  static func upper(_ w: UInt64) -> UInt64 {
    let low7 = w & ~highs
    // Safe: a 7-bit value plus at most 0x1F stays inside its byte.
    let atLeastA = (low7 &+ ones &* 0x1F) & highs  // low7 >= 0x61
    let aboveZ = (low7 &+ ones &* 0x05) & highs  // low7 >= 0x7B
    let isLower = atLeastA & ~aboveZ & ~w
    return w ^ (isLower >> 2)
  }

  /// True when every byte is below 0x80.
  @inline(__always)
  static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    firstNonASCII(bytes) == bytes.count
  }

  /// The offset of the first byte at or above 0x80 (`bytes.count` if none).
  @inline(__always)
  static func firstNonASCII(_ bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int {
    guard let p = bytes.baseAddress else { return 0 }
    let n = bytes.count
    var i = start
    while i + 8 <= n {
      if p.loadUnaligned(fromByteOffset: i, as: UInt64.self) & highs != 0 { break }
      i += 8
    }
    if i < n && i + 8 > n && n >= 8 && p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) & highs == 0 {
      return n  // the last partial word (overlapping load) is ASCII too
    }
    while i < n {
      if p.load(fromByteOffset: i, as: UInt8.self) >= 0x80 { return i }
      i += 1
    }
    return n
  }

  /// Well-formed UTF-8 (the same rules as `UTF8Validation.isValid`: no
  /// overlong forms, no surrogates, nothing above U+10FFFF), skipping ASCII
  /// runs eight bytes at a time.
  static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let p = bytes.baseAddress else { return true }
    let n = bytes.count
    var i = firstNonASCII(bytes)
    while i < n {
      let b0 = p.load(fromByteOffset: i, as: UInt8.self)
      if b0 < 0x80 {
        i = firstNonASCII(bytes, from: i)
        continue
      }
      let need: Int
      let minScalar: UInt32
      var scalar: UInt32
      switch b0 {
      case 0xC2...0xDF: need = 1; minScalar = 0x80; scalar = UInt32(b0 & 0x1F)
      case 0xE0...0xEF: need = 2; minScalar = 0x800; scalar = UInt32(b0 & 0x0F)
      case 0xF0...0xF4: need = 3; minScalar = 0x10000; scalar = UInt32(b0 & 0x07)
      default: return false
      }
      if i + need >= n { return false }  // truncated sequence
      for k in 1...need {
        let b = p.load(fromByteOffset: i + k, as: UInt8.self)
        guard b & 0xC0 == 0x80 else { return false }
        scalar = (scalar << 6) | UInt32(b & 0x3F)
      }
      if scalar < minScalar || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
      i += need + 1
    }
    return true
  }
}
