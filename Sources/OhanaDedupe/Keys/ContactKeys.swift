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
    // The distinct ids are found per range of addresses on all workers
    // (a country repeats: each range keeps its few), then looked up once.
    var countryRegion = [UInt32](repeating: 0, count: table.pool.count)  // 0 unknown, else RegionCode raw
    let countries = table.addresses[.country]
    let distinct = Parallel.map(count: countries.count, threads: threads, minimumChunk: 1 << 15) { range in
      var ids = Set<StringID>()
      var last = StringID.absent
      for i in range {
        let id = countries[i]
        if id != last && id.isPresent {
          ids.insert(id)
          last = id
        }
      }
      return ids
    }
    var seen = Set<StringID>()
    for part in distinct {
      for id in part where seen.insert(id).inserted {
        let code = table.pool.withBytes(of: id) { Countries.region($0) }
        if let code, let rc = RegionCode(code) { countryRegion[id.index] = rc.rawValue }
      }
    }

    // Every per-contact key in one pass over row ranges, in parallel; the
    // ranges' results are then laid end to end, and the names put in the
    // records. The names are folded meanwhile, as one more task (started
    // first; its own steps run on the workers that are free).
    let countryRegions = countryRegion
    PhaseTrace.mark("keys.countries")
    var (named, rowParts) = Parallel.map(count: n, threads: threads, minimumChunk: 8192) {
      var names = ContactKeys()
      names.foldNames(table, threads: threads)
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
    // Laid end to end, each list by a job of its own on all workers (each
    // part copied into place by one worker). Each job owns its list's
    // parts and frees them once laid (at 1,000,000 the parts and the laid
    // lists together were the run's peak).
    let handoff = Handoff(rowParts)
    rowParts = []
    let names = (given: given, givenCanonical: givenCanonical, family: family, nonLatin: nonLatinName)
    let laid = LaidKeys(handoff.take(), count: n, names: names, threads: threads)
    records = laid.records
    birthday = laid.birthday
    fieldKeys = laid.fieldKeys
    addressKeys = laid.addressKeys
    phones = laid.phones
    phoneOffsets = laid.phoneOffsets
    emails = laid.emails
    emailOffsets = laid.emailOffsets
    addresses = laid.addresses
    postcodes = laid.postcodes
    houses = laid.houses
    addressTexts = laid.addressTexts
    addressOffsets = laid.addressOffsets
    PhaseTrace.mark("keys.laid")
    assignEmailIDs(threads: threads)
    PhaseTrace.mark("keys.emailIDs")
  }

  /// Gives the first three e-mails of every contact an exact 32-bit id
  /// (its slot in a table of the e-mail keys, ``ConcurrentKeySet``) in its
  /// sketch, so that the scorer compares up to three e-mails a side
  /// without the lists. Only equality of ids means anything. On the
  /// workers, in pieces of rows, each row's keys' slots prefetched a few
  /// rows ahead (the table is far larger than the cache).
  mutating func assignEmailIDs(threads: Int = 0) {
    if emails.isEmpty { return }
    let table = ConcurrentKeySet(capacity: emails.count)
    let keys = emails, offsets = emailOffsets
    let ahead = 8, n = records.count
    ParallelFill.update(&records, threads: threads) { r, record in
      if r + ahead < n {
        let lo = Int(offsets[r + ahead])
        for e in lo..<min(Int(offsets[r + ahead + 1]), lo + 3) { table.prefetch(keys[e]) }
      }
      let lo = Int(offsets[r]), hi = min(Int(offsets[r + 1]), lo + 3)
      for e in lo..<hi { record.sketch.setEmail(e - lo, table.insert(keys[e])) }
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
  private mutating func foldNames(_ table: ContactTable, threads: Int) {
    let n = table.rowCount
    let gCol = table[.givenName], fCol = table[.familyName]
    let fullCol = table[.fullName], orgCol = table[.organization]
    /// The name ids row `r` folds, in order: the given and family names,
    /// and when both are absent the full name, else the organization.
    @inline(__always) func names(_ r: Int, _ body: (StringID) -> Void) {
      let g = gCol[r], f = fCol[r]
      if g.isPresent { body(g) }
      if f.isPresent { body(f) }
      if g.isAbsent && f.isAbsent {
        let other = fullCol[r].isPresent ? fullCol[r] : orgCol[r]
        if other.isPresent { body(other) }
      }
    }
    // The ids to fold, in the order the rows first name them: the order
    // they are interned in, which fixes the fold ids.
    let (idList, folded) = Self.firstOccurrences(count: n, ids: table.pool.count, threads: threads) { r, body in
      names(r) { body($0.index) }
    }
    let pool = table.pool
    let parts = Parallel.map(count: idList.count, threads: threads, minimumChunk: 2048) { range -> ([UInt8], [Int], [Bool]) in
      var arena: [UInt8] = []
      var ends: [Int] = []
      var nonLatin: [Bool] = []
      ends.reserveCapacity(range.count)
      nonLatin.reserveCapacity(range.count)
      for i in range {
        pool.withBytes(of: StringID(rawValue: idList[i])) { b in
          NameFolder.shared.fold(b, into: &arena)
          nonLatin.append(NameFolder.hasNonLatinLetters(b))
        }
        ends.append(arena.count)
      }
      return (arena, ends, nonLatin)
    }
    // The folded names interned in one batch (in hash order: a few passes
    // over the bytes instead of a cache miss or three a name; the fold ids
    // are the same for any number of workers), then each pool id's fold id
    // set, with bit 31 for a name with letters of another script than
    // Latin (fold ids stay below 2^31: rows do).
    var bytes: [UInt8] = [], offsets: [Int] = [0], nonLatin: [Bool] = []
    bytes.reserveCapacity(parts.reduce(0) { $0 + $1.0.count })
    offsets.reserveCapacity(idList.count + 1)
    nonLatin.reserveCapacity(idList.count)
    for (arena, ends, partNonLatin) in parts {
      let base = bytes.count
      bytes.append(contentsOf: arena)
      for e in ends { offsets.append(base + e) }
      nonLatin.append(contentsOf: partNonLatin)
    }
    var foldIDs: [StringID] = []
    bytes.withUnsafeBytes { b in
      offsets.withUnsafeBufferPointer { o in folds.intern(contentsOf: b, offsets: o, into: &foldIDs) }
    }
    let newIDs = foldIDs, flags = nonLatin
    let idPieces = Parallel.pieces(idList.count, workers: threads, minimumPiece: 1 << 14)
    Parallel.forEach(idPieces, workers: threads) { p in
      for k in Parallel.piece(p, of: idPieces, count: idList.count) {
        folded[Int(idList[k])] = newIDs[k].rawValue | (flags[k] ? 1 << 31 : 0)
      }
    }
    @inline(__always) func fold(_ id: StringID) -> StringID { StringID(rawValue: folded[id.index] & 0x7FFF_FFFF) }
    @inline(__always) func isNonLatin(_ id: StringID) -> Bool { folded[id.index] >> 31 != 0 }
    @inline(__always) func bothAbsent(_ r: Int) -> Bool { gCol[r].isAbsent && fCol[r].isAbsent }
    given = ParallelFill.filled(n, threads: threads) { r in bothAbsent(r) ? .absent : fold(gCol[r]) }
    family = ParallelFill.filled(n, threads: threads) { r in
      bothAbsent(r) ? fold(fullCol[r].isPresent ? fullCol[r] : orgCol[r]) : fold(fCol[r])
    }
    nonLatinName = ParallelFill.filled(n, threads: threads) { r in
      isNonLatin(gCol[r]) || isNonLatin(fCol[r]) || (bothAbsent(r) && isNonLatin(fullCol[r]))
    }
    finishNames(threads: threads)
  }

  /// The ids (below `ids`) that `count` rows name, each once, in the
  /// order of the rows that first name them (`names(r, body)` calls
  /// `body` with row `r`'s ids in order), as one pass over the rows would
  /// list them; and counters over the ids, left for the caller's use. On
  /// the workers: each id's first piece of rows is found (an atomic
  /// minimum), then each piece lists, in its rows' order, the ids it is
  /// first to name (claimed once by an atomic swap).
  static func firstOccurrences(
    count n: Int, ids: Int, threads: Int, _ names: (Int, (Int) -> Void) -> Void
  ) -> (list: [UInt32], counters: SharedWords) {
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 14)
    let first = SharedWords(count: ids)
    Parallel.forEach(pieces, workers: threads) { p in
      let own = UInt32(p + 1)
      for r in Parallel.piece(p, of: pieces, count: n) { names(r) { first.lower($0, to: own) } }
    }
    let lists = Parallel.map(pieces, workers: threads) { p -> [UInt32] in
      var list: [UInt32] = []
      let own = UInt32(p + 1)
      for r in Parallel.piece(p, of: pieces, count: n) {
        names(r) { id in if first.replace(id, own, with: .max) { list.append(UInt32(id)) } }
      }
      return list
    }
    var all: [UInt32] = []
    all.reserveCapacity(lists.reduce(0) { $0 + $1.count })
    for l in lists { all.append(contentsOf: l) }
    return (all, first)
  }

  /// From the folded names (``given``, ``family`` into ``folds``): the
  /// canonical given names, and per fold id the token sums, counts and
  /// phonetic codes, then the order-free name keys. Shared by the table
  /// path and the stored comparison records (``ComparisonRecord``), so
  /// that both give the same keys.
  mutating func finishNames(threads: Int = 0) {
    let n = given.count
    // Canonical given names, once per fold id that is some row's given
    // name; a canonical form not yet a fold is interned in the order the
    // rows first give the name (as one pass over the rows would).
    let canonicalTable = NicknameTable.canonical
    let givenNames = given
    let (givenList, canonOf) = Self.firstOccurrences(count: n, ids: folds.count, threads: threads) { r, body in
      if givenNames[r].isPresent { body(givenNames[r].index) }
    }
    let pool = folds
    let rewritten = Parallel.map(count: givenList.count, threads: threads, minimumChunk: 2048) { range in
      range.map { i -> String? in
        let s = pool.string(StringID(rawValue: givenList[i])) ?? ""
        let first = s.split(separator: " ", maxSplits: 1)
        guard let head = first.first, let c = canonicalTable[String(head)], c != head else { return nil }
        return c + (first.count > 1 ? " " + first[1] : "")
      }
    }
    var k = 0
    for part in rewritten {
      for text in part {
        let id = givenList[k]
        canonOf[Int(id)] = text.map { folds.intern($0).rawValue } ?? id
        k += 1
      }
    }
    givenCanonical = ParallelFill.filled(n, threads: threads) { r in StringID(rawValue: canonOf[givenNames[r].index]) }
    // Token sums over the final fold pool: every token through the
    // nickname table, so that order and nicknames do not change the key.
    let finalFolds = folds
    tokenSums = ParallelFill.filled(finalFolds.count, threads: threads) { id -> UInt64 in
      if id == 0 { return 0 }
      let text = finalFolds.string(StringID(rawValue: UInt32(id))) ?? ""
      var sum: UInt64 = 0
      for token in text.split(separator: " ") {
        var t = canonicalTable[String(token)] ?? String(token)
        sum &+= t.withUTF8 { Hash64.hash(UnsafeRawBufferPointer($0), seed: 0x7E) }
      }
      return sum
    }
    // Term frequencies: how many contacts carry each folded family name and
    // each canonical given name (see ``TermFrequency``).
    let families = SharedWords(count: folds.count), givens = SharedWords(count: folds.count)
    let familyNames = family, canonicalNames = givenCanonical
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 14)
    Parallel.forEach(pieces, workers: threads) { p in
      for r in Parallel.piece(p, of: pieces, count: n) {
        if familyNames[r].isPresent { families.add(familyNames[r].index) }
        if canonicalNames[r].isPresent { givens.add(canonicalNames[r].index) }
      }
    }
    familyCount = ParallelFill.filled(folds.count, threads: threads) { Int32(truncatingIfNeeded: families[$0]) }
    givenCount = ParallelFill.filled(folds.count, threads: threads) { Int32(truncatingIfNeeded: givens[$0]) }
    phonetic = finalFolds.withStorage { arena, ends in
      ParallelFill.filled(finalFolds.count, threads: threads) { id -> UInt64 in
        id == 0 ? 0 : Phonetic.code(UnsafeRawBufferPointer(rebasing: arena[ends[id - 1]..<ends[id]]))
      }
    }
    let sums = tokenSums
    nameKey = ParallelFill.filled(n, threads: threads) { r -> UInt64 in
      let g = givenNames[r], f = familyNames[r]
      // A name key needs two tokens: a lone given name or surname is no block.
      let tokens = Self.tokenCount(finalFolds, g) + Self.tokenCount(finalFolds, f)
      return tokens >= 2 ? Hash64.mix(sums[g.index] &+ sums[f.index]) | 1 : 0
    }
  }

  private static func tokenCount(_ folds: StringPool, _ id: StringID) -> Int {
    if id.isAbsent { return 0 }
    return folds.withBytes(of: id) { b in 1 + b.reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) } }
  }
}

