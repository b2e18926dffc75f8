import OhanaCore
import OhanaDatasets
import OhanaDedupe
import OhanaIO
import Testing

@testable import OhanaStore

/// The sorted-names neighbourhood read through the table and the log
/// together, against a plain reference: every entry of both, sorted, and
/// the nearest entries on each side of a name key taken from that list.
@Suite struct NameOrderLogTests {
  @Test func neighboursAreThoseOfTheTableAndLogTogether() throws {
    let table = try EntityStoreTests.book(1200, seed: 31, dupRate: 0.2)
    let path = EntityStoreTests.tempPath("names.sqlite")
    let store = try EntityStore.create(at: path, configuration: EntityStoreTests.storeConfiguration)
    // A first batch (straight into the table), then three small ones (into
    // the log: too small to have it folded into the table), the last with
    // a removal of a contact of the first and one of the second.
    _ = try store.link(table.gathering(rows: (0..<1110).map { UInt32($0) }), source: "a")
    for part in [1110..<1140, 1140..<1170] {
      _ = try store.link(table.gathering(rows: part.map { UInt32($0) }), source: "b")
    }
    let gone = [table.uid(at: 5), table.uid(at: 1120)].compactMap { $0 }
    _ = try store.link(table.gathering(rows: (1170..<1200).map { UInt32($0) }), source: "c", removing: gone)
    let logRows = try store.scalar("SELECT count(*) FROM name_order_log")
    #expect(logRows == 3, "the later runs' entries are in the log")

    // The reference: every entry of the table and the log, sorted.
    var all: [KeyPostings.Entry] = []
    let q = try store.db.prepare("SELECT name, contact, class FROM name_order")
    while try q.step() {
      all.append(KeyPostings.Entry(key: UInt64(bitPattern: q.int64(0)) ^ (1 << 63), contact: q.int64(1), cls: UInt8(q.int(2))))
    }
    let tableCount = all.count
    let rows = try store.db.prepare("SELECT entries FROM name_order_log")
    while try rows.step() { all.append(contentsOf: KeyPostings.decode(rows.bytes(0))) }
    #expect(all.count > tableCount)
    all.sort()
    #expect(Set(all.map(\.contact)).count == all.count, "one entry a contact")

    let names = try EntityStore.NameOrderLog(store)
    var rng = SplitMix64(seed: 5, stream: 1, index: 0)
    var probes = all.map(\.key)
    for _ in 0..<300 { probes.append(rng.next()) }
    probes.append(0)
    probes.append(.max)
    var wrong = 0
    for k in probes {
      for count in [1, 4] {
        let lo = all.firstIndex { $0.key >= k } ?? all.count
        let expected = Set(all[max(0, lo - count)..<lo].map(\.contact) + all[lo..<min(all.count, lo + count)].map(\.contact))
        let got = try names.neighbours(of: k, count: count)
        if Set(got.map(\.contact)) != expected || got.count != expected.count { wrong += 1 }
      }
    }
    #expect(wrong == 0, "\(wrong) of \(probes.count * 2) probes got other neighbours than the reference")
  }
}

/// The store keeps both thresholds; a store made before fitted weights had
/// their own keeps its one threshold for both.
@Suite struct StoredThresholdTests {
  @Test func bothThresholdsRoundTripAndAnOlderStoreKeepsItsOne() throws {
    var c = DedupeConfiguration()
    c.estimatedThreshold = 1.5
    let meta = StoredSettings.meta(c)
    let back = try #require(StoredSettings.configuration(meta))
    #expect(back.threshold == 3 && back.estimatedThreshold == 1.5)
    var older = meta
    older["estimated_threshold"] = nil
    older["threshold"] = "4.0"
    let old = try #require(StoredSettings.configuration(older))
    #expect(old.threshold == 4 && old.estimatedThreshold == 4)
  }
}
