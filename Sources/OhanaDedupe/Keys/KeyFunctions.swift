import OhanaPhone
import OhanaText
import OhanaProcessors

/// The per-value key functions. Each depends only on the value (and, for
/// phones, a region), so passes run them once per distinct string id or
/// once per field, never per pair.
enum KeyFunctions {
  static let phoneEngine = PhoneNumberEngine()

  // MARK: Phones

  /// The phone key: the last nine digits of the national significant
  /// number of the number's E.164 form (`+1 (312) 644-3332`, `312.644.3332`
  /// and `0013126443332` all end in 126443332), shifted up 16 bits, and
  /// below them the number's calling code where it is known, else 0
  /// (``phoneSuffix(_:)``, ``phoneCountry(_:)``).
  ///
  /// The suffix makes the key independent of the region guess: a national
  /// number read with the wrong default region (`180-1200-3670` read as US
  /// loses a "trunk" 1, `8 (925) 555-48-25` keeps Russia's trunk 8) still meets
  /// its international form, while nine digits stay specific. But not specific
  /// enough at scale: in a large book, numbers of different countries share a
  /// nine-digit suffix by accident (`064 642 4727` in Thailand,
  /// `+31 6 46 42 47 27` in the Netherlands), and when the names are in
  /// different scripts nothing else speaks against the pair. So two keys are
  /// the same number (``samePhone(_:_:)``) when their suffixes are equal and
  /// their calling codes do not contradict each other: equal, or one unknown.
  ///
  /// The calling code is known when the value starts with `+`, or when the
  /// contact's own region (`regionKnown`: its address country or e-mail
  /// domain, not the configured default) reads the value as a valid number
  /// (libphonenumber's `is_valid_number`; a number that is not valid in the
  /// region it was read in was probably not written there; the region's
  /// own international prefix counts, `0011 61 …` in Australia). For the
  /// suffix, `00` before a country code is read as `+` (the IDD of most of
  /// the world). A value the parser rejects falls back to its digits,
  /// calling code unknown. 0 = no key (fewer than 5 digits).
  static func phoneKey(_ bytes: UnsafeRawBufferPointer, region: RegionCode, regionKnown: Bool = false) -> UInt64 {
    if let k = quickPhoneKey(bytes, region: region, regionKnown: regionKnown) {
      return k
    }
    return parsedPhoneKey(bytes, region: region, regionKnown: regionKnown)
  }

  /// The nine-digit suffix of a phone key (what blocking groups on).
  @inline(__always) static func phoneSuffix(_ key: UInt64) -> UInt64 { key >> 16 }
  /// The calling code of a phone key, 0 when unknown.
  @inline(__always) static func phoneCountry(_ key: UInt64) -> UInt64 { key & 0xFFFF }

  /// Whether two phone keys are the same number: the same suffix, and
  /// calling codes that are equal or not both known.
  @inline(__always) static func samePhone(_ x: UInt64, _ y: UInt64) -> Bool {
    if x >> 16 != y >> 16 { return false }
    let cx = x & 0xFFFF, cy = y & 0xFFFF
    return cx == cy || cx == 0 || cy == 0
  }

  @inline(__always) static func phoneKey(suffix: UInt64, country: Int) -> UInt64 {
    suffix == 0 ? 0 : suffix << 16 | UInt64(truncatingIfNeeded: country & 0xFFFF)
  }

  /// Canada: with the US, the North American regions whose national
  /// numbers have ten digits and no transform rule.
  static let canada = RegionCode(rawValue: 0x4341)

  /// Per three leading digits of an international number: how many of them
  /// are its calling code (1, 2 or 3; calling codes are prefix-free), 0
  /// when none is one. As the parser reads a `+` number.
  static let callingCodeLength: [UInt8] = (0..<1000).map { p in
    if p / 100 != 0 && phoneEngine.regionCode(forCountryCode: p / 100) != nil { return 1 }
    if p / 10 >= 10 && phoneEngine.regionCode(forCountryCode: p / 10) != nil { return 2 }
    if p >= 100 && phoneEngine.regionCode(forCountryCode: p) != nil { return 3 }
    return 0
  }

