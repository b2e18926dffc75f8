import Foundation
import OhanaCore

/// An independent check of vCard cardinalities, for tests: typed from the
/// RFCs apart from the engine's table (`OhanaIO.VCardCardinality`) and
/// sharing no code with the readers or the write-back's line parser. It
/// unfolds everything first, splits each card into lines, takes every
/// property's name (group dropped, case folded) and counts them.
///
/// - RFC 6350 §6 (4.0): `VERSION` 1; `FN` 1* (several only as one `ALTID`'s
///   alternatives); `N`, `BDAY`, `ANNIVERSARY`, `GENDER`, `UID`, `REV`,
///   `PRODID`, `KIND` *1.
/// - RFC 2426 (3.0): `VERSION`, `N` (3.1.2), `FN` (3.1.1) exactly 1;
///   `BDAY`, `UID`, `REV`, `PRODID`, `SORT-STRING`, `CLASS` at most 1.
/// - vCard 2.1: `VERSION`, `N` exactly 1; `FN`, `BDAY`, `UID`, `REV` at
///   most 1.
public enum VCardRFCChecker {
  static let atMostOnce: [String: Set<String>] = [
    "4.0": ["N", "BDAY", "ANNIVERSARY", "GENDER", "UID", "REV", "PRODID", "KIND", "VERSION"],
    "3.0": ["N", "FN", "BDAY", "UID", "REV", "PRODID", "SORT-STRING", "CLASS", "VERSION"],
    "2.1": ["N", "FN", "BDAY", "UID", "REV", "VERSION"],
  ]
  static let mandatory: [String: Set<String>] = [
    "4.0": ["VERSION", "FN"], "3.0": ["VERSION", "N", "FN"], "2.1": ["VERSION", "N"],
  ]

  /// The single-valued names of a version (4.0's FN included), for tests
  /// that look for what a merge set aside.
  public static func singleValued(_ version: String) -> Set<String> {
    var s = atMostOnce[version] ?? []
    if version == "4.0" { s.insert("FN") }
    return s
  }

  /// The logical lines of one card's text: every CRLF or LF followed by a
  /// space or tab removed, then split at line ends.
  public static func logicalLines(_ text: String) -> [String] {
    // On Unicode scalars: a fold may come before a combining mark, which
    // with the blank before it makes one character.
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    let s = Array(text.unicodeScalars)
    var i = 0
    while i < s.count {
      let c = s[i]
      if c == "\r" && i + 1 < s.count && s[i + 1] == "\n" {
        i += 1
        continue
      }
      if c == "\n" {
        if i + 1 < s.count && (s[i + 1] == " " || s[i + 1] == "\t") {
          i += 2
          continue
        }
        if !current.isEmpty { lines.append(String(current)) }
        current = String.UnicodeScalarView()
        i += 1
        continue
      }
      current.append(c)
      i += 1
    }
    if !current.isEmpty { lines.append(String(current)) }
    return lines
  }

