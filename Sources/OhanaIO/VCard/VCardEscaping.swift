// Value and parameter escaping for vCard text.
//
// Values (RFC 6350 3.4, RFC 2426 4): `\n` / `\N` is a newline, `\,` `\;`
// `\\` (and the common `\:`) stand for themselves. vCard 2.1 has no
// backslash escapes except `\;` inside structured values.
//
// Parameter values (RFC 6868): `^n` newline, `^'` double quote, `^^` caret.

enum VCardEscaping {
  /// Unescapes a 3.0/4.0 text value, appending to `out`. CRLF (from
  /// quoted-printable) becomes LF so that every newline has one spelling.
  static func unescapeText<C: RandomAccessCollection>(_ v: C, into out: inout [UInt8]) where C.Element == UInt8, C.Index == Int {
    var i = v.startIndex
    let end = v.endIndex
    while i < end {
      let b = v[i]
      if b == ASCII.backslash && i + 1 < end {
        let n = v[i + 1]
        switch n {
        case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(ASCII.lf)
        case ASCII.comma, ASCII.semicolon, ASCII.backslash, ASCII.colon: out.append(n)
        default: out.append(b); out.append(n)
        }
        i += 2
        continue
      }
      if b == ASCII.cr && i + 1 < end && v[i + 1] == ASCII.lf {
        i += 1
        continue
      }
      out.append(b)
      i += 1
    }
  }

  /// A 2.1 value: no escapes, only CRLF → LF.
  static func copyLegacyText<C: RandomAccessCollection>(_ v: C, into out: inout [UInt8]) where C.Element == UInt8, C.Index == Int {
    var i = v.startIndex
    let end = v.endIndex
    while i < end {
      let b = v[i]
      if b == ASCII.cr && i + 1 < end && v[i + 1] == ASCII.lf {
        i += 1
        continue
      }
      out.append(b)
      i += 1
    }
  }

  /// Splits a structured value (N, ADR, ORG) at `;` not preceded by a
  /// backslash. Returns ranges into `v`.
  static func splitStructured<C: RandomAccessCollection>(_ v: C, maxParts: Int = .max) -> [Range<Int>] where C.Element == UInt8, C.Index == Int {
    var parts: [Range<Int>] = []
    splitStructured(v, maxParts: maxParts, into: &parts)
    return parts
  }

