import OhanaCore

/// Compares two contacts on every ``Comparison`` from their ``ContactKeys``.
/// Allocation-free: names are compared on the folded bytes in place.
struct PairScorer: Sendable {
  let keys: ContactKeys

  init(keys: ContactKeys) { self.keys = keys }

  /// The vector of a pair, or nil when the phone and e-mail levels alone
  /// already keep the weight below `threshold` whatever the other
  /// comparisons say (`restMaximum[p][e]`: the best weight the rest can add).
  /// Most candidate pairs (namesakes) end here, before any name is compared.
  func vector(_ a: Int, _ b: Int, bound: ScoreBound) -> ComparisonVector? {
    let sa = keys.sketches[a], sb = keys.sketches[b]
    let p = phoneLevel(a, b, sa, sb)
    let e = emailLevel(a, b, sa, sb)
    if bound.cannotReach(phone: p, email: e) { return nil }
    return vector(a, b, phone: p, email: e)
  }

  /// Exact from the sketches when both sides have at most three phones (a
  /// phone key fits 32 bits), else from the lists.
  @inline(__always)
  func phoneLevel(_ a: Int, _ b: Int, _ sa: ContactSketch, _ sb: ContactSketch) -> Int {
    let l = ContactSketch.phoneLevel(sa, sb)
    if l == 1 && (sa.phoneCount > 3 || sb.phoneCount > 3) {
      return overlap(keys.phones, keys.phones(of: a), keys.phones(of: b))
    }
    return l
  }

  /// "None shared" is exact from the fingerprints; "maybe" is checked on the lists.
  @inline(__always)
  func emailLevel(_ a: Int, _ b: Int, _ sa: ContactSketch, _ sb: ContactSketch) -> Int {
    let l = ContactSketch.emailLevel(sa, sb)
    return l == 1 ? overlap(keys.emails, keys.emails(of: a), keys.emails(of: b)) : l
  }

  func vector(_ a: Int, _ b: Int) -> ComparisonVector {
    let sa = keys.sketches[a], sb = keys.sketches[b]
    return vector(a, b, phone: phoneLevel(a, b, sa, sb), email: emailLevel(a, b, sa, sb))
  }

  func vector(_ a: Int, _ b: Int, phone: Int, email: Int) -> ComparisonVector {
    var v = ComparisonVector(rawValue: 0)
    keys.folds.withStorage { arena, ends in
      let ga = keys.given[a], gb = keys.given[b], fa = keys.family[a], fb = keys.family[b]
      let ca = keys.givenCanonical[a], cb = keys.givenCanonical[b]
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
      if keys.nonLatinName[a] != keys.nonLatinName[b] {
        if gl >= 3 { gl = 0 }
        if fl >= 3 { fl = 0 }
      }
      v[.givenName] = gl
      v[.familyName] = fl
    }
    v[.phone] = phone
    v[.email] = email
    let ba = keys.birthday[a], bb = keys.birthday[b]
    if ba != 0 && bb != 0 {
      // A birthday without a year agrees with one that has the same day.
      let same = ba == bb || (ba < 10_000 && bb % 10_000 == ba) || (bb < 10_000 && ba % 10_000 == bb)
      v[.birthday] = same ? 1 : 2
    }
    v[.address] = addressLevel(a, b)
    return v
  }

  @inline(__always)
  func nameLevel(
    _ a: StringID, _ ac: StringID, _ b: StringID, _ bc: StringID,
    _ arena: UnsafeRawBufferPointer, _ ends: UnsafeBufferPointer<Int>
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
    return s >= 0.92 ? 2 : (s >= 0.80 ? 3 : 4)
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

  /// Compares the first 16 addresses of each side (a bound, so that two
  /// contacts with thousands of addresses cannot make one pair quadratic).
  func addressLevel(_ a: Int, _ b: Int) -> Int {
    let ra = keys.addresses(of: a), rb = keys.addresses(of: b)
    if ra.isEmpty || rb.isEmpty { return 0 }
    var samePostcode = false
    for i in ra.prefix(16) {
      for j in rb.prefix(16) {
        if keys.addresses[i] != 0 && keys.addresses[i] == keys.addresses[j] { return 1 }
        if keys.postcodes[i] == keys.postcodes[j] && keys.postcodes[i] != 0 { samePostcode = true }
      }
    }
    return samePostcode ? 2 : 3
  }
}

/// For the early exit of ``PairScorer/vector(_:_:bound:)``: whether a pair
/// with given phone and e-mail levels can reach the threshold at all.
struct ScoreBound: Sendable {
  /// `reachable[phone * 3 + email]`.
  private var reachable: [Bool]

  init(model: FellegiSunterModel, threshold: Double) {
    let w = model.weights
    var rest = 0.0
    for c in Comparison.allCases where c != .phone && c != .email {
      rest += max(0, w[c.rawValue].max() ?? 0)
    }
    reachable = [Bool](repeating: true, count: 9)
    for p in 0..<3 {
      for e in 0..<3 {
        reachable[p * 3 + e] = w[Comparison.phone.rawValue][p] + w[Comparison.email.rawValue][e] + rest >= threshold
      }
    }
  }

  /// Never exits early (to compute every vector, for EM or explanations).
  static let none = ScoreBound()
  private init() { reachable = [Bool](repeating: true, count: 9) }

  @inline(__always)
  func cannotReach(phone: Int, email: Int) -> Bool { !reachable[phone * 3 + email] }
}
