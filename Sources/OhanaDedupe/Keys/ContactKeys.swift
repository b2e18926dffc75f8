import COhanaCore
import OhanaCore
import OhanaPhone

/// Matching keys of every contact of a table, computed by column passes.
///
/// ### Layout
/// ```
///  folds        StringPool       folded names ("jose maria garcia"), own pool
///  given, givenCanonical, family   [StringID] per contact, into folds
///  nameKey      [UInt64]         order-free hash of the canonical name tokens (0 = none)
///  birthday     [UInt32]         yyyymmdd or mmdd (0 = none)
///  phones       CSR [UInt64]     phone keys per contact, sorted, unique
///  emails       CSR [UInt64]     normalized e-mail hashes per contact, sorted, unique
///  addresses    CSR [UInt64]     postcode+street hashes per contact
///  postcodes    CSR [UInt64]     postcode hashes per contact (same offsets as addresses)
///  houses       CSR [UInt64]     house numbers of those addresses (same offsets; 0 = none)
///  addressTexts CSR [AddressText] street, extended line, locality letters and postcode (same offsets)
///  phonetic     [UInt64]         per fold id: phonetic code of the folded name (0 = none)
///  fieldKeys    [UInt64]         per field row: its phone or e-mail key (0 = none)
///  addressKeys  [UInt64]         per address row: postcode+street (or all columns) hash
///  records      [ScoreRecord]    per contact: sketch, name ids, birthday, address prints (64 bytes)
/// ```
/// Names are folded once per distinct string id; every other key (phones,
/// e-mails, birthdays, addresses, sketches) in one pass over ranges of
/// contacts run in parallel (``RowKeys``), whose results are then laid end
/// to end.
struct ContactKeys: Sendable {
  var folds = StringPool()
  var given: [StringID] = []
  var givenCanonical: [StringID] = []
  var family: [StringID] = []
  /// Whether the contact's name was written in a script other than Latin
  /// (and so reached Latin through ICU's transliteration).
  var nonLatinName: [Bool] = []
  var nameKey: [UInt64] = []
  var birthday: [UInt32] = []
  var phoneOffsets: [UInt32] = [0]
  var phones: [UInt64] = []
  var emailOffsets: [UInt32] = [0]
  var emails: [UInt64] = []
  var addressOffsets: [UInt32] = [0]
  var addresses: [UInt64] = []
  var postcodes: [UInt64] = []
  var houses: [UInt64] = []
  var addressTexts: [AddressText] = []
  /// Per fold id: ``Phonetic/code(_:)`` of the folded text (0 = none).
  var phonetic: [UInt64] = []
  /// Per fold id: contacts whose family name / canonical given name it is.
  var familyCount: [Int32] = []
  var givenCount: [Int32] = []
  var fieldKeys: [UInt64] = []
  var addressKeys: [UInt64] = []
  /// Per fold id: hash sum of its tokens (order-free).
  var tokenSums: [UInt64] = []
  /// Per contact: everything the scorer reads first, in one 64-byte
  /// record (see ``ScoreRecord``), so that a pair costs about one cache
  /// miss per side.
  var records: [ScoreRecord] = []

  var count: Int { given.count }

  @inline(__always) func phones(of r: Int) -> Range<Int> { Int(phoneOffsets[r])..<Int(phoneOffsets[r + 1]) }
  @inline(__always) func emails(of r: Int) -> Range<Int> { Int(emailOffsets[r])..<Int(emailOffsets[r + 1]) }
  @inline(__always) func addresses(of r: Int) -> Range<Int> { Int(addressOffsets[r])..<Int(addressOffsets[r + 1]) }

  init() {}

