import OhanaCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@testable import OhanaDedupe

/// Dedupe on names, addresses and birth dates alone (no phones, no
/// e-mails): the typo-tolerant blocking rules, the graded comparisons and
/// the automatic choice of weights. Expectations are worked out by hand
/// from the rules' definitions.
@Suite struct TypoBlockingTests {
  /// A contact the way hand-keyed records come: no phone, no e-mail.
  func person(
    _ uid: String, _ given: String?, _ family: String?, birthday: String? = nil, street: String? = nil,
    postcode: String? = nil, locality: String? = "ashfield"
  ) -> Contact {
    var c = Contact(givenName: given, familyName: family, birthday: birthday)
    c.uid = uid
    if street != nil || postcode != nil {
      c.addresses = [PostalAddress(street: street, locality: locality, postalCode: postcode)]
    }
    return c
  }

  /// Only the rules in `rules`: no phone, e-mail, name or address blocking.
  func onlyRules(_ rules: BlockingKey.Set) -> DedupeConfiguration {
    var c = DedupeConfiguration(blockOnNames: false, blockOnAddresses: false, blockingRules: rules)
    c.blockOnPhones = false
    c.blockOnEmails = false
    return c
  }

  func compared(_ a: Contact, _ b: Contact, _ config: DedupeConfiguration) -> Int {
    Deduplicator(configuration: config).findDuplicates(in: ContactTable(contacts: [a, b])).statistics.pairsCompared
  }

  /// The issue's smallest case: one typo in the given name, one in the
  /// street and one in the extended address; same family name, birth date
  /// and postcode. It used to be compared by no rule at all.
  @Test func theIssuesExampleIsOneCluster() throws {
    var a = person("a", "jasmine", "okafor", birthday: "19740312", street: "12 wattle grove", postcode: "2131")
    var b = person("b", "jasmnie", "okafor", birthday: "19740312", street: "12 watle grove", postcode: "2131")
    a.addresses[0].extended = "rosedale"
    b.addresses[0].extended = "rosedaie"
    a.fullName = "jasmine okafor"
    b.fullName = "jasmnie okafor"
    let table = ContactTable(contacts: [a, b])
    #expect(Deduplicator(configuration: DedupeConfiguration(blockingRules: [])).findDuplicates(in: table).statistics.pairsCompared == 0)
    let r = Deduplicator().findDuplicates(in: table)
    #expect(r.clusterOf == [0, 0])
    let p = try #require(r.pairs.first)
    #expect(p.vector[.familyName] == 1)
    #expect(p.vector[.birthday] == 1)
    #expect(p.vector[.givenName] == 2)
    #expect(p.vector[.address] == 2)
    #expect(p.sharedKeys.contains(.familyBirthday))
  }

