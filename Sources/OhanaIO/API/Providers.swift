import OhanaCore

/// Where a provider reads from.
public enum ContactSource: Sendable, Hashable {
  case path(String)
  /// An open file descriptor (not closed by the provider).
  case fileDescriptor(Int32)
  case standardInput
  case bytes([UInt8])

  var name: String {
    switch self {
    case .path(let p): p
    case .fileDescriptor(let fd): "fd:\(fd)"
    case .standardInput: "-"
    case .bytes: "memory"
    }
  }
}

/// Shared body of the file providers.
func loadFromSource(
  _ source: ContactSource, format: ContactFormat, options: ReadOptions, identifier: String
) throws -> ProviderResult {
  var options = options
  if options.sourceName == nil { options.sourceName = source.name }
  do {
    var result: ReadResult
    switch source {
    case .path(let p): result = try ContactIO.read(path: p, format: format, options: options)
    case .fileDescriptor(let fd): result = try ContactIO.read(fileDescriptor: fd, format: format, options: options)
    case .standardInput: result = try ContactIO.readStandardInput(format: format, options: options)
    case .bytes(let b): result = try ContactIO.read(bytes: b, format: format, options: options)
    }
    var table = result.table
    let id = table.intern(identifier)
    table.setAttribute(.sourceProvider, Array(repeating: id, count: table.rowCount))
    return ProviderResult(table: table, errors: result.errors)
  } catch {
    switch error.code {
    case .io: throw ProviderError(.unavailable, error.description)
    case .invalidInput, .charset: throw ProviderError(.invalidInput, error.description)
    case .unsupportedFormat: throw ProviderError(.other, error.description)
    }
  }
}

/// A provider that reads one contact file format from a ``ContactSource``.
public protocol ContactFileProvider: DataProvider {
  /// The format read (vCard readers take every version).
  static var format: ContactFormat { get }
  /// The identifier prefix (`vcard`, `csv`, `ndjson`).
  static var scheme: String { get }
  var source: ContactSource { get }
  var options: ReadOptions { get }
  init(source: ContactSource, options: ReadOptions, identifier: String?)
}

extension ContactFileProvider {
  /// Reads the file at `path` (`-` is standard input).
  public init(path: String, options: ReadOptions = ReadOptions()) {
    self.init(source: .path(path), options: options, identifier: nil)
  }

  public func loadContacts() async throws -> ProviderResult {
    try loadFromSource(source, format: Self.format, options: options, identifier: identifier)
  }
}

/// Loads a vCard file (2.1, 3.0, 4.0), a file descriptor or stdin.
public struct VCardProvider: ContactFileProvider {
  public static let format = ContactFormat.vcard4
  public static let scheme = "vcard"
  public let identifier: String
  public let source: ContactSource
  public let options: ReadOptions

  public init(source: ContactSource, options: ReadOptions = ReadOptions(), identifier: String? = nil) {
    (self.source, self.options) = (source, options)
    self.identifier = identifier ?? "\(Self.scheme):\(source.name)"
  }
}

/// Loads CSV (our header, Google Contacts or Outlook exports).
public struct CSVProvider: ContactFileProvider {
  public static let format = ContactFormat.csv
  public static let scheme = "csv"
  public let identifier: String
  public let source: ContactSource
  public let options: ReadOptions

  public init(source: ContactSource, options: ReadOptions = ReadOptions(), identifier: String? = nil) {
    (self.source, self.options) = (source, options)
    self.identifier = identifier ?? "\(Self.scheme):\(source.name)"
  }
}

/// Loads NDJSON, one contact per line.
public struct NDJSONProvider: ContactFileProvider {
  public static let format = ContactFormat.ndjson
  public static let scheme = "ndjson"
  public let identifier: String
  public let source: ContactSource
  public let options: ReadOptions

  public init(source: ContactSource, options: ReadOptions = ReadOptions(), identifier: String? = nil) {
    (self.source, self.options) = (source, options)
    self.identifier = identifier ?? "\(Self.scheme):\(source.name)"
  }
}
