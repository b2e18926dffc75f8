import OhanaCore

/// Compares two contacts on every ``Comparison`` from their ``ContactKeys``.
/// Allocation-free: names are compared on the folded bytes in place.
struct PairScorer: Sendable {
  let keys: ContactKeys
  /// The blocking rules, when the rule ``BlockingKey/mailbox`` is among
  /// them: a pair at the e-mail's level 2 that shares no other blocking
  /// key is then marked ``ComparisonVector/mailboxOnly``.
  let mailboxBlocking: DedupeConfiguration?

  init(keys: ContactKeys, configuration: DedupeConfiguration? = nil) {
    self.keys = keys
    mailboxBlocking = configuration.flatMap { $0.blockingRules.contains(.mailbox) ? $0 : nil }
  }

  /// The vector of a pair, or nil when the phone and e-mail levels alone
  /// already keep the weight below `threshold` whatever the other
  /// comparisons say (`restMaximum[p][e]`: the best weight the rest can add).
  /// Most candidate pairs (namesakes) end here, before any name is compared.
  @inline(__always)
  func vector(_ a: Int, _ b: Int, bound: ScoreBound) -> ComparisonVector? {
    let ra = keys.records[a], rb = keys.records[b]
    let p = phoneLevel(a, b, ra.sketch, rb.sketch)
    let e = emailLevel(a, b, ra, rb)
    if bound.cannotReach(phone: p, email: e) { return nil }
    return vector(a, b, ra, rb, phone: p, email: e)
  }

  /// The raw vectors of `pairs[range]` (``Deduplicator/unreachable`` for a
  /// pair that stopped early). Pairs go in batches: the records of a batch's
  /// second rows are touched first, so that their cache misses overlap
  /// instead of coming one pair at a time.
  func vectors(_ pairs: [UInt64], _ range: Range<Int>, bound: ScoreBound) -> [UInt32] {
    var out = [UInt32](repeating: 0, count: range.count)
    let batch = 32
    var touched: UInt8 = 0
    keys.records.withUnsafeBufferPointer { records in
      pairs.withUnsafeBufferPointer { pairs in
        var lo = range.lowerBound
        while lo < range.upperBound {
          let hi = min(lo + batch, range.upperBound)
          for i in lo..<hi {
            // A record may straddle two cache lines: touch both ends.
            let r = Int(pairs[i] & 0xFFFF_FFFF)
            touched &+= records[r].sketch.phoneCount &+ records[r].addressCount
          }
          for i in lo..<hi {
            let p = pairs[i]
            let a = Int(p >> 32), b = Int(p & 0xFFFF_FFFF)
            out[i - range.lowerBound] = vector(a, b, bound: bound)?.rawValue ?? Deduplicator.unreachable
          }
          lo = hi
        }
      }
    }
    // Keeps the touching loads alive; never true of a real vector.
    if touched == 1 && out.isEmpty { out.append(Deduplicator.unreachable) }
    return out
  }

  /// Exact from the sketches when both sides have at most four phones (a
  /// phone suffix fits 32 bits) and not both have calling codes, else from
  /// the lists (``KeyFunctions/samePhone(_:_:)``).
  @inline(__always)
  func phoneLevel(_ a: Int, _ b: Int, _ sa: ContactSketch, _ sb: ContactSketch) -> Int {
    let l = ContactSketch.phoneLevel(sa, sb)
    if l == 1 && (sa.phoneCount > 4 || sb.phoneCount > 4 || (sa.phoneCountries && sb.phoneCountries)) {
      return Self.phoneOverlap(keys.phones, keys.phones(of: a), keys.phones(of: b))
    }
    return l
  }

