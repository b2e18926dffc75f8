import Foundation
import OhanaCore
import OhanaIO

/// Address books read into one contact table: the CardDAV data provider
/// (README "Live address books").
public enum CardDAVReader {
  /// Where each contact came from on the server, to write it back.
  public struct CardRef: Sendable {
    public var url: URL
    public var etag: String?
  }

  public struct Result: Sendable {
    /// Every card of every book, each contact tagged with its book's URL
    /// as its source.
    public var read: ReadResult
    /// Per row of the table: its card's URL and ETag (nil when a card did
    /// not read as exactly one contact).
    public var refs: [CardRef?]
    /// The books read, with their card counts and sync tokens.
    public var books: [(url: URL, cards: Int, syncToken: String?)]
  }

  /// Reads the address books `start` names or leads to (`only`: the one
  /// named so), whole: listed, then fetched in batches.
  public static func read(
    _ start: URL, client: CardDAVClient, only: String? = nil, options: ReadOptions = ReadOptions()
  ) throws -> Result {
    var parts: [ContactTable] = []
    var errors: [InputError] = []
    var refs: [CardRef?] = []
    var books: [(URL, Int, String?)] = []
    var bytesRead = 0, records = 0, skipped = 0
    for book in try client.addressBooks(from: start, only: only) {
      let listing = try client.list(book)
      let (r, cardRefs, fetched) = try readInBatches(book, listing.cards.map(\.url), client: client, options: options)
      refs.append(contentsOf: cardRefs)
      parts.append(r.table)
      errors.append(contentsOf: r.errors)
      bytesRead += r.bytesRead
      records += r.recordsRead
      skipped += r.recordsSkipped
      books.append((book, fetched, listing.syncToken))
    }
    let read = ReadResult(
      table: ContactTable.concatenate(parts), errors: errors, bytesRead: bytesRead, recordsRead: records,
      recordsSkipped: skipped)
    return Result(read: read, refs: refs, books: books)
  }

  /// One address book read for writing back: its cards, the contact
  /// table of the cards that are not groups, and which card each row is.
  public struct Book: Sendable {
    public var url: URL
    /// Every card listed and fetched, groups included.
    public var cards: [CardDAVCard]
    /// The contacts of the cards that are not groups (in card order).
    public var read: ReadResult
    /// Per row of `read.table`: the index into `cards` of its card; -1
    /// when that card did not read as exactly one contact.
    public var cardOfRow: [Int]
    /// The indices of the group cards (``VCardText/isGroup``).
    public var groups: [Int]
    public var syncToken: String?
  }

  /// Reads the one address book at `url` (not discovered: the plan names
  /// one book) for a write-back plan.
  public static func readBook(_ url: URL, client: CardDAVClient, options: ReadOptions = ReadOptions()) throws -> Book {
    let listing = try client.list(url)
    let cards = try client.fetch(url, listing.cards.map(\.url))
    let (read, cardOfRow, groups) = try contacts(cards, book: url, options: options, skipGroups: true)
    return Book(url: url, cards: cards, read: read, cardOfRow: cardOfRow, groups: groups, syncToken: listing.syncToken)
  }

