import OhanaCore

/// The typo-tolerant blocking rules (``BlockingKey/Set/typoTolerant``):
/// keys that let two records of one person meet without a phone or an
/// e-mail in common, through a typo in any one of name, street or postcode,
/// or through an e-mail's mailbox at another domain.
///
/// Each rule needs all its parts present; a contact gives one key per rule
/// (per postcode, for the postcode rules: its first four). The keys go into
/// the same sort and the same capped blocks as phones and e-mails, so no
/// rule can make the job quadratic: a block larger than the cap (a common
/// name born on a common day) is not compared all against all (see
/// ``Blocking``). The sorted neighbourhood (``BlockingKey/sortedNames``) is
/// linear by construction: each contact is paired with the next
/// ``Blocking/windowNeighbours`` contacts in name order.
extension Blocking {
  /// How many following contacts, in folded family-then-given order, each
  /// contact is compared with (sorted neighbourhood).
  static let windowNeighbours = 3

  /// Postcodes per contact that the postcode rules use.
  static let postcodesPerRule = 4

  /// Calls `body(key, kind)` for each rule key of row `r`.
  @inline(__always)
  static func forEachRuleKey(
    _ keys: ContactKeys, _ r: Int, rules: BlockingKey.Set, arena: UnsafeRawBufferPointer, ends: StringPool.Ends,
    _ body: (UInt64, BlockingKey) -> Void
  ) {
    let family = keys.family[r], given = keys.givenCanonical[r]
    let bday = UInt64(keys.birthday[r])
    let hasYear = bday >= 10_000
    let familySound = sound(keys, family, arena: arena, ends: ends)
    let givenSound = sound(keys, given, arena: arena, ends: ends)
    if hasYear && familySound != 0 && rules.contains(.familyBirthday) {
      body(Hash64.combine(familySound, bday), .familyBirthday)
    }
    if hasYear && givenSound != 0 && rules.contains(.givenBirthday) {
      body(Hash64.combine(givenSound, bday), .givenBirthday)
    }
    if hasYear && family.isPresent && keys.given[r].isPresent && rules.contains(.initialsYear) {
      // Initial of the given name as written (not the nickname's), three
      // letters of the family name, the year.
      let g = keys.given[r]
      let initial = UInt64(arena[ends[g.index - 1]])
      var prefix: UInt64 = 0
      let fs = ends[family.index - 1], fe = ends[family.index]
      for i in fs..<min(fe, fs + 3) { prefix = prefix << 8 | UInt64(arena[i]) }
      body(Hash64.combine(initial << 32 | prefix, bday / 10_000), .initialsYear)
    }
    if familySound != 0 && givenSound != 0 && rules.contains(.namesSound) {
      body(Hash64.combine(min(familySound, givenSound), max(familySound, givenSound)), .namesSound)
    }
    if hasYear && keys.given[r].isPresent && rules.contains(.birthdayInitial) {
      let g = keys.given[r]
      body(Hash64.combine(UInt64(arena[ends[g.index - 1]]) | 0x1_0000, bday), .birthdayInitial)
    }
    if rules.contains(.mailbox) {
      // Sorted keys are sorted by their mailbox (the high half).
      var last: UInt64 = 0
      for i in keys.emails(of: r) {
        let m = KeyFunctions.mailbox(keys.emails[i])
        if m != 0 && m != last { body(m, .mailbox) }
        last = m
      }
    }
    // Given and family name alike: `snell sophie` meets `sophie snell`.
    let phoneticFamily = family.isPresent ? keys.phonetic[family.index] : 0
    let phoneticGiven = keys.given[r].isPresent ? keys.phonetic[keys.given[r].index] : 0
    let range = keys.addresses(of: r)
    var seen = 0
    var last: UInt64 = 0
    for i in range where seen < postcodesPerRule {
      let pc = keys.postcodes[i]
      let house = keys.houses[i]
      if pc != 0 && pc != last {
        last = pc
        if rules.contains(.phoneticPostcode) {
          if phoneticFamily != 0 { body(Hash64.combine(phoneticFamily, pc), .phoneticPostcode) }
          if phoneticGiven != 0 && phoneticGiven != phoneticFamily { body(Hash64.combine(phoneticGiven, pc), .phoneticPostcode) }
        }
        if bday != 0 && rules.contains(.birthdayPostcode) { body(Hash64.combine(bday, pc), .birthdayPostcode) }
        if house != 0 && rules.contains(.housePostcode) { body(Hash64.combine(house, pc), .housePostcode) }
      }
      // The locality: for a postcode typed wrong, or a table with a town
      // and no postcode.
      let locality = keys.addressTexts[i].locality
      if pc == 0 && locality.isEmpty { continue }
      seen += 1
      if !locality.isEmpty {
        let lk = Hash64.combine(Hash64.combine(locality.lo, locality.hi), 0x10CA1)
        if house != 0 && rules.contains(.houseLocality) { body(Hash64.combine(house, lk), .houseLocality) }
        if bday != 0 && rules.contains(.birthdayLocality) { body(Hash64.combine(bday, lk), .birthdayLocality) }
        if phoneticFamily != 0 && rules.contains(.phoneticPostcode) {
          body(Hash64.combine(phoneticFamily, lk), .phoneticPostcode)
        }
      }
    }
  }

