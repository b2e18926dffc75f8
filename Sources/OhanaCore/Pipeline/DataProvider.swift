/// A problem with the input, at a line of its source. Two kinds:
/// - ``Severity/skipped``: something that could not be a record at all
///   (text outside any card, a CSV row or JSON line that cannot be read) was
///   skipped; the rest of the input is still read.
/// - ``Severity/warning``: a record was imported, but part of it could not
///   be read as what it claims to be (a property with broken base64, a line
///   with no property name, a card cut off by the end of the input). What
///   could not be read is kept verbatim where the format allows (a vCard's
///   extra properties), so nothing is lost silently.
///
/// The reason never quotes contact values; ``property`` names the property
/// (a vCard property name such as `PHOTO`), never its value.
public struct InputError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  public enum Severity: String, Hashable, Sendable, Codable {
    case skipped
    case warning
  }

  /// 1-based line of the problem (for a skipped record, where it starts).
  public var line: Int
  public var reason: String
  /// The source (a path, `-` for stdin, or a provider identifier).
  public var source: String?
  public var severity: Severity
  /// The property the problem is in, when there is one (never a value).
  public var property: String?

  public init(line: Int, reason: String, source: String? = nil, severity: Severity = .skipped, property: String? = nil) {
    self.line = line; self.reason = reason; self.source = source
    self.severity = severity; self.property = property
  }

  public var isWarning: Bool { severity == .warning }

  private enum CodingKeys: String, CodingKey { case line, reason, source, severity, property }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    line = try c.decode(Int.self, forKey: .line)
    reason = try c.decode(String.self, forKey: .reason)
    source = try c.decodeIfPresent(String.self, forKey: .source)
    severity = try c.decodeIfPresent(Severity.self, forKey: .severity) ?? .skipped
    property = try c.decodeIfPresent(String.self, forKey: .property)
  }

  /// `FILE:LINE: reason`, or `line LINE: reason` without a source; a
  /// warning names its property: `FILE:LINE: PHOTO: invalid base64 data`.
  public var description: String {
    "\(source.map { "\($0):" } ?? "line ")\(line): \(property.map { "\($0): " } ?? "")\(reason)"
  }
}

/// What a provider loaded: a table and the records it had to skip.
public struct ProviderResult: Sendable {
  public var table: ContactTable
  public var errors: [InputError]
  public init(table: ContactTable, errors: [InputError] = []) {
    self.table = table; self.errors = errors
  }
}

/// A provider failure, with a kind the caller can act on.
public struct ProviderError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable, Codable {
    /// The provider needs the user's permission (Ohana's auth challenge):
    /// resolve it, then ask the data source to retry the provider.
    case authorizationRequired
    /// The source is missing or cannot be read.
    case unavailable
    /// The input is not in the expected format at all (a strict reader's failure too).
    case invalidInput
    case other
  }
  public var kind: Kind
  public var message: String
  public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
  public var description: String { "\(kind.rawValue): \(message)" }
}

/// Loads contacts into a table (Ohana's OHContactsDataProviderProtocol).
///
/// Providers are values; the data source tracks each one's
/// ``ProviderStatus`` and announces changes. A provider throws
/// ``ProviderError`` (other errors are wrapped as `.other`).
public protocol DataProvider: Sendable {
  /// A stable name, unique within a data source (e.g. `vcard:contacts.vcf`).
  var identifier: String { get }
  func loadContacts() async throws -> ProviderResult
}

/// The status of a provider in a data source.
public enum ProviderStatus: Hashable, Sendable {
  case initialized
  case processing
  case loaded
  case error(ProviderError)
}

/// A provider that hands out contacts it holds in memory.
public struct InMemoryProvider: DataProvider {
  public let identifier: String
  public let table: ContactTable
  public init(identifier: String = "memory", table: ContactTable) {
    self.identifier = identifier; self.table = table
  }
  public init(identifier: String = "memory", contacts: [Contact]) {
    self.init(identifier: identifier, table: ContactTable(contacts: contacts))
  }
  public func loadContacts() async throws -> ProviderResult { ProviderResult(table: table) }
}