  /// `cards` read as one contact table, tagged with the book's URL as
  /// their source; per row the index of its card (-1 when that card did
  /// not read as exactly one contact); with `skipGroups`, group cards are
  /// left out of the table (their indices returned).
  static func contacts(
    _ cards: [CardDAVCard], book: URL, options: ReadOptions, skipGroups: Bool, firstLine: Int = 1
  ) throws -> (ReadResult, [Int], [Int]) {
    let name = HTTPClientTransport.redacted(book)
    var o = options
    o.sourceName = name
    var bytes: [UInt8] = []
    var groups: [Int] = []
    var contactCards: [Int] = []
    var startLines: [Int] = []  // 1-based line where each contact card starts
    var line = 1
    for (i, c) in cards.enumerated() {
      if skipGroups, let text = VCardText(String(decoding: c.data, as: UTF8.self)), text.isGroup {
        groups.append(i)
        continue
      }
      contactCards.append(i)
      startLines.append(line)
      bytes.append(contentsOf: c.data)
      if bytes.last != 0x0A { bytes.append(contentsOf: [0x0D, 0x0A]) }
      line += c.data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } + (c.data.last == 0x0A ? 0 : 1)
    }
    var r = try ContactIO.read(bytes: bytes, format: .vcard4, options: o)
    r.table.tagSource(name)
    // Each row's card by the line its contact starts on.
    var cardOfRow = [Int](repeating: -1, count: r.table.rowCount)
    var rowsOfCard = [Int](repeating: 0, count: contactCards.count)
    var slot = [Int](repeating: -1, count: r.table.rowCount)
    for row in 0..<r.table.rowCount {
      let start = Int(r.table.sourceLine[row])
      // The last card starting at or before the row's line.
      var lo = 0, hi = startLines.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if startLines[mid] <= start { lo = mid + 1 } else { hi = mid }
      }
      guard lo > 0 else { continue }
      slot[row] = lo - 1
      rowsOfCard[lo - 1] += 1
    }
    for row in 0..<r.table.rowCount where slot[row] >= 0 && rowsOfCard[slot[row]] == 1 {
      cardOfRow[row] = contactCards[slot[row]]
    }
    // Lines counted from `firstLine` (a batch after others).
    let shift = firstLine - 1
    if shift > 0 {
      for i in r.table.sourceLine.indices where r.table.sourceLine[i] > 0 {
        r.table.sourceLine[i] &+= UInt32(truncatingIfNeeded: shift)
      }
      for i in r.errors.indices where r.errors[i].line > 0 { r.errors[i].line += shift }
    }
    return (r, cardOfRow, groups)
  }

  /// The cards at `urls` fetched a batch at a time (`client.batchSize`),
  /// each batch read into a table as it comes and its text let go: memory
  /// holds the contacts and one batch, whatever the book's size. Per row,
  /// its card's URL and ETag (nil when the card did not read as one
  /// contact); lines are counted over the book's cards one after another.
  static func readInBatches(_ book: URL, _ urls: [URL], client: CardDAVClient, options: ReadOptions) throws
    -> (ReadResult, [CardRef?], cards: Int)
  {
    var fetched = 0
    var parts: [ContactTable] = []
    var errors: [InputError] = []
    var refs: [CardRef?] = []
    var bytesRead = 0, records = 0, skipped = 0
    var line = 1
    let batches = stride(from: 0, to: urls.count, by: max(1, client.batchSize)).map {
      Array(urls[$0..<min(urls.count, $0 + client.batchSize)])
    }
    // With `fetchAhead`, the next batch is asked for before this one is
    // read (the server works on it meanwhile); else after.
    var pending = batches.first.map { client.startFetch(book, $0) }
    var missing = 0
    for (i, batch) in batches.enumerated() {
      guard let current = pending else { break }
      let ahead = client.fetchAhead
      if ahead { pending = i + 1 < batches.count ? client.startFetch(book, batches[i + 1]) : nil }
      let cards = try client.fetched(book, batch, current)
      if !ahead { pending = i + 1 < batches.count ? client.startFetch(book, batches[i + 1]) : nil }
      fetched += cards.count
      missing += batch.count - cards.count
      let (r, cardOfRow, _) = try contacts(cards, book: book, options: options, skipGroups: false, firstLine: line)
      for c in cards { line += c.data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } + (c.data.last == 0x0A ? 0 : 1) }
      refs.append(contentsOf: cardOfRow.map { $0 >= 0 ? CardRef(url: cards[$0].url, etag: cards[$0].etag) : nil })
      parts.append(r.table)
      errors.append(contentsOf: r.errors)
      bytesRead += r.bytesRead
      records += r.recordsRead
      skipped += r.recordsSkipped
    }
    if missing > 0 {
      // Deleted between the listing and the fetch, or a name the server
      // lists but does not serve: said, not silently dropped.
      errors.append(
        InputError(
          line: 0, reason: "\(missing) of the \(urls.count) cards listed were not served when fetched (HTTP 404: deleted since the listing, or a server fault)",
          source: HTTPClientTransport.redacted(book), severity: .warning))
    }
    if parts.isEmpty {
      var o = options
      o.sourceName = HTTPClientTransport.redacted(book)
      return (try ContactIO.read(bytes: [], format: .vcard4, options: o), [], 0)
    }
    let read = ReadResult(
      table: parts.count == 1 ? parts[0] : ContactTable.concatenate(parts), errors: errors, bytesRead: bytesRead,
      recordsRead: records, recordsSkipped: skipped)
    return (read, refs, fetched)
  }

  /// What an entity store keeps of a book between runs: the sync token
  /// and the contact uid of each card (by href path), to take out the
  /// contacts of cards deleted on the server.
  public struct SyncState: Codable, Sendable {
    public var token: String?
    public var cards: [String: String]

    public init(token: String? = nil, cards: [String: String] = [:]) {
      self.token = token
      self.cards = cards
    }
  }

  /// The cards of `book` changed since `state` (all of them without a
  /// state, or when the server no longer knows its token).
  public struct Changes: Sendable {
    public var read: ReadResult
    /// Uids of contacts whose cards were deleted (or whose UID changed).
    public var removedUIDs: [String]
    public var state: SyncState
    /// Whether every card was listed (no token, or a token the server forgot).
    public var full: Bool
    public var fetched: Int
    public var removedCards: Int
  }

  public static func readChanges(
    _ book: URL, client: CardDAVClient, state: SyncState?, options: ReadOptions = ReadOptions()
  ) throws -> Changes {
    let listing = try client.list(book, token: state?.token)
    let (read, refs, fetched) = try readInBatches(book, listing.cards.map(\.url), client: client, options: options)
    var next = state ?? SyncState()
    var removed: [String] = []
    var removedCards = 0
    let gone: [String] =
      listing.full
      ? Array(Set(next.cards.keys).subtracting(listing.cards.map(\.url.path))) : listing.removed.map(\.path)
    for path in gone.sorted() {
      guard let uid = next.cards.removeValue(forKey: path) else { continue }
      removed.append(uid)
      removedCards += 1
    }
    for (row, ref) in refs.enumerated() {
      guard let ref, let uid = read.table.uid(at: row) else { continue }
      let path = ref.url.path
      if let old = next.cards[path], old != uid { removed.append(old) }
      next.cards[path] = uid
    }
    next.token = listing.syncToken
    return Changes(
      read: read, removedUIDs: removed, state: next, full: listing.full, fetched: fetched,
      removedCards: removedCards)
  }
}