  /// Each rule alone brings together a pair that shares only what that
  /// rule reads, and nothing else compares them.
  @Test func eachRuleComparesItsPairs() {
    let cases: [(BlockingKey, Contact, Contact)] = [
      (.familyBirthday, person("1", "anna", "okafor", birthday: "1974-03-12"), person("2", "hannah", "okafor", birthday: "19740312")),
      (.givenBirthday, person("1", "anna", "okafor", birthday: "1974-03-12"), person("2", "anna", "ukafor", birthday: "19740312")),
      (.phoneticPostcode, person("1", "anna", "okafor", postcode: "2131"), person("2", "hanna", "okafour", postcode: "2131")),
      (.birthdayPostcode, person("1", "anna", "okafor", birthday: "19740312", postcode: "2131"),
       person("2", "hanna", "smith", birthday: "19740312", postcode: "2131")),
      (.initialsYear, person("1", "anna", "okafor", birthday: "19740312"), person("2", "ana", "okafur", birthday: "19741203")),
      (.housePostcode, person("1", "anna", "okafor", street: "12 wattle grove", postcode: "2131"),
       person("2", "hanna", "smith", street: "12 wattlegrove st", postcode: "2131")),
      (.sortedNames, person("1", "anna", "okafor"), person("2", "annette", "okafort")),
      (.houseLocality, person("1", "anna", "okafor", street: "12 wattle grove", postcode: "2131", locality: "ashfield"),
       person("2", "hanna", "smith", street: "12 kent st", postcode: "2969", locality: "Ash-field")),
      (.birthdayLocality, person("1", "anna", "okafor", birthday: "19740312", postcode: "2131"),
       person("2", "hanna", "smith", birthday: "19740312", postcode: "4000")),
    ]
    for (rule, a, b) in cases {
      #expect(compared(a, b, onlyRules([.init(rule)])) == 1, "\(rule)")
      #expect(compared(a, b, onlyRules([])) == 0, "\(rule) without rules")
    }
    // And a rule does not compare what it does not read.
    let far = person("2", "zed", "quinn", birthday: "19990101", street: "99 other rd", postcode: "9999")
    for rule in BlockingKey.allCases where BlockingKey.Set.typoTolerant.contains(rule) && rule != .sortedNames {
      #expect(compared(person("1", "anna", "okafor", birthday: "19740312", street: "12 wattle grove", postcode: "2131"), far,
                       onlyRules([.init(rule)])) == 0, "\(rule)")
    }
  }

  /// 3,000 identical records without phones: every rule's block is far
  /// over the cap, and the pairs stay linear (each row with a few
  /// neighbours per rule), never 3,000 × 3,000 / 2.
  @Test func noRuleGoesQuadratic() {
    let n = 3000
    let contacts = (0..<n).map { i in
      person("\(i)", "john", "smith", birthday: "19700101", street: "1 main st", postcode: "60601")
    }
    let r = Deduplicator(configuration: DedupeConfiguration(maxBlockSize: 50, maxClusterSize: 16))
      .findDuplicates(in: ContactTable(contacts: contacts))
    #expect(r.statistics.cappedBlocks >= 7)
    #expect(r.statistics.largestBlock == n)
    let perRow = Blocking.neighbours + Blocking.windowNeighbours
    #expect(r.statistics.pairsCompared <= n * perRow)
    var sizes: [Int32: Int] = [:]
    for id in r.clusterOf { sizes[id, default: 0] += 1 }
    #expect(sizes.values.allSatisfy { $0 <= 16 })
  }

  /// Two contacts that both have phones and share none are not compared by
  /// the rules under the built-in weights (they cannot reach the
  /// threshold); with EM nothing is left out.
  @Test func rulesSkipPairsTheBoundRulesOut() {
    var a = person("1", "anna", "okafor", birthday: "19740312")
    var b = person("2", "anna", "okafor", birthday: "19740312")
    a.fields = [ContactField(kind: .phone, value: "+1 312 644 3332")]
    b.fields = [ContactField(kind: .phone, value: "+1 415 555 0101")]
    var rules = onlyRules([.init(.familyBirthday)])
    #expect(compared(a, b, rules) == 0)
    rules.estimateWeights = true
    #expect(compared(a, b, rules) == 1)
    // One side without a phone: compared.
    b.fields = []
    #expect(compared(a, b, onlyRules([.init(.familyBirthday)])) == 1)
  }

  @Test func birthdayLevels() {
    func level(_ x: String, _ y: String) -> Int {
      let kx = x.utf8.withContiguousStorageIfAvailable { KeyFunctions.birthdayKey(UnsafeRawBufferPointer($0)) } ?? 0
      let ky = y.utf8.withContiguousStorageIfAvailable { KeyFunctions.birthdayKey(UnsafeRawBufferPointer($0)) } ?? 0
      return PairScorer.birthdayLevel(kx, ky)
    }
    // Every form RFC 6350 and vCard 2.1 write for one date.
    for form in ["1974-03-12", "19740312", "1974-03-12T00:00:00Z", "--0312", "--03-12"] {
      #expect(level("19740312", form) == 1, "\(form)")
    }
    #expect(level("19740312", "19740313") == 2)  // one digit
    #expect(level("19740312", "19840312") == 2)  // one digit of the year
    #expect(level("19740312", "19741203") == 2)  // day and month swapped
    #expect(level("--0312", "19741203") == 2)  // swapped, no year
    #expect(level("19450603", "19405603") == 2)  // two neighbouring digits swapped
    #expect(level("19901111", "19091111") == 2)  // the same, in the year
    #expect(level("19450612", "19450216") == 3)  // two digits apart swapped: same year only
    #expect(level("19740312", "19741125") == 3)  // same year only
    #expect(level("19740312", "19850101") == 4)
    #expect(level("19740312", "") == 0)
    #expect(level("not a date", "19740312") == 0)
  }

  /// The graded address levels, worked out by hand from
  /// ``AddressText/level(_:house:_:house:)``'s definition.
  @Test func addressLevels() {
    func level(
      _ x: (street: String, postcode: String, locality: String, extended: String?),
      _ y: (street: String, postcode: String, locality: String, extended: String?)
    ) -> Int {
      var a = person("a", "ann", "lee", street: x.street, postcode: x.postcode, locality: x.locality)
      var b = person("b", "ann", "lee", street: y.street, postcode: y.postcode, locality: y.locality)
      a.addresses[0].extended = x.extended
      b.addresses[0].extended = y.extended
      let keys = ContactKeys(table: ContactTable(contacts: [a, b]), configuration: DedupeConfiguration())
      return PairScorer(keys: keys).addressLevel(0, 1)
    }
    let home = (street: "12 wattle grove", postcode: "2131", locality: "ashfield", extended: String?.none)
    #expect(level(home, home) == 1)
    // Close: a typo, the lines swapped. The same: a split word, another case.
    #expect(level(home, ("12 watle grove", "2131", "ashfield", nil)) == 2)
    #expect(level(home, ("12 wattlegrove", "2131", "ashfield", nil)) == 1)  // the street key has no spaces
    #expect(level(home, ("12 WATTLE GROVE", "2131", "ashfield", nil)) == 1)
    #expect(level(("12 rosedale", "2131", "ashfield", "wattle grove"), ("12 wattle grove", "2131", "ashfield", "rosedale")) == 2)
    // Close with a postcode one digit off or two neighbours swapped.
    #expect(level(home, ("12 watle grove", "2132", "ashfield", nil)) == 2)
    #expect(level(home, ("12 wattle grove", "1231", "ashfield", nil)) == 2)
    // Another house number: the same street.
    #expect(level(home, ("14 wattle grove", "2131", "ashfield", nil)) == 3)
    #expect(level(home, ("14 watle grove", "2132", "ashfield", nil)) == 3)
    // Another street: the same postcode only.
    #expect(level(home, ("3 kent street", "2131", "ashfield", nil)) == 4)
    // Near: the postcode typed wrong (two digits), street, house and
    // locality right; or one digit off in a close locality.
    #expect(level(home, ("12 wattle grove", "2969", "ashfeild", nil)) == 5)
    #expect(level(home, ("3 kent street", "2132", "ashfield", nil)) == 5)
    // Different: another postcode and locality, or the street alone.
    #expect(level(home, ("12 wattle grove", "2969", "parramatta", nil)) == 6)
    #expect(level(home, ("3 kent street", "4000", "ashfield", nil)) == 6)
    // A house number missing on one side is not a difference.
    #expect(level(home, ("wattle grove", "2131", "ashfield", nil)) == 2)
  }

  @Test func postcodeLevels() {
    func print(_ s: String) -> UInt64 { s.utf8.withContiguousStorageIfAvailable { AddressText.postcodePrint(UnsafeRawBufferPointer($0)) } ?? 0 }
    #expect(AddressText.postcodeLevel(print("2131"), print("2131")) == 0)
    #expect(AddressText.postcodeLevel(print("SW1A 1AA"), print("sw1a1aa")) == 0)
    #expect(AddressText.postcodeLevel(print("2131"), print("2181")) == 1)
    #expect(AddressText.postcodeLevel(print("4217"), print("4127")) == 1)
    #expect(AddressText.postcodeLevel(print("6076"), print("0676")) == 1)
    #expect(AddressText.postcodeLevel(print("2131"), print("1312")) == 2)
    #expect(AddressText.postcodeLevel(print("2131"), print("21310")) == 1)  // one more digit
    #expect(AddressText.postcodeLevel(print("2131"), print("3141")) == 2)
    #expect(AddressText.postcodeLevel(print("2131"), 0) == 3)
  }

  @Test func phoneticCodes() {
    func code(_ s: String) -> UInt64 {
      Array(s.utf8).withUnsafeBytes { Phonetic.code($0) }
    }
    #expect(code("smith") == code("smyth"))
    #expect(code("smith") == code("schmidt"))
    #expect(code("catherine") == code("katherine"))
    #expect(code("okafor") == code("okafour"))
    #expect(code("philips") == code("filips"))
    #expect(code("knight") == code("night"))
    #expect(code("smith") != code("jones"))
    #expect(code("anna") != code("hanna"))
    #expect(code("") == 0)
    #expect(code("123") == 0)
    #expect(code("smith") != 0)
  }

  @Test func houseNumbers() {
    func house(_ s: String) -> UInt64 { Array(s.utf8).withUnsafeBytes { KeyFunctions.houseNumber($0) } }
    #expect(house("12 wattle grove") == house("12 watle grove"))
    #expect(house("12 wattle grove") == house("wattlegrove 12"))
    #expect(house("12a wattle grove") != house("12b wattle grove"))
    #expect(house("12 wattle grove") != house("13 wattle grove"))
    #expect(house("12 abbey road") == house("12 abbey rd"))
    #expect(house("wattle grove") == 0)
  }

  @Test func nameLevelsForSoundsAndInitials() {
    func level(_ x: String, _ y: String) -> Int {
      let keys = ContactKeys(
        table: ContactTable(contacts: [person("1", x, "okafor"), person("2", y, "okafor")]),
        configuration: DedupeConfiguration())
      return PairScorer(keys: keys).vector(0, 1)[.givenName]
    }
    #expect(level("jasmine", "jasmine") == 1)
    #expect(level("jasmine", "jasmnie") == 2)
    #expect(level("j", "jasmine") == 4)  // an initial
    #expect(level("jasmine", "yasmine") <= 3)  // close in spelling
    #expect(level("anna", "zoe") == 5)
  }

  /// auto: EM when fewer than half the contacts have a phone or an e-mail.
  @Test func automaticWeights() {
    let n = Deduplicator.automaticEMMinimum
    let noPhones = (0..<n).map { person("\($0)", "anna\($0)", "okafor", birthday: "1974031\($0 % 10)") }
    let withPhones = noPhones.map { c -> Contact in
      var c = c
      c.fields = [ContactField(kind: .phone, value: "+1 312 644 \(1000 + (Int(c.uid ?? "0") ?? 0))")]
      return c
    }
    // EM runs (these 500 namesakes hold no duplicates, so its fit is not
    // plausible and the built-in weights stand: see plausibleFits).
    let s = Deduplicator().findDuplicates(in: ContactTable(contacts: noPhones)).statistics
    #expect(s.weightsEstimated || s.estimateRejected)
    #expect(!Deduplicator().findDuplicates(in: ContactTable(contacts: withPhones)).statistics.weightsEstimated)
    let fixed = DedupeConfiguration(automaticWeights: false)
    #expect(!Deduplicator(configuration: fixed).findDuplicates(in: ContactTable(contacts: noPhones)).statistics.weightsEstimated)
    // Too few contacts for EM: the built-in weights.
    #expect(!Deduplicator().findDuplicates(in: ContactTable(contacts: Array(noPhones.prefix(n - 1)))).statistics.weightsEstimated)
  }

  /// An EM fit is used only when agreement weighs for a match: the
  /// built-in weights are plausible; a model where an exact given name or
  /// the same address weighs against, or a different family name for, is
  /// not, and the deduplicator then keeps its own model.
  @Test func plausibleFits() {
    // Every level occurs.
    var every = [Int](repeating: 0, count: ComparisonVector.space)
    for l in 1..<7 {
      var v = ComparisonVector(rawValue: 0)
      for c in Comparison.allCases { v[c] = min(l, c.levelCount - 1) }
      every[Int(v.rawValue)] = 1
    }
    #expect(FellegiSunterModel.defaults.isPlausible(for: every))
    func with(_ c: Comparison, level: Int, weight: Double) -> FellegiSunterModel {
      var w = FellegiSunterModel.defaults.weights
      w[c.rawValue][level] = weight
      return FellegiSunterModel(m: FellegiSunterModel.defaults.m, weights: w, lambda: 0.1)
    }
    #expect(with(.givenName, level: 1, weight: 1).isPlausible(for: every))
    #expect(!with(.givenName, level: 1, weight: -1.5).isPlausible(for: every))
    #expect(!with(.givenName, level: 1, weight: -8).isPlausible(for: every))  // below "different" (-6)
    #expect(!with(.familyName, level: 5, weight: 18).isPlausible(for: every))
    #expect(!with(.birthday, level: 4, weight: 4.6).isPlausible(for: every))  // above "same" (4.5)
    #expect(!with(.address, level: 1, weight: -1).isPlausible(for: every))
    #expect(!with(.address, level: 6, weight: 2).isPlausible(for: every))
    // A level that never occurs is not judged.
    var noDifferentFamily = every
    for raw in noDifferentFamily.indices where ComparisonVector(rawValue: UInt32(raw))[.familyName] == 5 { noDifferentFamily[raw] = 0 }
    #expect(with(.familyName, level: 5, weight: 18).isPlausible(for: noDifferentFamily))
    // EM on pairs drawn from a known model (matches from m, the rest from
    // u, independent comparisons): the fit is plausible, is used, and
    // recovers the sign of every weight that is clearly away from 0.
    let mTrue: [[Double]] = [
      [0, 0.85, 0.08, 0.03, 0.02, 0.02], [0, 0.85, 0.08, 0.03, 0.02, 0.02], [0, 0.5, 0.5], [0, 0.5, 0.5],
      [0, 0.85, 0.08, 0.03, 0.04], [0, 0.7, 0.15, 0.05, 0.04, 0.03, 0.03],
    ]
    let uTrue: [[Double]] = [
      [0, 0.05, 0.03, 0.07, 0.05, 0.80], [0, 0.30, 0.05, 0.10, 0.05, 0.50], [0, 0.5, 0.5], [0, 0.5, 0.5],
      [0, 0.02, 0.03, 0.10, 0.85], [0, 0.02, 0.02, 0.02, 0.30, 0.04, 0.60],
    ]
    var state: UInt64 = 42  // a fixed LCG: the same draws every run
    func uniform() -> Double {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Double(state >> 11) / Double(1 << 53)
    }
    func draw(_ p: [Double]) -> Int {
      var x = uniform(), l = 1
      while l < p.count - 1 && x >= p[l] { x -= p[l]; l += 1 }
      return l
    }
    var counts = [Int](repeating: 0, count: ComparisonVector.space)
    for i in 0..<40_000 {
      let probabilities = i % 5 == 0 ? mTrue : uTrue
      var v = ComparisonVector(rawValue: 0)
      for c in Comparison.allCases where c != .phone && c != .email { v[c] = draw(probabilities[c.rawValue]) }
      counts[Int(v.rawValue)] += 1
    }
    let fit = Deduplicator().fittedModel(counts)
    #expect(fit.rejected == nil)
    let w = fit.model.weights
    for c in Comparison.allCases where c != .phone && c != .email {
      for l in 1..<c.levelCount {
        let truth = log2(mTrue[c.rawValue][l] / uTrue[c.rawValue][l])
        if abs(truth) > 1 { #expect((w[c.rawValue][l] > 0) == (truth > 0), "\(c) level \(l): \(w[c.rawValue][l]) vs \(truth)") }
      }
    }
    #expect(abs(fit.model.lambda - 0.2) < 0.05)
  }

  /// Term frequencies: with 90 contacts named smith and one each of ten
  /// rare names, Σ share² / Σ share = (90² + 10) / 100² = 0.811; smith's
  /// share is 0.9 (log2(0.811 / 0.9) = -0.15), a rare name's 0.01
  /// (log2(81.1) = 6.3, capped at 1).
  @Test func termFrequencyAdjustments() {
    var counts = [Int32](repeating: 0, count: 12)
    counts[1] = 90
    for i in 2..<12 { counts[i] = 1 }
    let adj = TermFrequency.adjustments(counts)
    #expect(abs(adj[1] - Float(log2(0.811 / 0.9))) < 0.001)
    #expect(adj[2] == TermFrequency.maximum)
    #expect(adj[0] == 0)
    // A very common name among many rare ones: clamped at the minimum.
    var spread = [Int32](repeating: 1, count: 10_001)
    spread[0] = 0
    spread[1] = 10_000
    #expect(TermFrequency.adjustments(spread)[1] < 0)
    #expect(TermFrequency.adjustments(spread).allSatisfy { $0 >= TermFrequency.minimum && $0 <= TermFrequency.maximum })
  }

  /// Blocking recall against a truth: true pairs and the compared ones.
  @Test func truthCounts() {
    let contacts = [
      person("1", "anna", "okafor", birthday: "19740312"),
      person("2", "anna", "okafor", birthday: "19740312"),
      person("3", "zed", "quinn"),
      person("4", "zed", "quinn", birthday: "19990101"),
      person("5", "bo", "li"),
    ]
    var d = Deduplicator(configuration: DedupeConfiguration(blockOnNames: false, blockingRules: [.init(.familyBirthday)]))
    // 1 and 2 one person, 3 and 4 another, 5 unknown to the truth.
    d.truth = [0, 0, 1, 1, -1]
    let s = d.findDuplicates(in: ContactTable(contacts: contacts)).statistics
    #expect(s.truePairs == 2)
    #expect(s.trueCandidatePairs == 1)
  }
}