  init(table: ContactTable, configuration: DedupeConfiguration) {
    let n = table.rowCount
    let threads = configuration.threads
    let defaultRegion = RegionCode(configuration.defaultRegion) ?? .us

    // Address countries → region, once per distinct id.
    var countryRegion = [UInt32](repeating: 0, count: table.pool.count)  // 0 unknown, else RegionCode raw
    let countries = table.addresses[.country]
    var seen = [Bool](repeating: false, count: table.pool.count)
    for id in countries where id.isPresent && !seen[id.index] {
      seen[id.index] = true
      let code = table.pool.withBytes(of: id) { Countries.region($0) }
      if let code, let rc = RegionCode(code) { countryRegion[id.index] = rc.rawValue }
    }

    // Every per-contact key in one pass over row ranges, in parallel; the
    // ranges' results are then laid end to end, and the names put in the
    // records. The names are folded meanwhile, as one more task: mostly
    // serial (0.2 s at 1,000,000), they ran before the ranges with a
    // core idle.
    let countryRegions = countryRegion
    PhaseTrace.mark("keys.countries")
    var (named, parts) = Parallel.map(count: n, threads: threads, minimumChunk: 8192) {
      var names = ContactKeys()
      names.foldNames(table)
      return names
    } _: { rows in
      RowKeys(table, rows: rows, countryRegions: countryRegions, defaultRegion: defaultRegion)
    }
    folds = named.folds
    given = named.given
    givenCanonical = named.givenCanonical
    family = named.family
    nonLatinName = named.nonLatinName
    nameKey = named.nameKey
    tokenSums = named.tokenSums
    familyCount = named.familyCount
    givenCount = named.givenCount
    phonetic = named.phonetic
    named = ContactKeys()
    PhaseTrace.mark("keys.rows")
    // Laid end to end in two halves at once: the per-row lists (records,
    // birthdays, field and address row keys) on one worker, the CSR lists
    // and their offsets on the other.
    // Each half owns its lists of the parts and frees each part's as it is
    // laid (at 1,000,000 the parts and the laid lists together were the
    // run's peak).
    var perRowParts = parts, listParts = parts
    parts = []
    for i in perRowParts.indices { perRowParts[i].keepPerRow() }
    for i in listParts.indices { listParts[i].keepLists() }
    let perRowHandoff = Handoff(perRowParts), listHandoff = Handoff(listParts)
    perRowParts = []
    listParts = []
    let names = (given: given, givenCanonical: givenCanonical, family: family, nonLatin: nonLatinName)
    let (perRow, lists) = Parallel.both(threads: threads) {
      RowKeys.laidPerRow(perRowHandoff.take(), count: n, names: names)
    } _: {
      RowKeys.laidLists(listHandoff.take(), count: n)
    }
    (records, birthday, fieldKeys, addressKeys) = perRow
    phones = lists.phones
    phoneOffsets = lists.phoneOffsets
    emails = lists.emails
    emailOffsets = lists.emailOffsets
    addresses = lists.addresses
    postcodes = lists.postcodes
    houses = lists.houses
    addressTexts = lists.addressTexts
    addressOffsets = lists.addressOffsets
    PhaseTrace.mark("keys.laid")
    assignEmailIDs()
    PhaseTrace.mark("keys.emailIDs")
  }

  /// Gives the first three e-mails of every contact an exact 32-bit id
  /// (a slot of an open-addressing table over the e-mail keys) in its
  /// sketch, so that the scorer compares up to three e-mails a side
  /// without the lists.
  mutating func assignEmailIDs() {
    var capacity = 16
    while capacity < emails.count * 2 { capacity <<= 1 }
    let mask = capacity - 1
    var table = [UInt64](repeating: 0, count: capacity)
    // Rows go in batches whose home slots are prefetched first: the table
    // is far larger than the cache, so each insert was a miss of its own.
    let batch = 16
    table.withUnsafeMutableBufferPointer { slots in
      var lo = 0
      while lo < records.count {
        let hi = min(lo + batch, records.count)
        for r in lo..<hi {
          for e in emails(of: r).prefix(3) {
            ohana_prefetch(slots.baseAddress.map { $0 + (Int(truncatingIfNeeded: Hash64.mix(emails[e])) & mask) })
          }
        }
        for r in lo..<hi {
          for (i, e) in emails(of: r).prefix(3).enumerated() {
            let key = emails[e]  // never 0
            var slot = Int(truncatingIfNeeded: Hash64.mix(key)) & mask
            while slots[slot] != 0 && slots[slot] != key { slot = (slot + 1) & mask }
            slots[slot] = key
            records[r].sketch.setEmail(i, UInt32(truncatingIfNeeded: slot + 1))
          }
        }
        lo = hi
      }
    }
  }

