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
      let cards = try client.fetch(book, listing.cards.map(\.url))
      let name = HTTPClientTransport.redacted(book)
      var o = options
      o.sourceName = name
      var bytes: [UInt8] = []
      for c in cards {
        bytes.append(contentsOf: c.data)
        if bytes.last != 0x0A { bytes.append(contentsOf: [0x0D, 0x0A]) }
      }
      var r = try ContactIO.read(bytes: bytes, format: .vcard4, options: o)
      r.table.tagSource(name)
      if r.table.rowCount == cards.count {
        refs.append(contentsOf: cards.map { CardRef(url: $0.url, etag: $0.etag) })
      } else {
        refs.append(contentsOf: [CardRef?](repeating: nil, count: r.table.rowCount))
      }
      parts.append(r.table)
      errors.append(contentsOf: r.errors)
      bytesRead += r.bytesRead
      records += r.recordsRead
      skipped += r.recordsSkipped
      books.append((book, cards.count, listing.syncToken))
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
  static func contacts(_ cards: [CardDAVCard], book: URL, options: ReadOptions, skipGroups: Bool) throws
    -> (ReadResult, [Int], [Int])
  {
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
    return (r, cardOfRow, groups)
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
    let cards = try client.fetch(book, listing.cards.map(\.url))
    let (read, cardOfRow, _) = try contacts(cards, book: book, options: options, skipGroups: false)
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
    for (row, card) in cardOfRow.enumerated() where card >= 0 {
      guard let uid = read.table.uid(at: row) else { continue }
      let path = cards[card].url.path
      if let old = next.cards[path], old != uid { removed.append(old) }
      next.cards[path] = uid
    }
    next.token = listing.syncToken
    return Changes(
      read: read, removedUIDs: removed, state: next, full: listing.full, fetched: cards.count, removedCards: removedCards)
  }
}