  /// 1 when some phone of `ra` is the same number as one of `rb`
  /// (``KeyFunctions/samePhone(_:_:)``), else 2; 0 when a side has none.
  /// Both lists are sorted, so by suffix first: equal suffixes are compared
  /// run against run.
  static func phoneOverlap(_ values: [UInt64], _ ra: Range<Int>, _ rb: Range<Int>) -> Int {
    if ra.isEmpty || rb.isEmpty { return 0 }
    var i = ra.lowerBound, j = rb.lowerBound
    while i < ra.upperBound && j < rb.upperBound {
      let x = KeyFunctions.phoneSuffix(values[i]), y = KeyFunctions.phoneSuffix(values[j])
      if x < y {
        i += 1
      } else if x > y {
        j += 1
      } else {
        var ie = i, je = j
        while ie < ra.upperBound && KeyFunctions.phoneSuffix(values[ie]) == x { ie += 1 }
        while je < rb.upperBound && KeyFunctions.phoneSuffix(values[je]) == x { je += 1 }
        for p in i..<ie {
          for q in j..<je where KeyFunctions.samePhone(values[p], values[q]) { return 1 }
        }
        i = ie
        j = je
      }
    }
    return 2
  }

  /// As ``phoneLevel(_:_:_:_:)``, for e-mails.
  @inline(__always)
  func emailLevel(_ a: Int, _ b: Int, _ ra: ScoreRecord, _ rb: ScoreRecord) -> Int {
    let sa = ra.sketch, sb = rb.sketch
    let l = ContactSketch.emailLevel(sa, sb)
    if l == 1 && (sa.emailCount > 3 || sb.emailCount > 3) {
      return overlap(keys.emails, keys.emails(of: a), keys.emails(of: b))
    }
    return l
  }

  /// Whether rows `a` and `b` share a mailbox: from the records' prints
  /// when each has one e-mail, else from the lists.
  @inline(__always)
  func sameMailbox(_ a: Int, _ b: Int) -> Bool {
    let ra = keys.records[a], rb = keys.records[b]
    if ra.sketch.emailCount == 1 && rb.sketch.emailCount == 1 && (ra.mailbox == 0 || ra.mailbox != rb.mailbox) {
      return false
    }
    return Self.mailboxOverlap(keys.emails, keys.emails(of: a), keys.emails(of: b))
  }

  /// Whether rows `a` and `b` share no blocking key of ``mailboxBlocking``
  /// but a mailbox (a pair the rule ``BlockingKey/mailbox`` alone brings).
  func onlyTheMailboxShared(_ a: Int, _ b: Int) -> Bool {
    guard let configuration = mailboxBlocking, sameMailbox(a, b) else { return false }
    var rules = configuration.blockingRules
    rules.remove(.init(.mailbox))
    if !Blocking.sharedRuleKeys(keys, a, b, rules: rules).isEmpty { return false }
    var ka: [(UInt64, BlockingKey)] = []
    Blocking.forEachBasicKey(keys, a, configuration: configuration) { ka.append(($0, $1)) }
    var shared = false
    Blocking.forEachBasicKey(keys, b, configuration: configuration) { k, kind in
      if !shared && ka.contains(where: { $0.0 == k && $0.1 == kind }) { shared = true }
    }
    return !shared
  }

  /// Whether two sorted lists of e-mail keys share a mailbox
  /// (``KeyFunctions/mailbox(_:)``; sorted keys are sorted by it).
  static func mailboxOverlap(_ values: [UInt64], _ ra: Range<Int>, _ rb: Range<Int>) -> Bool {
    var i = ra.lowerBound, j = rb.lowerBound
    while i < ra.upperBound && j < rb.upperBound {
      let x = KeyFunctions.mailbox(values[i]), y = KeyFunctions.mailbox(values[j])
      if x == 0 || x < y {
        i += 1
      } else if y == 0 || x > y {
        j += 1
      } else {
        return true
      }
    }
    return false
  }

  func vector(_ a: Int, _ b: Int) -> ComparisonVector {
    let ra = keys.records[a], rb = keys.records[b]
    return vector(a, b, ra, rb, phone: phoneLevel(a, b, ra.sketch, rb.sketch), email: emailLevel(a, b, ra, rb))
  }