  static func sortUnique(_ a: inout [UInt64], from start: Int) {
    let n = a.count - start
    if n < 2 { return }
    if n <= 8 {
      // Insertion sort: contacts hold a few values.
      for i in (start + 1)..<a.count {
        let v = a[i]
        var j = i
        while j > start && a[j - 1] > v {
          a[j] = a[j - 1]
          j -= 1
        }
        a[j] = v
      }
    } else {
      a[start...].sort()
    }
    var w = start + 1
    for i in (start + 1)..<a.count where a[i] != a[w - 1] {
      a[w] = a[i]
      w += 1
    }
    a.removeSubrange(w...)
  }

  // MARK: Names

  /// The distinct texts outside ASCII that `table`'s keys fold: given and
  /// family names (the full name or organization of a contact without
  /// either) and address countries, in first-met order.
  static func nonASCIINameTexts(_ table: ContactTable) -> [[UInt8]] {
    let gCol = table[.givenName], fCol = table[.familyName]
    let fullCol = table[.fullName], orgCol = table[.organization]
    var seen = Set<StringID>()
    var out: [[UInt8]] = []
    func need(_ id: StringID) {
      guard id.isPresent, seen.insert(id).inserted else { return }
      table.pool.withBytes(of: id) { b in if !NameFolder.isASCII(b) { out.append(Array(b)) } }
    }
    for r in 0..<table.rowCount {
      need(gCol[r])
      need(fCol[r])
      if gCol[r].isAbsent && fCol[r].isAbsent {
        if fullCol[r].isPresent { need(fullCol[r]) } else { need(orgCol[r]) }
      }
    }
    for id in table.addresses[.country] { need(id) }
    return out
  }

  /// Folds given, family, full and organization names once per distinct id
  /// (in parallel), applies the nickname table to the first given token,
  /// and computes the order-free name key.
  private mutating func foldNames(_ table: ContactTable) {
    let n = table.rowCount
    let gCol = table[.givenName], fCol = table[.familyName]
    let fullCol = table[.fullName], orgCol = table[.organization]
    // Which ids need folding.
    var needed = [Bool](repeating: false, count: table.pool.count)
    var list: [StringID] = []
    func need(_ id: StringID) {
      if id.isPresent && !needed[id.index] { needed[id.index] = true; list.append(id) }
    }
    for r in 0..<n {
      need(gCol[r]); need(fCol[r])
      if gCol[r].isAbsent && fCol[r].isAbsent {
        if fullCol[r].isPresent { need(fullCol[r]) } else { need(orgCol[r]) }
      }
    }
    let idList = list
    let pool = table.pool
    let parts = Parallel.map(count: idList.count, threads: 0, minimumChunk: 2048) { range -> ([UInt8], [Int], [Bool]) in
      var arena: [UInt8] = []
      var ends: [Int] = []
      var nonLatin: [Bool] = []
      ends.reserveCapacity(range.count)
      nonLatin.reserveCapacity(range.count)
      for i in range {
        pool.withBytes(of: idList[i]) { b in
          NameFolder.shared.fold(b, into: &arena)
          nonLatin.append(NameFolder.hasNonLatinLetters(b))
        }
        ends.append(arena.count)
      }
      return (arena, ends, nonLatin)
    }
    var foldOf = [StringID](repeating: .absent, count: table.pool.count)
    var nonLatinOf = [Bool](repeating: false, count: table.pool.count)
    var k = 0
    for (arena, ends, nonLatin) in parts {
      arena.withUnsafeBytes { a in
        var start = 0
        for (j, e) in ends.enumerated() {
          nonLatinOf[idList[k].index] = nonLatin[j]
          foldOf[idList[k].index] = folds.intern(UnsafeRawBufferPointer(rebasing: a[start..<e]))
          start = e
          k += 1
        }
      }
    }
    given = [StringID](repeating: .absent, count: n)
    family = given
    nonLatinName = [Bool](repeating: false, count: n)
    for r in 0..<n {
      var g = foldOf[gCol[r].index], f = foldOf[fCol[r].index]
      if g.isAbsent && f.isAbsent {
        f = foldOf[(fullCol[r].isPresent ? fullCol[r] : orgCol[r]).index]
        g = .absent
      }
      given[r] = g
      family[r] = f
      nonLatinName[r] = nonLatinOf[gCol[r].index] || nonLatinOf[fCol[r].index]
        || (gCol[r].isAbsent && fCol[r].isAbsent && nonLatinOf[fullCol[r].index])
    }
    finishNames()
  }

