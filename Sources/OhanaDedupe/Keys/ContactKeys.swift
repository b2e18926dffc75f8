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
    // parts and frees them once laid (the parts and the laid lists, held
    // together, would set the run's peak memory).
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
  /// without the lists, and the first e-mail's mailbox print
  /// (``ScoreRecord/mailbox``). Only equality of ids means anything. On the
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
      if lo < hi { record.mailbox = Self.mailboxPrint(keys[lo]) }
    }
  }

  /// 16 bits of an e-mail key's mailbox, 0 for none (``ScoreRecord/mailbox``).
  @inline(__always)
  static func mailboxPrint(_ emailKey: UInt64) -> UInt16 {
    let m = KeyFunctions.mailbox(emailKey)
    if m == 0 { return 0 }
    let p = UInt16(truncatingIfNeeded: m ^ (m >> 16))
    return p == 0 ? 1 : p
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
