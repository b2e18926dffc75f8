extension StringColumn {
  /// Which rows of a sparse ``StringColumn`` hold a value: a rank
  /// directory of one block per 64 rows.
  ///
  /// ```
  /// words   | mask 0..31 | mask 32..63 | rank | mask 0..31 | ...
  ///         '-------------- block 0 ---------' '-- block 1 ...
  /// ```
  /// Bit `r` of block `b`'s mask is row `64 * b + r`; a block's rank is the
  /// number of present rows before it. Row `i`'s value, when its bit is
  /// set, is stored cell `rank + popcount(mask & (bit - 1))`. 12 bytes a
  /// block: 1.5 bits a row. Bits past the column's last row are 0.
  @usableFromInline
  struct Presence: Sendable {
    /// Three words a block: the mask's low and high halves and the rank.
    @usableFromInline var words: [UInt32] = []

    @usableFromInline init() {}

    /// Words a block.
    @usableFromInline static var stride: Int { 3 }

    /// Blocks for `rows` rows.
    static func blocks(_ rows: Int) -> Int { (rows + 63) >> 6 }

    var blockCount: Int { words.count / Self.stride }

    /// Heap bytes held.
    var memoryFootprint: Int { words.capacity * 4 }

    /// Block `b`'s mask.
    @inlinable @inline(__always)
    func mask(_ b: Int) -> UInt64 {
      words.withUnsafeBufferPointer { w in Self.mask(w, b) }
    }

    /// Block `b`'s rank: the present rows before it.
    @inlinable @inline(__always)
    func base(_ b: Int) -> Int {
      words.withUnsafeBufferPointer { w in Int(w[b &* Self.stride &+ 2]) }
    }

    @inlinable @inline(__always)
    static func mask(_ w: UnsafeBufferPointer<UInt32>, _ b: Int) -> UInt64 {
      UInt64(w[b &* stride]) | UInt64(w[b &* stride &+ 1]) << 32
    }

    @inline(__always)
    static func setMask(_ w: UnsafeMutableBufferPointer<UInt32>, _ b: Int, _ m: UInt64) {
      w[b &* stride] = UInt32(truncatingIfNeeded: m)
      w[b &* stride &+ 1] = UInt32(truncatingIfNeeded: m >> 32)
    }

    /// Whether row `row` of the blocks `w` holds a value.
    @inline(__always)
    static func isSet(_ w: UnsafeBufferPointer<UInt32>, _ row: Int) -> Bool {
      (w[(row >> 6) &* stride &+ ((row >> 5) & 1)] &>> UInt32(row & 31)) & 1 != 0
    }

    /// Whether row `row` of the blocks `w` holds a value, and its stored
    /// cell when it does (the popcount only then).
    @inline(__always)
    static func lookup(_ w: UnsafeBufferPointer<UInt32>, _ row: Int) -> (present: Bool, cell: Int) {
      guard isSet(w, row) else { return (false, 0) }
      let b = row >> 6
      let below = mask(w, b) & ((1 &<< UInt64(row & 63)) &- 1)
      return (true, Int(w[b &* stride &+ 2]) &+ below.nonzeroBitCount)
    }

    /// Whether row `row` holds a value, and its stored cell when it does.
    @inlinable @inline(__always)
    func lookup(_ row: Int) -> (present: Bool, cell: Int) {
      words.withUnsafeBufferPointer { w in
        let b = row >> 6
        let m = Self.mask(w, b)
        let bit: UInt64 = 1 &<< UInt64(row & 63)
        return (m & bit != 0, Int(w[b &* Self.stride &+ 2]) &+ (m & (bit &- 1)).nonzeroBitCount)
      }
    }

    /// The present rows before `row` (`0 <= row <= ` the column's count).
    func rank(_ row: Int) -> Int {
      let b = row >> 6
      if b < blockCount {
        return base(b) + (mask(b) & ((1 &<< UInt64(row & 63)) &- 1)).nonzeroBitCount
      }
      guard b > 0, blockCount > 0 else { return 0 }
      return base(blockCount - 1) + mask(blockCount - 1).nonzeroBitCount
    }

    /// Adds blocks (mask 0) until there are enough for `rows` rows.
    mutating func grow(toRows rows: Int) {
      let extra = Self.blocks(rows) - blockCount
      if extra > 0 { words.append(contentsOf: repeatElement(0, count: extra * Self.stride)) }
    }

    /// Sets the rank of every block from block `first` on, from the blocks
    /// before it.
    mutating func fixRanks(from first: Int) {
      words.withUnsafeMutableBufferPointer { w in
        let n = w.count / Self.stride
        var b = Swift.max(first, 0)
        if b == 0 && n > 0 {
          w[2] = 0
          b = 1
        }
        while b < n {
          let before = UInt32(truncatingIfNeeded: Self.mask(UnsafeBufferPointer(w), b - 1).nonzeroBitCount)
          w[b &* Self.stride &+ 2] = w[(b - 1) &* Self.stride &+ 2] &+ before
          b += 1
        }
      }
    }

    /// Appends row `row` (the column's count), set when `present`; the
    /// column has `before` present rows so far.
    @inline(__always)
    mutating func append(row: Int, present: Bool, before: Int) {
      if row & 63 == 0 {
        words.append(0)
        words.append(0)
        words.append(UInt32(truncatingIfNeeded: before))
      }
      if present {
        let k = (row >> 6) &* Self.stride &+ ((row >> 5) & 1)
        words.withUnsafeMutableBufferPointer { w in w[k] |= 1 &<< UInt32(row & 31) }
      }
    }

    /// The presence of rows whose stored values are `values` (set where
    /// not 0), after moving the set values, in order, to the front of
    /// `values`; and how many are set. Per 64 rows, a mask built in a
    /// register, then a move per set row.
    static func compacting(_ values: UnsafeMutableBufferPointer<UInt32>) -> (Presence, set: Int) {
      let n = values.count
      var set = 0
      var p = Presence()
      p.words = [UInt32](unsafeUninitializedCapacity: blocks(n) * stride) { w, initialized in
        var start = 0
        var b = 0
        while start < n {
          let end = Swift.min(start &+ 64, n)
          let rank = set
          var m: UInt64 = 0
          for r in start..<end { m |= (values[r] != 0 ? 1 : 0) &<< UInt64(r &- start) }
          // Then the set rows' values only (few in a sparse column).
          var bits = m
          while bits != 0 {
            values[set] = values[start &+ bits.trailingZeroBitCount]  // Safe: set <= that row
            set &+= 1
            bits &= bits &- 1
          }
          w[b &* stride] = UInt32(truncatingIfNeeded: m)
          w[b &* stride &+ 1] = UInt32(truncatingIfNeeded: m >> 32)
          w[b &* stride &+ 2] = UInt32(truncatingIfNeeded: rank)
          start = end
          b &+= 1
        }
        initialized = b &* stride
      }
      return (p, set)
    }

    /// Appends the `rows` rows of `other` at row `row` (the column's
    /// count): each of its masks shifted into place, no loop over rows.
    mutating func append(_ other: Presence, rows: Int, at row: Int) {
      guard rows > 0 else { return }
      let first = blockCount
      grow(toRows: row + rows)
      let shift = row & 63
      let start = row >> 6
      other.words.withUnsafeBufferPointer { o in
        words.withUnsafeMutableBufferPointer { w in
          let n = w.count / Self.stride
          for k in 0..<(o.count / Self.stride) {
            let m = Self.mask(o, k)
            let b = start &+ k
            guard b < n else { break }  // (blocks past `rows`: none)
            if shift == 0 {
              Self.setMask(w, b, m)
            } else {
              Self.setMask(w, b, Self.mask(UnsafeBufferPointer(w), b) | m &<< UInt64(shift))
              if b + 1 < n { Self.setMask(w, b + 1, m &>> UInt64(64 - shift)) }
            }
          }
        }
      }
      fixRanks(from: first)
    }

    /// Keeps the first `rows` rows.
    mutating func truncate(rows: Int) {
      let n = Self.blocks(rows)
      if n < blockCount { words.removeSubrange((n * Self.stride)...) }
      if rows & 63 != 0 && n > 0 {
        let keep: UInt64 = (1 &<< UInt64(rows & 63)) &- 1
        words.withUnsafeMutableBufferPointer { w in Self.setMask(w, n - 1, Self.mask(UnsafeBufferPointer(w), n - 1) & keep) }
      }
    }
  }
}
