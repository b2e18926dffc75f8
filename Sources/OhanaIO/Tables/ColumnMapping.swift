import OhanaCore

/// What one of a table's columns is in the contact model (DESIGN §15).
///
/// Spelled on the command line as `--map ROLE=COLUMN[,COLUMN...]`: `id`,
/// `name` (a full name: "John Smith" or "Smith, John"), `given`, `middle`,
/// `family`, `prefix`, `suffix`, `nickname`, `organization`, `department`,
/// `title` (job title), `birthday`, `email`, `phone` (and `phone.mobile`,
/// `phone.work`, `phone.home`, `phone.fax` for a labelled one), `street`,
/// `extended`, `locality`, `region`, `postcode`, `country`, `address` (a
/// one-line address), `gender`, `note`. A column with no role travels
/// through untouched (an `X-CSV` property naming its header).
public enum ColumnRole: Hashable, Sendable, CustomStringConvertible {
  case id, name, given, middle, family, prefix, suffix, nickname, organization, department, title, birthday
  case email
  /// A phone, with the label its column gives every value (`cell`, `work`,
  /// `home`, `fax`), or none.
  case phone(label: String?)
  case street, extended, locality, region, postcode, country, address
  case gender, note

  public static let spellings: [(String, ColumnRole)] = [
    ("id", .id), ("name", .name), ("given", .given), ("middle", .middle), ("family", .family), ("prefix", .prefix),
    ("suffix", .suffix), ("nickname", .nickname), ("organization", .organization), ("department", .department),
    ("title", .title), ("birthday", .birthday), ("email", .email), ("phone", .phone(label: nil)),
    ("phone.mobile", .phone(label: "cell")), ("phone.work", .phone(label: "work")), ("phone.home", .phone(label: "home")),
    ("phone.fax", .phone(label: "fax")), ("street", .street), ("extended", .extended), ("locality", .locality),
    ("region", .region), ("postcode", .postcode), ("country", .country), ("address", .address), ("gender", .gender),
    ("note", .note),
  ]

  /// The role a spelling names (any case); nil for none.
  public init?(spelling: some StringProtocol) {
    let s = spelling.lowercased()
    guard let r = Self.spellings.first(where: { $0.0 == s })?.1 else { return nil }
    self = r
  }

  public var description: String {
    if case .phone(let label?) = self {
      // The labels Outlook's and Google's columns give.
      let l = label.lowercased()
      if l.contains("fax") { return "phone.fax" }
      if l.contains("cell") { return "phone.mobile" }
      if l.contains("work") { return "phone.work" }
      if l.contains("home") { return "phone.home" }
      return "phone"
    }
    return Self.spellings.first { $0.1 == self }?.0 ?? "?"
  }

  /// Whether a contact can be found by this role alone (a name, an
  /// e-mail or a phone): a table with none of them cannot be deduped.
  public var identifies: Bool {
    switch self {
    case .name, .given, .family, .email, .phone: return true
    default: return false
    }
  }
}

/// Which of a table's columns take which role (``ColumnRole``), by the
/// column's header as written (blanks around it aside; several columns may
/// share a role). The columns it does not name keep what detection found
/// for them, unless ``detect`` is off.
public struct ColumnMapping: Sendable, Equatable {
  public var roles: [String: ColumnRole]
  /// Whether columns the mapping does not name are detected
  /// (``ColumnDetection``); off, they travel through untouched.
  public var detect: Bool

  public init(roles: [String: ColumnRole] = [:], detect: Bool = true) {
    self.roles = roles
    self.detect = detect
  }

  public struct ParseError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Reads `ROLE=COLUMN[,COLUMN...]` arguments (`--map`).
  public mutating func add(argument: String) throws(ParseError) {
    guard let eq = argument.firstIndex(of: "=") else {
      throw ParseError(description: "'\(argument)' is not ROLE=COLUMN (for example given=first_name)")
    }
    let roleText = argument[..<eq].trimmingBlanks
    guard let role = ColumnRole(spelling: roleText) else {
      throw ParseError(
        description: "'\(roleText)' is not a role; the roles: \(ColumnRole.spellings.map(\.0).joined(separator: ", "))")
    }
    let columns = argument[argument.index(after: eq)...].split(separator: ",").map { String($0).trimmingBlanks }
      .filter { !$0.isEmpty }
    guard !columns.isEmpty else { throw ParseError(description: "'\(argument)' names no column") }
    for c in columns { roles[c] = role }
  }

  /// Reads a mapping file (`--columns FILE`): one `ROLE=COLUMN[,COLUMN...]`
  /// a line; blank lines and lines starting with `#` are skipped; a line
  /// `detect=off` turns detection off.
  public init(file text: String) throws(ParseError) {
    self.init()
    for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(raw).trimmingBlanks.trimmingSuffix("\r")
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.lowercased().filter({ $0 != " " }) == "detect=off" {
        detect = false
        continue
      }
      do throws(ParseError) { try add(argument: line) } catch {
        throw ParseError(description: "line \(n + 1): \(error.description)")
      }
    }
  }
}

/// The mapping a read of a table used, column by column, for the report
/// and `--show-mapping`.
public struct MappedColumn: Sendable, Equatable {
  public var column: String
  /// The role, nil for a column that travels through untouched.
  public var role: ColumnRole?
  /// How the role was decided: `given` (the user's mapping), `known` (a
  /// header of ours, Google's or Outlook's), `detected` (header name and
  /// values), `values` (values alone), or why it was left unmapped.
  public var how: String
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