  /// The calling code of a number read in `region` with the national
  /// significant number `nsn` (`length` digits), when `regionKnown` and the
  /// number is valid there; else 0.
  @inline(__always)
  static func regionalCountry(_ cc: Int, nsn: UInt64, length: Int, regionKnown: Bool) -> Int {
    guard regionKnown else { return 0 }
    let n = PhoneNumber(countryCode: cc, nationalNumber: nsn, nationalNumberLength: length)
    return phoneEngine.isValid(n) ? cc : 0
  }

  /// The phone key without the parser, for the values where it is certain
  /// to be the parser's: plain ASCII (digits, spaces, `-().`/ only: no
  /// letters, so no extension or vanity number), and a national significant
  /// number of at least nine digits whatever the parser strips, because the
  /// parser only strips from the front (a country code, a national prefix,
  /// an IDD), so the last nine digits are the suffix either way (and they are
  /// also `digitsKey`'s when it rejects the value). That is: `+` and twelve
  /// or more digits (a country code has at most three; the parser reads it
  /// as ``callingCodeLength`` does, and fails, as the digits fallback's
  /// unknown code, when there is none), `+1` and eleven, or ten or eleven
  /// digits not starting with 0 read as US or Canada (which strip at most a
  /// leading 1; calling code 1 when the region is the contact's and the
  /// number valid). Argentina (+54) is left to the parser: its transform
  /// rule inserts a 9 inside the number. nil = ask the parser.
  @inline(__always)
  static func quickPhoneKey(_ bytes: UnsafeRawBufferPointer, region: RegionCode, regionKnown: Bool = false) -> UInt64? {
    var i = 0
    let n = bytes.count
    while i < n && bytes[i] == 0x20 { i += 1 }
    if i == n { return nil }
    let plus = bytes[i] == 0x2B
    if plus { i += 1 }
    var digits = 0
    var value: UInt64 = 0
    var lead = 0
    var first: UInt8 = 0
    var whole: UInt64 = 0
    while i < n {
      let b = bytes[i]
      if b >= 0x30 && b <= 0x39 {
        if digits == 0 { first = b }
        if digits < 3 { lead = lead * 10 + Int(b &- 0x30) }
        digits += 1
        value = (value &* 10 &+ UInt64(b &- 0x30)) % 1_000_000_000
        if digits <= 11 { whole = whole &* 10 &+ UInt64(b &- 0x30) }
      } else if b != 0x20 && b != 0x2D && b != 0x28 && b != 0x29 && b != 0x2E && b != 0x2F {
        return nil
      }
      i += 1
    }
    if value < 10_000_000 || digits > 17 { return nil }
    if plus {
      if lead / 10 == 54 { return nil }  // +54
      if digits >= 12 || (digits == 11 && first == 0x31) {
        let length = Int(callingCodeLength[lead])
        var cc = 0
        if length == 1 { cc = lead / 100 } else if length == 2 { cc = lead / 10 } else if length == 3 { cc = lead }
        return phoneKey(suffix: value, country: cc)
      }
      return nil
    }
    if (region == .us || region == canada) && (digits == 10 || digits == 11) && first != 0x30 {
      // The parser strips a leading 1 of eleven digits (the national
      // prefix); ten digits stay as they are.
      var nsn = whole
      var length = digits
      if digits == 11 {
        guard first == 0x31 else { return nil }
        nsn = whole % 10_000_000_000
        length = 10
      }
      return phoneKey(suffix: value, country: regionalCountry(1, nsn: nsn, length: length, regionKnown: regionKnown))
    }
    return nil
  }

