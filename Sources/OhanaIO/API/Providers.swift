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

/// Loads a vCard file (2.1, 3.0, 4.0), a file descriptor or stdin.
public struct VCardProvider: DataProvider {
  public let identifier: String
  public let source: ContactSource
  public let options: ReadOptions

  public init(source: ContactSource, options: ReadOptions = ReadOptions(), identifier: String? = nil) {
    self.source = source
    self.options = options
    self.identifier = identifier ?? "vcard:\(source.name)"
  }

  public init(path: String, options: ReadOptions = ReadOptions()) {
    self.init(source: .path(path), options: options)
  }

  public func loadContacts() async throws -> ProviderResult {
    try loadFromSource(source, format: .vcard4, options: options, identifier: identifier)
  }
}

/// Loads CSV (our header, Google Contacts or Outlook exports).
public struct CSVProvider: DataProvider {
  public let identifier: String
  public let source: ContactSource
  public let options: ReadOptions

  public init(source: ContactSource, options: ReadOptions = ReadOptions(), identifier: String? = nil) {
    self.source = source
    self.options = options
    self.identifier = identifier ?? "csv:\(source.name)"
  }

  public init(path: String, options: ReadOptions = ReadOptions()) {
    self.init(source: .path(path), options: options)
  }

  public func loadContacts() async throws -> ProviderResult {
    try loadFromSource(source, format: .csv, options: options, identifier: identifier)
  }
}

/// Loads NDJSON, one contact per line.
public struct NDJSONProvider: DataProvider {
  public let identifier: String
  public let source: ContactSource
  public let options: ReadOptions

  public init(source: ContactSource, options: ReadOptions = ReadOptions(), identifier: String? = nil) {
    self.source = source
    self.options = options
    self.identifier = identifier ?? "ndjson:\(source.name)"
  }

  public init(path: String, options: ReadOptions = ReadOptions()) {
    self.init(source: .path(path), options: options)
  }

  public func loadContacts() async throws -> ProviderResult {
    try loadFromSource(source, format: .ndjson, options: options, identifier: identifier)
  }
}
