import OhanaCore
import OhanaText

/// Sorts contacts by name with a locale's collation (Ohana's
/// OHAlphabeticalSortPostProcessor): by full name, given name or family name.
///
/// - The primary key is the mode's name; ties are broken by the secondary
///   key (family name in given-name mode, given name in family-name mode),
///   then by the incoming order (the sort is stable).
/// - Contacts without a primary key go last, in their incoming order;
///   among equal primaries, contacts without a secondary key go last.
/// - In full-name mode a missing full name is composed from the name parts,
///   in the locale's order: `given middle family` in most locales,
///   `family middle given` for ja, zh, ko, hu and vi (no spaces for ja and zh).
///
/// As a column pass: one ICU sort key per distinct string id (the pool
/// deduplicates names), all keys in one arena, a radix sort of the keys into
/// ranks, then counting sorts of the visible rows by secondary and primary
/// rank. Never a pairwise comparison. The table and selection are kept; the
/// result is a new order.
///
/// - Complexity: O(rows + bytes of the distinct names); key generation runs
///   on all cores.
public struct AlphabeticalSort: PostProcessor {
  /// Which name sorts the contacts.
  public enum Mode: String, Sendable, Hashable, CaseIterable {
    case fullName
    case givenName
    case familyName
  }

  public let mode: Mode
  /// An ICU locale id or BCP 47 tag (`en`, `de`, `de-u-co-phonebk`, `sv`, `ja`).
  public let locale: String
  public let strength: Collator.Strength

  public init(mode: Mode, locale: String = "root", strength: Collator.Strength = .tertiary) {
    self.mode = mode
    self.locale = locale
    self.strength = strength
  }

  /// `sort-fullName`, `sort-givenName` or `sort-familyName`.
  public var name: String { "sort-\(mode.rawValue)" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    let collator: Collator
    do {
      collator = try Collator(locale: locale, strength: strength)
    } catch {
      throw ProcessorError(stage: name, message: "\(error)")
    }
    var out = frame
    out.order = order(frame, collator: collator)
    return out
  }

  /// The visible rows of `frame`, sorted.
  func order(_ frame: Frame, collator: Collator) -> [UInt32] {
    let table = frame.table
    let rows = frame.rows
    if rows.count < 2 { return rows }
    let names = NameKeys.build(table: table, rows: rows, mode: mode, locale: locale)
    let keys = collator.sortKeys(for: names.strings)
    let ranks = KeySort.ranks(keys)
    let missing = UInt32(ranks.distinctCount)
    let buckets = ranks.distinctCount + 1
    func rankColumn(_ keyOfRow: [UInt32]) -> [UInt32] {
      keyOfRow.map { $0 == KeySort.noKey ? missing : ranks.ranks[Int($0)] }
    }
    var order = rows
    if let secondary = names.secondary {
      // Rows without a primary key keep their incoming order: give them one
      // secondary rank so that the secondary pass does not move them.
      var secondaryRank = rankColumn(secondary)
      for row in rows where names.primary[Int(row)] == KeySort.noKey { secondaryRank[Int(row)] = 0 }
      order = KeySort.stableOrder(order, rankOfRow: secondaryRank, bucketCount: buckets)
    }
    return KeySort.stableOrder(order, rankOfRow: rankColumn(names.primary), bucketCount: buckets)
  }
}

/// The strings to make keys for, and which key each row uses.
struct NameKeys {
  /// Distinct strings: pool strings used by the visible rows, then composed full names.
  var strings = ByteStrings()
  /// Key index of each row's primary name (indexed by row id), or `KeySort.noKey`.
  var primary: [UInt32]
  /// Key index of each row's secondary name, if the mode has one.
  var secondary: [UInt32]?

