import OhanaCore
import OhanaIO

/// CSV: a reference record splitter, the chunk-check padding and what CSV
/// keeps.
public enum CSVSpec {
  public struct Record {
    /// 1-based line (LF-counted) where the record starts.
    public var line: Int
    /// Every cell empty after unquoting (the reader skips these).
    public var blank: Bool
    /// Ends in an unterminated quoted cell (runs to the end of the input).
    public var unterminated: Bool
    /// Offset just past the record's line break (or the end of the input).
    public var end: Int
  }

  /// The records of `bytes` by the rules `CSVTokenizer` documents, written
  /// for clarity, one byte at a time: cells end at `,`; records at LF, CRLF
  /// or a lone CR; a cell that starts with `"` is quoted (`""` is a quote,
  /// line breaks are text), and text after its closing quote up to the
  /// next separator belongs to it; a quote elsewhere is text. Lines are
  /// counted by LF only, as everywhere in the readers.
  public static func records(_ bytes: [UInt8]) -> [Record] {
    var out: [Record] = []
    var i = 0
    var line = 1
    let n = bytes.count
    while i < n {
      let start = line
      var blank = true
      while true {
        // One cell.
        if i < n && bytes[i] == 0x22 {
          i += 1
          var closed = false
          while i < n {
            if bytes[i] == 0x22 {
              if i + 1 < n && bytes[i + 1] == 0x22 {
                blank = false
                i += 2
                continue
              }
              i += 1
              closed = true
              break
            }
            if bytes[i] == 0x0A { line += 1 }
            blank = false
            i += 1
          }
          if !closed {
            out.append(Record(line: start, blank: false, unterminated: true, end: n))
            return out
          }
        }
        while i < n && bytes[i] != 0x2C && bytes[i] != 0x0A && bytes[i] != 0x0D {
          blank = false
          i += 1
        }
        if i >= n {
          out.append(Record(line: start, blank: blank, unterminated: false, end: n))
          return out
        }
        let b = bytes[i]
        i += 1
        if b == 0x2C { continue }
        if b == 0x0A {
          line += 1
        } else if i < n && bytes[i] == 0x0A {  // CRLF
          i += 1
          line += 1
        }
        out.append(Record(line: start, blank: blank, unterminated: false, end: i))
        break
      }
    }
    return out
  }

  /// Record starts the reader must account for: every record after the
  /// header that is not blank (blank records are skipped silently, by
  /// design). The header (first record) is not a contact; a header that is
  /// not complete makes the read throw.
  public static func recordStarts(_ bytes: [UInt8]) -> [Int]? {
    records(bytes).dropFirst().filter { !$0.blank }.map(\.line)
  }

  /// 8,200 blank lines right after the header: the reader skips blank
  /// records, and its first chunk (the header, with the 8 KiB the reader
  /// takes first) then ends inside them.
  public static func padded(_ input: [UInt8]) -> [UInt8] {
    guard let header = records(input).first, !header.unterminated, header.end < input.count else { return input }
    return Array(input[..<header.end]) + [UInt8](repeating: 0x0A, count: 8200) + Array(input[header.end...])
  }

  static func nonEmpty(_ s: String?) -> String? {
    guard let s, !s.isEmpty else { return nil }
    return s
  }

  /// Google's multi-value separator, split as the reader does (left to right).
  static func pieces(_ value: String) -> [String] {
    let v = Array(value.utf8)
    let sep = Array(" ::: ".utf8)
    var out: [String] = []
    var start = 0
    var k = 0
    while k + sep.count <= v.count {
      if Array(v[k..<(k + sep.count)]) == sep {
        out.append(String(decoding: v[start..<k], as: UTF8.self))
        k += sep.count
        start = k
      } else {
        k += 1
      }
    }
    out.append(String(decoding: v[start...], as: UTF8.self))
    return out
  }

  /// What CSV keeps of a contact, by design (see `CSVWriter`): the name,
  /// organization, date and note attributes (not sourceProvider), field
  /// kinds, labels and values, and the eight address parts. It drops field
  /// and address groups and parameters, extra properties, photos, derived
  /// values and tags, and the position in the source. Fields come back
  /// grouped by kind (the writer writes one column group per kind); a value
  /// holding Google's ` ::: ` comes back as several fields; a field with an
  /// empty value, an address with no part and a contact with no cell at all
  /// are not written.
  public static func view(_ c: Contact) -> Contact? {
    var v = Contact()
    for a in ContactAttribute.allCases where a != .sourceProvider { v[a] = nonEmpty(c[a]) }
    for kind in FieldKind.allCases {
      for f in c.fields where f.kind == kind {
        for p in pieces(f.value) where !p.isEmpty {
          v.fields.append(ContactField(kind: kind, label: nonEmpty(f.label), value: p))
        }
      }
    }
    for a in c.addresses {
      var x = PostalAddress()
      for part in [AddressAttribute.label, .street, .locality, .region, .postalCode, .country, .poBox, .extended] {
        x[part] = nonEmpty(a[part])
      }
      if x != PostalAddress() { v.addresses.append(x) }
    }
    if v == Contact() { return nil }
    return v
  }

  public static let spec = ReaderSpec(
    readFormat: .csv, writeFormat: .csv, padded: padded, roundTripView: view, recordStarts: recordStarts)
}
