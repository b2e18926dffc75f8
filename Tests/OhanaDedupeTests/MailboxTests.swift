import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// The e-mail level "same mailbox" and the blocking rule `mailbox`: one
/// person's handle at two providers, or with the domain mistyped, is
/// compared and told apart from addresses that share nothing. The oracle
/// is a plain statement of the rule on Swift strings, written apart from
/// the byte code under test.
@Suite struct MailboxTests {
  /// The rule as the documentation states it: the address trimmed of
  /// blanks, `<>` and `mailto:`, lower-cased; the local part before the
  /// last `@`, cut at `+`; dots, hyphens and underscores dropped; none
  /// when fewer than three characters are left or it is a role's handle.
  static func referenceMailbox(_ address: String) -> String? {
    let trim: Set<Character> = [" ", "\t", "<", ">"]
    var s = String(address.lowercased().drop { trim.contains($0) }.reversed().drop { trim.contains($0) }.reversed())
    if s.hasPrefix("mailto:") { s.removeFirst(7) }
    guard let at = s.lastIndex(of: "@"), at != s.startIndex, s.index(after: at) != s.endIndex else { return nil }
    let local = String(s[..<at].prefix { $0 != "+" }.filter { $0 != "." && $0 != "-" && $0 != "_" })
    if local.count < 3 || ["info", "sales", "support", "office", "kontakt", "noreply"].contains(local) { return nil }
    return String(local)
  }

  static func key(_ s: String) -> UInt64 {
    var s = s
    return s.withUTF8 { KeyFunctions.emailKey(UnsafeRawBufferPointer($0)) }
  }