  @inline(__always)
  func vector(_ a: Int, _ b: Int, _ ra: ScoreRecord, _ rb: ScoreRecord, phone: Int, email: Int) -> ComparisonVector {
    var v = ComparisonVector(rawValue: 0)
    keys.folds.withStorage { arena, ends in
      let ga = ra.given, gb = rb.given, fa = ra.family, fb = rb.family
      let ca = ra.givenCanonical, cb = rb.givenCanonical
      var gl = nameLevel(ga, ca, gb, cb, arena, ends)
      var fl = nameLevel(fa, fa, fb, fb, arena, ends)
      if (gl >= 3 || fl >= 3) && ga.isPresent && gb.isPresent {
        // Given and family written the other way round?
        let sg = nameLevel(ga, ca, fb, fb, arena, ends)
        let sf = nameLevel(fa, fa, gb, cb, arena, ends)
        if sg >= 1 && sg <= 2 && sf >= 1 && sf <= 2 { gl = sg; fl = sf }
      }
      // One name in Latin and the other transliterated from another script:
      // ICU's romanization is not the one people write (田中 → "tian zhong",
      // not "tanaka"), so a disagreement says nothing.
      if ra.nonLatinName != rb.nonLatinName {
        if gl >= 3 { gl = 0 }
        if fl >= 3 { fl = 0 }
      }
      v[.givenName] = gl
      v[.familyName] = fl
    }
    v[.phone] = phone
    v[.email] = email == 2 && mailboxBlocking != nil && onlyTheMailboxShared(a, b) ? ComparisonVector.mailboxOnly : email
    v[.birthday] = Self.birthdayLevel(ra.birthday, rb.birthday)
    if ra.addressCount == 0 || rb.addressCount == 0 {
      v[.address] = 0
    } else if ra.addressCount == 1 && rb.addressCount == 1 && (ra.house == 0 || ra.house != rb.house)
      && AddressText.postcodeLevel(ra.postcode, rb.postcode) == 2
    {
      // One address each, other postcodes, no house number in common: only
      // "different" is left (see AddressText.level), without the lists.
      v[.address] = 6
    } else {
      v[.address] = addressLevel(a, b)
    }
    return v
  }

  @inline(__always)
  func nameLevel(
    _ a: StringID, _ ac: StringID, _ b: StringID, _ bc: StringID,
    _ arena: UnsafeRawBufferPointer, _ ends: StringPool.Ends
  ) -> Int {
    if a.isAbsent || b.isAbsent { return 0 }
    if a == b || ac == bc { return 1 }
    let pa = UnsafeRawBufferPointer(rebasing: arena[ends[a.index - 1]..<ends[a.index]])
    let pb = UnsafeRawBufferPointer(rebasing: arena[ends[b.index - 1]..<ends[b.index]])
    var s = JaroWinkler.similarity(pa, pb)
    if ac != a || bc != b {
      let qa = UnsafeRawBufferPointer(rebasing: arena[ends[ac.index - 1]..<ends[ac.index]])
      let qb = UnsafeRawBufferPointer(rebasing: arena[ends[bc.index - 1]..<ends[bc.index]])
      s = max(s, JaroWinkler.similarity(qa, qb))
    }
    if s >= 0.92 { return 2 }
    if s >= 0.80 { return 3 }
    // Same sound, or an initial that agrees (`j` / `jasmine`).
    if keys.phonetic[a.index] != 0 && keys.phonetic[a.index] == keys.phonetic[b.index] { return 4 }
    if (pa.count == 1 || pb.count == 1) && pa.first == pb.first { return 4 }
    return 5
  }

  /// The ``Comparison/birthday`` level of two birthday keys (`yyyymmdd`,
  /// or `mmdd` without a year; 0 none): 0 a side has none, 1 same (a date
  /// without a year agrees with any date on that day), 2 close (one digit
  /// off, or day and month swapped), 3 same year only, 4 different.
  static func birthdayLevel(_ a: UInt32, _ b: UInt32) -> Int {
    if a == 0 || b == 0 { return 0 }
    if a == b { return 1 }
    let aYear = a >= 10_000, bYear = b >= 10_000
    if aYear != bYear {
      // Compare the day of the year only.
      let x = a % 10_000, y = b % 10_000
      if x == y { return 1 }
      return close(x, y, digits: 4) ? 2 : 4
    }
    if close(a, b, digits: aYear ? 8 : 4) { return 2 }
    if aYear && a / 10_000 == b / 10_000 { return 3 }
    return 4
  }

