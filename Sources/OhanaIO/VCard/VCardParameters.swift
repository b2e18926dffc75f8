// Parameters of one vCard content line, decoded.
//
// Canonical stored form (what goes into the `parameters` column, one
// interned text per field / address / extra property): vCard 4.0 syntax
// without the leading `;`:
//
//     NAME=value,value;NAME=value
//
// - names upper-cased, in source order;
// - every TYPE parameter (`TYPE=a,b`, `TYPE=A;TYPE=B`, 2.1 bare `;CELL`)
//   merged into one `TYPE=` entry at the position of the first one;
// - 2.1 bare encodings (`;QUOTED-PRINTABLE`, `;BASE64`, `;8BIT`) become
//   `ENCODING=`;
// - values RFC 6868 caret-encoded (`^^`, `^'`, `^n`) and double-quoted
//   when they contain `,` `;` or `:`;
// - ENCODING and CHARSET are dropped once applied (the value is stored
//   decoded, as UTF-8), so a stale CHARSET is never written back.
//
// The canonical form reads back to itself, which is what makes a
// read → write → read round trip lossless.

struct VCardParameters {
  /// Decoded names (upper-cased) and values.
  var bytes: [UInt8] = []
  var names: [Range<Int>] = []
  /// For entry i, its values are `values[valueSpans[i]]`.
  var valueSpans: [Range<Int>] = []
  var values: [Range<Int>] = []

