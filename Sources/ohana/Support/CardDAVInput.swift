import Foundation
import Ohana
import OhanaCardDAV
import OhanaStore

/// Address books as inputs (README "Live address books"): an `http` or
/// `https` URL is read through the CardDAV provider.
enum CardDAVInput {
  static func isURL(_ arg: String) -> Bool {
    let lower = arg.lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }

  /// The password for `user` at `url`: --password-file, else
  /// $OHANA_CARDDAV_PASSWORD, else ~/.netrc (which may name the user too).
  static func credentials(_ options: InputOptions, url: URL) throws -> CardDAVCredentials? {
    if let path = options.passwordFile {
      let bytes = try readWholeFile(path, option: "--password-file")
      let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
      let password = String(line).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
      guard let user = options.user else { throw CLIError("--password-file needs --user", exitCode: CLIError.usage) }
      return CardDAVCredentials(user: user, password: password)
    }
    if let password = ProcessInfo.processInfo.environment["OHANA_CARDDAV_PASSWORD"] {
      guard let user = options.user else { throw CLIError("OHANA_CARDDAV_PASSWORD needs --user", exitCode: CLIError.usage) }
      return CardDAVCredentials(user: user, password: password)
    }
    let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
    if let text = try? String(contentsOfFile: home + "/.netrc", encoding: .utf8), let host = url.host,
      let found = CardDAVCredentials.netrc(text, host: host), options.user == nil || options.user == found.user
    {
      return found
    }
    if options.user != nil {
      throw CLIError(
        "--user needs a password: --password-file, OHANA_CARDDAV_PASSWORD or ~/.netrc (never on the command line)",
        exitCode: CLIError.usage)
    }
    return nil
  }

  /// An address book or server URL given as an input: plain http only to
  /// this machine (unless --insecure-http), no login in it.
  static func url(_ arg: String, _ options: InputOptions) throws -> URL {
    guard let url = URL(string: arg), url.host != nil else {
      throw CLIError("\(arg): not a URL", exitCode: CLIError.usage)
    }
    if url.scheme?.lowercased() == "http" && !CardDAVClient.isLoopback(url) && !options.insecureHTTP {
      throw CLIError(
        "\(HTTPClientTransport.redacted(url)): plain http to another machine would send the password in clear; use https, or --insecure-http",
        exitCode: CLIError.usage)
    }
    if url.user != nil || url.password != nil {
      throw CLIError("give the login by --user and a password file, not in the URL", exitCode: CLIError.usage)
    }
    return url
  }

  /// A client for the server of `url`, with the login the options give.
  static func client(_ url: URL, _ options: InputOptions, transport: (any HTTPTransport)? = nil) throws -> CardDAVClient {
    CardDAVClient(
      start: url, transport: transport ?? HTTPClientTransport(caFile: options.caFile),
      credentials: try credentials(options, url: url))
  }

  /// A CardDAV failure as the command line reports it: exit 77 for a
  /// refused login, 69 for a server that cannot be reached, 76 for an
  /// answer that is not CardDAV, 64 for what ohana refuses to do.
  static func cliError(_ error: CardDAVError) -> CLIError {
    let code: Int32 =
      switch error.kind {
      case .authentication: 77
      case .unavailable: 69
      case .protocolError: 76
      case .refused: CLIError.usage
      }
    return CLIError(error.message, exitCode: code)
  }

  /// Reads every address book the URL inputs name.
  static func read(_ options: InputOptions, quiet: Bool) throws -> ReadResult {
    var parts: [ContactTable] = []
    var errors: [InputError] = []
    var bytes = 0, records = 0, skipped = 0
    for arg in options.inputs {
      let url = try Self.url(arg, options)
      let client = try Self.client(url, options)
      let result: CardDAVReader.Result
      do {
        result = try CardDAVReader.read(
          url, client: client, only: options.addressBook,
          options: ReadOptions(strict: options.strict, declaredCharset: options.charset))
      } catch let error as CardDAVError {
        throw Self.cliError(error)
      } catch let error as ContactIOError {
        throw CLIError(error.description, exitCode: CLIError.dataError)
      }
      if !quiet {
        for b in result.books {
          StandardError.write("\(HTTPClientTransport.redacted(b.url)): \(b.cards) cards\n")
        }
      }
      parts.append(result.read.table)
      errors.append(contentsOf: result.read.errors)
      bytes += result.read.bytesRead
      records += result.read.recordsRead
      skipped += result.read.recordsSkipped
    }
    if !quiet { ContactFiles.announce(errors) }
    return ReadResult(
      table: ContactTable.concatenate(parts), errors: errors, bytesRead: bytes, recordsRead: records, recordsSkipped: skipped)
  }

  /// The books the URL inputs name, read for an entity store: with the
  /// state a store kept of a book, only the cards changed since its sync
  /// token (the contacts of deleted cards to take out); without, whole.
  /// The states to keep after the run are returned, keyed by book URL.
  static func readChanges(_ options: InputOptions, store: EntityStore?, quiet: Bool) throws
    -> (read: ReadResult, removing: [String], states: [(String, String)])
  {
    var parts: [ContactTable] = []
    var errors: [InputError] = []
    var removing: [String] = []
    var states: [(String, String)] = []
    var bytes = 0, records = 0, skipped = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for arg in options.inputs {
      let url = try Self.url(arg, options)
      let client = try Self.client(url, options)
      do {
        for book in try client.addressBooks(from: url, only: options.addressBook) {
          let key = HTTPClientTransport.redacted(book)
          let kept = try store?.providerState(key).flatMap {
            try? JSONDecoder().decode(CardDAVReader.SyncState.self, from: Data($0.utf8))
          }
          let changes = try CardDAVReader.readChanges(
            book, client: client, state: kept, options: ReadOptions(strict: options.strict, declaredCharset: options.charset))
          if !quiet {
            StandardError.write(
              kept == nil
                ? "\(key): \(changes.fetched) cards\n"
                : changes.full
                  ? "\(key): the server no longer knows the sync token: all \(changes.fetched) cards read again, \(changes.removedCards) gone\n"
                  : "\(key): \(changes.fetched) cards changed since the last run, \(changes.removedCards) deleted\n")
          }
          parts.append(changes.read.table)
          errors.append(contentsOf: changes.read.errors)
          removing.append(contentsOf: changes.removedUIDs)
          bytes += changes.read.bytesRead
          records += changes.read.recordsRead
          skipped += changes.read.recordsSkipped
          states.append((key, String(decoding: try encoder.encode(changes.state), as: UTF8.self)))
        }
      } catch let error as CardDAVError {
        throw Self.cliError(error)
      } catch let error as ContactIOError {
        throw CLIError(error.description, exitCode: CLIError.dataError)
      }
    }
    if !quiet { ContactFiles.announce(errors) }
    let read = ReadResult(
      table: ContactTable.concatenate(parts), errors: errors, bytesRead: bytes, recordsRead: records, recordsSkipped: skipped)
    return (read, removing, states)
  }
}
