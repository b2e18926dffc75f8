import OhanaCore
import Testing

@testable import OhanaDedupe

/// Each value of a merged contact names the member it came from
/// (``ValueOrigins``; issue 46, item 3). The oracle is the input itself:
/// clusters made by hand (not found by the model) of members whose phones,
/// e-mails and addresses are drawn from a small pool per cluster, so that
/// members share some values and the merge drops the repeats. Every
/// merged value's origin must name a member of its cluster that holds that
/// exact value.
@Suite struct ValueOriginsTests {
  struct Built {
    var table: ContactTable
    var clusterOf: [Int32]
    /// Per row, the origin text the documentation defines.
    var origin: [String]
  }

  /// `clusters` clusters of 1-4 members (a seeded generator: the same
  /// every run).
  static func build(clusters: Int) -> Built {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
    let sources: [String?] = ["crm", "phonebook", nil]
    var contacts: [Contact] = []
    var clusterOf: [Int32] = []
    var origin: [String] = []
    for k in 0..<clusters {
      let first = Int32(contacts.count)
      for j in 0..<(1 + next(4)) {
        let uid: String? = next(5) == 0 ? nil : "c\(k)m\(j)"
        let source = sources[next(3)]
        var fields: [ContactField] = []
        for _ in 0..<next(3) { fields.append(ContactField(kind: .phone, label: "cell", value: "+1 312 555 \(1000 + 10 * k + next(3))")) }
        for _ in 0..<next(3) { fields.append(ContactField(kind: .email, value: "p\(k).\(next(3))@example.org")) }
        var addresses: [PostalAddress] = []
        for _ in 0..<next(2) { addresses.append(PostalAddress(label: "home", street: "\(k * 10 + next(3)) Main St", postalCode: "60601")) }
        contacts.append(
          Contact(
            uid: uid, givenName: "Given\(k)", familyName: "Family\(k)", sourceProvider: source, fields: fields,
            addresses: addresses))
        clusterOf.append(first)
        let row = contacts.count - 1
        origin.append((source.map { $0 + ":" } ?? "") + (uid ?? "row-\(row + 1)"))
      }
    }
    return Built(table: ContactTable(contacts: contacts), clusterOf: clusterOf, origin: origin)
  }

  static func merged(_ b: Built) -> (ContactTable, DedupeResult) {
    let d = Deduplicator(configuration: DedupeConfiguration())
    var r = d.findDuplicates(in: b.table)
    r.clusterOf = b.clusterOf
    return (d.merge(b.table, r), r)
  }

  @Test func everyValueNamesAMemberThatHoldsIt() throws {
    let b = Self.build(clusters: 60)
    let (m, r) = Self.merged(b)
    let input = b.table
    let reps = (0..<b.clusterOf.count).filter { Int(b.clusterOf[$0]) == $0 }
    #expect(m.rowCount == reps.count)
    guard case .string(let fieldOrigins)? = m.fields.annotations[column: ValueOrigins.column],
      case .string(let addressOrigins)? = m.addresses.annotations[column: ValueOrigins.column]
    else {
      Issue.record("no origin columns")
      return
    }
    var checkedFields = 0, checkedAddresses = 0, fromOthers = 0
    for (k, c) in reps.enumerated() {
      let members = (0..<b.clusterOf.count).filter { Int(r.clusterOf[$0]) == c }
      for j in m.fieldRange(of: k) {
        let value = m.pool.string(m.fields.value[j])
        let origin = m.pool.string(fieldOrigins[j])
        if members.count == 1 {
          #expect(origin == nil, "a contact alone gets no origin")
          continue
        }
        // The members holding this exact value, by the input's own rows.
        let holders = members.filter { row in
          input.fieldRange(of: row).contains { input.pool.string(input.fields.value[$0]) == value }
        }
        #expect(!holders.isEmpty)
        #expect(holders.map { b.origin[$0] }.contains(origin ?? "-"), "\(value ?? "") from \(origin ?? "nowhere")")
        if origin != b.origin[members[0]] { fromOthers += 1 }
        checkedFields += 1
      }
      for j in m.addressRange(of: k) {
        let street = m.pool.string(m.addresses[.street][j])
        let origin = m.pool.string(addressOrigins[j])
        if members.count == 1 {
          #expect(origin == nil)
          continue
        }
        let holders = members.filter { row in
          input.addressRange(of: row).contains { input.pool.string(input.addresses[.street][$0]) == street }
        }
        #expect(holders.map { b.origin[$0] }.contains(origin ?? "-"), "\(street ?? "") from \(origin ?? "nowhere")")
        checkedAddresses += 1
      }
    }
    // The test saw enough: values of clusters, some from a member other
    // than the cluster's first.
    #expect(checkedFields > 100 && checkedAddresses > 20 && fromOthers > 20, "\(checkedFields) \(checkedAddresses) \(fromOthers)")
  }

  @Test func theVCardParameterCarriesTheOriginAndKeepsTheOthers() throws {
    let b = Self.build(clusters: 30)
    var (m, _) = Self.merged(b)
    guard case .string(let before)? = m.fields.annotations[column: ValueOrigins.column] else {
      Issue.record("no origin column")
      return
    }
    let addressBefore = m.addresses.annotations[column: ValueOrigins.column]
    ValueOrigins.originParameters(&m)
    #expect(m.fields.annotations[column: ValueOrigins.column] == nil)
    var withParameter = 0
    for j in 0..<m.fields.count {
      let params = ParameterList(encoded: m.pool.string(m.fields.parameters[j]) ?? "")
      let sources = params.values(ValueOrigins.parameter)
      if let o = m.pool.string(before[j]) {
        #expect(sources == [o])
        withParameter += 1
        // The label a field had is still written as its TYPE.
        if m.pool.string(m.fields.label[j]) == "cell" { #expect(params.values("TYPE").map { $0.lowercased() } == ["cell"]) }
      } else {
        #expect(sources.isEmpty)
      }
    }
    #expect(withParameter > 20)
    if case .string(let a)? = addressBefore {
      for j in 0..<m.addresses.count {
        let params = ParameterList(encoded: m.pool.string(m.addresses[.parameters][j]) ?? "")
        #expect(params.values(ValueOrigins.parameter) == (m.pool.string(a[j]).map { [$0] } ?? []))
      }
    }
    // A second pass replaces the parameter, it does not add another.
    var again = m
    again.fields.annotations.setColumn(ValueOrigins.column, .string(before))
    ValueOrigins.originParameters(&again)
    for j in 0..<again.fields.count where before[j].isPresent {
      let params = ParameterList(encoded: again.pool.string(again.fields.parameters[j]) ?? "")
      #expect(params.values(ValueOrigins.parameter).count == 1)
    }
  }

  @Test func withoutProvenanceNoOrigins() {
    let b = Self.build(clusters: 10)
    let d = Deduplicator(configuration: DedupeConfiguration())
    var r = d.findDuplicates(in: b.table)
    r.clusterOf = b.clusterOf
    let keys = ContactKeys(table: b.table, configuration: d.configuration)
    let m = d.merge(b.table, r, keys: MergeKeys(keys), provenance: false)
    #expect(m.fields.annotations[column: ValueOrigins.column] == nil)
  }
}