  /// Random addresses drawn so that handles repeat across domains and
  /// spellings: two addresses have one mailbox exactly when the reference
  /// says so (the 32-bit hash may collide; none does on this sample).
  @Test func mailboxesAgreeWithTheStatedRule() {
    var rng = SeededRandom(seed: 46)
    let handles = ["john.smith", "JohnSmith", "john_smith", "j-smith", "jsmith", "ann", "an", "info", "Sales", "zoë.ng", "zoe.ng",
                   "li", "o'brien", "OBrien", "müller", "mueller", "x.y.z", "xyz"]
    let domains = ["example.org", "Example.ORG", "gmial.com", "yahoo.co.uk", "bücher.de", "x.io"]
    var samples: [String] = []
    for _ in 0..<600 {
      let h = handles[Int.random(in: 0..<handles.count, using: &rng)]
      let tag = Int.random(in: 0..<4, using: &rng) == 0 ? "+news" : ""
      let d = domains[Int.random(in: 0..<domains.count, using: &rng)]
      let wrap = Int.random(in: 0..<5, using: &rng) == 0 ? ("<mailto:", ">") : ("", "")
      samples.append("\(wrap.0)\(h)\(tag)@\(d)\(wrap.1)")
    }
    let mailboxes = samples.map { KeyFunctions.mailbox(Self.key($0)) }
    let reference = samples.map(Self.referenceMailbox)
    var mismatches: [String] = []
    for i in samples.indices {
      if (mailboxes[i] == 0) != (reference[i] == nil) { mismatches.append(samples[i]) }
      for j in 0..<80 {
        let same = mailboxes[i] != 0 && mailboxes[i] == mailboxes[j]
        let expected = reference[i].map { $0 == reference[j] } ?? false
        if same != expected { mismatches.append("\(samples[i]) / \(samples[j])") }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    // Not vacuous: handles do repeat across domains and spellings.
    #expect(Set(reference.compactMap { $0 }).count >= 8)
    #expect(mailboxes.filter { $0 != 0 }.count > samples.count / 2)
  }

  func contact(_ given: String, _ family: String, _ emails: [String]) -> Contact {
    Contact(givenName: given, familyName: family, fields: emails.map { ContactField(kind: .email, value: $0) })
  }

  @Test func theScorerTellsASharedMailbox() {
    let contacts = [
      contact("John", "Smith", ["John.Smith@example.org"]),
      contact("John", "Smith", ["john_smith@example.net"]),  // same handle, other provider
      contact("John", "Smith", ["john.smith@example.org"]),  // the same address
      contact("John", "Smith", ["info@example.net"]),  // a role: no mailbox
      contact("John", "Smith", ["info@example.org"]),
      contact("John", "Smith", ["a.b.c@x.org", "q.r.s@y.org", "JohnSmith@z.org"]),  // lists, not prints
      contact("John", "Smith", ["jane.doe@example.org"]),
    ]
    let keys = ContactKeys(table: ContactTable(contacts: contacts), configuration: DedupeConfiguration())
    let scorer = PairScorer(keys: keys)
    #expect(scorer.vector(0, 2)[.email] == 1)
    #expect(scorer.vector(0, 1)[.email] == 2)
    #expect(scorer.sameMailbox(0, 1))
    #expect(scorer.sameMailbox(0, 2))
    #expect(!scorer.sameMailbox(3, 4))
    #expect(scorer.sameMailbox(1, 5) && scorer.sameMailbox(5, 1))
    #expect(!scorer.sameMailbox(0, 6))
    #expect(!scorer.sameMailbox(5, 6))
    #expect(Comparison.email.levelName(ComparisonVector.mailboxOnly) == "same-mailbox-only")
  }

  /// With the rule among the blocking rules, a pair that shares nothing
  /// but the mailbox is marked for its own weighing; one that also shares
  /// a name key is not.
  @Test func aPairOnlyTheMailboxBroughtIsMarked() {
    let table = ContactTable(contacts: [
      contact("Gordon", "Browne", ["gordon.browne@example.org"]),
      contact("Don", "Brown", ["GordonBrowne@mail.example.com"]),
      contact("Gordon", "Browne", ["gordon_browne@example.net"]),
    ])
    let config = DedupeConfiguration()
    let keys = ContactKeys(table: table, configuration: config)
    let scorer = PairScorer(keys: keys, configuration: config)
    #expect(scorer.vector(0, 1)[.email] == ComparisonVector.mailboxOnly)
    #expect(scorer.vector(0, 2)[.email] == 2)
    #expect(scorer.vector(0, 1).modelLevel(.email) == 2)
    #expect(scorer.vector(0, 1).description.contains("email=same-mailbox-only"))
    var basic = DedupeConfiguration()
    #expect(basic.setBlocking("basic") == nil)
    #expect(PairScorer(keys: keys, configuration: basic).vector(0, 1)[.email] == 2)
  }

  /// EM leaves the marked pairs out (the same fit with or without them),
  /// and gives them the log-odds of their own share of matches: positive
  /// when they agree on everything else, negative when on nothing.
  @Test func theFitLeavesMarkedPairsOutAndShiftsThem() throws {
    var rng = SeededRandom(seed: 9)
    var counts = [Int](repeating: 0, count: ComparisonVector.space)
    func vector(agreeing: Bool, email: Int) -> Int {
      var v = ComparisonVector(rawValue: 0)
      v[.givenName] = agreeing ? 1 : 5
      v[.familyName] = agreeing ? 1 : 5
      v[.birthday] = agreeing ? 1 : 4
      v[.address] = agreeing ? 1 : 6
      v[.email] = email
      return Int(v.rawValue)
    }
    for _ in 0..<6000 {
      let match = Int.random(in: 0..<10, using: &rng) < 3
      var v = ComparisonVector(rawValue: 0)
      v[.givenName] = match ? (Int.random(in: 0..<10, using: &rng) < 9 ? 1 : 2) : (Int.random(in: 0..<10, using: &rng) < 8 ? 5 : 3)
      v[.familyName] = match ? 1 : (Int.random(in: 0..<10, using: &rng) < 3 ? 1 : 5)
      v[.birthday] = match ? 1 : (Int.random(in: 0..<20, using: &rng) == 0 ? 1 : 4)
      v[.address] = match ? (Int.random(in: 0..<2, using: &rng) == 0 ? 1 : 0) : 6
      v[.email] = match ? (Int.random(in: 0..<3, using: &rng) == 0 ? 1 : 2) : 2
      counts[Int(v.rawValue)] += 1
    }
    let plain = Deduplicator().fittedModel(counts)
    #expect(plain.rejected == nil)
    var good = counts, bad = counts
    good[vector(agreeing: true, email: ComparisonVector.mailboxOnly)] += 500
    bad[vector(agreeing: false, email: ComparisonVector.mailboxOnly)] += 500
    let withGood = Deduplicator().fittedModel(good), withBad = Deduplicator().fittedModel(bad)
    #expect(withGood.model.m == plain.model.m && withGood.model.u == plain.model.u)
    #expect(withBad.model.m == plain.model.m && withBad.model.u == plain.model.u)
    let up = try #require(withGood.model.mailboxShift), down = try #require(withBad.model.mailboxShift)
    #expect(up > 0)
    #expect(down < 0)
    #expect(plain.model.mailboxShift == nil)
    // The shift stands in for the e-mail's weight in such a pair's weight.
    let marked = ComparisonVector(rawValue: UInt32(vector(agreeing: true, email: ComparisonVector.mailboxOnly)))
    var unmarked = marked
    unmarked[.email] = 0
    #expect(abs(withGood.model.weight(marked) - (withGood.model.weight(unmarked) + up)) < 1e-9)
    // Kept by a store as text and read back.
    let back = try #require(FellegiSunterModel(storedText: withGood.model.storedText))
    #expect(back.mailboxShift == up)
    #expect(back.weightTable() == withGood.model.weightTable())
    // The built-in weights have no shift: a marked pair weighs as level 2.
    var two = marked
    two[.email] = 2
    #expect(FellegiSunterModel.defaults.weight(marked) == FellegiSunterModel.defaults.weight(two))
  }

  /// The rule pairs a nickname and a surname variant that share nothing
  /// else but the handle; without it (`basic` blocking) they never meet.
  @Test func theRuleBringsAPairThatSharesOnlyTheHandle() {
    let table = ContactTable(contacts: [
      contact("Gordon", "Browne", ["gordon.browne@example.org"]),
      contact("Don", "Brown", ["GordonBrowne@mail.example.com"]),
      contact("Ann", "Lee", ["info@example.org"]),
      contact("Bo", "Ng", ["info@example.com"]),
    ])
    func pairs(_ spec: String) -> [UInt64] {
      var c = DedupeConfiguration()
      #expect(c.setBlocking(spec) == nil)
      var stats = DedupeResult.Statistics()
      return Blocking.candidatePairs(keys: ContactKeys(table: table, configuration: c), configuration: c, statistics: &stats)
    }
    #expect(pairs("basic").isEmpty)
    #expect(pairs("mailbox") == [0 << 32 | 1])
    #expect(pairs("all").contains(0 << 32 | 1))
    #expect(BlockingKey.Set.typoTolerant.contains(.mailbox))
  }

  /// A model kept by an entity store before the shift existed still
  /// loads, and weighs a marked pair as one with no e-mail in common.
  @Test func aModelKeptWithoutTheShiftLoads() throws {
    let old = FellegiSunterModel.defaults
    let text = old.storedText
    #expect(!text.contains("mailbox"))
    let loaded = try #require(FellegiSunterModel(storedText: text))
    #expect(loaded.mailboxShift == nil)
    var marked = ComparisonVector(rawValue: 0)
    marked[.givenName] = 1
    marked[.email] = ComparisonVector.mailboxOnly
    var none = marked
    none[.email] = 2
    #expect(loaded.weight(marked) == loaded.weight(none))
  }

  /// The early exits heed the shift: with e-mails on both sides, a pair
  /// the scorer has not yet marked may be one only a mailbox brought.
  @Test func theBoundsHeedTheShift() {
    let t = DedupeConfiguration().threshold
    var high = FellegiSunterModel.defaults
    high.mailboxShift = 12
    let bound = ScoreBound(model: high, threshold: t)
    #expect(!bound.cannotReach(phone: 2, email: 2))
    #expect(RuleSkip.classTable(bound)[3 * 4 + 3] == false)
    let defaults = ScoreBound(model: .defaults, threshold: t)
    #expect(defaults.cannotReach(phone: 2, email: 2))
    #expect(RuleSkip.classTable(defaults)[3 * 4 + 3] == true)
  }
}
