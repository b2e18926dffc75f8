import OhanaCore

/// Per-field bitmaps and the per-contact questions asked of them, the
/// kernel of the field filters and of statistics.
///
/// A contact's fields are contiguous (CSR), so "does contact r have a field
/// of this kind" is "is any bit set in `bits[offsets[r] ..< offsets[r+1]]`",
/// and "how many" is a popcount over that range. Both read at most two words
/// for a contact with up to 64 fields: no per-field branch, which is what made
/// the row-by-row loop slow (an unpredictable early exit per contact).
enum FieldBits {
  /// A bitmap over fields: bit i set when `predicate(i)`.
  @inline(__always)
  static func fields(_ count: Int, where predicate: (Int) -> Bool) -> [UInt64] {
    var words = [UInt64](repeating: 0, count: (count + 63) >> 6)
    words.withUnsafeMutableBufferPointer { w in
      var i = 0
      for wi in 0..<w.count {
        var word: UInt64 = 0
        let end = min(64, count - i)
        for b in 0..<end where predicate(i + b) { word |= 1 << UInt64(b) }
        w[wi] = word
        i += 64
      }
    }
    return words
  }

  /// The number of set bits in `[start, end)`.
  @inline(__always)
  static func count(_ w: UnsafeBufferPointer<UInt64>, _ start: Int, _ end: Int) -> Int {
    var s = start
    var n = 0
    while s < end {
      let off = s & 63
      let take = min(64 - off, end - s)
      let mask: UInt64 = take == 64 ? ~0 : ((1 << UInt64(take)) - 1)
      n += ((w[s >> 6] >> UInt64(off)) & mask).nonzeroBitCount
      s += take
    }
    return n
  }

  /// Whether any bit is set in `[start, end)`.
  @inline(__always)
  static func any(_ w: UnsafeBufferPointer<UInt64>, _ start: Int, _ end: Int) -> Bool {
    count(w, start, end) != 0
  }

  /// Contacts of `table` with at least one field whose bit is set.
  static func contacts(of table: ContactTable, having bits: [UInt64]) -> Bitmap {
    let n = table.rowCount
    return table.fieldOffsets.withUnsafeBufferPointer { off in
      bits.withUnsafeBufferPointer { w in
        Bitmap(count: n) { r in any(w, Int(off[r]), Int(off[r + 1])) }
      }
    }
  }
}
