/// A small, fast, seedable pseudo-random generator (SplitMix64).
///
/// The generator is stdlib-only and its output is fixed by this file alone,
/// so a dataset made from a seed is byte-identical on every platform and
/// toolchain. Bounded draws use our own `below(_:)` rather than the
/// standard library's `random(in:using:)`, whose algorithm may change.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// A generator for one item of a stream (person `index` of a dataset
  /// made from `seed`), independent of every other item.
  public init(seed: UInt64, stream: UInt64, index: UInt64) {
    var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
    let base = mixer.next()
    state = base ^ (index &* 0x9E37_79B9_7F4A_7C15)
    _ = next()
  }

  @inlinable
  public mutating func next() -> UInt64 {
    // Safe: wrapping arithmetic is the algorithm.
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `0..<bound` (multiply-high; bias below 2^-40 for our bounds).
  @inlinable
  public mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// True with probability `p`.
  @inlinable
  public mutating func chance(_ p: Double) -> Bool {
    Double(next() >> 11) * 0x1.0p-53 < p
  }

  /// A uniformly chosen element of a non-empty array.
  @inlinable
  public mutating func pick<T>(_ items: [T]) -> T {
    items[below(items.count)]
  }

  /// An index chosen with the given integer weights.
  public mutating func weighted(_ weights: [Int]) -> Int {
    let total = weights.reduce(0, +)
    var r = below(total)
    for (i, w) in weights.enumerated() {
      if r < w { return i }
      r -= w
    }
    return weights.count - 1
  }

  /// Fisher-Yates shuffle with this generator.
  public mutating func shuffle<T>(_ items: inout [T]) {
    var i = items.count
    while i > 1 {
      let j = below(i)
      i -= 1
      items.swapAt(i, j)
    }
  }
}
