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
  static func splitStructured<C: RandomAccessCollection>(_ v: C, maxParts: Int, into parts: inout [Range<Int>]) where C.Element == UInt8, C.Index == Int {
    parts.removeAll(keepingCapacity: true)
    let base = v.startIndex
    let done: Void? = v.withContiguousStorageIfAvailable { typed in
      let buf = UnsafeRawBufferPointer(typed)
      let n = buf.count
      var start = 0
      var i = 0
      while true {
        // Jump to the next ';' or '\\' eight bytes at a time.
        i = ByteScan.firstIndex(buf, ASCII.semicolon, or: ASCII.backslash, from: i)
        if i >= n { break }
        if buf[i] == ASCII.backslash {
          i += 2
          continue
        }
        if parts.count + 1 < maxParts {
          parts.append((base + start)..<(base + i))
          start = i + 1
        }
        i += 1
      }
      parts.append((base + start)..<(base + max(start, n)))
    }
    if done == nil {
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
  static func escapeText<C: Collection>(_ v: C, commas: Bool, semicolons: Bool = true, into out: inout [UInt8])
  where C.Element == UInt8 {
    var prevCR = false
    for b in v {
      switch b {
      case ASCII.backslash: out.append(ASCII.backslash); out.append(b)
      case ASCII.comma where commas: out.append(ASCII.backslash); out.append(b)
      case ASCII.semicolon where semicolons: out.append(ASCII.backslash); out.append(b)
      case ASCII.lf:
        if !prevCR { out.append(ASCII.backslash); out.append(UInt8(ascii: "n")) }
      case ASCII.cr:
        out.append(ASCII.backslash); out.append(UInt8(ascii: "n"))
      default: out.append(b)
      }
      prevCR = b == ASCII.cr
    }
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
  static func writeParameterValue<C: Collection>(_ v: C, into out: inout [UInt8]) where C.Element == UInt8 {
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
