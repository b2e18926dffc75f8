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

  /// The offset of the first byte at or after `start` that equals `a`, `b`
  /// or `c` (`bytes.count` if none, also when `start` is past the end).
  @inline(__always)
  static func firstIndex(_ bytes: UnsafeRawBufferPointer, _ a: UInt8, _ b: UInt8, _ c: UInt8, from start: Int) -> Int {
    let n = bytes.count
    guard let p = bytes.baseAddress, start < n else { return n }
    let pa = ones &* UInt64(a)
    let pb = ones &* UInt64(b)
    let pc = ones &* UInt64(c)
    var i = max(start, 0)
    while i + 8 <= n {
      let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let m = zeroBytes(w ^ pa) | zeroBytes(w ^ pb) | zeroBytes(w ^ pc)
      if m != 0 { return i + m.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < n {
      let x = p.load(fromByteOffset: i, as: UInt8.self)
      if x == a || x == b || x == c { return i }
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

  /// The eight bytes at offset `i < n` of the `n` bytes at `p`, zero-filled
  /// past the end (little-endian), from loads that stay inside the buffer:
  /// near the end, an overlapping load of the last eight bytes, shifted.
  @inline(__always)
  static func word(_ p: UnsafeRawPointer, at i: Int, count n: Int) -> UInt64 {
    let left = n &- i
    if left >= 8 { return p.loadUnaligned(fromByteOffset: i, as: UInt64.self) }
    if n >= 8 {
      return p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) &>> UInt64(truncatingIfNeeded: (8 &- left) &* 8)
    }
    return smallWord(p + i, left)
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
  /// overlong forms, no surrogates, nothing above U+10FFFF, no truncated
  /// sequence), skipping ASCII runs eight bytes at a time.
  ///
  /// Each step loads the (up to) eight bytes at the current offset as one
  /// little-endian word, zero-filled past the end: a zero byte is never a
  /// continuation byte, so a sequence cut off by the end fails its mask
  /// test like any other. A sequence is checked whole from that word:
  ///
  /// ```
  ///  2 bytes  110xxxxx 10xxxxxx           lead C2...DF (C0, C1 are overlong)
  ///  3 bytes  1110xxxx 10xxxxxx 10xxxxxx  E0 needs A0...BF, ED 80...9F
  ///  4 bytes  11110xxx 10xxxxxx ...       F0 needs 90...BF, F4 80...8F, F5... none
  /// ```
  static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let p = bytes.baseAddress else { return true }
    let n = bytes.count
    // Most values are ASCII: OR their words together (the last one as an
    // overlapping load) and test once. Otherwise the loop below starts over.
    if n >= 8 {
      var any = p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
      var j = 0
      while j &+ 8 < n {
        any |= p.loadUnaligned(fromByteOffset: j, as: UInt64.self)
        j &+= 8
      }
      if any & highs == 0 { return true }
    } else if smallWord(p, n) & highs == 0 {
      return true
    }
    // Offsets stay in 0 ... n + 7, so wrapping arithmetic never wraps.
    var i = 0
    while i < n {
      let w = word(p, at: i, count: n)
      if w & 0x80 == 0 {
        // ASCII: skip to the next byte >= 0x80 in this word (or past it).
        let m = w & highs
        i &+= m == 0 ? 8 : m.trailingZeroBitCount &>> 3
        continue
      }
      if w & 0xC0E0_C0E0_C0E0_C0E0 == 0x80C0_80C0_80C0_80C0 {
        // Four 2-byte sequences (Cyrillic, Greek, Hebrew, Arabic runs):
        // every lead's low bits 1..4 must be nonzero (not C0 / C1). A lane
        // of at most 0x1E plus 0x7FFF sets its bit 15 exactly when nonzero.
        let leads = w & 0x001E_001E_001E_001E
        guard (leads &+ 0x7FFF_7FFF_7FFF_7FFF) & 0x8000_8000_8000_8000 == 0x8000_8000_8000_8000 else { return false }
        i &+= 8
        continue
      }
      if w & 0xC0E0 == 0x80C0 {
        guard w & 0x1E != 0 else { return false }  // C0, C1: overlong
        i &+= 2
        continue
      }
      if w & 0xC0_C0F0 == 0x80_80E0 {
        // Bit 5 of the second byte with the lead's low nibble: E0 with a
        // second byte below A0 is overlong, ED with one at or above A0 a
        // surrogate.
        let t = w & 0x200F
        guard t != 0 && t != 0x200D else { return false }
        i &+= 3
        continue
      }
      if w & 0xC0C0_C0F8 == 0x8080_80F0 {
        // The scalar's top bits (lead & 7, second & 3F) must be 0x10...0x10F:
        // U+10000...U+10FFFF.
        let top = (w & 0x7) &<< 6 | (w &>> 8) & 0x3F
        guard top &- 0x10 < 0x100 else { return false }
        i &+= 4
        continue
      }
      return false
    }
    return true
  }
}
