import OhanaCore
import Testing

@testable import OhanaDedupe

@Suite struct BlockingTests {
  @Test func hugeBlockIsCappedNotExploded() {
    // 20,000 contacts sharing one switchboard number and nothing else.
    let contacts = (0..<20000).map { i in
      Contact(uid: "u\(i)", givenName: "G\(i)x", familyName: "F\(i)y",
              fields: [ContactField(kind: .phone, value: "+1 800 555 0100")])
    }
    let table = ContactTable(contacts: contacts)
    let result = Deduplicator(configuration: DedupeConfiguration(maxBlockSize: 50)).findDuplicates(in: table)
    #expect(result.statistics.cappedBlocks == 1)
    #expect(result.statistics.rowsInCappedBlocks == 20000)
    #expect(result.statistics.pairsCompared == 0)
    #expect(result.mergedCount == 20000)
  }

  @Test func bulkIdenticalRecordsStillMeetInsideACappedBlock() {
    // 1,000 copies of one contact: every key's block is capped; the sorted
    // neighbourhood on the name key pairs each with its next rows, and the
    // chaining guard cuts clusters at maxClusterSize.
    let c = Contact(givenName: "Ann", familyName: "Lee",
                    fields: [ContactField(kind: .phone, value: "312 644 3332"), ContactField(kind: .email, value: "a@x.org")])
    let contacts = (0..<1000).map { i -> Contact in
      var d = c
      d.uid = "u\(i)"
      return d
    }
    let config = DedupeConfiguration(maxBlockSize: 50, maxClusterSize: 16)
    let result = Deduplicator(configuration: config).findDuplicates(in: ContactTable(contacts: contacts))
    #expect(result.statistics.cappedBlocks == 3)
    #expect(result.statistics.pairsCompared <= 1000 * Blocking.neighbours)
    var sizes: [Int32: Int] = [:]
    for id in result.clusterOf { sizes[id, default: 0] += 1 }
    #expect(sizes.values.allSatisfy { $0 <= 16 })
    #expect(result.mergedCount <= 1000 / 16 + 1)
  }

  @Test func pairsSharingSeveralKeysAreComparedOnce() {
    let c = Contact(givenName: "Ann", familyName: "Lee",
                    fields: [ContactField(kind: .phone, value: "312 644 3332"), ContactField(kind: .email, value: "a@x.org")],
                    addresses: [PostalAddress(street: "1 Main St", postalCode: "60601")])
    var d = c
    d.uid = "2"
    let basic = Deduplicator(configuration: DedupeConfiguration(blockingRules: []))
      .findDuplicates(in: ContactTable(contacts: [c, d]))
    #expect(basic.statistics.pairsCompared == 1)
    #expect(basic.statistics.blockingKeys == 8)
    #expect(basic.pairs.count == 1)
    #expect(basic.pairs.first?.sharedKeys.description == "phone,email,name,address")
    // The typo-tolerant rules add the sounds of family and of given name,
    // each with the postcode, and house number + postcode (no birthday:
    // none of the birthday rules): 3 more keys per contact.
    let result = Deduplicator().findDuplicates(in: ContactTable(contacts: [c, d]))
    #expect(result.statistics.pairsCompared == 1)
    #expect(result.statistics.blockingKeys == 14)
    #expect(result.pairs.first?.sharedKeys.description == "phone,email,name,address,phonetic-name+postcode,house+postcode")
  }

