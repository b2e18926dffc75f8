import OhanaPhone
import OhanaProcessors

/// Street types for dedupe's street key (``KeyFunctions/streetKey(_:language:)``):
/// `12 Main St.` and `12 MAIN STREET` are one street to the address rule
/// and the address comparison's "same" level, as they are one key to
/// `normalize --comparison-keys` (``StreetText/key(_:country:)``).
///
/// The types are ``StreetText``'s tables (USPS Publication 28 for English,
/// common usage for the others), read once into byte form. Where a type is
/// found follows ``StreetText``: English types are the last type word after
/// the name's first word; French, Spanish, Italian and Portuguese types are
/// the name's first word when more follow; German and Dutch ones are a type
/// word after the first, or the end of a word (`Hauptstr.`). The language
/// is the address's country's (``StreetText/language(country:)``); an
/// address without a known country is read as English.
///
/// Words here are the street key's tokens: runs of ASCII letters and
/// digits and of bytes of other scripts (so `O'Connell` is two words, where
/// ``StreetText`` reads one; the type found is the same).
struct StreetTypes: Sendable {
  /// The languages in ``StreetText/Language/allCases`` order.
  static let languages = StreetText.Language.allCases

  /// Per language: a form (its lower-case bytes packed, ``Packed``) to its
  /// type's full form, lower case.
  let words: [[Packed: [UInt8]]]
  /// Per language: compound endings (German, Dutch), longest first, with
  /// their full forms; `dot`: the ending is an abbreviation read only
  /// with its `.` (`Hauptstr.`), as ``StreetText`` reads it.
  let endings: [[(form: [UInt8], full: [UInt8], dot: Bool)]]

  static let shared = StreetTypes()

  init() {
    var words: [[Packed: [UInt8]]] = []
    var endings: [[(form: [UInt8], full: [UInt8], dot: Bool)]] = []
    for language in Self.languages {
      var table: [Packed: [UInt8]] = [:]
      for (form, kind) in StreetText.tables[language] ?? [:] {
        let f = Self.tokenBytes(form), full = Self.tokenBytes(kind.full.lowercased())
        // A form that is not one token of the key, or longer than a packed
        // word (none today), is left out.
        guard !f.isEmpty, f.count == Array(form.utf8).count, let packed = Packed(f) else { continue }
        table[packed] = full
      }
      words.append(table)
      endings.append(
        (StreetText.endings[language] ?? []).compactMap { ending, kind in
          let f = Self.tokenBytes(ending)
          return f.isEmpty ? nil : (f, Self.tokenBytes(kind.full.lowercased()), ending.hasSuffix("."))
        })
    }
    self.words = words
    self.endings = endings
  }

  /// The bytes of `text` the street key hashes: ASCII letters lower-cased,
  /// digits and bytes of other scripts as they are, the rest left out.
  static func tokenBytes(_ text: String) -> [UInt8] {
    text.utf8.compactMap { b in
      let c = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
      return (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c >= 0x80 ? c : nil
    }
  }

  /// A word of at most 16 bytes, packed into two words with its length
  /// (the forms' lookup key: a word is packed as it is scanned, with no
  /// hashing of its bytes).
  struct Packed: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var count: UInt8 = 0

    init() {}

    init?(_ bytes: [UInt8]) {
      for b in bytes { guard append(b) else { return nil } }
    }

    /// Adds `byte` (already lower-cased); false once the word is too long.
    @inline(__always) mutating func append(_ byte: UInt8) -> Bool {
      guard count < 16 else { return false }
      if count < 8 {
        low |= UInt64(byte) << (8 * UInt64(count))
      } else {
        high |= UInt64(byte) << (8 * UInt64(count - 8))
      }
      count += 1
      return true
    }
  }

  /// Per region (``RegionCode/rawValue``, two ASCII letters) the index of
  /// its language in ``languages`` plus one, 0 for none; regions out of
  /// range read as English (the caller passes 0 for "no country").
  static let regionLanguage: [UInt8] = {
    var out = [UInt8](repeating: 0, count: 0x5B5B)
    for hi in UInt8(0x41)...0x5A {
      for lo in UInt8(0x41)...0x5A {
        guard let rc = RegionCode(utf8: [hi, lo]), Int(rc.rawValue) < out.count else { continue }
        if let l = StreetText.language(country: String(decoding: [hi, lo], as: UTF8.self)),
          let i = languages.firstIndex(of: l)
        {
          out[Int(rc.rawValue)] = UInt8(i + 1)
        }
      }
    }
    return out
  }()

  /// The language (an index into ``languages``) of an address whose
  /// country is `region` (0: none given or not known: English); nil for a
  /// country whose language has no table.
  @inline(__always) static func language(region: UInt32) -> Int? {
    if region == 0 { return languages.firstIndex(of: .en) }
    guard Int(region) < regionLanguage.count else { return nil }
    let l = regionLanguage[Int(region)]
    return l == 0 ? nil : Int(l) - 1
  }
}
