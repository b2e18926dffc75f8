/// Jaro and Jaro-Winkler similarity over bytes (folded names are ASCII).
///
/// Definition (Jaro 1989, Winkler 1990): with `m` characters matching within
/// a window of `max(|a|,|b|)/2 - 1` and `t` half the number of matched
/// characters out of order, `jaro = (m/|a| + m/|b| + (m-t)/m) / 3`; Winkler
/// adds `l * 0.1 * (1 - jaro)` for a common prefix of `l <= 4` bytes.
///
/// Allocation-free: the matched flags are two 64-bit masks, so only the
/// first 64 bytes of each string take part (names are shorter).
public enum JaroWinkler {
  /// Jaro similarity in 0...1 (1 for two empty strings).
  @inlinable
  public static func jaro(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Double {
    let la = min(a.count, 64), lb = min(b.count, 64)
    if la == 0 && lb == 0 { return 1 }
    if la == 0 || lb == 0 { return 0 }
    let window = max(0, max(la, lb) / 2 - 1)
    var flagsA: UInt64 = 0, flagsB: UInt64 = 0
    var matches = 0
    for i in 0..<la {
      let c = a[i]
      let lo = max(0, i - window), hi = min(lb - 1, i + window)
      if lo > hi { continue }
      var j = lo
      while j <= hi {
        if flagsB & (1 << UInt64(j)) == 0 && b[j] == c {
          flagsA |= 1 << UInt64(i)
          flagsB |= 1 << UInt64(j)
          matches += 1
          break
        }
        j += 1
      }
    }
    if matches == 0 { return 0 }
    // Count matched characters that are out of order.
    var outOfOrder = 0
    var fa = flagsA, fb = flagsB
    while fa != 0 {
      let i = fa.trailingZeroBitCount, j = fb.trailingZeroBitCount
      if a[i] != b[j] { outOfOrder += 1 }
      fa &= fa &- 1
      fb &= fb &- 1
    }
    let m = Double(matches)
    let t = Double(outOfOrder / 2)
    return (m / Double(la) + m / Double(lb) + (m - t) / m) / 3
  }

  /// Jaro-Winkler similarity in 0...1, prefix scale 0.1, prefix up to 4.
  @inlinable
  public static func similarity(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Double {
    let j = jaro(a, b)
    var prefix = 0
    let limit = min(4, min(a.count, b.count))
    while prefix < limit && a[prefix] == b[prefix] { prefix += 1 }
    return j + Double(prefix) * 0.1 * (1 - j)
  }

  /// Jaro-Winkler similarity of two strings' UTF-8 bytes.
  public static func similarity(_ a: String, _ b: String) -> Double {
    var a = a, b = b
    return a.withUTF8 { pa in
      b.withUTF8 { pb in similarity(UnsafeRawBufferPointer(pa), UnsafeRawBufferPointer(pb)) }
    }
  }
}