  @Test func radixSortSorts() {
    var rng = SystemRandomNumberGenerator()
    var a = (0..<100_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &rng) }
    a += (0..<1000).map { UInt64($0) }
    var b = a
    RadixSort.sort(&a)
    b.sort()
    #expect(a == b)
  }

  /// The sample sort on any number of workers (buckets four a worker)
  /// against the standard library's sort: hashes with small values mixed
  /// in, and pairs crowded on low rows.
  @Test(arguments: [2, 3, 4, 7, 16])
  func radixSortOnManyWorkersSorts(threads: Int) {
    var rng = SystemRandomNumberGenerator()
    let base = (0..<200_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &rng) } + (0..<1000).map { UInt64($0) }
    var a = base
    RadixSort.sort(&a, threads: threads)
    #expect(a == base.sorted())
    var pairs = (0..<100_000).map { _ in UInt64.random(in: 0..<5000, using: &rng) << 32 | UInt64.random(in: 0..<5000, using: &rng) }
    let expected = pairs.sorted()
    RadixSort.sort(&pairs, threads: threads)
    #expect(pairs == expected)
  }

  /// The split from a sample: pairs crowded on low rows (as candidate pairs
  /// are), hashes, many equal values, a run already sorted and one reversed,
  /// each against the standard library's sort.
  @Test func radixSortWithSampledSplitSortsSkewedValues() {
    var rng = SystemRandomNumberGenerator()
    let n: UInt64 = 100_000
    let crowded = (0..<150_000).map { _ -> UInt64 in
      let x = UInt64.random(in: 0..<n, using: &rng), y = UInt64.random(in: 0..<n, using: &rng)
      return min(x, y) << 32 | max(x, y)
    }
    let hashes = (0..<150_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &rng) }
    let fewValues = (0..<150_000).map { _ in UInt64.random(in: 0..<3, using: &rng) << 40 }
    let ascending = (0..<150_000).map { UInt64($0) * 7 }
    for base in [crowded, hashes, fewValues, ascending, Array(ascending.reversed()), [UInt64](repeating: 9, count: 70_000)] {
      var a = base
      RadixSort.sort(&a, threads: 2)
      #expect(a == base.sorted())
    }
    // The sampled split of crowded pairs lies well below the middle row.
    #expect(RadixSort.sampledMedian(crowded) < (n / 2) << 32)
  }

  /// Parts laid end to end and sorted in one (the partition moving values
  /// straight from the parts): against the standard library's sort of the
  /// concatenation, for parts of uneven sizes (empty ones, one holding
  /// nearly everything), skewed values and every value equal.
  @Test func radixSortOfPartsEqualsSortingTheirConcatenation() {
    var rng = SystemRandomNumberGenerator()
    func values(_ k: Int, _ range: ClosedRange<UInt64> = 0...UInt64.max) -> [UInt64] {
      (0..<k).map { _ in UInt64.random(in: range, using: &rng) }
    }
    let crowded = (0..<90_000).map { _ -> UInt64 in
      let x = UInt64.random(in: 0..<50_000, using: &rng), y = UInt64.random(in: 0..<50_000, using: &rng)
      return min(x, y) << 32 | max(x, y)
    }
    let cases: [[[UInt64]]] = [
      [values(40_000), [], values(30_000), values(1), values(25_000)],
      [values(200_000), values(3)],
      [values(3), values(200_000)],
      [Array(crowded[..<10_000]), Array(crowded[10_000...])],
      [values(50_000, 0...2), values(50_000, 0...2), values(50_000, 0...2)],
      [[UInt64](repeating: 7, count: 40_000), [UInt64](repeating: 7, count: 40_000)],
      [values(1000), values(2000)],  // below the two-worker size
      [[], []],
    ]
    for parts in cases {
      let expected = parts.flatMap { $0 }.sorted()
      for threads in [1, 2, 3, 8] { #expect(RadixSort.sorted(parts, threads: threads) == expected) }
    }
  }

  /// The task run beside the chunks gives its result, and the chunks cover
  /// the range once, in order, with one worker or more.
  @Test func mapBesideRunsTheTaskAndEveryChunk() {
    for threads in [1, 2, 4] {
      for count in [0, 1, 5000, 100_003] {
        let (side, parts) = Parallel.map(count: count, threads: threads, minimumChunk: 1000) {
          (0..<1000).reduce(0, +)
        } _: { range in
          Array(range)
        }
        #expect(side == 499_500)
        #expect(parts.flatMap { $0 } == Array(0..<count))
      }
    }
  }
}

