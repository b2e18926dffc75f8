// Quoted-printable (RFC 2045) decoding, as vCard 2.1 uses it. Soft line
// breaks ("=" at the end of a physical line) are joined by the vCard
// unfolder before the value gets here; a lone "=" at the very end of the
// value is such a break with nothing after it and is dropped.

enum QuotedPrintable {
  /// Decodes `input`, appending to `output`. Returns false when "=" is
  /// followed by something other than two hex digits (broken QP); what was
  /// decoded before the broken escape is appended all the same.
  static func decode<C: BidirectionalCollection>(_ input: C, into output: inout [UInt8]) -> Bool
  where C.Element == UInt8 {
    if let result = input.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0), into: &output) }) {
      return result
    }
    var i = input.startIndex
    while i != input.endIndex {
      let b = input[i]
      input.formIndex(after: &i)
      if b != ASCII.equals {
        output.append(b)
        continue
      }
      if i == input.endIndex { return true }  // trailing soft break
      let h1 = input[i]
      // "=\r\n" or "=\n" left inside a value: a soft break.
      if h1 == ASCII.cr || h1 == ASCII.lf {
        input.formIndex(after: &i)
        if h1 == ASCII.cr && i != input.endIndex && input[i] == ASCII.lf { input.formIndex(after: &i) }
        continue
      }
      input.formIndex(after: &i)
      guard i != input.endIndex, let v1 = ASCII.hexValue(h1), let v2 = ASCII.hexValue(input[i]) else {
        return false
      }
      input.formIndex(after: &i)
      output.append(v1 << 4 | v2)
    }
    return true
  }

  /// `decode` over contiguous bytes: the output never outgrows the input,
  /// so it is written into a scratch buffer of the input's size (on the
  /// stack when small) and appended to `output` with one copy. Runs without
  /// "=" are copied a word at a time; "=XX" is decoded in place.
  private static func decode(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Bool {
    let n = input.count
    guard n > 0, let src = input.baseAddress else { return true }
    // A plain run is copied as whole words: a word may carry bytes after
    // the run, which the next writes overwrite or the final count leaves
    // out. It stays inside the buffer, as `w <= i` and `i + 8 <= n`.
    return withUnsafeTemporaryAllocation(byteCount: n, alignment: 8) { scratch in
      guard let dst = scratch.baseAddress else { return false }
      let equalsWord = ByteScan.ones &* UInt64(ASCII.equals)
      var ok = true
      var i = 0  // read offset, 0 ... n
      var w = 0  // write offset, never past i
      while i < n {
        let b = src.load(fromByteOffset: i, as: UInt8.self)
        if b != ASCII.equals {
          if i &+ 8 <= n {
            // Copy the bytes before the next "=" in this word (all eight if none).
            let word = src.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            dst.storeBytes(of: word, toByteOffset: w, as: UInt64.self)
            let eq = ByteScan.zeroBytes(word ^ equalsWord)
            let run = eq == 0 ? 8 : eq.trailingZeroBitCount &>> 3
            i &+= run
            w &+= run
          } else {
            dst.storeBytes(of: b, toByteOffset: w, as: UInt8.self)
            i &+= 1
            w &+= 1
          }
          continue
        }
        // An escape: "=" and two hex digits, the common case.
        if i &+ 3 <= n, let v1 = hexValue(src.load(fromByteOffset: i &+ 1, as: UInt8.self)),
          let v2 = hexValue(src.load(fromByteOffset: i &+ 2, as: UInt8.self))
        {
          dst.storeBytes(of: v1 &<< 4 | v2, toByteOffset: w, as: UInt8.self)
          i &+= 3
          w &+= 1
          continue
        }
        i &+= 1
        if i == n { break }  // trailing soft break
        let h1 = src.load(fromByteOffset: i, as: UInt8.self)
        // "=\r\n" or "=\n" left inside a value: a soft break.
        if h1 == ASCII.cr || h1 == ASCII.lf {
          i &+= 1
          if h1 == ASCII.cr && i < n && src.load(fromByteOffset: i, as: UInt8.self) == ASCII.lf { i &+= 1 }
          continue
        }
        // Anything else after "=" (checked above when two bytes follow) is broken.
        ok = false
        break
      }
      output.append(contentsOf: UnsafeRawBufferPointer(start: dst, count: w))
      return ok
    }
  }

  /// `ASCII.hexValue` as two range checks (wrapping subtraction).
  @inline(__always)
  private static func hexValue(_ c: UInt8) -> UInt8? {
    let digit = c &- 0x30
    if digit < 10 { return digit }
    // Bit 0x20 folds 'A'...'F' onto 'a'...'f'; no other byte lands there.
    let letter = (c | 0x20) &- 0x61
    return letter < 6 ? letter &+ 10 : nil
  }
}
