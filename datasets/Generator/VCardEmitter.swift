/// The vCard versions the generator writes.
public enum VCardVersion: String, Sendable, CaseIterable {
  case v21 = "2.1"
  case v30 = "3.0"
  case v40 = "4.0"
}

/// Writes vCard properties as bytes: escaping, quoted-printable for 2.1,
/// line folding at 75 octets (never inside a UTF-8 sequence) and CRLF.
///
/// One logical line is assembled in `line`, then folded into `out`.
struct VCardEmitter {
  var out: [UInt8] = []
  private var line: [UInt8] = []
  var version: VCardVersion = .v30

  init() {
    out.reserveCapacity(1 << 20)
    line.reserveCapacity(256)
  }

  // MARK: Whole lines

  mutating func beginCard(_ v: VCardVersion) {
    version = v
    out.append(contentsOf: "BEGIN:VCARD\r\nVERSION:".utf8)
    out.append(contentsOf: v.rawValue.utf8)
    out.append(contentsOf: "\r\n".utf8)
  }

  mutating func endCard() {
    out.append(contentsOf: "END:VCARD\r\n".utf8)
  }

  // MARK: Properties

  /// Writes `[group.]NAME[;params]:value` where `components` are joined
  /// with `;` (structured values such as N and ADR) after escaping each.
  mutating func property(
    _ name: String, group: String? = nil, params: [String] = [],
    components: [String]
  ) {
    line.removeAll(keepingCapacity: true)
    if let group {
      line.append(contentsOf: group.utf8)
      line.append(UInt8(ascii: "."))
    }
    line.append(contentsOf: name.utf8)
    for p in params {
      line.append(UInt8(ascii: ";"))
      line.append(contentsOf: p.utf8)
    }
    if version == .v21 && components.contains(where: Self.needsQuotedPrintable) {
      line.append(contentsOf: ";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:".utf8)
      var first = true
      for c in components {
        if !first { line.append(UInt8(ascii: ";")) }
        first = false
        appendQuotedPrintable(c)
      }
      flushQuotedPrintable()
      return
    }
    line.append(UInt8(ascii: ":"))
    var first = true
    for c in components {
      if !first { line.append(UInt8(ascii: ";")) }
      first = false
      appendEscaped(c)
    }
    flushFolded()
  }

  /// A single text value.
  mutating func property(
    _ name: String, group: String? = nil, params: [String] = [], _ value: String
  ) {
    property(name, group: group, params: params, components: [value])
  }

  /// A value written as is (URIs, dates, already-encoded data).
  mutating func rawProperty(
    _ name: String, group: String? = nil, params: [String] = [], _ value: String
  ) {
    line.removeAll(keepingCapacity: true)
    if let group {
      line.append(contentsOf: group.utf8)
      line.append(UInt8(ascii: "."))
    }
    line.append(contentsOf: name.utf8)
    for p in params {
      line.append(UInt8(ascii: ";"))
      line.append(contentsOf: p.utf8)
    }
    line.append(UInt8(ascii: ":"))
    line.append(contentsOf: value.utf8)
    flushFolded()
  }

  /// An inline binary (PHOTO) in the form each version expects.
  mutating func photo(png: [UInt8]) {
    let data = Base64.encode(png)
    line.removeAll(keepingCapacity: true)
    switch version {
    case .v21:
      line.append(contentsOf: "PHOTO;ENCODING=BASE64;TYPE=PNG:".utf8)
      line.append(contentsOf: data)
      flushFolded(base64: true)
      // vCard 2.1 ends inline base64 with an empty line.
      out.append(contentsOf: "\r\n".utf8)
    case .v30:
      line.append(contentsOf: "PHOTO;ENCODING=b;TYPE=PNG:".utf8)
      line.append(contentsOf: data)
      flushFolded()
    case .v40:
      line.append(contentsOf: "PHOTO:data:image/png;base64,".utf8)
      line.append(contentsOf: data)
      flushFolded()
    }
  }

  // MARK: Encoding

  static func needsQuotedPrintable(_ s: String) -> Bool {
    for b in s.utf8 where b >= 0x80 || b == 0x0A || b == 0x0D { return true }
    return false
  }

  private mutating func appendEscaped(_ s: String) {
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "\\"):
        line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case UInt8(ascii: ";"):
        line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: ";")])
      case UInt8(ascii: ","):
        if version == .v21 { line.append(b) } else {
          line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: ",")])
        }
      case 0x0A:
        line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D:
        break
      default:
        line.append(b)
      }
    }
  }

  private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

  private mutating func appendQuotedPrintable(_ s: String) {
    for b in s.utf8 {
      switch b {
      case 0x0A:
        line.append(contentsOf: "=0D=0A".utf8)
      case 0x0D:
        break
      case UInt8(ascii: ";"):
        line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: ";")])
      case UInt8(ascii: "="), 0..<0x20, 0x7F...0xFF:
        line.append(UInt8(ascii: "="))
        line.append(Self.hex[Int(b >> 4)])
        line.append(Self.hex[Int(b & 0x0F)])
      default:
        line.append(b)
      }
    }
  }

  /// Quoted-printable lines break with a soft `=` before 76 characters,
  /// never inside an `=XX` triplet.
  private mutating func flushQuotedPrintable() {
    var col = 0
    var i = 0
    let n = line.count
    while i < n {
      let width = line[i] == UInt8(ascii: "=") && i + 2 < n ? 3 : 1
      if col + width > 75 {
        out.append(contentsOf: "=\r\n".utf8)
        col = 0
      }
      out.append(contentsOf: line[i..<(i + width)])
      col += width
      i += width
    }
    out.append(contentsOf: "\r\n".utf8)
  }

  /// Folds at 75 octets, backing off so that a UTF-8 sequence stays whole.
  /// vCard 2.1 text lines are left unfolded (2.1 folds only at whitespace,
  /// and keeps it); inline base64 is folded in every version.
  private mutating func flushFolded(base64: Bool = false) {
    if version == .v21 && !base64 {
      out.append(contentsOf: line)
      out.append(contentsOf: "\r\n".utf8)
      return
    }
    var start = 0
    let n = line.count
    var limit = 75
    while n - start > limit {
      var cut = start + limit
      while cut > start + 1 && (line[cut] & 0xC0) == 0x80 { cut -= 1 }
      out.append(contentsOf: line[start..<cut])
      out.append(contentsOf: "\r\n ".utf8)
      start = cut
      limit = 74
    }
    out.append(contentsOf: line[start..<n])
    out.append(contentsOf: "\r\n".utf8)
  }
}