@Suite struct ClusteringTests {
  @Test(arguments: GuardLinkage.allCases)
  func chainingGuardRefusesABridge(linkage: GuardLinkage) {
    // Scores: 0-1 strong, 1-2 strong, 0-2 so negative that the mean of the
    // cross pairs (0-2, 1-2) is below 0 too.
    let c = GuardedClustering(count: 3)
    let scores: [Int: Double] = [0 * 8 + 1: 10, 1 * 8 + 2: 9, 0 * 8 + 2: -12]
    let score: (Int, Int) -> Double = { x, y in scores[x * 8 + y] ?? -100 }
    let first = c.join(0, 1, maxClusterSize: 10, linkThreshold: 0, linkage: linkage, score: score)
    let second = c.join(1, 2, maxClusterSize: 10, linkThreshold: 0, linkage: linkage, score: score)
    #expect(first)
    #expect(!second)
    let ids = c.clusterIDs()
    #expect(ids == [0, 0, 2])
  }

  @Test func averageLinkageOutvotesOneWeakCrossPair() {
    // 0-3 is weak (-8) but 1-3 and 2-3 are strong: complete linkage
    // refuses 3, average linkage (mean (-8 + 9 + 9) / 3 > 0) takes it.
    let scores: [Int: Double] = [0 * 8 + 1: 10, 0 * 8 + 2: 10, 1 * 8 + 2: 10, 0 * 8 + 3: -8, 1 * 8 + 3: 9, 2 * 8 + 3: 9]
    let score: (Int, Int) -> Double = { x, y in scores[x * 8 + y] ?? -100 }
    for (linkage, joined) in [(GuardLinkage.complete, false), (.average, true)] {
      let c = GuardedClustering(count: 4)
      #expect(c.join(0, 1, maxClusterSize: 10, linkThreshold: 0, linkage: linkage, score: score))
      #expect(c.join(0, 2, maxClusterSize: 10, linkThreshold: 0, linkage: linkage, score: score))
      #expect(c.join(1, 3, maxClusterSize: 10, linkThreshold: 0, linkage: linkage, score: score) == joined, "\(linkage)")
      #expect(c.clusterIDs() == (joined ? [0, 0, 0, 0] : [0, 0, 0, 3]), "\(linkage)")
    }
  }

  @Test func clusterSizeIsCapped() {
    let c = GuardedClustering(count: 5)
    for i in 1..<5 { _ = c.join(0, i, maxClusterSize: 3, linkThreshold: -1000) { _, _ in 0 } }
    let ids = c.clusterIDs()
    #expect(ids.filter { $0 == 0 }.count == 3)
  }

  @Test func householdBridgeEndToEnd() {
    // Two people of one household share a landline and an address; a third
    // record of Ann carries both Ann's e-mail and the household phone.
    let home = ContactField(kind: .phone, value: "(312) 644-3332")
    let addr = PostalAddress(street: "49 Oak Avenue", postalCode: "78789")
    let contacts = [
      Contact(uid: "ann1", givenName: "Ann", familyName: "Miller", birthday: "1970-01-02",
              fields: [home, ContactField(kind: .email, value: "ann@x.org")], addresses: [addr]),
      Contact(uid: "ann2", givenName: "Anne", familyName: "Miller", birthday: "1970-01-02",
              fields: [home, ContactField(kind: .email, value: "ANN@x.org")], addresses: [addr]),
      Contact(uid: "bob", givenName: "Robert", familyName: "Miller", birthday: "1968-05-06",
              fields: [home, ContactField(kind: .email, value: "bob@y.org")], addresses: [addr]),
    ]
    let r = Deduplicator().findDuplicates(in: ContactTable(contacts: contacts))
    #expect(r.clusterOf == [0, 0, 2])
  }