/// The keys of a range of contacts (see ``ContactKeys``), computed by one
/// worker: ends are relative to the range's own lists.
/// ``RowKeys`` of consecutive ranges laid end to end: every list by a
/// job of its own, on the workers.
struct LaidKeys {
  var records: [ScoreRecord] = [], birthday: [UInt32] = [], fieldKeys: [UInt64] = [], addressKeys: [UInt64] = []
  var phones: [UInt64] = [], phoneOffsets: [UInt32] = [0]
  var emails: [UInt64] = [], emailOffsets: [UInt32] = [0]
  var addresses: [UInt64] = [], postcodes: [UInt64] = [], houses: [UInt64] = []
  var addressTexts: [AddressText] = [], addressOffsets: [UInt32] = [0]

  /// The records get their names from `names` (by row) as they are laid.
  init(
    _ taken: consuming [RowKeys], count n: Int,
    names: (given: [StringID], givenCanonical: [StringID], family: [StringID], nonLatin: [Bool]), threads: Int
  ) {
    var parts = taken
    // Column-major: each list's parts in a handoff of its own, taken and
    // freed by the job that lays the list.
    func take<T>(_ list: WritableKeyPath<RowKeys, [T]>) -> Handoff<[[T]]> {
      var all: [[T]] = []
      all.reserveCapacity(parts.count)
      for i in parts.indices {
        all.append(parts[i][keyPath: list])
        parts[i][keyPath: list] = []
      }
      return Handoff(all)
    }
    let phoneLengths = parts.map(\.phones.count), emailLengths = parts.map(\.emails.count)
    let addressLengths = parts.map(\.addresses.count)
    let records = take(\.records), birthday = take(\.birthday), fieldKeys = take(\.fieldKeys)
    let addressKeys = take(\.addressKeys), phones = take(\.phones), emails = take(\.emails)
    let addresses = take(\.addresses), postcodes = take(\.postcodes), houses = take(\.houses)
    let addressTexts = take(\.addressTexts)
    let phoneEnds = take(\.phoneEnds), emailEnds = take(\.emailEnds), addressEnds = take(\.addressEnds)
    parts = []
    let r = ResultSlots<[ScoreRecord]>(count: 1), b = ResultSlots<[UInt32]>(count: 1)
    let wide = ResultSlots<[UInt64]>(count: 7), texts = ResultSlots<[AddressText]>(count: 1)
    let offsets = ResultSlots<[UInt32]>(count: 3)
    Parallel.forEach(13, workers: threads) { job in
      switch job {
      case 0:
        r.set(
          0,
          ParallelFill.laid(records.take(), threads: threads) { row, record in
            record.given = names.given[row]
            record.givenCanonical = names.givenCanonical[row]
            record.family = names.family[row]
            record.nonLatinName = names.nonLatin[row]
          })
      case 1: texts.set(0, ParallelFill.laid(addressTexts.take(), threads: threads))
      case 2: b.set(0, ParallelFill.laid(birthday.take(), threads: threads))
      case 3: wide.set(0, ParallelFill.laid(fieldKeys.take(), threads: threads))
      case 4: wide.set(1, ParallelFill.laid(addressKeys.take(), threads: threads))
      case 5: wide.set(2, ParallelFill.laid(phones.take(), threads: threads))
      case 6: wide.set(3, ParallelFill.laid(emails.take(), threads: threads))
      case 7: wide.set(4, ParallelFill.laid(addresses.take(), threads: threads))
      case 8: wide.set(5, ParallelFill.laid(postcodes.take(), threads: threads))
      case 9: wide.set(6, ParallelFill.laid(houses.take(), threads: threads))
      case 10: offsets.set(0, ParallelFill.offsets(ends: phoneEnds.take(), lengths: phoneLengths, threads: threads))
      case 11: offsets.set(1, ParallelFill.offsets(ends: emailEnds.take(), lengths: emailLengths, threads: threads))
      default: offsets.set(2, ParallelFill.offsets(ends: addressEnds.take(), lengths: addressLengths, threads: threads))
      }
    }
    self.records = r.take(0)
    self.birthday = b.take(0)
    self.fieldKeys = wide.take(0)
    self.addressKeys = wide.take(1)
    self.phones = wide.take(2)
    self.emails = wide.take(3)
    self.addresses = wide.take(4)
    self.postcodes = wide.take(5)
    self.houses = wide.take(6)
    self.addressTexts = texts.take(0)
    self.phoneOffsets = offsets.take(0)
    self.emailOffsets = offsets.take(1)
    self.addressOffsets = offsets.take(2)
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
          names: (.absent, .absent, .absent, false),  // set once laid (see `ContactKeys.init`)
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