  /// From the folded names (``given``, ``family`` into ``folds``): the
  /// canonical given names, and per fold id the token sums, counts and
  /// phonetic codes, then the order-free name keys. Shared by the table
  /// path and the stored comparison records (``ComparisonRecord``), so
  /// that both give the same keys.
  mutating func finishNames() {
    let n = given.count
    // Canonical given names and token sums, once per fold id.
    let canonicalTable = NicknameTable.canonical
    var canon = [StringID](repeating: .absent, count: folds.count)
    var canonDone = [Bool](repeating: false, count: folds.count)
    func canonical(_ id: StringID) -> StringID {
      if id.isAbsent || canonDone[id.index] { return canon[id.index] }
      let s = folds.string(id) ?? ""
      var result = id
      let first = s.split(separator: " ", maxSplits: 1)
      if let head = first.first, let c = canonicalTable[String(head)], c != head {
        let rest = first.count > 1 ? " " + first[1] : ""
        result = folds.intern(c + rest)
      }
      if id.index >= canon.count {
        canon.append(contentsOf: repeatElement(.absent, count: id.index + 1 - canon.count))
        canonDone.append(contentsOf: repeatElement(false, count: id.index + 1 - canonDone.count))
      }
      canon[id.index] = result
      canonDone[id.index] = true
      return result
    }
    givenCanonical = [StringID](repeating: .absent, count: n)
    nameKey = [UInt64](repeating: 0, count: n)
    for r in 0..<n { givenCanonical[r] = canonical(given[r]) }
    // Token sums over the final fold pool: every token through the
    // nickname table, so that order and nicknames do not change the key.
    tokenSums = [UInt64](repeating: 0, count: folds.count)
    for id in 1..<max(1, folds.count) {
      let text = folds.string(StringID(rawValue: UInt32(id))) ?? ""
      var sum: UInt64 = 0
      for token in text.split(separator: " ") {
        var t = canonicalTable[String(token)] ?? String(token)
        sum &+= t.withUTF8 { Hash64.hash(UnsafeRawBufferPointer($0), seed: 0x7E) }
      }
      tokenSums[id] = sum
    }
    // Term frequencies: how many contacts carry each folded family name and
    // each canonical given name (see ``TermFrequency``).
    familyCount = [Int32](repeating: 0, count: folds.count)
    givenCount = [Int32](repeating: 0, count: folds.count)
    for r in 0..<n {
      if family[r].isPresent { familyCount[family[r].index] += 1 }
      if givenCanonical[r].isPresent { givenCount[givenCanonical[r].index] += 1 }
    }
    phonetic = [UInt64](repeating: 0, count: folds.count)
    folds.withStorage { arena, ends in
      for id in 1..<max(1, folds.count) {
        phonetic[id] = Phonetic.code(UnsafeRawBufferPointer(rebasing: arena[ends[id - 1]..<ends[id]]))
      }
    }
    for r in 0..<n {
      let g = given[r], f = family[r]
      // A name key needs two tokens: a lone given name or surname is no block.
      let tokens = tokenCount(g) + tokenCount(f)
      if tokens >= 2 { nameKey[r] = Hash64.mix(tokenSums[g.index] &+ tokenSums[f.index]) | 1 }
    }
  }

  private func tokenCount(_ id: StringID) -> Int {
    if id.isAbsent { return 0 }
    return folds.withBytes(of: id) { b in 1 + b.reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) } }
  }
}

/// The keys of a range of contacts (see ``ContactKeys``), computed by one
/// worker: ends are relative to the range's own lists.
/// ``RowKeys`` of consecutive ranges laid end to end: the CSR lists.
struct LaidKeyLists: Sendable {
  var phones: [UInt64] = [], phoneOffsets: [UInt32] = [0]
  var emails: [UInt64] = [], emailOffsets: [UInt32] = [0]
  var addresses: [UInt64] = [], postcodes: [UInt64] = [], houses: [UInt64] = []
  var addressTexts: [AddressText] = [], addressOffsets: [UInt32] = [0]
}