  /// (name, ALTID value) of a logical line; the name upper-cased, group off.
  public static func property(_ line: String) -> (name: String, altID: String?, value: String) {
    // Unicode scalars: a value that starts with a combining mark would
    // make one character of it and the colon.
    var head = ""
    var inQuote = false
    var value = ""
    let scalars = Array(line.unicodeScalars)
    for (i, c) in scalars.enumerated() {
      if c == "\"" { inQuote.toggle() }
      if c == ":" && !inQuote {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars[(i + 1)...])
        value = String(v)
        break
      }
      head.unicodeScalars.append(c)
    }
    let parts = head.split(separator: ";", omittingEmptySubsequences: false)
    var name = String(parts.first ?? "").uppercased()
    if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
    var alt: String? = nil
    for p in parts.dropFirst() where p.uppercased().hasPrefix("ALTID=") { alt = String(p.dropFirst(6)) }
    return (name, alt, value)
  }

  /// The logical lines of a card that are no content line (no colon).
  public static func malformedLines(_ card: String) -> [String] {
    logicalLines(card).filter { !$0.unicodeScalars.contains(":") }
  }

  /// The problems of one card (empty: it obeys the tables).
  public static func problems(_ card: String) -> [String] {
    let lines = logicalLines(card)
    var count: [String: Int] = [:]
    var version = ""
    var fnAlt = Set<String>()
    var fnWithoutAlt = 0
    for l in lines {
      // A line without a colon is no content line (RFC 6350 §3.3: `name
      // *(";" param) ":" value`): not a property, so not counted.
      guard l.unicodeScalars.contains(":") else { continue }
      let p = property(l)
      if p.name == "BEGIN" || p.name == "END" { continue }
      count[p.name, default: 0] += 1
      if p.name == "VERSION" { version = p.value.trimmingCharacters(in: .whitespaces) }
      if p.name == "FN" {
        if let a = p.altID { fnAlt.insert(a) } else { fnWithoutAlt += 1 }
      }
    }
    guard let once = atMostOnce[version], let must = mandatory[version] else { return ["unknown VERSION '\(version)'"] }
    var out: [String] = []
    for n in must.sorted() where count[n, default: 0] == 0 { out.append("no \(n)") }
    for n in once.sorted() where count[n, default: 0] > 1 { out.append("\(n) x\(count[n, default: 0])") }
    if version == "4.0" && count["FN", default: 0] > 1 && !(fnWithoutAlt == 0 && fnAlt.count == 1) {
      out.append("FN x\(count["FN", default: 0]) not alternatives of one ALTID")
    }
    return out
  }

  /// The cards of a file's text: from each `BEGIN:VCARD` line to its
  /// `END:VCARD` line (nested cards of 2.1 AGENT aside: a card ends at
  /// the first END at depth 0).
  public static func cards(_ text: String) -> [String] {
    var out: [String] = []
    var current: [String] = []
    var depth = 0
    for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
      let u = raw.uppercased().trimmingCharacters(in: .whitespaces)
      if u == "BEGIN:VCARD" {
        depth += 1
        if depth == 1 { current = [] }
      }
      if depth >= 1 { current.append(String(raw)) }
      if u == "END:VCARD" && depth > 0 {
        depth -= 1
        if depth == 0 { out.append(current.joined(separator: "\r\n") + "\r\n") }
      }
    }
    return out
  }
}

/// What a contact read from vCard comes back as once written as vCard 4.0
/// or 3.0 and read again, as far as repeated single-valued properties go
/// (issue 43): an extra property that repeats one the card already has
/// (`VCardRFCChecker`'s tables) comes back named `X-OHANA-ALT-NAME`, its
/// value escaped as text (`;` and `,` behind a backslash). Written from
/// the RFC tables, apart from the writer.
public enum WrittenRepeats {
  public static func expected(_ c: Contact, version4: Bool) -> Contact {
    var v = c
    let singles = VCardRFCChecker.singleValued(version4 ? "4.0" : "3.0").subtracting(["VERSION"])
    var seen: Set<String> = ["FN"]
    if v[.uid] != nil { seen.insert("UID") }
    let nameParts: [ContactAttribute] = [.familyName, .givenName, .middleName, .prefix, .suffix]
    if !version4 || nameParts.contains(where: { v[$0] != nil }) { seen.insert("N") }
    if v[.birthday] != nil { seen.insert("BDAY") }
    for i in v.extras.indices {
      let name = v.extras[i].name.uppercased()
      guard singles.contains(name), !seen.insert(name).inserted else { continue }
      v.extras[i].name = "X-OHANA-ALT-" + v.extras[i].name
      var out = ""
      var escaped = false
      for ch in v.extras[i].value.unicodeScalars {
        if escaped {
          escaped = false
        } else if ch == "\\" {
          escaped = true
        } else if ch == ";" || ch == "," {
          out.unicodeScalars.append("\\")
        }
        out.unicodeScalars.append(ch)
      }
      v.extras[i].value = out
    }
    return v
  }
}
