extension StringPool {
  /// The end offset of id `i` in the arena (see ``wraps``).
  @inlinable @inline(__always)
  func end(_ i: Int) -> Int {
    // Checked like an array access: an id from another pool traps here.
    let low = Int(ends[i])
    if wraps.isEmpty { return low }
    return wraps.withUnsafeBufferPointer { low + Self.wrapCount(upTo: i, $0) << endShift }
  }

  /// How many of `wraps` are at most `i` (binary search; `wraps` ascending).
  @inlinable
  static func wrapCount(upTo i: Int, _ wraps: UnsafeBufferPointer<UInt32>) -> Int {
    var lo = 0, hi = wraps.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if Int(wraps[mid]) <= i { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Appends the end of a new id (the next one), noting each multiple of
  /// 2^``endShift`` the arena passed since the last id.
  mutating func appendEnd(_ e: Int) {
    var high = end(ends.count - 1) >> endShift
    while high < e >> endShift {
      wraps.append(UInt32(truncatingIfNeeded: ends.count))
      high += 1
    }
    ends.append(UInt32(truncatingIfNeeded: e & ((1 << endShift) - 1)))
  }

  /// Every id's end offset, read from the pool's 32-bit ends (see
  /// ``StringPool/withStorage(_:)``): the bytes of id `i > 0` are
  /// `arena[ends[i - 1] ..< ends[i]]`. Valid only inside `withStorage`.
  @frozen
  public struct Ends: RandomAccessCollection {
    @usableFromInline let low: UnsafeBufferPointer<UInt32>
    @usableFromInline let wraps: UnsafeBufferPointer<UInt32>
    @usableFromInline let shift: Int

    @inlinable
    init(low: UnsafeBufferPointer<UInt32>, wraps: UnsafeBufferPointer<UInt32>, shift: Int) {
      self.low = low
      self.wraps = wraps
      self.shift = shift
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { low.count }

    /// The end offset of id `i`.
    @inlinable
    public subscript(i: Int) -> Int {
      let l = Int(low[i])
      if wraps.isEmpty { return l }
      return l + StringPool.wrapCount(upTo: i, wraps) << shift
    }
  }
}