extension RowKeys {
  /// The per-contact and per-child-row keys of `parts`, end to end.
  /// Empties the CSR lists (kept: the per-row and per-child-row keys).
  mutating func keepPerRow() {
    phones = []
    phoneEnds = []
    emails = []
    emailEnds = []
    addresses = []
    postcodes = []
    houses = []
    addressTexts = []
    addressEnds = []
  }

  /// Empties the per-row and per-child-row keys (kept: the CSR lists).
  mutating func keepLists() {
    records = []
    birthday = []
    fieldKeys = []
    addressKeys = []
  }

  /// The per-row keys of `parts`, end to end, with each record's names.
  static func laidPerRow(
    _ taken: consuming [RowKeys], count n: Int,
    names: (given: [StringID], givenCanonical: [StringID], family: [StringID], nonLatin: [Bool])
  ) -> (records: [ScoreRecord], birthday: [UInt32], fieldKeys: [UInt64], addressKeys: [UInt64]) {
    var parts = taken
    var records: [ScoreRecord] = [], birthday: [UInt32] = [], fieldKeys: [UInt64] = [], addressKeys: [UInt64] = []
    records.reserveCapacity(n)
    birthday.reserveCapacity(n)
    fieldKeys.reserveCapacity(parts.reduce(0) { $0 + $1.fieldKeys.count })
    addressKeys.reserveCapacity(parts.reduce(0) { $0 + $1.addressKeys.count })
    for i in parts.indices {
      for var record in parts[i].records {
        let r = records.count
        record.given = names.given[r]
        record.givenCanonical = names.givenCanonical[r]
        record.family = names.family[r]
        record.nonLatinName = names.nonLatin[r]
        records.append(record)
      }
      birthday.append(contentsOf: parts[i].birthday)
      fieldKeys.append(contentsOf: parts[i].fieldKeys)
      addressKeys.append(contentsOf: parts[i].addressKeys)
      parts[i].keepLists()  // frees this part's per-row keys
    }
    return (records, birthday, fieldKeys, addressKeys)
  }

  /// The phone, e-mail and address lists of `parts`, end to end, with
  /// their offsets.
  static func laidLists(_ taken: consuming [RowKeys], count n: Int) -> LaidKeyLists {
    var parts = taken
    var l = LaidKeyLists()
    let phoneCount = parts.reduce(0) { $0 + $1.phones.count }
    let emailCount = parts.reduce(0) { $0 + $1.emails.count }
    let addressCount = parts.reduce(0) { $0 + $1.addresses.count }
    l.phones.reserveCapacity(phoneCount)
    l.emails.reserveCapacity(emailCount)
    l.addresses.reserveCapacity(addressCount)
    l.postcodes.reserveCapacity(addressCount)
    l.houses.reserveCapacity(addressCount)
    l.addressTexts.reserveCapacity(addressCount)
    l.phoneOffsets.reserveCapacity(n + 1)
    l.emailOffsets.reserveCapacity(n + 1)
    l.addressOffsets.reserveCapacity(n + 1)
    for i in parts.indices {
      let p = parts[i]
      parts[i].keepPerRow()  // frees this part's lists once `p` is laid
      let pBase = UInt32(truncatingIfNeeded: l.phones.count)
      let eBase = UInt32(truncatingIfNeeded: l.emails.count)
      let aBase = UInt32(truncatingIfNeeded: l.addresses.count)
      l.phones.append(contentsOf: p.phones)
      l.emails.append(contentsOf: p.emails)
      l.addresses.append(contentsOf: p.addresses)
      l.postcodes.append(contentsOf: p.postcodes)
      l.houses.append(contentsOf: p.houses)
      l.addressTexts.append(contentsOf: p.addressTexts)
      for e in p.phoneEnds { l.phoneOffsets.append(pBase &+ e) }
      for e in p.emailEnds { l.emailOffsets.append(eBase &+ e) }
      for e in p.addressEnds { l.addressOffsets.append(aBase &+ e) }
    }
    return l
  }
}