  var count: Int { names.count }

  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    names.removeAll(keepingCapacity: true)
    valueSpans.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
  }

  static let typeName: [UInt8] = Array("TYPE".utf8)
  static let encodingName: [UInt8] = Array("ENCODING".utf8)
  static let charsetName: [UInt8] = Array("CHARSET".utf8)
  static let valueName: [UInt8] = Array("VALUE".utf8)
  private static let bareEncodings: [[UInt8]] = ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT", "B"].map {
    Array($0.utf8)
  }

  /// Parses `raw`, the text between the property name and the value colon
  /// (it starts with `;`, or is empty). `legacy` (2.1) turns off RFC 6868.
  mutating func parse(_ raw: ArraySlice<UInt8>, legacy: Bool) {
    if raw.isEmpty && names.isEmpty { return }
    removeAll()
    var i = raw.startIndex
    let end = raw.endIndex
    while i < end {
      // One segment: up to ';' outside quotes.
      var j = i
      var inQuotes = false
      while j < end {
        let b = raw[j]
        if b == ASCII.quote { inQuotes.toggle() } else if b == ASCII.semicolon && !inQuotes { break }
        j += 1
      }
      addSegment(raw[i..<j], legacy: legacy)
      i = j + 1
    }
  }

  private mutating func addSegment(_ seg: ArraySlice<UInt8>, legacy: Bool) {
    var s = seg.startIndex
    var e = seg.endIndex
    while s < e && ASCII.isSpace(seg[s]) { s += 1 }
    while e > s && ASCII.isSpace(seg[e - 1]) { e -= 1 }
    if s == e { return }
    var eq = s
    var inQuotes = false
    while eq < e {
      let b = seg[eq]
      if b == ASCII.quote { inQuotes.toggle() } else if b == ASCII.equals && !inQuotes { break }
      eq += 1
    }
    let nameStart = bytes.count
    let firstValue = values.count
    if eq == e {
      // Bare parameter (2.1): a type, or an encoding.
      let bare = seg[s..<e]
      let isEncoding = Self.bareEncodings.contains { bare.asciiEqualsUppercase($0) }
      bytes.append(contentsOf: isEncoding ? Self.encodingName : Self.typeName)
      names.append(nameStart..<bytes.count)
      // A bare list (`TEL;TYPE=VOICE;MSG,WORK`, Evolution) is a list of types.
      var a = bare.startIndex
      while a <= bare.endIndex {
        var z = a
        while z < bare.endIndex && (bare[z] != ASCII.comma || isEncoding) { z += 1 }
        if !isEncoding && bare[a..<z].contains(ASCII.quote) {
          appendValue(ArraySlice(bare[a..<z].filter { $0 != ASCII.quote }), legacy: legacy)  // as TYPE= below
        } else {
          appendValue(bare[a..<z], legacy: legacy)
        }
        a = z + 1
      }
    } else {
      var ne = eq
      while ne > s && ASCII.isSpace(seg[ne - 1]) { ne -= 1 }
      for b in seg[s..<ne] { bytes.append(ASCII.upper(b)) }
      names.append(nameStart..<bytes.count)
      let isType = bytes[nameStart...].elementsEqual(Self.typeName)
      if isType {
        // TYPE is a list of words (RFC 6350 5.6): split at every comma,
        // quoted or not (`TYPE="voice,home"` is RFC 6350 6.4.1's example of
        // a list), and a raw `"` is never part of a word (RFC 6868's `^'`
        // is the way to write one). So a TYPE value never holds a comma or a
        // raw quote, and any value the writer quotes reads back the same.
        var a = eq + 1
        while a <= e {
          var z = a
          while z < e && seg[z] != ASCII.comma { z += 1 }
          if seg[a..<z].contains(ASCII.quote) {
            appendValue(ArraySlice(seg[a..<z].filter { $0 != ASCII.quote }), legacy: legacy)
          } else {
            appendValue(seg[a..<z], legacy: legacy)
          }
          a = z + 1
        }
      } else {
        // Values: split at ',' outside quotes.
        var k = eq + 1
        while true {
          var m = k
          var q = false
          while m < e {
            let b = seg[m]
            if b == ASCII.quote { q.toggle() } else if b == ASCII.comma && !q { break }
            m += 1
          }
          appendValue(seg[k..<m], legacy: legacy)
          if m >= e { break }
          k = m + 1
        }
      }
    }
    valueSpans.append(firstValue..<values.count)
  }

  private mutating func appendValue(_ v: ArraySlice<UInt8>, legacy: Bool) {
    var s = v.startIndex
    var e = v.endIndex
    while s < e && ASCII.isSpace(v[s]) { s += 1 }
    while e > s && ASCII.isSpace(v[e - 1]) { e -= 1 }
    if e - s >= 2 && v[s] == ASCII.quote && v[e - 1] == ASCII.quote {
      s += 1
      e -= 1
    } else if e - s >= 1 && v[s] == ASCII.quote {
      s += 1  // unterminated quote: keep the text
    }
    let start = bytes.count
    if legacy {
      bytes.append(contentsOf: v[s..<e])
    } else {
      VCardEscaping.decodeCaret(v[s..<e], into: &bytes)
    }
    values.append(start..<bytes.count)
  }

  // MARK: Queries

  func name(_ i: Int) -> ArraySlice<UInt8> { bytes[names[i]] }

  func index(of upperName: [UInt8]) -> Int? {
    for i in 0..<names.count where bytes[names[i]].elementsEqual(upperName) { return i }
    return nil
  }

  /// The first value of the first parameter with that name.
  func firstValue(of upperName: [UInt8]) -> ArraySlice<UInt8>? {
    guard let i = index(of: upperName), let v = valueSpans[i].first else { return nil }
    return bytes[values[v]]
  }

  /// True when some TYPE value equals `upper` (case-insensitive).
  func hasType(_ upper: [UInt8]) -> Bool {
    for i in 0..<names.count where bytes[names[i]].elementsEqual(Self.typeName) {
      for v in valueSpans[i] where bytes[values[v]].asciiEqualsUppercase(upper) { return true }
    }
    return false
  }

  // MARK: Canonical text

  /// Appends the canonical form (see the type comment), leaving out the
  /// entries whose bit is set in `skip`.
  func writeCanonical(skipping skip: UInt64 = 0, into out: inout [UInt8]) {
    var wroteType = false
    var first = true
    for i in 0..<names.count {
      if i < 64 && skip & (1 << UInt64(i)) != 0 { continue }
      let isType = bytes[names[i]].elementsEqual(Self.typeName)
      if isType && wroteType { continue }
      if !first { out.append(ASCII.semicolon) }
      first = false
      out.append(contentsOf: bytes[names[i]])
      out.append(ASCII.equals)
      var firstValue = true
      if isType {
        for j in i..<names.count where bytes[names[j]].elementsEqual(Self.typeName) {
          if j < 64 && skip & (1 << UInt64(j)) != 0 { continue }
          for v in valueSpans[j] {
            if !firstValue { out.append(ASCII.comma) }
            firstValue = false
            VCardEscaping.writeParameterValue(bytes[values[v]], into: &out)
          }
        }
      } else {
        for v in valueSpans[i] {
          if !firstValue { out.append(ASCII.comma) }
          firstValue = false
          VCardEscaping.writeParameterValue(bytes[values[v]], into: &out)
        }
      }
      if isType { wroteType = true }
    }
  }

  private static let labelNoise: [[UInt8]] = ["PREF", "VOICE", "INTERNET"].map { Array($0.utf8) }

  /// The label of a field or address: its TYPE values without PREF / VOICE /
  /// INTERNET, lower-cased, joined by ','.
  func writeLabel(into out: inout [UInt8]) {
    var first = true
    for i in 0..<names.count where bytes[names[i]].elementsEqual(Self.typeName) {
      for v in valueSpans[i] {
        let value = bytes[values[v]]
        if value.isEmpty || Self.labelNoise.contains(where: { value.asciiEqualsUppercase($0) }) { continue }
        if !first { out.append(ASCII.comma) }
        first = false
        for b in value { out.append(ASCII.lower(b)) }
      }
    }
  }
}
