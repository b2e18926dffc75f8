import OhanaCore
import Ohana

/// `ohana normalize` on a table of the user's (CSV or TSV in, CSV or TSV
/// out): the user's rows again, every column in its place and order, each
/// mapped cell normalized by its column's role with the same rules as the
/// contact normalizers (``NameText``, ``EmailText``, the phone engine,
/// ``CountryText``, ``RegionText``, ``PostcodeText``, ``BirthdayText``).
/// Unmapped columns, and cells a rule cannot read, are written as they
/// were.
///
/// Decided: in a table each value stays in its column. A title in a
/// given-name cell stays there (re-cased), and a full-name cell is not
/// split, since the table may have no column to take the part; a cell of
/// several e-mail addresses keeps its separators. A row's region and
/// postcode are read in the row's country (its country column), else in
/// `--address-country`; its phones in that country, else in `--region`.
/// With `--street-types` a street cell's type is rewritten in place. With
/// `--comparison-keys` the keys go into columns of their own, one after
/// the table's for each e-mail column (its mailbox key) and each street
/// column (its street key), named `<column>_key` (``keyColumns``).
struct TableNormalize {
  let kinds: Set<NormalizerList.Kind>
  let roles: [ColumnRole?]
  let countryLocale: String?
  let addressCountry: String?
  let region: RegionCode
  let phoneFormat: PhoneNumberFormat
  /// Each row's birthday as the table reader read it (ISO where it could:
  /// it knows the column's day and month order).
  let birthdays: [String?]
  let streetStyle: StreetText.Style?
  /// The columns a key is written for (with `--comparison-keys`), in order.
  let keyColumns: [Int]
  /// The keys of the row ``cells(row:line:_:)`` last wrote, one per
  /// ``keyColumns``.
  private(set) var lastKeys: [String] = []
  private(set) var counts: [String: Int] = [:]
  private(set) var notes: [String] = []
  private let engine = PhoneNumberEngine()

  init(
    kinds: Set<NormalizerList.Kind>, roles: [ColumnRole?], countryLocale: String?, addressCountry: String?,
    region: RegionCode, phoneFormat: PhoneNumberFormat, birthdays: [String?], streetStyle: StreetText.Style? = nil,
    comparisonKeys: Bool = false
  ) {
    self.streetStyle = streetStyle
    self.keyColumns =
      comparisonKeys
      ? roles.indices.filter { roles[$0] == .email || roles[$0] == .street } : []
    self.kinds = kinds
    self.roles = roles
    self.countryLocale = countryLocale
    self.addressCountry = addressCountry?.uppercased()
    self.region = region
    self.phoneFormat = phoneFormat
    self.birthdays = birthdays
  }

  private mutating func count(_ name: String) { counts[name, default: 0] += 1 }

  private mutating func refused(_ line: Int, _ what: String) {
    if notes.count < 1000 { notes.append("line \(line): \(what) not recognised; left as typed") }
  }

