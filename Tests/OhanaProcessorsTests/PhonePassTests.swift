import Dispatch
import OhanaCore
import OhanaPhone
import Testing
import _OhanaTestSupport

@testable import OhanaProcessors

@Suite struct PhonePassTests {
  @Test func pairIndexHandsOutDenseIndicesInFirstSeenOrder() {
    var index = PairIndex()
    var reference: [[UInt64]: Int32] = [:]
    var seed: UInt64 = 7
    for _ in 0..<20_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let a = (seed >> 40) % 3_000, b = (seed >> 20) % 3
      let (k, inserted) = index.index(a, b)
      if let expected = reference[[a, b]] {
        #expect(!inserted && k == expected)
      } else {
        #expect(inserted && Int(k) == reference.count)
        reference[[a, b]] = k
      }
    }
    #expect(index.count == reference.count)
    // Zero keys are ordinary keys (emptiness is the index, not the key).
    #expect(index.index(0, 0).inserted == (reference[[0, 0]] == nil))
  }

  @Test func sharedBufferTakesDisjointWritesFromManyThreads() {
    let buffer = SharedBuffer<UInt32>(repeating: 0, count: 10_000)
    DispatchQueue.concurrentPerform(iterations: 8) { w in
      for i in stride(from: w, to: 10_000, by: 8) { buffer[i] = UInt32(i) * 3 }
    }
    #expect(buffer.count == 10_000)
    #expect(buffer.array() == (0..<10_000).map { UInt32($0) * 3 })
    let strings = SharedBuffer<String>(repeating: "", count: 3)
    strings[1] = "b"
    #expect(strings.array() == ["", "b", ""])
    #expect(SharedBuffer<UInt8>(repeating: 1, count: 0).array().isEmpty)
    let ids = SharedBuffer<StringID>(uninitializedCount: 1_000)
    DispatchQueue.concurrentPerform(iterations: 4) { w in
      for i in (w * 250)..<((w + 1) * 250) { ids[i] = StringID(rawValue: UInt32(i)) }
    }
    #expect(ids.array().map(\.rawValue) == (0..<1_000).map { UInt32($0) })
    #expect(SharedBuffer<UInt64>(uninitializedCount: 0).array().isEmpty)
  }

  /// The same columns whatever the number of parts, and no trouble with
  /// tables without fields or without phones.
  @Test func samePartsOrNotAndEmptyTables() throws {
    var table = RandomContacts.table(count: 1_500, seed: 9)
    let regions = ["US", "GB", "DE", "fr", "", "JP"]
    table.setColumn("country", .string((0..<table.rowCount).map { table.pool.intern(regions[$0 % regions.count]) }))
    let processor = PhoneNumberFormatting(defaultRegion: .us, regionColumn: "country")
    func strings(_ t: ContactTable) -> [String: [String?]] {
      var out: [String: [String?]] = [:]
      for name in t.fields.annotations.columnNames {
        switch t.fields.annotations[column: name] {
        case .string(let v)?: out[name] = v.map { t.pool.string($0) }
        case .bool(let b, let known)?: out[name] = (0..<known.count).map { known.contains($0) ? "\(b.contains($0))" : nil }
        default: break
        }
      }
      return out
    }
    let referenceContext = ProcessingContext()
    let reference = processor.process(Frame(table: table), context: referenceContext, parts: 2)
    #expect(reference.table.fields.annotations.columnNames == [
      PhoneNumberFormatting.e164, PhoneNumberFormatting.international, PhoneNumberFormatting.national,
      PhoneNumberFormatting.rfc3966, PhoneNumberFormatting.valid, PhoneNumberFormatting.type, PhoneNumberFormatting.region,
    ])
    for parts in [1, 3, 7, 64, 1_000] {
      let context = ProcessingContext()
      let out = processor.process(Frame(table: table), context: context, parts: parts)
      #expect(strings(out.table) == strings(reference.table))
      #expect(
        context.counters[PhoneNumberFormatting.unparsableCounter]
          == referenceContext.counters[PhoneNumberFormatting.unparsableCounter])
    }
    for empty in [ContactTable(), ContactTable(contacts: [Contact(uid: "x", fields: [ContactField(kind: .email, value: "a@x")])])] {
      let out = try processor.process(Frame(table: empty), context: ProcessingContext())
      #expect(out.table.fields.annotations[column: PhoneNumberFormatting.e164]?.count == empty.fields.count)
      #expect(out.table.pool.count == empty.pool.count)
    }
  }

  /// Every column of every phone field, per-contact regions, against the
  /// engine called directly.
  @Test func everyColumnAgreesWithTheEngineWithPerContactRegions() throws {
    var table = RandomContacts.table(count: 3_000, seed: 5)
    // The same numbers typed many ways, read in many regions.
    let typed = [
      "(650) 253-0000", "+1 650-253-0000", "+44 7400 123456", "07400 123456", "030 123456", "01 23 45 67 89",
      "1-800-FLOWERS ext. 12", "+1 650 253 0000 x 99", "tel:+1-650-253-0000", "not a number", "0800 123 456",
      "+800 1234 5678", "011 44 20 7031 3000", "+011 44 20 7031 3000", "12", "\u{661}\u{662}\u{663}\u{664}\u{665}\u{666}\u{667}",
      "+49 30 123456", "0049 30 123456", "+33 1 23 45 67 89",
    ]
    let more = (0..<400).map { c in
      Contact(
        uid: "t\(c)",
        fields: (0..<3).map { k in ContactField(kind: .phone, value: typed[(c * 3 + k * 7) % typed.count]) })
    }
    table = ContactTable.concatenate([table, ContactTable(contacts: more)])
    // More than 8 regions per value: the key chains overflow into the hash index.
    let regions = ["US", "GB", "DE", "fr", "", "JP", "XX", "BR", "IN", "AU", "CA", "IT", "es"]
    let ids = (0..<table.rowCount).map { table.pool.intern(regions[$0 % regions.count]) }
    table.setColumn("country", .string(ids))
    // The same numbers typed in other contacts and regions.
    let out = try PhoneNumberFormatting(defaultRegion: .us, regionColumn: "country")
      .process(Frame(table: table), context: ProcessingContext())
    let t = out.table
    let engine = PhoneNumberEngine()
    func column(_ name: String) -> [String?] {
      guard case .string(let v)? = t.fields.annotations[column: name] else { return [] }
      return v.map { t.pool.string($0) }
    }
    let e164 = column(PhoneNumberFormatting.e164), intl = column(PhoneNumberFormatting.international)
    let national = column(PhoneNumberFormatting.national), rfc = column(PhoneNumberFormatting.rfc3966)
    let type = column(PhoneNumberFormatting.type), region = column(PhoneNumberFormatting.region)
    guard case .bool(let valid, let known)? = t.fields.annotations[column: PhoneNumberFormatting.valid] else {
      Issue.record("no phone.valid column")
      return
    }
    var parsed = 0
    for row in 0..<table.rowCount {
      let r = RegionCode(regions[row % regions.count]) ?? .us
      for i in table.fieldRange(of: row) {
        guard table.fields.kind[i] == .phone, let raw = table.pool.string(table.fields.value[i]) else {
          #expect(e164[i] == nil && type[i] == nil && !known.contains(i))
          continue
        }
        guard let n = try? engine.parse(raw, defaultRegion: r) else {
          #expect(e164[i] == nil && intl[i] == nil && type[i] == nil && region[i] == nil && !known.contains(i))
          continue
        }
        parsed += 1
        let (nr, nt) = engine.classify(n)
        #expect(e164[i] == engine.format(n, as: .e164))
        #expect(intl[i] == engine.format(n, as: .international))
        #expect(national[i] == engine.format(n, as: .national))
        #expect(rfc[i] == engine.format(n, as: .rfc3966))
        #expect(type[i] == nt.description)
        #expect(region[i] == nr?.description)
        #expect(known.contains(i) && valid.contains(i) == (nt != .unknown))
      }
    }
    #expect(parsed > 1_000)
  }
}