struct RowKeys: Sendable {
  var fieldKeys: [UInt64] = []
  var phones: [UInt64] = []
  var phoneEnds: [UInt32] = []
  var emails: [UInt64] = []
  var emailEnds: [UInt32] = []
  var birthday: [UInt32] = []
  var records: [ScoreRecord] = []
  var addresses: [UInt64] = []
  var postcodes: [UInt64] = []
  var houses: [UInt64] = []
  var addressTexts: [AddressText] = []
  var addressEnds: [UInt32] = []
  var addressKeys: [UInt64] = []

  init(
    _ table: ContactTable, rows: Range<Int>, countryRegions: [UInt32], defaultRegion: RegionCode
  ) {
    let pool = table.pool
    let fieldBase = Int(table.fieldOffsets[rows.lowerBound])
    let fieldEnd = Int(table.fieldOffsets[rows.upperBound])
    let addressBase = Int(table.addressOffsets[rows.lowerBound])
    let addressEnd = Int(table.addressOffsets[rows.upperBound])
    fieldKeys = [UInt64](repeating: 0, count: fieldEnd - fieldBase)
    addressKeys = [UInt64](repeating: 0, count: addressEnd - addressBase)
    phones.reserveCapacity(fieldEnd - fieldBase)
    emails.reserveCapacity((fieldEnd - fieldBase) / 2)
    addresses.reserveCapacity(addressEnd - addressBase)
    postcodes.reserveCapacity(addressEnd - addressBase)
    houses.reserveCapacity(addressEnd - addressBase)
    addressTexts.reserveCapacity(addressEnd - addressBase)
    phoneEnds.reserveCapacity(rows.count)
    emailEnds.reserveCapacity(rows.count)
    addressEnds.reserveCapacity(rows.count)
    birthday.reserveCapacity(rows.count)
    records.reserveCapacity(rows.count)
    let kinds = table.fields.kind, values = table.fields.value
    let countryCol = table.addresses[.country]
    let pcs = table.addresses[.postalCode], streets = table.addresses[.street]
    let extendeds = table.addresses[.extended], localities = table.addresses[.locality]
    let cols = table.addresses.columns
    let bdays = table[.birthday]
    // The values' bytes are scattered over the pool: touch those of the
    // next rows first, so that their cache misses overlap instead of
    // coming one value at a time.
    let batch = 8
    var touched: UInt8 = 0
    var nextTouch = rows.lowerBound
    for r in rows {
      if r == nextTouch {
        nextTouch = min(r + batch, rows.upperBound)
        pool.withStorage { arena, ends in
          @inline(__always) func touch(_ id: StringID) {
            let i = id.index
            if i > 0 && i < ends.count {
              let start = ends[i - 1]
              if start < arena.count { touched &+= arena[start] }
            }
          }
          for t in r..<nextTouch {
            for f in table.fieldRange(of: t) { touch(values[f]) }
            for a in table.addressRange(of: t) {
              touch(pcs[a])
              touch(streets[a])
              touched &+= UInt8(truncatingIfNeeded: countryRegions[countryCol[a].index])
            }
            touch(bdays[t])
          }
        }
      }
      let fr = table.fieldRange(of: r)
      // The region for national numbers: the address country, else a
      // country-code e-mail domain, else the configured default.
      var region = defaultRegion
      var found = false
      for a in table.addressRange(of: r) {
        let raw = countryRegions[countryCol[a].index]
        if raw != 0 { region = RegionCode(rawValue: raw); found = true; break }
      }
      if !found {
        for f in fr where kinds[f] == .email {
          if let rc = pool.withBytes(of: values[f], { KeyFunctions.emailRegion($0) }) {
            region = rc
            found = true
            break
          }
        }
      }
      let ps = phones.count, es = emails.count
      for f in fr {
        switch kinds[f] {
        case .phone:
          let k = pool.withBytes(of: values[f]) { KeyFunctions.phoneKey($0, region: region, regionKnown: found) }
          fieldKeys[f - fieldBase] = k
          if k != 0 { phones.append(k) }
        case .email:
          let k = pool.withBytes(of: values[f]) { KeyFunctions.emailKey($0) }
          fieldKeys[f - fieldBase] = k
          if k != 0 { emails.append(k) }
        default: break
        }
      }
      ContactKeys.sortUnique(&phones, from: ps)
      ContactKeys.sortUnique(&emails, from: es)
      phoneEnds.append(UInt32(truncatingIfNeeded: phones.count))
      emailEnds.append(UInt32(truncatingIfNeeded: emails.count))

      let b = bdays[r]
      let bday = b.isAbsent ? 0 : pool.withBytes(of: b) { KeyFunctions.birthdayKey($0) }
      birthday.append(bday)
      let as0 = addresses.count

      for a in table.addressRange(of: r) {
        let pk = pcs[a].isAbsent ? 0 : pool.withBytes(of: pcs[a]) { KeyFunctions.postalKey($0) }
        let sk = streets[a].isAbsent ? 0 : pool.withBytes(of: streets[a]) { KeyFunctions.streetKey($0) }
        if pk != 0 {
          addressTexts.append(Self.addressText(pool, street: streets[a], extended: extendeds[a], locality: localities[a], postcode: pcs[a]))
        }
        if pk != 0 && sk != 0 {
          let key = Hash64.combine(pk, sk)
          addresses.append(key)
          postcodes.append(pk)
          houses.append(pool.withBytes(of: streets[a]) { KeyFunctions.houseNumber($0) })
          addressKeys[a - addressBase] = key
        } else {
          if pk != 0 {
            addresses.append(0)
            postcodes.append(pk)
            houses.append(0)
          }
          // Without postcode and street, an address is its columns.
          var h: UInt64 = 0xADD
          for c in 1...7 where c < cols.count { h = Hash64.combine(h, UInt64(cols[c][a].rawValue)) }
          addressKeys[a - addressBase] = h
        }
      }
      addressEnds.append(UInt32(truncatingIfNeeded: addresses.count))
      records.append(
        ScoreRecord(
          phones: phones[ps...], emailCount: emails.count - es, birthday: bday,
          names: (.absent, .absent, .absent, false),  // set once laid (see `laidPerRow`)
          addressCount: addresses.count - as0, first: addresses.count > as0 ? (addressTexts[as0].postcode, houses[as0]) : nil))
    }
    // Keeps the touching loads alive (never true of real keys).
    if touched == 1 && records.isEmpty { birthday.append(0) }
  }
}