  /// A name by its sound (a typo in a vowel or a doubled letter keeps
  /// it), or by its folded text when it has no letters to sound; 0 for
  /// none. (The folded text's hash, not its id: ids differ from table to
  /// table, and the entity store keeps these keys.)
  @inline(__always)
  static func sound(_ keys: ContactKeys, _ id: StringID, arena: UnsafeRawBufferPointer, ends: StringPool.Ends) -> UInt64 {
    if id.isAbsent { return 0 }
    if keys.phonetic[id.index] != 0 { return keys.phonetic[id.index] }
    let s = ends[id.index - 1], e = ends[id.index]
    return Hash64.hash(UnsafeRawBufferPointer(rebasing: arena[s..<e])) | 1
  }

  /// Largest chance that two random rows agree on another column (Σ
  /// share² over its values) for the rule ``BlockingKey/otherColumns`` to
  /// block on it: a birthplace (0.005 in a census table) or an occupation
  /// (0.04) is blocked on, a gender (0.5) is not.
  static let columnAgreement = 0.05

  /// Least measured m for a column to be blocked on: one person's records
  /// agree on it at least half the time (a sign-up date, each record's
  /// own, agrees on 0.1% of sure pairs, and is not).
  static let columnLeastM = 0.5

  /// Whether `column+name` blocks on the column.
  static func blocksOn(_ a: AttributeComparisons.Attribute) -> Bool {
    a.typicalSame > 0 && a.m >= columnLeastM && a.u <= columnAgreement
  }

  /// The keys of ``BlockingKey/otherColumns``: per row, each selective
  /// other column's value (``AttributeComparisons``: a table's
  /// birthplace, occupation, a postcode of its own...) with the sound of
  /// the family name, and with the birth year. Two records of one person
  /// that share little else (one birth date missing, a typo in the family
  /// name) meet on the place of birth or the occupation.
  ///
  /// Not with the given name: its pairs agree on it by construction, and
  /// an exact given name, which EM over candidates weighs at 13 bits,
  /// carried namesakes past the threshold (census 10k F1 0.968 → 0.960).
  /// Chosen on the independent generator's census tables, where family
  /// sound and year with the birthplace and the occupation were among the
  /// cheapest further rules by true pairs found per pair added
  /// (Benchmarks/HISTORY.md, 2026-12-06, session 31).
  static func columnKeys(_ keys: ContactKeys, _ columns: AttributeComparisons, threads: Int) -> ColumnKeys {
    let n = keys.count
    // Columns few random pairs share, on which one person's records
    // mostly agree (m measured on the pairs EM is sure of).
    let chosen = columns.attributes.enumerated().filter { _, a in blocksOn(a) }
    guard !chosen.isEmpty, n > 0 else { return ColumnKeys(starts: [Int](repeating: 0, count: n + 1), keys: []) }
    let parts = Parallel.map(count: n, threads: threads, minimumChunk: 32768) { rows -> (counts: [Int], keys: [UInt64]) in
      var counts: [Int] = []
      var out: [UInt64] = []
      counts.reserveCapacity(rows.count)
      keys.folds.withStorage { arena, ends in
        for r in rows {
          let before = out.count
          let familySound = sound(keys, keys.family[r], arena: arena, ends: ends)
          let bday = UInt64(keys.birthday[r])
          for (i, a) in chosen {
            let code = a.codes[r]
            if code == 0 { continue }
            let value = Hash64.combine(UInt64(i) << 32 | UInt64(code), 0xC01)
            if familySound != 0 { out.append(Hash64.combine(value, familySound)) }
            if bday >= 10_000 { out.append(Hash64.combine(value, bday / 10_000 | 0x1_0000_0000)) }
          }
          counts.append(out.count - before)
        }
      }
      return (counts, out)
    }
    var starts = [Int](repeating: 0, count: n + 1)
    var all: [UInt64] = []
    all.reserveCapacity(parts.reduce(0) { $0 + $1.keys.count })
    var r = 0
    for p in parts {
      for c in p.counts {
        starts[r + 1] = starts[r] + c
        r += 1
      }
      all.append(contentsOf: p.keys)
    }
    return ColumnKeys(starts: starts, keys: all)
  }