  static func build(table: ContactTable, rows: [UInt32], mode: AlphabeticalSort.Mode, locale: String)
    -> NameKeys
  {
    var keys = NameKeys(
      primary: [UInt32](repeating: KeySort.noKey, count: table.rowCount), secondary: nil)
    // Key index per pool id, filled on first use: one key per distinct id.
    var keyOfID = [UInt32](repeating: KeySort.noKey, count: table.pool.count)
    func key(_ id: StringID) -> UInt32 {
      if id.isAbsent { return KeySort.noKey }
      if keyOfID[id.index] == KeySort.noKey {
        keyOfID[id.index] = UInt32(keys.strings.count)
        table.pool.withBytes(of: id) { keys.strings.append(bytes: $0) }
      }
      return keyOfID[id.index]
    }
    switch mode {
    case .givenName, .familyName:
      let (first, second): (ContactAttribute, ContactAttribute) =
        mode == .givenName ? (.givenName, .familyName) : (.familyName, .givenName)
      let firstColumn = table[first]
      let secondColumn = table[second]
      var secondary = [UInt32](repeating: KeySort.noKey, count: table.rowCount)
      for row in rows {
        let r = Int(row)
        keys.primary[r] = key(firstColumn[r])
        secondary[r] = key(secondColumn[r])
      }
      keys.secondary = secondary
    case .fullName:
      let full = table[.fullName]
      let given = table[.givenName]
      let middle = table[.middleName]
      let family = table[.familyName]
      let composer = NameComposer(locale: locale)
      var composedKey: [ComposedName: UInt32] = [:]
      for row in rows {
        let r = Int(row)
        if full[r].isPresent {
          keys.primary[r] = key(full[r])
          continue
        }
        let parts = ComposedName(given: given[r], middle: middle[r], family: family[r])
        if parts.isEmpty { continue }
        if let k = composedKey[parts] {
          keys.primary[r] = k
          continue
        }
        let k = UInt32(keys.strings.count)
        keys.strings.append(bytes: composer.compose(parts, pool: table.pool))
        composedKey[parts] = k
        keys.primary[r] = k
      }
    }
    return keys
  }
}

/// The name parts a full name is composed from, by pool id.
struct ComposedName: Hashable {
  var given: StringID
  var middle: StringID
  var family: StringID
  var isEmpty: Bool { given.isAbsent && middle.isAbsent && family.isAbsent }
}

/// Joins name parts in a locale's order.
struct NameComposer {
  /// Family name first (ja, zh, ko, hu, vi).
  let familyFirst: Bool
  /// No space between parts (ja, zh).
  let unspaced: Bool

  init(locale: String) {
    let language = String(
      locale.lowercased().prefix { $0 != "-" && $0 != "_" && $0 != "@" })
    familyFirst = ["ja", "zh", "ko", "hu", "vi"].contains(language)
    unspaced = ["ja", "zh"].contains(language)
  }

  func compose(_ name: ComposedName, pool: StringPool) -> [UInt8] {
    let order =
      familyFirst ? [name.family, name.middle, name.given] : [name.given, name.middle, name.family]
    var out: [UInt8] = []
    for id in order where id.isPresent {
      if !out.isEmpty && !unspaced { out.append(UInt8(ascii: " ")) }
      pool.withBytes(of: id) { out.append(contentsOf: $0) }
    }
    return out
  }
}

extension AlphabeticalSort {
  /// Per row, bytes whose unsigned order is this sort's order, for sorting
  /// elsewhere (a database, Spark) with ties broken by the incoming order:
  /// the primary name's ICU sort key (with its ending zero byte), then the
  /// secondary name's, or `FF FF` when the row has none (contacts without
  /// a secondary name go after those with one). Nil for a row without a
  /// primary name (it goes last).
  public func sortKeys(_ table: ContactTable) throws -> [[UInt8]?] {
    let collator: Collator
    do {
      collator = try Collator(locale: locale, strength: strength)
    } catch {
      throw ProcessorError(stage: name, message: "\(error)")
    }
    let rows = (0..<UInt32(truncatingIfNeeded: table.rowCount)).map { $0 }
    let names = NameKeys.build(table: table, rows: rows, mode: mode, locale: locale)
    let keys = collator.sortKeys(for: names.strings)
    return (0..<table.rowCount).map { r -> [UInt8]? in
      let p = names.primary[r]
      if p == KeySort.noKey { return nil }
      var k = Array(keys[Int(p)])
      if let secondary = names.secondary {
        let s = secondary[r]
        if s == KeySort.noKey { k.append(contentsOf: [0xFF, 0xFF]) } else { k.append(contentsOf: keys[Int(s)]) }
      }
      return k
    }
  }
}