/// What the scorer reads first of one contact, in one record (64 bytes):
/// the first address's postcode text (``AddressText/postcode``) and house
/// number (low 32 bits), the phone and e-mail sketch, the folded name ids
/// and the birthday. The address part only proves a difference: two
/// contacts with one address each, other postcodes and no house number in
/// common are "different" without a look at the address lists.
struct ScoreRecord: Sendable {
  var postcode: UInt64 = 0
  var sketch = ContactSketch()
  var given: StringID = .absent
  var givenCanonical: StringID = .absent
  var family: StringID = .absent
  var birthday: UInt32 = 0
  var house: UInt32 = 0
  /// Addresses with a postcode (the scorer's list), at most 255.
  var addressCount: UInt8 = 0
  var nonLatinName = false

  init() {}

  /// The record of a contact with these sorted, unique `phones`, this many
  /// e-mails and addresses (the e-mail ids are set later, per table), and
  /// its first address's postcode text and house number.
  init(
    phones: ArraySlice<UInt64>, emailCount: Int, birthday: UInt32,
    names: (given: StringID, givenCanonical: StringID, family: StringID, nonLatin: Bool),
    addressCount: Int, first: (postcode: UInt64, house: UInt64)?
  ) {
    sketch.phoneCount = UInt8(min(phones.count, 255))
    sketch.emailCount = UInt8(min(emailCount, 255))
    for (i, p) in phones.prefix(ContactSketch.phoneSlots).enumerated() {
      sketch.setPhone(i, UInt32(truncatingIfNeeded: KeyFunctions.phoneSuffix(p)))
    }
    sketch.phoneCountries = phones.contains { KeyFunctions.phoneCountry($0) != 0 }
    given = names.given
    givenCanonical = names.givenCanonical
    family = names.family
    nonLatinName = names.nonLatin
    self.birthday = birthday
    self.addressCount = UInt8(min(addressCount, 255))
    if let first {
      postcode = first.postcode
      house = UInt32(truncatingIfNeeded: first.house)
    }
  }
}