  /// Row `row`'s cells (first line `line`) normalized.
  mutating func cells(row: Int, line: Int, _ cells: [String]) -> [String] {
    var out = cells
    // The row's country first: its region, postcode and phones are read in it.
    var country = addressCountry
    for (c, role) in roles.enumerated() where role == .country && c < out.count && !isBlank(out[c]) {
      if let code = CountryText.shared.code(out[c]) {
        country = code
        if kinds.contains(.addresses) {
          let written = countryLocale.flatMap { CountryText.shared.name(code, locale: $0) } ?? code
          if written != out[c] {
            out[c] = written
            count("addresses.country.changed")
          }
        }
      } else if kinds.contains(.addresses) {
        count("addresses.country.unrecognized")
        refused(line, "a country")
      }
      break
    }
    for (c, role) in roles.enumerated() where c < out.count && !isBlank(out[c]) {
      guard let role else { continue }
      let typed = out[c]
      switch role {
      case .given, .middle, .family, .name, .nickname, .prefix, .suffix:
        guard kinds.contains(.names) else { continue }
        let tidy = NameText.words(typed).joined(separator: " ")
        let written = NameText.recased(tidy) ?? tidy
        if written != typed {
          out[c] = written
          count("names.changed.\(role)")
        }
      case .email:
        guard kinds.contains(.emails) else { continue }
        out[c] = emails(typed, line: line)
      case .phone:
        guard kinds.contains(.phones) else { continue }
        out[c] = phone(typed, country: country, line: line)
      case .region:
        guard kinds.contains(.addresses), let country, RegionText.tables[country] != nil else { continue }
        if let r = RegionText.code(typed, country: country) {
          if r != typed {
            out[c] = r
            count("addresses.region.changed")
          }
        } else {
          count("addresses.region.unrecognized")
          refused(line, "a region")
        }
      case .postcode:
        guard kinds.contains(.addresses), let country, country == "GB" || PostcodeText.formats[country] != nil else {
          continue
        }
        if let p = PostcodeText.normalized(typed, country: country) {
          if p != typed {
            out[c] = p
            count("addresses.postcode.changed")
          }
        } else {
          count("addresses.postcode.unrecognized")
          refused(line, "a postcode")
        }
      case .street:
        guard kinds.contains(.addresses), let streetStyle else { continue }
        if let r = StreetText.rewritten(typed, country: country, style: streetStyle) {
          out[c] = r
          count("addresses.street.changed")
        }
      case .birthday:
        guard kinds.contains(.dates) else { continue }
        let read = row < birthdays.count ? birthdays[row] ?? typed : typed
        if let d = BirthdayText.normalized(read) {
          if d != typed {
            out[c] = d
            count("dates.birthday.changed")
          }
        } else {
          count("dates.birthday.unrecognized")
          refused(line, "a birthday")
        }
      default: continue
      }
    }
    lastKeys = keyColumns.map { c -> String in
      guard c < out.count, !isBlank(out[c]) else { return "" }
      if roles[c] == .street { return StreetText.key(out[c], country: country) }
      // Each address of the cell, its key; the cell's separators between.
      let keys = out[c].split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "|" }).compactMap {
        EmailText.comparisonKey(String($0))
      }
      return keys.joined(separator: ";")
    }
    return out
  }

  private func isBlank(_ s: String) -> Bool { s.allSatisfy(\.isWhitespace) }

  /// A cell of one or more addresses, each normalized, the text between
  /// them kept.
  private mutating func emails(_ cell: String, line: Int) -> String {
    var out = ""
    var piece = ""
    var changed = false
    func flush(_ me: inout TableNormalize) {
      guard !piece.isEmpty else { return }
      let lead = String(piece.prefix { $0.isWhitespace }), trail = String(piece.reversed().prefix { $0.isWhitespace }.reversed())
      let core = piece.trimmingWhitespace
      if core.isEmpty {
        out += piece
      } else {
        let r = EmailText.normalized(core)
        if let p = r.problem {
          me.count("emails.invalid")
          me.count("emails.invalid.\(p.rawValue)")
          me.refused(line, "an e-mail address")
        } else if r.address != core {
          changed = true
          me.count("emails.changed")
        } else {
          me.count("emails.unchanged")
        }
        out += lead + (r.problem == nil ? r.address : core) + trail
      }
      piece = ""
    }
    for ch in cell {
      if ch == "," || ch == ";" || ch == "|" {
        flush(&self)
        out.append(ch)
      } else {
        piece.append(ch)
      }
    }
    flush(&self)
    // The cell's own white space around it goes, as around an address.
    let trimmed = out.trimmingWhitespace
    return changed || trimmed != cell ? trimmed : cell
  }

  /// A phone cell in ``phoneFormat``; the extension of an E.164 number
  /// follows it as `;ext=N` (a table has no parameters).
  private mutating func phone(_ cell: String, country: String?, line: Int) -> String {
    let r = country.flatMap { RegionCode($0) }.flatMap { engine.isSupportedRegion($0) ? $0 : nil } ?? region
    guard let number = try? engine.parse(cell, defaultRegion: r), number.nationalNumber != 0 else {
      count("phones.unparsed")
      refused(line, "a phone number")
      return cell
    }
    var written = engine.format(number, as: phoneFormat)
    if phoneFormat == .e164, let ext = number.numberExtension, !ext.isEmpty {
      written += ";ext=" + ext
      count("phones.extensions")
    }
    if written != cell { count("phones.rewritten") }
    return written
  }
}