  /// One decimal digit apart, or the same year with month and day swapped.
  private static func close(_ a: UInt32, _ b: UInt32, digits: Int) -> Bool {
    var x = a, y = b, differ = 0
    for _ in 0..<digits {
      if x % 10 != y % 10 { differ += 1 }
      x /= 10
      y /= 10
    }
    if differ == 1 { return true }
    if differ == 2 && adjacentSwap(a, b, digits: digits) { return true }
    let ma = a / 100 % 100, da = a % 100, mb = b / 100 % 100, db = b % 100
    return a / 10_000 == b / 10_000 && ma == db && da == mb
  }

  /// Whether `a` and `b` differ by two neighbouring decimal digits swapped
  /// (`19450603` / `19405603`).
  private static func adjacentSwap(_ a: UInt32, _ b: UInt32, digits: Int) -> Bool {
    var x = a, y = b
    for _ in 0..<(digits - 1) {
      if x % 10 != y % 10 {
        // The lowest digit that differs and the one above it are swapped,
        // and everything above those is the same.
        return x % 10 == y / 10 % 10 && y % 10 == x / 10 % 10 && x / 100 == y / 100
      }
      x /= 10
      y /= 10
    }
    return false
  }

  /// 0 when a side has no values, 1 when the sorted lists share one, else 2.
  @inline(__always)
  func overlap(_ values: [UInt64], _ ra: Range<Int>, _ rb: Range<Int>) -> Int {
    if ra.isEmpty || rb.isEmpty { return 0 }
    var i = ra.lowerBound, j = rb.lowerBound
    while i < ra.upperBound && j < rb.upperBound {
      let x = values[i], y = values[j]
      if x == y { return 1 }
      if x < y { i += 1 } else { j += 1 }
    }
    return 2
  }

  /// The ``Comparison/address`` level: the best over the first 16
  /// addresses of each side (a bound, so that two contacts with thousands
  /// of addresses cannot make one pair quadratic): 1 when postcode and
  /// street keys agree, else ``AddressText/level(_:house:_:house:)``.
  func addressLevel(_ a: Int, _ b: Int) -> Int {
    let ra = keys.addresses(of: a), rb = keys.addresses(of: b)
    if ra.isEmpty || rb.isEmpty { return 0 }
    var best = 6
    for i in ra.prefix(16) {
      for j in rb.prefix(16) {
        if keys.addresses[i] != 0 && keys.addresses[i] == keys.addresses[j] { return 1 }
        if best > 2 {
          best = min(best, AddressText.level(keys.addressTexts[i], house: keys.houses[i], keys.addressTexts[j], house: keys.houses[j]))
        }
      }
    }
    return best
  }
}

/// For the early exit of ``PairScorer/vector(_:_:bound:)``: whether a pair
/// with given phone and e-mail levels can reach the threshold at all.
struct ScoreBound: Sendable {
  /// `reachable[phone * 4 + email]`; the e-mail's level 2 (as the
  /// scorer knows it before it marks ``ComparisonVector/mailboxOnly``)
  /// is reachable when either of the two weighs enough.
  private var reachable: [Bool]

  init(model: FellegiSunterModel, threshold: Double) {
    let w = model.weights
    var rest = model.priorWeight
    for c in Comparison.allCases where c != .phone && c != .email {
      rest += max(0, w[c.rawValue].max() ?? 0)
    }
    // Term-frequency adjustments of given and family names.
    rest += Double(TermFrequency.maximum) * 2
    reachable = [Bool](repeating: true, count: 12)
    for p in 0..<Comparison.phone.levelCount {
      for e in 0...ComparisonVector.mailboxOnly {
        var email = model.levelWeight(w, .email, e)
        if e == 2 { email = max(email, model.levelWeight(w, .email, ComparisonVector.mailboxOnly)) }
        reachable[p * 4 + e] = w[Comparison.phone.rawValue][p] + email + rest >= threshold
      }
    }
  }

  /// Never exits early (to compute every vector, for EM or explanations).
  static let none = ScoreBound()
  private init() { reachable = [Bool](repeating: true, count: 12) }

  @inline(__always)
  func cannotReach(phone: Int, email: Int) -> Bool { !reachable[phone * 4 + email] }
}
