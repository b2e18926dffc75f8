/// A problem with one record of the input (a card, a CSV row, a JSON line):
/// the record is skipped and the rest of the input is still read.
/// The reason never quotes contact values.
public struct InputError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// 1-based line where the record starts in its source.
  public var line: Int
  public var reason: String
  /// The source (a path, `-` for stdin, or a provider identifier).
  public var source: String?

  public init(line: Int, reason: String, source: String? = nil) {
    self.line = line; self.reason = reason; self.source = source
  }

  public var description: String {
    "\(source.map { "\($0):" } ?? "line ")\(line): \(reason)"
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
