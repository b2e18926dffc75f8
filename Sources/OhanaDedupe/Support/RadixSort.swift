/// In-place LSD radix sort of `UInt64` values, 16 bits a pass, skipping
/// passes where every value has the same digit. Owns its scratch buffer and
/// the only unsafe pointers of the sort.
///
/// - Complexity: O(n) per pass, at most four passes.
enum RadixSort {
  static func sort(_ values: inout [UInt64]) {
    let n = values.count
    if n < 2 { return }
    if n < 256 { values.sort(); return }
    var scratch = [UInt64](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: 65536)
    var inScratch = false
    for pass in 0..<4 {
      let shift = UInt64(pass * 16)
      for i in 0..<65536 { counts[i] = 0 }
      let src = inScratch ? scratch : values
      // Histogram.
      src.withUnsafeBufferPointer { s in
        counts.withUnsafeMutableBufferPointer { c in
          for v in s { c[Int((v >> shift) & 0xFFFF)] += 1 }
        }
      }
      // All in one bucket: this digit is the same everywhere, skip the pass.
      if counts.contains(n) { continue }
      var sum = 0
      for i in 0..<65536 { let c = counts[i]; counts[i] = sum; sum += c }
      if inScratch {
        scratch.withUnsafeBufferPointer { s in
          values.withUnsafeMutableBufferPointer { d in
            counts.withUnsafeMutableBufferPointer { c in
              for v in s { let b = Int((v >> shift) & 0xFFFF); d[c[b]] = v; c[b] += 1 }
            }
          }
        }
      } else {
        values.withUnsafeBufferPointer { s in
          scratch.withUnsafeMutableBufferPointer { d in
            counts.withUnsafeMutableBufferPointer { c in
              for v in s { let b = Int((v >> shift) & 0xFFFF); d[c[b]] = v; c[b] += 1 }
            }
          }
        }
      }
      inScratch.toggle()
    }
    if inScratch { values = scratch }
  }
}
