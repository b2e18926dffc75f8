/// How often a property may occur in one vCard, by version: the table that
/// every vCard this project writes obeys (the writer of `convert`,
/// `process` and `dedupe`, and the CardDAV write-back's merged cards).
///
/// - vCard 4.0 (RFC 6350 §6, the "Cardinality" line of each property):
///   `VERSION` exactly once; `FN` one or more; `N`, `BDAY`, `ANNIVERSARY`,
///   `GENDER`, `UID`, `REV`, `PRODID` and `KIND` at most once. `FN` may
///   repeat only as alternatives of each other (the same `ALTID`, §5.4);
///   a second `FN` without one is counted as a repeat.
/// - vCard 3.0 (RFC 2426): `VERSION`, `N` (§3.1.2) and `FN` (§3.1.1) exactly
///   once. RFC 2426 states no other cardinality; for the properties it
///   shares with 4.0 (`BDAY`, `UID`, `REV`, `PRODID`) this table takes RFC
///   6350's "at most once", and `SORT-STRING` and `CLASS`, which name *the*
///   sort string and *the* access class of the card, are singular too.
/// - vCard 2.1 (the Internet Mail Consortium's specification): `VERSION` and
///   `N` once; `FN`, `BDAY`, `UID` and `REV` at most once.
///
/// What the writer does with a repeat it would otherwise write (a second
/// `N` kept among a card's unmodelled properties, two members' `GENDER`
/// in a merged contact): it writes it as `X-OHANA-ALT-<NAME>`, the same
/// value and parameters, so that nothing read is lost and the card stays
/// valid. The CardDAV merge does the same (see its documentation).
public enum VCardCardinality {
  public enum Version: String, Sendable, CaseIterable {
    case v21 = "2.1"
    case v30 = "3.0"
    case v40 = "4.0"

    /// The version a `VERSION` value names; nil for any other text.
    public init?(_ text: some StringProtocol) {
      let t = text.trimmingASCIISpaces()
      guard let v = Version(rawValue: t) else { return nil }
      self = v
    }
  }

  /// The prefix of a repeated single-valued property's name as written.
  public static let alternativePrefix = "X-OHANA-ALT-"

  /// Properties that occur at most once (upper-case names).
  public static func singleValued(_ version: Version) -> Set<String> {
    switch version {
    case .v40: return ["VERSION", "FN", "N", "BDAY", "ANNIVERSARY", "GENDER", "UID", "REV", "PRODID", "KIND"]
    case .v30: return ["VERSION", "FN", "N", "BDAY", "UID", "REV", "PRODID", "SORT-STRING", "CLASS"]
    case .v21: return ["VERSION", "N", "FN", "BDAY", "UID", "REV"]
    }
  }

  /// Properties that must be present (upper-case names).
  public static func required(_ version: Version) -> [String] {
    switch version {
    case .v40: return ["VERSION", "FN"]
    case .v30: return ["VERSION", "N", "FN"]
    case .v21: return ["VERSION", "N"]
    }
  }

  /// One way a card breaks the table.
  public struct Violation: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case repeated, missing }
    public var kind: Kind
    public var property: String
    /// How many times it occurs.
    public var count: Int
    public var description: String {
      kind == .missing ? "\(property) is missing" : "\(property) occurs \(count) times (at most once)"
    }
  }

  /// The violations of a card whose properties are `properties` (upper-case
  /// name, and the card's `ALTID` parameter value or nil), in the order of
  /// the table. `BEGIN` and `END` are not counted.
  public static func violations(_ properties: [(name: String, altID: String?)], version: Version) -> [Violation] {
    var count: [String: Int] = [:]
    var fnAltIDs = Set<String?>()
    for p in properties {
      count[p.name, default: 0] += 1
      if p.name == "FN" { fnAltIDs.insert(p.altID) }
    }
    var out: [Violation] = []
    for name in required(version) where (count[name] ?? 0) == 0 {
      out.append(Violation(kind: .missing, property: name, count: 0))
    }
    for name in singleValued(version).sorted() {
      let n = count[name] ?? 0
      guard n > 1 else { continue }
      // 4.0: several FN are one property in alternatives when they all
      // carry the same ALTID.
      if version == .v40 && name == "FN" && fnAltIDs.count == 1, let only = fnAltIDs.first, only != nil { continue }
      out.append(Violation(kind: .repeated, property: name, count: n))
    }
    return out
  }

  // MARK: The writer's fast test

  /// The bit of a single-valued name among the writer's marks (see
  /// ``singleValuedBit(_:version4:)``).
  static let uidBit: UInt16 = 1 << 0
  static let fnBit: UInt16 = 1 << 1
  static let nBit: UInt16 = 1 << 2
  static let bdayBit: UInt16 = 1 << 3

  /// The bit of `name` (bytes as written, any case) when it is
  /// single-valued in the version written (4.0, else 3.0), else 0; one
  /// packed compare, as the parser names properties. `VERSION` is never an
  /// extra the writer meets (the reader takes it), and is not listed.
  static func singleValuedBit(_ name: UnsafeRawBufferPointer, version4: Bool) -> UInt16 {
    let n = name.count
    guard n > 0 && n <= 11, name[0] != UInt8(ascii: "X") && name[0] != UInt8(ascii: "x") else { return 0 }
    let key = packed(name)
    for entry in version4 ? singles4 : singles3 where entry.key == key { return entry.bit }
    return 0
  }

  /// Up to 11 bytes, upper-cased, in two words (the length in the top byte).
  static func packed(_ name: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    var lo: UInt64 = 0, hi = UInt64(name.count) << 56
    for (i, b) in name.enumerated() {
      let u = UInt64(b >= 0x61 && b <= 0x7A ? b - 0x20 : b)
      if i < 8 { lo |= u << (8 * UInt64(i)) } else { hi |= u << (8 * UInt64(i - 8)) }
    }
    return (lo, hi)
  }

  private static func table(_ names: [String]) -> [(key: (UInt64, UInt64), bit: UInt16)] {
    names.enumerated().map { i, name in
      let bytes = Array(name.utf8)
      let key = bytes.withUnsafeBytes { packed($0) }
      let bit: UInt16 =
        switch name {
        case "UID": uidBit
        case "FN": fnBit
        case "N": nBit
        case "BDAY": bdayBit
        default: 1 << UInt16(4 + i)
        }
      return (key, bit)
    }
  }

  private static let singles4 = table(["N", "FN", "UID", "REV", "BDAY", "KIND", "PRODID", "GENDER", "ANNIVERSARY"])
  private static let singles3 = table(["N", "FN", "UID", "REV", "BDAY", "CLASS", "PRODID", "SORT-STRING"])
}

extension StringProtocol {
  fileprivate func trimmingASCIISpaces() -> String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s.removeLast() }
    return String(s)
  }
}