  /// ``phoneKey(_:region:regionKnown:)`` through the parser.
  static func parsedPhoneKey(_ bytes: UnsafeRawBufferPointer, region: RegionCode, regionKnown: Bool = false) -> UInt64 {
    // Skip spaces and punctuation to see whether the value starts with 00.
    var i = 0
    while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x28 || bytes[i] == 0x2D) { i += 1 }
    if i + 2 < bytes.count && bytes[i] == 0x30 && bytes[i + 1] == 0x30 && bytes[i + 2] != 0x30 {
      var plus: [UInt8] = [0x2B]
      plus.append(contentsOf: bytes[(i + 2)...])
      if let n = try? phoneEngine.parse(utf8: plus, defaultRegion: region), n.nationalNumber >= 10_000 {
        let suffix = n.nationalNumber % 1_000_000_000
        // 00 is not every region's international prefix (Australia dials
        // 0011, Thailand and Korea 001), so the code read after it is a
        // guess: the calling code is the one the contact's own region
        // reads, when that is a valid number with the same suffix.
        var cc = 0
        if regionKnown, let r = try? phoneEngine.parse(utf8: bytes, defaultRegion: region),
          r.nationalNumber % 1_000_000_000 == suffix, phoneEngine.isValid(r)
        {
          cc = r.countryCode
        }
        return phoneKey(suffix: suffix, country: cc)
      }
    }
    var free = false
    if let n = try? phoneEngine.parse(utf8: bytes, defaultRegion: region, regionFree: &free), n.nationalNumber >= 10_000 {
      let cc =
        free
        ? n.countryCode
        : regionalCountry(n.countryCode, nsn: n.nationalNumber, length: n.nationalNumberLength, regionKnown: regionKnown)
      return phoneKey(suffix: n.nationalNumber % 1_000_000_000, country: cc)
    }
    return phoneKey(suffix: digitsKey(bytes), country: 0)
  }

  /// The last nine ASCII digits of `bytes` as an integer (leading zeros
  /// dropped); 0 when there are fewer than 5 significant digits.
  static func digitsKey(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var value: UInt64 = 0
    var count = 0
    for b in bytes where b >= 0x30 && b <= 0x39 {
      if count == 0 && b == 0x30 { continue }
      count += 1
      value = (value * 10 + UInt64(b - 0x30)) % 1_000_000_000
    }
    return count < 5 || value < 10_000 ? 0 : value
  }

  /// `normalizePhone` for callers outside the passes: the E.164 form, or
  /// nil when the parser rejects the value.
  static func e164(_ text: String, region: String) -> String? {
    guard let r = RegionCode(region), let n = try? phoneEngine.parse(text, defaultRegion: r) else { return nil }
    return phoneEngine.format(n, as: .e164)
  }

  // MARK: E-mails

  /// The e-mail comparison key (``EmailText/comparisonKey(utf8:)``):
  /// one implementation for dedupe and for the key `normalize` writes.
  static func normalizeEmail(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    EmailText.comparisonKey(utf8: bytes)
  }

  /// The e-mail key of an address: its mailbox (``mailboxHash(_:)``) in
  /// the high 32 bits, the low 32 bits of the normalized address's hash
  /// (``EmailText/comparisonKey(utf8:)``) below. Two keys are the same
  /// address when the whole keys are equal, and the same handle (maybe at
  /// another provider) when their high halves are (``mailbox(_:)``, 0 for
  /// none). 0 for no address. The entity store keeps these in its
  /// comparison records (``ComparisonRecord/version``).
  static func emailKey(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var ascii = true
    for b in bytes where b >= 0x80 { ascii = false; break }
    if !ascii || bytes.count > 320 {
      var n = normalizeEmail(bytes)
      if n.isEmpty { return 0 }
      let full = Hash64.hash(n, seed: 0xE)
      let at = n.lastIndex(of: 0x40) ?? n.count
      let mailbox = n.withUnsafeMutableBytes { mailboxHash(UnsafeMutableRawBufferPointer(rebasing: $0[0..<at])) }
      return UInt64(mailbox) << 32 | (full & 0xFFFF_FFFF)
    }
    // ASCII: the same normalization into a stack buffer, no allocation.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 8) { buf in
      var lo = 0, hi = bytes.count
      while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 || bytes[lo] == 0x3C { lo += 1 }
      while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 || bytes[hi - 1] == 0x3E { hi -= 1 }
      if hi - lo >= 7 {
        var m = true
        for (i, c) in "mailto:".utf8.enumerated() where bytes[lo + i] | 0x20 != c && bytes[lo + i] != c { m = false; break }
        if m { lo += 7 }
      }
      var at = -1
      for i in lo..<max(lo, hi) where bytes[i] == 0x40 { at = i }
      guard at > lo, at < hi - 1 else { return 0 }
      @inline(__always) func lower(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }
      // Domain, lower-cased; googlemail.com is gmail.com.
      let domainStart = at + 1
      func domainIs(_ name: StaticString) -> Bool {
        guard hi - domainStart == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for i in 0..<(hi - domainStart) where lower(bytes[domainStart + i]) != p[i] { return false }
        return true
      }
      let gmail = domainIs("gmail.com") || domainIs("googlemail.com")
      var n = 0
      for i in lo..<at {
        let b = lower(bytes[i])
        if b == 0x2B { break }
        if gmail && b == 0x2E { continue }
        buf[n] = b
        n += 1
      }
      if n == 0 { return 0 }
      let local = n
      buf[n] = 0x40
      n += 1
      if gmail {
        for c in "gmail.com".utf8 { buf[n] = c; n += 1 }
      } else {
        for i in domainStart..<hi { buf[n] = lower(bytes[i]); n += 1 }
      }
      let whole = UnsafeMutableRawBufferPointer(buf)
      let full = Hash64.hash(UnsafeRawBufferPointer(rebasing: whole[0..<n]), seed: 0xE)
      let mailbox = mailboxHash(UnsafeMutableRawBufferPointer(rebasing: whole[0..<local]))
      return UInt64(mailbox) << 32 | (full & 0xFFFF_FFFF)
    }
  }

  /// The mailbox of an e-mail key (its high half): 0 for none.
  @inline(__always)
  static func mailbox(_ emailKey: UInt64) -> UInt64 { emailKey >> 32 }

  /// The mailbox of a normalized local part (lower case, no `+tag`): its
  /// letters and digits with dots, hyphens and underscores dropped
  /// (`john.smith`, `johnsmith` and `john_smith` are one handle), hashed
  /// to 32 bits; 0 when fewer than three are left or the handle is a
  /// role's (``roleMailboxes``: `info@` of two firms says nothing).
  /// Writes over `local`.
  static func mailboxHash(_ local: UnsafeMutableRawBufferPointer) -> UInt32 {
    var n = 0
    for i in 0..<local.count {
      let b = local[i]
      if b == 0x2E || b == 0x2D || b == 0x5F { continue }
      local[n] = b
      n += 1
    }
    if n < 3 { return 0 }
    let h = UInt32(truncatingIfNeeded: Hash64.hash(UnsafeRawBufferPointer(rebasing: local[0..<n]), seed: 0x3B))
    if roleMailboxes.contains(h) { return 0 }
    return h == 0 ? 1 : h
  }

  /// Handles of roles, not people (RFC 2142's and the common ones in
  /// several languages), by their ``mailboxHash(_:)``.
  static let roleMailboxes: Set<UInt32> = {
    let names = [
      "info", "contact", "contacts", "kontakt", "contacto", "contato", "contatti", "office", "buero", "bureau", "admin",
      "administrator", "sales", "vertrieb", "ventes", "ventas", "support", "help", "helpdesk", "service", "services",
      "kundenservice", "mail", "email", "hello", "hallo", "bonjour", "hola", "enquiries", "enquiry", "inquiries",
      "inquiry", "team", "webmaster", "postmaster", "hostmaster", "abuse", "noreply", "donotreply", "billing",
      "accounts", "accounting", "invoice", "invoices", "hr", "jobs", "careers", "karriere", "press", "presse",
      "media", "marketing", "news", "newsletter", "orders", "order", "booking", "bookings", "reservations",
      "reception", "empfang", "secretariat", "sekretariat", "general", "team", "staff", "test", "user",
    ]
    var out = Set<UInt32>()
    for name in names {
      var bytes = Array(name.utf8)
      let h = bytes.withUnsafeMutableBytes { b -> UInt32 in
        UInt32(truncatingIfNeeded: Hash64.hash(UnsafeRawBufferPointer(b), seed: 0x3B))
      }
      out.insert(h)
    }
    return out
  }()

  static func normalizeEmail(_ string: String) -> String {
    var s = string
    return s.withUTF8 { String(decoding: normalizeEmail(UnsafeRawBufferPointer($0)), as: UTF8.self) }
  }

  /// The top-level domain of an e-mail address when it is a country code
  /// (`jp`, `uk` → GB), else nil.
  static func emailRegion(_ bytes: UnsafeRawBufferPointer) -> RegionCode? {
    guard let dot = bytes.lastIndex(of: 0x2E), bytes.count - dot == 3 else { return nil }
    let a = bytes[dot + 1] | 0x20, b = bytes[dot + 2] | 0x20
    guard a >= 0x61 && a <= 0x7A && b >= 0x61 && b <= 0x7A else { return nil }
    if a == 0x75 && b == 0x6B { return RegionCode("GB") }
    return RegionCode(utf8: [a & ~0x20, b & ~0x20])
  }

  // MARK: Birthdays

  /// A birthday as `yyyymmdd` (`mmdd` without a year); 0 when unreadable.
  /// Reads `1964-03-26`, `19640326`, `1964-03-26T00:00:00`, `--0326`, `--03-26`,
  /// and the day-month forms of CSV exports (Outlook writes the system's
  /// short date): `26.3.1964` (day first), `3/26/1964` (month first, as US
  /// Outlook writes it; day first when the first number is over 12).
  static func birthdayKey(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    if let k = separatedDate(bytes) { return k }
    var digits: UInt32 = 0
    var count = 0
    for b in bytes {
      if b == 0x54 || b == 0x74 { break }  // 'T': time follows
      if b >= 0x30 && b <= 0x39 {
        if count < 8 { digits = digits * 10 + UInt32(b - 0x30) }
        count += 1
      }
    }
    if count == 8 || count == 4 { return digits }
    return 0
  }

  /// `d.m.yyyy` or `m/d/yyyy` (`d/m/yyyy` when `m` > 12) as `yyyymmdd`;
  /// nil when the text is not of these forms, 0 when it is but is no date.
  static func separatedDate(_ bytes: UnsafeRawBufferPointer) -> UInt32? {
    // Scalars, not arrays: this runs for every contact's birthday.
    var p0: UInt32 = 0, p1: UInt32 = 0, p2: UInt32 = 0
    var l0 = 0, l1 = 0, l2 = 0
    var part = 0
    var separator: UInt8 = 0
    for b in bytes {
      if b >= 0x30 && b <= 0x39 {
        let d = UInt32(b - 0x30)
        switch part {
        case 0:
          guard l0 < 4 else { return nil }
          p0 = p0 * 10 + d
          l0 += 1
        case 1:
          guard l1 < 4 else { return nil }
          p1 = p1 * 10 + d
          l1 += 1
        default:
          guard l2 < 4 else { return nil }
          p2 = p2 * 10 + d
          l2 += 1
        }
      } else if (b == 0x2E || b == 0x2F) && (separator == 0 || separator == b) && part < 2 {
        separator = b
        part += 1
      } else if b == 0x20 && part == 2 && l2 == 4 {
        break  // a time may follow: `3/26/1964 00:00`
      } else {
        return nil
      }
    }
    guard separator != 0, part == 2, (1...2).contains(l0), (1...2).contains(l1), l2 == 4 else { return nil }
    var (day, month) = separator == 0x2E ? (p0, p1) : (p1, p0)
    if separator == 0x2F && month > 12 { swap(&day, &month) }
    guard month >= 1, month <= 12, day >= 1, day <= 31 else { return 0 }
    return p2 * 10000 + month * 100 + day
  }

  // MARK: Addresses

  /// Postal codes compare on letters and digits, upper case ignored.
  static func postalKey(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0x9057
    var n = 0
    for var b in bytes {
      if b >= 0x61 && b <= 0x7A { b &= ~0x20 }
      if (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 {
        h = Hash64.combine(h, UInt64(b))
        n += 1
      }
    }
    return n == 0 ? 0 : h | 1
  }

  /// The house number of a street line: its first run of ASCII digits
  /// (at most 9, so `12` of `12 wattle grove`, `4` of `unit 4/12 ...`),
  /// with a letter right after it (`12a`); 0 when there is none.
  static func houseNumber(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var value: UInt64 = 0
    var digits = 0
    var i = 0
    while i < bytes.count && !(bytes[i] >= 0x30 && bytes[i] <= 0x39) { i += 1 }
    while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 {
      if digits < 9 { value = value * 10 + UInt64(bytes[i] - 0x30) }
      digits += 1
      i += 1
    }
    if digits == 0 { return 0 }
    var letter: UInt64 = 0
    if i < bytes.count {
      let b = bytes[i] | 0x20
      let next = i + 1 < bytes.count ? bytes[i + 1] : 0x20
      if b >= 0x61 && b <= 0x7A && !((next | 0x20) >= 0x61 && (next | 0x20) <= 0x7A) { letter = UInt64(b) }
    }
    return Hash64.combine(0x4053 ^ value, letter) | 1
  }

  /// Streets compare on their tokens of letters and digits (ASCII lower
  /// case; other scripts byte for byte, no transliteration: both records of
  /// one address are written in the same script), with the street type in
  /// its full form (``StreetTypes``: `12 Main St.` is `12 Main Street`) for
  /// `language` (an index into ``StreetTypes/languages``; nil: no types).
  ///
  /// One pass: the words are hashed as they are read, and where the type
  /// is (the last type word in English, so known only at the end) the hash
  /// as it stood before it is kept; at the end the hash is taken on from
  /// there with the full form and the bytes after the type.
  static func streetKey(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    streetKey(bytes, language: nil, types: StreetTypes.shared)
  }

  /// ``streetKey(_:)`` with the street types of `language`, read from
  /// `types` (passed down, not copied: a copy per street would count
  /// references to its tables on every core).
  static func streetKey(_ bytes: UnsafeRawBufferPointer, language: Int?, types: borrowing StreetTypes) -> UInt64 {
    let kind = language.flatMap { StreetTypes.kind($0) }
    let romance = kind == .fr || kind == .es || kind == .it || kind == .pt
    var h: UInt64 = 0x57
    var n = 0
    // The type found: where it starts and ends, its full form, and the
    // hash and count before the word that holds it (`word`: its start).
    var found = false, confirmed = !romance
    var typeStart = 0, typeEnd = 0, word = 0, hBefore: UInt64 = 0, nBefore = 0
    var full = StreetTypes.Packed()
    var seenName = false  // a word not starting with a digit came before
    var nameWords = 0
    var i = 0
    while i < bytes.count {
      guard isTokenByte(bytes[i]) else {
        i += 1
        continue
      }
      let start = i, h0 = h, n0 = n
      var packed = StreetTypes.Packed()
      packed.tag = UInt8(truncatingIfNeeded: language ?? 0)
      var fits = true
      while i < bytes.count {
        var b = bytes[i]
        if b >= 0x41 && b <= 0x5A { b |= 0x20 }
        guard (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 else { break }
        h = Hash64.combine(h, UInt64(b))
        n += 1
        if fits { fits = packed.append(b) }
        i += 1
      }
      guard let kind, let language else { continue }
      let isNumber = bytes[start] >= 0x30 && bytes[start] <= 0x39
      let afterName = seenName
      if !isNumber { seenName = true }
      guard seenName else { continue }
      nameWords += 1
      func take(_ from: Int, _ f: StreetTypes.Packed) {
        found = true
        typeStart = from
        typeEnd = i
        word = start
        hBefore = h0
        nBefore = n0
        full = f
      }
      switch kind {
      case .en:
        // The last type word after the name's first.
        if afterName && fits, let f = types.words[packed] { take(start, f) }
      case .fr, .es, .it, .pt:
        // The name's first word, when another follows.
        if nameWords == 1 && fits, let f = types.words[packed] { take(start, f) }
        if nameWords == 2 && found { confirmed = true }
      case .de, .nl:
        // The last type word after the first, or a word ending in a type.
        if afterName && fits, let f = types.words[packed] {
          take(start, f)
        } else {
          for e in types.endings[language] where i - start > e.form.count + 1 {  // German, Dutch only
            if e.dot && (i >= bytes.count || bytes[i] != 0x2E) { continue }
            let tail = i - e.form.count
            var same = true
            for (k, f) in e.form.enumerated() {
              let b = bytes[tail + k]
              if (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) != f {
                same = false
                break
              }
            }
            if same {
              take(tail, e.full)
              break
            }
          }
        }
      }
    }
    if found && confirmed {
      // From the hash before the type's word: its bytes before the type
      // (a compound's head), the full form, then every byte after it.
      h = hBefore
      n = nBefore
      var j = word
      while j < bytes.count {
        if j == typeStart {
          for k in 0..<Int(full.count) { h = Hash64.combine(h, UInt64(full.byte(k))) }
          n += Int(full.count)
          j = typeEnd
          continue
        }
        var b = bytes[j]
        j += 1
        if b >= 0x41 && b <= 0x5A { b |= 0x20 }
        if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 {
          h = Hash64.combine(h, UInt64(b))
          n += 1
        }
      }
    }
    return n == 0 ? 0 : h | 1
  }

  @inline(__always) static func isTokenByte(_ b: UInt8) -> Bool {
    let c = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    return (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c >= 0x80
  }
}
