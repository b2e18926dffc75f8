// Quoted-printable (RFC 2045) decoding, as vCard 2.1 uses it. Soft line
// breaks ("=" at the end of a physical line) are joined by the vCard
// unfolder before the value gets here; a lone "=" at the very end of the
// value is such a break with nothing after it and is dropped.

enum QuotedPrintable {
  /// Decodes `input`, appending to `output`. Returns false when "=" is
  /// followed by something other than two hex digits (broken QP).
  static func decode<C: BidirectionalCollection>(_ input: C, into output: inout [UInt8]) -> Bool
  where C.Element == UInt8 {
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
}
