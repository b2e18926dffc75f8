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
      let name = URLSessionTransport.redacted(book)
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
}
