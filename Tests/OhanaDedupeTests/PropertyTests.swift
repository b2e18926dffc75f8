import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaDedupe

/// Invariants on random contacts (with planted duplicates), whatever the data.
@Suite struct PropertyTests {
  static let seeds: [UInt64] = [1, 2, 42]

  func contacts(_ seed: UInt64) -> [Contact] {
    var cs = RandomContacts.make(count: 2000, seed: seed)
    var rng = SeededRandom(seed: seed &+ 100)
    for i in 0..<400 {
      var d = cs[Int(rng.next() % 2000)]
      d.uid = "dup-\(seed)-\(i)"
      d.familyName = d.familyName?.uppercased()
      if rng.chance(0.5) && !d.fields.isEmpty { d.fields.removeLast() }
      cs.append(d)
    }
    return cs
  }

  @Test(arguments: seeds) func clustersProvenanceAndFields(seed: UInt64) {
    let cs = contacts(seed)
    let table = ContactTable(contacts: cs)
    let (r, merged) = Deduplicator().deduplicate(table)
    // Cluster ids name a member: the cluster's first row.
    for (i, c) in r.clusterOf.enumerated() {
      #expect(Int(c) <= i)
      #expect(r.clusterOf[Int(c)] == c)
    }
    #expect(merged.rowCount == r.mergedCount)
    // Every input uid appears exactly once in the provenance.
    var seen: [String: Int] = [:]
    for row in 0..<merged.rowCount {
      guard case .string(let uids)? = merged.annotations[column: Deduplicator.sourceUIDsColumn]?
        .value(at: row, pool: merged.pool) else { continue }
      for u in uids.split(separator: ",") { seen[String(u), default: 0] += 1 }
    }
    let inputUIDs = cs.compactMap(\.uid)
    var inputCounts: [String: Int] = [:]
    for u in inputUIDs { inputCounts[u, default: 0] += 1 }
    #expect(seen == inputCounts)
    // No field lost: every input field's kind+value is in its merged contact,
    // unless an equal normalized value (same key) is there.
    let keys = ContactKeys(table: table, configuration: DedupeConfiguration())
    var rowOfCluster: [Int32: Int] = [:]
    var k = 0
    for (i, c) in r.clusterOf.enumerated() where Int(c) == i {
      rowOfCluster[c] = k
      k += 1
    }
    let mergedKeys = ContactKeys(table: merged, configuration: DedupeConfiguration())
    for row in 0..<table.rowCount {
      guard let m = rowOfCluster[r.clusterOf[row]] else {
        Issue.record("no merged row")
        continue
      }
      let present = Set(merged.fieldRange(of: m).map { f in
        mergedKeys.fieldKeys[f] != 0 ? "k\(mergedKeys.fieldKeys[f])" : "v\(merged.fields.kind[f].rawValue)\(merged.pool.string(merged.fields.value[f]) ?? "")"
      })
      for f in table.fieldRange(of: row) {
        let id = keys.fieldKeys[f] != 0 ? "k\(keys.fieldKeys[f])" : "v\(table.fields.kind[f].rawValue)\(table.pool.string(table.fields.value[f]) ?? "")"
        #expect(present.contains(id))
      }
    }
  }

  @Test(arguments: seeds) func deterministicAndThreadIndependent(seed: UInt64) {
    let table = ContactTable(contacts: contacts(seed))
    let one = Deduplicator(configuration: DedupeConfiguration(threads: 1)).findDuplicates(in: table)
    let many = Deduplicator(configuration: DedupeConfiguration(threads: 4)).findDuplicates(in: table)
    #expect(one.clusterOf == many.clusterOf)
    #expect(one.pairs == many.pairs)
  }

  /// The joined pairs' evidence is computed on several threads in pieces
  /// of ``Deduplicator/evidenceChunk``: enough pairs for several pieces,
  /// each pair's shared keys against a plain call per pair, and the pairs
  /// in the same order with one thread or three.
  @Test func evidenceInPiecesKeepsEachPairs() {
    var cs = RandomContacts.make(count: 3000, seed: 9)
    for i in 0..<3000 {
      var d = cs[i]
      d.uid = "copy-\(i)"
      cs.append(d)
    }
    let table = ContactTable(contacts: cs)
    let one = Deduplicator(configuration: DedupeConfiguration(threads: 1))
    let three = Deduplicator(configuration: DedupeConfiguration(threads: 3))
    let r1 = one.findDuplicates(in: table)
    let r3 = three.findDuplicates(in: table)
    #expect(r3.pairs.count > 2 * Deduplicator.evidenceChunk)
    #expect(r1.pairs == r3.pairs)
    let keys = ContactKeys(table: table, configuration: three.configuration)
    var wrong = 0
    for p in r3.pairs where p.sharedKeys != three.sharedKeys(keys, p.first, p.second, p.vector) { wrong += 1 }
    #expect(wrong == 0)
    // Independently of `sharedKeys`: an exact copy shares every basic key
    // its original has, so each original-copy pair names all their kinds.
    var copies = 0, missing = 0
    for p in r3.pairs where p.second == p.first + 3000 {
      copies += 1
      var own = BlockingKey.Set()
      Blocking.forEachBasicKey(keys, p.first, configuration: three.configuration) { _, kind in own.insert(.init(kind)) }
      if !p.sharedKeys.isSuperset(of: own) { missing += 1 }
    }
    #expect(copies > 1000)
    #expect(missing == 0)
    #expect(Set(r3.pairs.map { $0.first << 32 | $0.second }).count == r3.pairs.count)
    #expect(r3.pairs.count == r3.statistics.pairsAccepted - r3.statistics.pairsRefusedByGuard)
    // In join order: strongest first, ties by pair.
    var outOfOrder = 0
    for (x, y) in zip(r3.pairs, r3.pairs.dropFirst())
    where x.weight < y.weight || (x.weight == y.weight && (x.first, x.second) > (y.first, y.second)) {
      outOfOrder += 1
    }
    #expect(outOfOrder == 0)
  }

  @Test func plantedDuplicatesAreFound() {
    let table = ContactTable(contacts: contacts(7))
    let r = Deduplicator().findDuplicates(in: table)
    #expect(r.statistics.clusters > 0)
    #expect(r.mergedCount < table.rowCount)
  }
}
