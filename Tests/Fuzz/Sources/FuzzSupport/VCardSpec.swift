import Foundation
import OhanaCore
import OhanaIO

/// vCard: record starts and the chunk-check prefix.
public enum VCardSpec {
  /// Three empty cards, 8,296 bytes, mostly blank lines (inside a card
  /// the lexer's cheapest path): the first two fill the reader's first
  /// 8 KiB (the 4 KiB it peeks at and the first read behind it), and the
  /// third starts before 8,192 and ends after it, so the first cut falls at
  /// the third card and every later cut is governed by the chunk size.
  public static let padding: [UInt8] = {
    func card(_ size: Int) -> [UInt8] {
      let head = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:padding\r\n".utf8)
      let tail = Array("END:VCARD\r\n".utf8)
      return head + [UInt8](repeating: 0x0A, count: size - head.count - tail.count) + tail
    }
    return card(4096) + card(4000) + card(200)
  }()

  static func isMarker(_ line: ArraySlice<UInt8>, _ marker: String) -> Bool {
    let m = Array(marker.utf8)
    guard line.count >= m.count else { return false }
    for (k, b) in line.prefix(m.count).enumerated() {
      let upper = (b >= 0x61 && b <= 0x7A) ? b - 0x20 : b
      if upper != m[k] { return false }
    }
    return line.dropFirst(m.count).allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  static func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

  enum Marker { case begin, end }

  /// The input's lines (1-based numbers) with the card marker each one is,
  /// if any. A marker is a line that is `BEGIN:VCARD` or `END:VCARD` (any
  /// case, trailing blanks), or a line that is not but reads as one once
  /// unfolded with the fold lines right after it (RFC 6350 3.2: a line
  /// that starts with a blank continues the one before, without that
  /// blank; `BEGIN:VCAR` + `\tD`). The fold lines of such a marker are part
  /// of it and left out. (The reader's rule, README "Reading files we did
  /// not write": a fold inside BEGIN:VCARD itself is harmless.)
  static func markedLines(_ bytes: [UInt8]) -> [(number: Int, line: ArraySlice<UInt8>, marker: Marker?)] {
    func marker(_ line: ArraySlice<UInt8>) -> Marker? {
      if isMarker(line, "BEGIN:VCARD") { return .begin }
      if isMarker(line, "END:VCARD") { return .end }
      return nil
    }
    func startsWithBlank(_ line: ArraySlice<UInt8>) -> Bool { line.first == 0x20 || line.first == 0x09 }
    let lines = ReaderInput.lines(bytes)
    var out: [(number: Int, line: ArraySlice<UInt8>, marker: Marker?)] = []
    var i = 0
    while i < lines.count {
      var m = marker(lines[i])
      var next = i + 1
      // (Only a line shorter than the marker can become one, and a line that
      // starts with a blank cannot: the others are not unfolded, which keeps
      // a long run of fold lines linear.)
      if m == nil && lines[i].count < 11 && !startsWithBlank(lines[i]) && next < lines.count
        && startsWithBlank(lines[next])
      {
        var unfolded = Array(lines[i])
        var j = next
        while j < lines.count && startsWithBlank(lines[j]) {
          unfolded += lines[j].dropFirst()
          j += 1
        }
        if let folded = marker(unfolded[...]) {
          m = folded
          next = j
        }
      }
      out.append((i + 1, lines[i], m))
      i = next
    }
    return out
  }

  /// Where records start. A record is a card or a run of text outside
  /// cards, so every non-blank line belongs to exactly one, and a record
  /// is imported or reported at its first line:
  /// - every `BEGIN:VCARD` line (any case, trailing blanks; folded too, see
  ///   `markedLines`) starts a record.
  ///   Inside a card whose first VERSION line says 2.1 it nests (a card of
  ///   its own, the outer one goes on after it; at most 8 deep); inside any
  ///   other card it ends that card (cut off) and starts the next, as the
  ///   reader documents;
  /// - outside any card, the first non-blank line of a run of non-blank
  ///   lines (blank lines do not end a run; a `BEGIN` does) starts one:
  ///   stray text, reported once per run. An `END:VCARD` outside a card is
  ///   stray text too.
  /// Lines of a parent card after a nested card ends are not required (the
  /// parent's record started at its own BEGIN).
  public static func recordStarts(_ bytes: [UInt8]) -> [Int]? {
    var starts: [Int] = []
    // Open cards, innermost last: has the card said VERSION (and was it 2.1)?
    var open: [(sawVersion: Bool, is21: Bool)] = []
    var inStray = false
    for (n, line, marker) in markedLines(bytes) {
      if marker == .begin {
        starts.append(n)
        if let top = open.last, !(top.is21 && open.count < 9) { open.removeLast() }
        open.append((false, false))
        inStray = false
      } else if open.isEmpty {
        if isBlank(line) { continue }
        if !inStray {
          starts.append(n)
          inStray = true
        }
      } else if marker == .end {
        open.removeLast()
      } else if !open[open.count - 1].sawVersion, let v = versionValue(line) {
        open[open.count - 1] = (true, v == "2.1")
      }
    }
    return starts
  }

  /// Does a card nest in a 2.1 card (the one case where the reader's table
  /// may depend on where chunks are cut, as it documents)? Same model as
  /// `recordStarts`.
  public static func nests(_ bytes: [UInt8]) -> Bool {
    var open: [(sawVersion: Bool, is21: Bool)] = []
    for (_, line, marker) in markedLines(bytes) {
      if marker == .begin {
        if let top = open.last {
          if top.is21 { return true }
          open.removeLast()
        }
        open.append((false, false))
      } else if open.isEmpty {
        continue
      } else if marker == .end {
        open.removeLast()
      } else if !open[open.count - 1].sawVersion, let v = versionValue(line) {
        open[open.count - 1] = (true, v == "2.1")
      }
    }
    return false
  }

  /// The value of a `VERSION:` line (any case, blanks trimmed), else nil.
  /// Read on bytes: `VERSION:` in ASCII case only and only space and tab
  /// as blanks, as the reader does (Unicode upper-casing made `VERSıON:`
  /// a VERSION line, and `.whitespaces` trimmed U+00A0). The value must
  /// then be `2.1` exactly for a 2.1 card: `2.10`, `2.1x` or `2.1` + a lone
  /// CR + more text are not (fuzz finding crash-c789f22e, where the
  /// reader was wrong and this model right).
  static func versionValue(_ line: ArraySlice<UInt8>) -> String? {
    let word = Array("VERSION:".utf8)
    guard line.count >= word.count else { return nil }
    for (k, b) in line.prefix(word.count).enumerated() {
      let upper = (b >= 0x61 && b <= 0x7A) ? b - 0x20 : b
      if upper != word[k] { return nil }
    }
    let value = line.dropFirst(word.count).drop { $0 == 0x20 || $0 == 0x09 }
    var end = value.endIndex
    while end > value.startIndex && (value[end - 1] == 0x20 || value[end - 1] == 0x09) { end -= 1 }
    return String(decoding: value[value.startIndex..<end], as: UTF8.self)
  }

  /// What vCard 4.0 cannot carry back, by design: the position in the
  /// source (sourceLine), and a carriage return inside a value: vCard text
  /// has no escape for it, so the writer writes CR, LF and CRLF alike as
  /// the newline escape `\n`; text values come back with LF, extra
  /// properties (kept in vCard text syntax) with the two characters `\n`.
  /// Everything else read from vCard is written.
  public static func view(_ c: Contact) -> Contact? {
    var v = withoutPosition(c)
    func lf(_ s: String?) -> String? {
      guard let s, s.utf8.contains(13) else { return s }
      return s.replacingNewlines(with: "\n")
    }
    for a in ContactAttribute.allCases { v[a] = lf(v[a]) }
    for i in v.fields.indices {
      v.fields[i].value = lf(v.fields[i].value) ?? ""
      v.fields[i].label = lf(v.fields[i].label)
    }
    for i in v.addresses.indices {
      for a in AddressAttribute.allCases { v.addresses[i][a] = lf(v.addresses[i][a]) }
    }
    for i in v.extras.indices where v.extras[i].value.utf8.contains(13) || v.extras[i].value.utf8.contains(10) {
      v.extras[i].value = v.extras[i].value.replacingNewlines(with: "\\n")
    }
    // A single-valued property the card already has (vCard 4.0, RFC 6350
    // §6: N, FN, UID, REV, BDAY, KIND, PRODID, GENDER, ANNIVERSARY) comes
    // back as X-OHANA-ALT-NAME, its value escaped as text (`;` `,`).
    var seen: Set<String> = ["FN"]
    if v[.uid] != nil { seen.insert("UID") }
    if [.familyName, .givenName, .middleName, .prefix, .suffix].contains(where: { v[$0] != nil }) { seen.insert("N") }
    if v[.birthday] != nil { seen.insert("BDAY") }
    for i in v.extras.indices {
      let name = v.extras[i].name.uppercased()
      guard singles4.contains(name) else { continue }
      if seen.insert(name).inserted { continue }
      v.extras[i].name = "X-OHANA-ALT-" + v.extras[i].name
      var out = ""
      var escaped = false
      for c in v.extras[i].value.unicodeScalars {
        if escaped {
          escaped = false
        } else if c == "\\" {
          escaped = true
        } else if c == ";" || c == "," {
          out.unicodeScalars.append("\\")
        }
        out.unicodeScalars.append(c)
      }
      v.extras[i].value = out
    }
    return v
  }

  static let singles4: Set<String> = ["N", "FN", "UID", "REV", "BDAY", "KIND", "PRODID", "GENDER", "ANNIVERSARY"]

  public static let spec: ReaderSpec = {
    var spec = ReaderSpec(
      readFormat: .vcard4, writeFormat: .vcard4,
      padded: { padding + $0 },
      roundTripView: view,
      recordStarts: recordStarts)
    spec.chunkDependent = { nests($0) }
    return spec
  }()
}

extension String {
  /// CRLF, CR and LF each replaced by `newline`.
  func replacingNewlines(with newline: String) -> String {
    var out = ""
    var previousCR = false
    for u in self.unicodeScalars {
      if u == "\r" {
        out += newline
        previousCR = true
        continue
      }
      if u == "\n" {
        if !previousCR { out += newline }
        previousCR = false
        continue
      }
      previousCR = false
      out.unicodeScalars.append(u)
    }
    return out
  }
}