  /// `splitStructured` into a reused array (cleared first).
  ///
  /// Contiguous values are scanned a word at a time (`scanParts`), and the
  /// parts are collected in a scratch buffer on the stack that replaces the
  /// contents of `parts` in one step, instead of a clear and one append
  /// (each with its own uniqueness check) per part.
  static func splitStructured<C: RandomAccessCollection>(_ v: C, maxParts: Int, into parts: inout [Range<Int>]) where C.Element == UInt8, C.Index == Int {
    let base = v.startIndex
    let done: Void? = v.withContiguousStorageIfAvailable { typed in
      let bytes = UnsafeRawBufferPointer(typed)
      if maxParts <= 8 {
        // The readers' case (N, ADR, ORG): a fixed size is a plain stack slot.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 8) { found in
          let count = scanParts(bytes, base: base, maxParts: maxParts, into: found)
          parts.replaceSubrange(0..<parts.count, with: UnsafeBufferPointer(rebasing: found[..<count]))
        }
      } else {
        // At most one part per ';' plus one.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: min(maxParts, bytes.count &+ 1)) { found in
          let count = scanParts(bytes, base: base, maxParts: maxParts, into: found)
          parts.replaceSubrange(0..<parts.count, with: UnsafeBufferPointer(rebasing: found[..<count]))
        }
      }
    }
    if done == nil {
      parts.removeAll(keepingCapacity: true)
      // Not contiguous (no reader passes such a value): the same rule, byte by byte.
      var start = base
      var i = base
      while i < v.endIndex {
        if v[i] == ASCII.backslash {
          i += 2
          continue
        }
        if v[i] == ASCII.semicolon && parts.count + 1 < maxParts {
          parts.append(start..<i)
          start = i + 1
        }
        i += 1
      }
      parts.append(start..<max(start, v.endIndex))
    }
  }

  /// The parts of `bytes` (offset by `base`) split at ';' not escaped by a
  /// '\\', at most `min(maxParts, found.count)` of them (the last holds the
  /// rest), written to `found`; returns their number. `found` must hold at
  /// least one range, and one more than the number of ';' when that is below
  /// `maxParts`.
  ///
  /// Eight bytes are tested per step: every ';' and '\\' of a word is
  /// visited from its bit in one match mask.
  @inline(__always)
  private static func scanParts(
    _ bytes: UnsafeRawBufferPointer, base: Int, maxParts: Int, into found: UnsafeMutableBufferPointer<Range<Int>>
  ) -> Int {
    let n = bytes.count
    let last = min(maxParts, found.count) &- 1  // parts ended by a ';', at most
    var count = 0
    var start = 0  // where the current part begins
    if last > 0, let p = bytes.baseAddress {
      let semicolons = ByteScan.ones &* UInt64(ASCII.semicolon)
      let backslashes = ByteScan.ones &* UInt64(ASCII.backslash)
      var escaped = 0  // a byte before this offset follows a '\\'
      var i = 0
      scan: while i < n {
        // Eight bytes from `i`, zero-filled past the end.
        let w = ByteScan.word(UnsafeRawPointer(p), at: i, count: n)
        // The bytes equal to ';' or '\\', plus possibly some just above one
        // (the cheap zero-byte test lets a borrow through); each candidate
        // is checked against its byte below.
        let x1 = w ^ semicolons
        let x2 = w ^ backslashes
        var m = ((x1 &- ByteScan.ones) & ~x1 | (x2 &- ByteScan.ones) & ~x2) & ByteScan.highs
        while m != 0 {
          let k = m.trailingZeroBitCount &>> 3
          m &= m &- 1
          let j = i &+ k
          if j < escaped { continue }  // the byte after a '\\'
          let b = UInt8(truncatingIfNeeded: w &>> UInt64(truncatingIfNeeded: k &* 8))
          if b != ASCII.semicolon {
            if b == ASCII.backslash { escaped = j &+ 2 }
            continue
          }
          found.initializeElement(at: count, to: (base &+ start)..<(base &+ j))
          count &+= 1
          start = j &+ 1
          if count == last { break scan }  // the rest is the last part
        }
        i &+= 8
      }
    }
    found.initializeElement(at: count, to: (base &+ start)..<(base &+ n))
    return count &+ 1
  }

  /// Unescapes one structured component: like text, and for 2.1 only `\;`.
  static func unescapeComponent<C: RandomAccessCollection>(_ v: C, legacy: Bool, into out: inout [UInt8]) where C.Element == UInt8, C.Index == Int {
    if !legacy {
      unescapeText(v, into: &out)
      return
    }
    var i = v.startIndex
    while i < v.endIndex {
      let b = v[i]
      if b == ASCII.backslash && i + 1 < v.endIndex && v[i + 1] == ASCII.semicolon {
        out.append(ASCII.semicolon)
        i += 2
        continue
      }
      if b == ASCII.cr && i + 1 < v.endIndex && v[i + 1] == ASCII.lf {
        i += 1
        continue
      }
      out.append(b)
      i += 1
    }
  }

  /// Escapes a text value for writing. `commas` says whether `,` is escaped
  /// (single text values) or left alone (list-valued NICKNAME and the
  /// components of N / ADR, where a comma separates values).
  static func escapeText<C: Collection, Out: ByteOutput>(
    _ v: C, commas: Bool, semicolons: Bool = true, into out: inout Out
  ) where C.Element == UInt8 {
    let done: Void? = v.withContiguousStorageIfAvailable {
      escapeText(bytes: $0, commas: commas, semicolons: semicolons, into: &out)
    }
    if done == nil {
      Array(v).withUnsafeBufferPointer { escapeText(bytes: $0, commas: commas, semicolons: semicolons, into: &out) }
    }
  }

  /// ``escapeText(_:commas:semicolons:into:)`` over contiguous bytes: the
  /// runs between bytes that need an escape are appended whole (one append
  /// per run, not per byte). A CR LF pair becomes one `\n`.
  static func escapeText<Out: ByteOutput>(
    bytes v: UnsafeBufferPointer<UInt8>, commas: Bool, semicolons: Bool, into out: inout Out
  ) {
    var run = 0
    var prevCR = false
    for i in 0..<v.count {
      let b = v[i]
      // Every byte that may need an escape is at most a backslash (0x5C).
      guard b <= ASCII.backslash else {
        prevCR = false
        continue
      }
      let escaped: UInt8
      switch b {
      case ASCII.backslash: escaped = b
      case ASCII.comma where commas: escaped = b
      case ASCII.semicolon where semicolons: escaped = b
      case ASCII.lf, ASCII.cr: escaped = UInt8(ascii: "n")
      default:
        prevCR = false
        continue
      }
      if run < i { out.append(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: v[run..<i]))) }
      run = i + 1
      // The LF of a CR LF pair was written as the CR's `\n`.
      if !(b == ASCII.lf && prevCR) {
        out.append(ASCII.backslash)
        out.append(escaped)
      }
      prevCR = b == ASCII.cr
    }
    if run < v.count { out.append(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: v[run..<v.count]))) }
  }

  /// Replaces raw CR / LF in an otherwise verbatim value with `\n`, so it
  /// fits on a content line (used for extra properties after QP decoding).
  static func escapeNewlinesOnly<C: RandomAccessCollection>(_ v: C, into out: inout [UInt8]) where C.Element == UInt8, C.Index == Int {
    var i = v.startIndex
    while i < v.endIndex {
      let b = v[i]
      if b == ASCII.cr || b == ASCII.lf {
        out.append(ASCII.backslash)
        out.append(UInt8(ascii: "n"))
        if b == ASCII.cr && i + 1 < v.endIndex && v[i + 1] == ASCII.lf { i += 1 }
      } else {
        out.append(b)
      }
      i += 1
    }
  }

  /// Decodes RFC 6868 caret escapes in a parameter value.
  static func decodeCaret(_ v: ArraySlice<UInt8>, into out: inout [UInt8]) {
    var i = v.startIndex
    while i < v.endIndex {
      let b = v[i]
      if b == ASCII.caret && i + 1 < v.endIndex {
        switch v[i + 1] {
        case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(ASCII.lf); i += 2; continue
        case ASCII.apostrophe: out.append(ASCII.quote); i += 2; continue
        case ASCII.caret: out.append(ASCII.caret); i += 2; continue
        default: break
        }
      }
      out.append(b)
      i += 1
    }
  }

  /// Writes one parameter value: caret-encoded (RFC 6868), and quoted when
  /// it holds `,` `;` or `:`.
  static func writeParameterValue<C: Collection, Out: ByteOutput>(_ v: C, into out: inout Out) where C.Element == UInt8 {
    var needsQuotes = false
    for b in v where b == ASCII.comma || b == ASCII.semicolon || b == ASCII.colon {
      needsQuotes = true
      break
    }
    if needsQuotes { out.append(ASCII.quote) }
    var prevCR = false
    for b in v {
      switch b {
      case ASCII.caret: out.append(ASCII.caret); out.append(ASCII.caret)
      case ASCII.quote: out.append(ASCII.caret); out.append(ASCII.apostrophe)
      case ASCII.lf:
        if !prevCR { out.append(ASCII.caret); out.append(UInt8(ascii: "n")) }
      case ASCII.cr: out.append(ASCII.caret); out.append(UInt8(ascii: "n"))
      default: out.append(b)
      }
      prevCR = b == ASCII.cr
    }
    if needsQuotes { out.append(ASCII.quote) }
  }
}