  /// The guard's refusals by reason, and with a truth file the true pairs
  /// among them. Four records of one person under a cap of 2: whichever
  /// pair joins first, the one disjoint from it joins too and the other
  /// four are refused for the cap (a cluster of 3 or 4), all true pairs.
  /// A third person's household record (another given name, the same
  /// phone and address) is refused by nothing: it never reaches the
  /// threshold, a true non-pair.
  @Test func guardRefusalsAreCountedByReasonAndAgainstTheTruth() {
    let phone = ContactField(kind: .phone, value: "(312) 644-3332")
    let mail = ContactField(kind: .email, value: "ann@x.org")
    let addr = PostalAddress(street: "49 Oak Avenue", postalCode: "78789")
    var contacts = (0..<4).map { i in
      Contact(uid: "ann\(i)", givenName: "Ann", familyName: "Miller", birthday: "1970-01-02",
              fields: [phone, mail], addresses: [addr])
    }
    contacts.append(Contact(uid: "bob", givenName: "Robert", familyName: "Miller", birthday: "1968-05-06",
                            fields: [phone], addresses: [addr]))
    var config = DedupeConfiguration()
    config.maxClusterSize = 2
    var d = Deduplicator(configuration: config)
    d.truth = [7, 7, 7, 7, 8]
    let r = d.findDuplicates(in: ContactTable(contacts: contacts))
    let s = r.statistics
    #expect(s.pairsAccepted == 6)
    #expect(s.pairsRefusedByGuard == 4)
    #expect(s.pairsRefusedForSize == 4)
    #expect(s.trueAccepted == 6)
    #expect(s.trueRefusedByGuard == 4)
    #expect(s.trueRefusedForSize == 4)
    #expect(Set(r.clusterOf).count == 3)
    #expect(r.pairs.count == 2)
  }
}

@Suite struct SketchTests {
  @Test func manyPhonesFallBackToTheExactLists() {
    // The shared number is the fifth of five: past the sketch's four slots.
    let shared = "+1 312 644 3332"
    let many = (0..<4).map { ContactField(kind: .phone, value: "+1 212 555 01\($0)\($0)") } + [ContactField(kind: .phone, value: shared)]
    let contacts = [
      Contact(uid: "a", givenName: "Ann", familyName: "Lee", fields: many),
      Contact(uid: "b", givenName: "Ann", familyName: "Lee", fields: [ContactField(kind: .phone, value: shared)]),
    ]
    let r = Deduplicator().findDuplicates(in: ContactTable(contacts: contacts))
    #expect(r.clusterOf == [0, 0])
  }

  @Test func emailsPastTheSketchAndWithinIt() {
    let shared = "ann.lee@example.org"
    let many = (0..<4).map { ContactField(kind: .email, value: "ann\($0)@example.org") } + [ContactField(kind: .email, value: shared)]
    let contacts = [
      Contact(uid: "a", givenName: "Ann", familyName: "Lee", fields: many),
      Contact(uid: "b", givenName: "Ann", familyName: "Lee", fields: [ContactField(kind: .email, value: "ANN.LEE@example.org")]),
      Contact(uid: "c", givenName: "Ann", familyName: "Lee", fields: Array(many.prefix(2)) + [ContactField(kind: .email, value: "x@y.org")]),
    ]
    let keys = ContactKeys(table: ContactTable(contacts: contacts), configuration: DedupeConfiguration())
    let scorer = PairScorer(keys: keys)
    #expect(scorer.vector(0, 1)[.email] == 1)
    #expect(scorer.vector(0, 2)[.email] == 1)
    #expect(scorer.vector(1, 2)[.email] == 2)
  }

  @Test func sketchLevels() {
    var a = ContactSketch(), b = ContactSketch()
    #expect(ContactSketch.phoneLevel(a, b) == 0)
    a.phoneCount = 1; a.setPhone(0, 7)
    b.phoneCount = 2; b.setPhone(0, 8); b.setPhone(1, 7)
    #expect(ContactSketch.phoneLevel(a, b) == 1)
    b.setPhone(1, 9)
    #expect(ContactSketch.phoneLevel(a, b) == 2)
  }
}

@Suite struct HandoffTests {
  /// The worker that takes a handed-off collection owns it alone: its
  /// elements are freed as it empties them (a weak reference to one goes
  /// nil), and a second take finds nothing.
  @Test func takerOwnsTheValueAlone() {
    final class Token {}
    weak var watched: Token?
    let handoff: Handoff<[[Token]]> = {
      let t = Token()
      watched = t
      return Handoff([[t], [Token()]])
    }()
    var taken = handoff.take()
    #expect(taken.count == 2)
    #expect(watched != nil)
    taken[0] = []
    #expect(watched == nil, "the handoff kept no copy")
    #expect(handoff.take().isEmpty)
  }
}
