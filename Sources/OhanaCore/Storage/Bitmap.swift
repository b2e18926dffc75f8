/// A fixed-length set of row indices, one bit a row, 64 rows a word.
///
/// Selections, tags and boolean columns are bitmaps. AND / OR / XOR / NOT
/// run a word at a time, so composing filters over a million rows touches
/// 15,625 words.
///
/// Bits past `count` in the last word are always zero (checked by
/// ``checkInvariants()``), so ``popCount`` and equality need no masking.
public struct Bitmap: Hashable, Sendable, Codable {
  @usableFromInline var _words: [UInt64]
  /// The bits, 64 rows a word (row r is bit r % 64 of word r / 64).
  public var words: [UInt64] { _words }
  public let count: Int

  /// A bitmap of `count` rows, all clear (or all set).
  public init(count: Int, allSet: Bool = false) {
    self.count = max(0, count)
    let n = (self.count + 63) >> 6
    _words = Array(repeating: allSet ? ~0 : 0, count: n)
    if allSet { clearTail() }
  }

  /// A bitmap with the rows of `rows` set (indices outside 0..<count are ignored).
  public init<S: Sequence>(count: Int, setting rows: S) where S.Element: BinaryInteger {
    self.init(count: count)
    for r in rows {
      let i = Int(r)
      if i >= 0 && i < self.count { insert(i) }
    }
  }

  /// A bitmap from its words (extra bits past `count` are cleared).
  public init(words: [UInt64], count: Int) {
    self.count = max(0, count)
    let n = (self.count + 63) >> 6
    var w = words
    if w.count > n { w.removeLast(w.count - n) }
    if w.count < n { w.append(contentsOf: repeatElement(0, count: n - w.count)) }
    self._words = w
    clearTail()
  }

  /// Builds a bitmap by evaluating `predicate` on every row index.
  @inlinable
  public init(count: Int, where predicate: (Int) throws -> Bool) rethrows {
    self.init(count: count)
    try _words.withUnsafeMutableBufferPointer { ws in
      var row = 0
      for w in 0..<ws.count {
        var word: UInt64 = 0
        let end = Swift.min(64, count - row)
        // Branch-free: a data-dependent branch per row would mispredict.
        for b in 0..<end { word |= UInt64(try predicate(row + b) ? 1 : 0) << UInt64(b) }
        ws[w] = word
        row += 64
      }
    }
  }

  mutating func clearTail() {
    let rem = count & 63
    if rem != 0, !_words.isEmpty { _words[_words.count - 1] &= (1 << UInt64(rem)) - 1 }
  }

  @inlinable
  public func contains(_ row: Int) -> Bool {
    guard row >= 0 && row < count else { return false }
    return _words[row >> 6] & (1 << UInt64(row & 63)) != 0
  }

  /// Sets `row`. - Precondition: `0 <= row < count` (a programmer error otherwise).
  @inlinable
  public mutating func insert(_ row: Int) {
    precondition(row >= 0 && row < count, "Bitmap row out of range")
    _words[row >> 6] |= 1 << UInt64(row & 63)
  }

  @inlinable
  public mutating func remove(_ row: Int) {
    precondition(row >= 0 && row < count, "Bitmap row out of range")
    _words[row >> 6] &= ~(1 << UInt64(row & 63))
  }

  public subscript(row: Int) -> Bool {
    get { contains(row) }
    set { if newValue { insert(row) } else { remove(row) } }
  }

  /// The number of set rows.
  public var popCount: Int { _words.reduce(0) { $0 + $1.nonzeroBitCount } }
  public var isEmpty: Bool { _words.allSatisfy { $0 == 0 } }

  // MARK: Algebra (word at a time)

  @inlinable
  func combined(_ other: Bitmap, _ op: (UInt64, UInt64) -> UInt64) -> Bitmap {
    precondition(count == other.count, "Bitmaps of different lengths")
    var result = self
    result._words.withUnsafeMutableBufferPointer { r in
      other._words.withUnsafeBufferPointer { o in
        for i in 0..<r.count { r[i] = op(r[i], o[i]) }
      }
    }
    return result
  }

  public func intersection(_ other: Bitmap) -> Bitmap { combined(other, &) }
  public func union(_ other: Bitmap) -> Bitmap { combined(other, |) }
  public func symmetricDifference(_ other: Bitmap) -> Bitmap { combined(other, ^) }
  public func subtracting(_ other: Bitmap) -> Bitmap { combined(other) { $0 & ~$1 } }
  public func inverted() -> Bitmap {
    var r = self
    for i in r._words.indices { r._words[i] = ~r._words[i] }
    r.clearTail()
    return r
  }

  /// Calls `body` with each set row in increasing order.
  @inlinable
  public func forEachSet(_ body: (Int) throws -> Void) rethrows {
    try _words.withUnsafeBufferPointer { ws in
      for w in 0..<ws.count {
        var word = ws[w]
        while word != 0 {
          let b = word.trailingZeroBitCount
          try body(w << 6 + b)
          word &= word &- 1
        }
      }
    }
  }

  /// The set rows in increasing order.
  public var setRows: [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(popCount)
    forEachSet { out.append(UInt32(truncatingIfNeeded: $0)) }
    return out
  }

  /// Grows or shrinks to `newCount` rows (new rows clear).
  public func resized(to newCount: Int) -> Bitmap {
    Bitmap(words: words, count: newCount)
  }

  /// Copies bits from `other` for rows `gather[i]` into row i.
  public static func gathering(_ other: Bitmap, rows gather: [UInt32]) -> Bitmap {
    var r = Bitmap(count: gather.count)
    for (i, src) in gather.enumerated() where other.contains(Int(src)) { r.insert(i) }
    return r
  }

  /// Appends `other`'s rows after this bitmap's rows.
  public func appending(_ other: Bitmap) -> Bitmap {
    var r = resized(to: count + other.count)
    other.forEachSet { r.insert(count + $0) }
    return r
  }

  public func checkInvariants() {
    #if OHANA_INTERNAL_CHECKS
    precondition(_words.count == (count + 63) >> 6, "word count")
    let rem = count & 63
    if rem != 0, let last = _words.last { precondition(last >> UInt64(rem) == 0, "tail bits set") }
    #endif
  }
}
