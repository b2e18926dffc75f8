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

  /// A form (its lower-case bytes packed, with its language's index in
  /// ``Packed/tag``) to its type's full form, lower case, packed.
  let words: FormTable
  /// Per language: compound endings (German, Dutch), longest first, with
  /// their full forms; `dot`: the ending is an abbreviation read only
  /// with its `.` (`Hauptstr.`), as ``StreetText`` reads it.
  let endings: [[(form: [UInt8], full: Packed, dot: Bool)]]
  /// Per region (``RegionCode/rawValue``, two ASCII letters) the index of
  /// its language in ``languages`` plus one, 0 for none.
  let regionLanguage: [UInt8]

  static let shared = StreetTypes()

  init() {
    var words: [Packed: Packed] = [:]
    var endings: [[(form: [UInt8], full: Packed, dot: Bool)]] = []
    for (index, language) in Self.languages.enumerated() {
      for (form, kind) in StreetText.tables[language] ?? [:] {
        let f = Self.tokenBytes(form)
        // A form that is not one token of the key, or a form or full form
        // longer than a packed word (none today), is left out.
        guard !f.isEmpty, f.count == Array(form.utf8).count, var packed = Packed(f),
          let full = Packed(Self.tokenBytes(kind.full.lowercased()))
        else { continue }
        packed.tag = UInt8(index)
        words[packed] = full
      }
      endings.append(
        (StreetText.endings[language] ?? []).compactMap { ending, kind in
          let f = Self.tokenBytes(ending)
          guard !f.isEmpty, let full = Packed(Self.tokenBytes(kind.full.lowercased())) else { return nil }
          return (f, full, ending.hasSuffix("."))
        })
    }
    self.words = FormTable(words)
    self.endings = endings
    var regions = [UInt8](repeating: 0, count: 0x5B5B)
    for hi in UInt8(0x41)...0x5A {
      for lo in UInt8(0x41)...0x5A {
        guard let rc = RegionCode(utf8: [hi, lo]), Int(rc.rawValue) < regions.count else { continue }
        if let l = StreetText.language(country: String(decoding: [hi, lo], as: UTF8.self)),
          let i = Self.languages.firstIndex(of: l)
        {
          regions[Int(rc.rawValue)] = UInt8(i + 1)
        }
      }
    }
    regionLanguage = regions
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
  /// and a tag (the forms' lookup key and the full forms: a word is packed
  /// as it is scanned, with no hashing of its bytes and no reference
  /// counting).
  struct Packed: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var count: UInt8 = 0
    var tag: UInt8 = 0

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

    /// The byte at `i` (below ``count``).
    @inline(__always) func byte(_ i: Int) -> UInt8 {
      UInt8(truncatingIfNeeded: i < 8 ? low >> (8 * UInt64(i)) : high >> (8 * UInt64(i - 8)))
    }
  }

  /// The language (an index into ``languages``) of an address whose
  /// country is `region` (0: none given or not known: English); nil for a
  /// country whose language has no table.
  @inline(__always) func language(region: UInt32) -> Int? {
    if region == 0 { return Self.englishIndex }
    guard Int(region) < regionLanguage.count else { return nil }
    let l = regionLanguage[Int(region)]
    return l == 0 ? nil : Int(l) - 1
  }

  static let englishIndex = 0

  /// The language at `index` of ``languages`` (the order of
  /// ``StreetText/Language``'s cases, checked by `StreetKeyTests`), read
  /// without touching the shared array.
  @inline(__always) static func kind(_ index: Int) -> StreetText.Language? {
    switch index {
    case 0: .en
    case 1: .de
    case 2: .nl
    case 3: .fr
    case 4: .es
    case 5: .it
    case 6: .pt
    default: nil
    }
  }

  /// The forms' table: open addressing over a power-of-two array, probed
  /// from a multiplicative hash of the packed word (a lookup per street,
  /// on every core: no hashing of bytes, no reference counting).
  struct FormTable: Sendable {
    private var keys: [Packed]
    private var values: [Packed]
    private let mask: Int

    init(_ entries: [Packed: Packed]) {
      var size = 16
      while size < entries.count * 4 { size *= 2 }
      keys = Array(repeating: Packed(), count: size)
      values = Array(repeating: Packed(), count: size)
      mask = size - 1
      for (k, v) in entries {
        var i = Self.slot(k, mask: mask)
        while keys[i].count != 0 { i = (i + 1) & mask }
        keys[i] = k
        values[i] = v
      }
    }

    @inline(__always) static func slot(_ k: Packed, mask: Int) -> Int {
      let h = (k.low &* 0x9E37_79B9_7F4A_7C15) ^ (k.high &* 0xC2B2_AE3D_27D4_EB4F) ^ (UInt64(k.tag) << 56 | UInt64(k.count))
      return Int(truncatingIfNeeded: ((h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9) >> 40) & mask
    }

    /// The full form of `key`, nil when it is no form (an empty word
    /// never is: slots with a count of 0 are free).
    @inline(__always) subscript(key: Packed) -> Packed? {
      guard key.count != 0 else { return nil }
      var i = Self.slot(key, mask: mask)
      while keys[i].count != 0 {
        if keys[i] == key { return values[i] }
        i = (i + 1) & mask
      }
      return nil
    }
  }
}