  /// Sorted neighbourhood over folded names: each contact with a name is
  /// paired with the next ``windowNeighbours`` in the order of its first
  /// five bytes of family name then three of given name (ties by row).
  /// Pairs are `low row << 32 | high row`, in parts made in parallel, in
  /// no particular order.
  static func sortedNamePairs(_ keys: ContactKeys, rowBits: UInt64, skip: RuleSkip, threads: Int, involving: Int = 0)
    -> [[UInt64]]
  {
    let n = keys.count
    let rowMask: UInt64 = (1 << rowBits) - 1
    let entryParts = Parallel.map(count: n, threads: threads, minimumChunk: 32768) { rows -> [UInt64] in
      var out: [UInt64] = []
      out.reserveCapacity(rows.count)
      keys.folds.withStorage { arena, ends in
        for r in rows {
          // The name's high bits, then the row.
          if let key = sortedNameKey(keys, r, arena: arena, ends: ends) { out.append((key & ~rowMask) | UInt64(r)) }
        }
      }
      return out
    }
    let entries = RadixSort.sorted(consume entryParts, threads: threads)
    let low = UInt64(involving)
    return Parallel.map(count: entries.count, threads: threads, minimumChunk: 65536) { range -> [UInt64] in
      var pairs: [UInt64] = []
      pairs.reserveCapacity(range.count * windowNeighbours)
      for i in range {
        let a = entries[i] & rowMask
        var j = i + 1
        while j < entries.count && j <= i + windowNeighbours {
          let b = entries[j] & rowMask
          if max(a, b) >= low && !skip.skips(Int(a), Int(b)) { pairs.append(min(a, b) << 32 | max(a, b)) }
          j += 1
        }
      }
      return pairs
    }
  }

  /// Row `r`'s place in the sorted neighbourhood: the first five bytes of
  /// its folded family name, then three of its given name (nil without a
  /// family name).
  @inline(__always)
  static func sortedNameKey(_ keys: ContactKeys, _ r: Int, arena: UnsafeRawBufferPointer, ends: StringPool.Ends) -> UInt64? {
    let f = keys.family[r], g = keys.given[r]
    if f.isAbsent { return nil }
    var key: UInt64 = 0
    var taken = 0
    let fs = ends[f.index - 1], fe = ends[f.index]
    for i in fs..<min(fe, fs + 5) {
      key = key << 8 | UInt64(arena[i])
      taken += 1
    }
    key <<= UInt64(8 * (5 - taken))
    var gk: UInt64 = 0
    if g.isPresent {
      let gs = ends[g.index - 1], ge = ends[g.index]
      var gt = 0
      for i in gs..<min(ge, gs + 3) {
        gk = gk << 8 | UInt64(arena[i])
        gt += 1
      }
      gk <<= UInt64(8 * (3 - gt))
    }
    return key << 24 | gk
  }

  /// The rule kinds two rows share (for explanations).
  static func sharedRuleKeys(_ keys: ContactKeys, _ a: Int, _ b: Int, rules: BlockingKey.Set) -> BlockingKey.Set {
    var ka: [(UInt64, BlockingKey)] = []
    var kb: [(UInt64, BlockingKey)] = []
    keys.folds.withStorage { arena, ends in
      forEachRuleKey(keys, a, rules: rules, arena: arena, ends: ends) { ka.append(($0, $1)) }
      forEachRuleKey(keys, b, rules: rules, arena: arena, ends: ends) { kb.append(($0, $1)) }
    }
    var s = BlockingKey.Set()
    for (k, kind) in ka where kb.contains(where: { $0.0 == k && $0.1 == kind }) { s.insert(.init(kind)) }
    return s
  }
}

/// Per row, its keys of ``BlockingKey/otherColumns`` (see
/// ``Blocking/columnKeys(_:_:threads:)``), laid end to end.
struct ColumnKeys: Sendable {
  /// Row r's keys are `keys[starts[r]..<starts[r + 1]]`.
  var starts: [Int]
  var keys: [UInt64]

  func of(_ r: Int) -> ArraySlice<UInt64> { keys[starts[r]..<starts[r + 1]] }
}
