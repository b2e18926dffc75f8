import Testing
import OhanaCore
import OhanaProcessors
import _OhanaTestSupport

/// The columnar passes must give exactly what the one-contact-at-a-time
/// reference gives, on random tables.
@Suite struct DifferentialTests {
  static let seeds: [UInt64] = [1, 2, 3, 42, 2026]

  func check(_ seed: UInt64, _ columnar: [any PostProcessor], _ reference: ([RefContact]) -> [RefContact]) throws {
    let contacts = RandomContacts.make(count: 3000, seed: seed)
    var frame = Frame(table: ContactTable(contacts: contacts))
    for p in columnar { frame = try p.process(frame, context: ProcessingContext()) }
    let expected = reference(Reference.contacts(contacts)).map { $0.value() }
    let got = frame.contacts
    #expect(got.count == expected.count, "seed \(seed)")
    if got != expected {
      let i = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
      Issue.record("seed \(seed): first difference at output row \(i)")
    }
  }

  @Test(arguments: seeds) func filters(seed: UInt64) throws {
    for kind in FieldKind.allCases {
      try check(seed, [RequiredField(.field(kind))]) { Reference.requiredField($0, kind: kind) }
    }
    try check(seed, [RequiredField(.givenName)]) { Reference.requiredAttribute($0, .givenName) }
    try check(seed, [RequiredField(.photo)]) { Reference.requiredPhoto($0) }
    try check(seed, [RequiredPostalAddress()]) { Reference.requiredAddress($0) }
  }

  @Test(arguments: seeds) func orderAndChains(seed: UInt64) throws {
    try check(seed, [ReverseOrder()]) { Reference.reverse($0) }
    try check(seed, [RequiredField(.email), ReverseOrder(), RequiredPostalAddress()]) {
      Reference.requiredAddress(Reference.reverse(Reference.requiredField($0, kind: .email)))
    }
  }

  @Test(arguments: seeds) func statistics(seed: UInt64) throws {
    try check(seed, [RequiredField(.phone), Statistics()]) { Reference.statistics(Reference.requiredField($0, kind: .phone)) }
  }

  @Test(arguments: seeds) func split(seed: UInt64) throws {
    for kind in [FieldKind.phone, .email] {
      try check(seed, [ReverseOrder(), SplitOnFieldType(kind)]) { cs in
        let rev = Reference.reverse(cs)
        return Reference.split(rev, kind: kind, sourceRows: (0..<cs.count).reversed())
      }
    }
  }

  @Test(arguments: seeds) func composites(seed: UInt64) throws {
    let phone: ([RefContact]) -> [RefContact] = { Reference.requiredField($0, kind: .phone) }
    let email: ([RefContact]) -> [RefContact] = { Reference.requiredField($0, kind: .email) }
    let addr: ([RefContact]) -> [RefContact] = { Reference.requiredAddress($0) }
    for (op, make) in [("and", CompositeAnd), ("or", CompositeOr), ("xor", CompositeXor)] {
      try check(seed, [make([RequiredField(.phone), RequiredField(.email), RequiredPostalAddress()])]) {
        Reference.composite($0, op, [phone, email, addr])
      }
    }
    try check(seed, [ReverseOrder(), CompositeXor([CompositeAnd([RequiredField(.phone), RequiredField(.email)]), RequiredPostalAddress()])]) { cs in
      let rev = Reference.reverse(cs)
      return Reference.composite(rev, "xor", [{ Reference.composite($0, "and", [phone, email]) }, addr])
    }
  }
}
