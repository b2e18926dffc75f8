/// A contact file format.
///
/// Every vCard case reads every vCard version (2.1, 3.0, 4.0); the case
/// only matters for writing, and 2.1 cannot be written.
public enum ContactFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// vCard 2.1: read only.
  case vcard21
  /// vCard 3.0 (RFC 2426).
  case vcard3
  /// vCard 4.0 (RFC 6350), the default vCard output.
  case vcard4
  /// CSV (RFC 4180) with a header row.
  case csv
  /// Newline-delimited JSON, one contact per line.
  case ndjson

  /// From a file extension (`vcf`, `vcard`, `csv`, `ndjson`, `jsonl`), any
  /// case, with or without the dot. vCard maps to ``vcard4``.
  public init?(fileExtension: String) {
    var ext = fileExtension.lowercased()
    if ext.hasPrefix(".") { ext.removeFirst() }
    switch ext {
    case "vcf", "vcard", "vcards": self = .vcard4
    case "csv", "tsv", "tab": self = .csv  // the delimiter is sniffed
    case "ndjson", "jsonl", "json": self = .ndjson
    default: return nil
    }
  }

  /// From the extension of a path; nil when there is none we know.
  public init?(path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    self.init(fileExtension: String(name[name.index(after: dot)...]))
  }

  /// From a name given on a command line: `vcard`/`vcf`/`vcard4`, `vcard3`,
  /// `vcard21`, `csv`, `ndjson`/`jsonl`.
  public init?(name: String) {
    switch name.lowercased() {
    case "vcard", "vcf", "vcard4", "vcard40", "4.0": self = .vcard4
    case "vcard3", "vcard30", "3.0": self = .vcard3
    case "vcard21", "vcard2", "2.1": self = .vcard21
    case "csv": self = .csv
    case "ndjson", "jsonl", "json": self = .ndjson
    default: return nil
    }
  }

  public var isVCard: Bool { self == .vcard21 || self == .vcard3 || self == .vcard4 }

  /// Whether ``ContactIO`` can write this format (all but vCard 2.1).
  public var canWrite: Bool { self != .vcard21 }

  /// The usual file extension, without the dot.
  public var fileExtension: String {
    switch self {
    case .vcard21, .vcard3, .vcard4: "vcf"
    case .csv: "csv"
    case .ndjson: "ndjson"
    }
  }

  public var description: String { rawValue }

  /// Guesses the format of input from its first bytes: `BEGIN:VCARD` →
  /// vCard, `{` → NDJSON, anything else → CSV.
  static func sniff(_ head: ArraySlice<UInt8>) -> ContactFormat {
    var i = head.startIndex
    // Skip a UTF-8 BOM, UTF-16 zero bytes and blank lines.
    while i < head.endIndex {
      let b = head[i]
      if b == 0xEF || b == 0xBB || b == 0xBF || b == 0xFE || b == 0xFF || b == 0 || b == ASCII.cr || b == ASCII.lf
        || ASCII.isSpace(b)
      {
        i += 1
        continue
      }
      break
    }
    if i < head.endIndex && head[i] == UInt8(ascii: "{") { return .ndjson }
    var rest = head[i...].filter { $0 != 0 }
    // Unfold (a line break and one blank), so a folded BEGIN:VCARD counts.
    var unfolded: [UInt8] = []
    var k = 0
    while k < rest.count && unfolded.count < 16 {
      if rest[k] == ASCII.cr || rest[k] == ASCII.lf {
        var n = k + 1
        if rest[k] == ASCII.cr && n < rest.count && rest[n] == ASCII.lf { n += 1 }
        if n < rest.count && ASCII.isSpace(rest[n]) {
          k = n + 1
          continue
        }
      }
      unfolded.append(rest[k])
      k += 1
    }
    rest = unfolded
    if rest.asciiHasPrefixUppercase(Array("BEGIN:VCARD".utf8)) { return .vcard4 }
    return .csv
  }
}