/// The phone and e-mail evidence of one contact, packed: up to four phone
/// suffixes (``KeyFunctions/phoneSuffix(_:)``: below 10^9, so 32 bits hold
/// one exactly) and up to three e-mail ids (exact, see `assignEmailIDs`).
/// Two contacts within those counts are compared exactly from their
/// sketches, unless both have a phone whose calling code is known
/// (`phoneCountries`): a shared suffix is then checked against the lists
/// (``KeyFunctions/samePhone(_:_:)``). More values send the scorer to the
/// exact lists.
struct ContactSketch: Sendable {
  /// Phones a sketch holds.
  static let phoneSlots = 4
  var p0: UInt32 = 0, p1: UInt32 = 0, p2: UInt32 = 0, p3: UInt32 = 0
  var e0: UInt32 = 0, e1: UInt32 = 0, e2: UInt32 = 0
  var phoneCount: UInt8 = 0
  var emailCount: UInt8 = 0
  /// Whether some phone's calling code is known.
  var phoneCountries = false

  mutating func setPhone(_ i: Int, _ v: UInt32) {
    switch i {
    case 0: p0 = v
    case 1: p1 = v
    case 2: p2 = v
    default: p3 = v
    }
  }

  mutating func setEmail(_ i: Int, _ v: UInt32) {
    switch i {
    case 0: e0 = v
    case 1: e1 = v
    default: e2 = v
    }
  }

  /// 0 when a side has none, 2 when no suffix is shared, 1 when one is or
  /// may be (more than four, or calling codes on both sides: the lists
  /// decide).
  @inline(__always)
  static func phoneLevel(_ a: ContactSketch, _ b: ContactSketch) -> Int {
    if a.phoneCount == 0 || b.phoneCount == 0 { return 0 }
    if a.phoneCount > 4 || b.phoneCount > 4 { return 1 }
    let na = Int(a.phoneCount), nb = Int(b.phoneCount)
    func has(_ x: UInt32) -> Bool { x == b.p0 || (nb > 1 && x == b.p1) || (nb > 2 && x == b.p2) || (nb > 3 && x == b.p3) }
    return has(a.p0) || (na > 1 && has(a.p1)) || (na > 2 && has(a.p2)) || (na > 3 && has(a.p3)) ? 1 : 2
  }

  /// 0 when a side has none, 2 when none is shared, 1 when one is or may
  /// be (more than three: the lists decide).
  @inline(__always)
  static func emailLevel(_ a: ContactSketch, _ b: ContactSketch) -> Int {
    if a.emailCount == 0 || b.emailCount == 0 { return 0 }
    if a.emailCount > 3 || b.emailCount > 3 { return 1 }
    return share(a.e0, a.e1, a.e2, Int(a.emailCount), b.e0, b.e1, b.e2, Int(b.emailCount)) ? 1 : 2
  }

  @inline(__always)
  static func share(
    _ a0: UInt32, _ a1: UInt32, _ a2: UInt32, _ na: Int, _ b0: UInt32, _ b1: UInt32, _ b2: UInt32, _ nb: Int
  ) -> Bool {
    func has(_ x: UInt32) -> Bool { x == b0 || (nb > 1 && x == b1) || (nb > 2 && x == b2) }
    return has(a0) || (na > 1 && has(a1)) || (na > 2 && has(a2))
  }
}

extension RowKeys {
  /// The ``AddressText`` of one address row.
  static func addressText(
    _ pool: StringPool, street: StringID, extended: StringID, locality: StringID, postcode: StringID
  ) -> AddressText {
    func letters(_ id: StringID) -> Letters16 {
      id.isAbsent ? Letters16() : pool.withBytes(of: id) { Letters16($0) }
    }
    var t = AddressText()
    t.street = letters(street)
    t.extended = letters(extended)
    t.locality = letters(locality)
    if postcode.isPresent { t.postcode = pool.withBytes(of: postcode) { AddressText.postcodePrint($0) } }
    return t
  }
}
