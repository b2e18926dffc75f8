import Synchronization
import Testing
@testable import Ohana
import _OhanaTestSupport

final class Log: Sendable {
  let m = Mutex<[String]>([])
  func add(_ s: String) { m.withLock { $0.append(s) } }
  var entries: [String] { m.withLock { $0 } }
}

/// A provider that needs authorization until the test grants it.
final class GatedProvider: DataProvider {
  let identifier = "gated"
  let granted = Mutex(false)
  let contacts: [Contact]
  init(_ contacts: [Contact]) { self.contacts = contacts }
  func loadContacts() async throws -> ProviderResult {
    guard granted.withLock({ $0 }) else { throw ProviderError(.authorizationRequired, "needs access") }
    return ProviderResult(table: ContactTable(contacts: contacts), errors: [InputError(line: 7, reason: "bad card")])
  }
}

struct ThrowingProvider: DataProvider {
  let identifier = "broken"
  struct Oops: Error {}
  func loadContacts() async throws -> ProviderResult { throw Oops() }
}

struct Failing: PostProcessor {
  let name: String
  let role: StageRole
  struct Boom: Error {}
  func process(_ frame: Frame, context: ProcessingContext) throws -> Frame { throw Boom() }
}

@Suite struct DataSourceTests {
  let family = [
    Contact(uid: "1", givenName: "Homer", familyName: "Simpson", fields: [ContactField(kind: .phone, label: "cell", value: "555-0100")]),
    Contact(uid: "2", givenName: "Marge", familyName: "Simpson", fields: [ContactField(kind: .email, value: "marge@example.com")]),
    Contact(uid: "3", givenName: "Gomez", familyName: "Addams", fields: [ContactField(kind: .phone, value: "555-0199")]),
  ]

  @Test func signalsFireInOrder() async throws {
    let log = Log()
    let source = ContactsDataSource(providers: [InMemoryProvider(contacts: family)], processors: [RequiredField(.phone)])
    source.onProviderStatusChanged.addObserver { log.add("status:\($0.identifier):\($0.status)") }
    source.onProvidersLoaded.addObserver { log.add("providers:\($0)") }
    source.onPostProcessorsFinished.addObserver { log.add("processors:\($0.stages.count)") }
    source.onReady.addObserver { log.add("ready:\($0.count)") }
    let result = try await source.load()
    #expect(log.entries == ["status:memory:processing", "status:memory:loaded", "providers:[\"memory\"]", "processors:1", "ready:2"])
    #expect(result.frame.count == 2)
    #expect(source.contacts.map(\.uid) == ["1", "3"])
    #expect(source.contacts.allSatisfy { $0.sourceProvider == "memory" })
  }

  @Test func authorizationErrorThenRetry() async throws {
    let gated = GatedProvider(family)
    let source = ContactsDataSource(providers: [gated, InMemoryProvider(identifier: "other", contacts: [family[0]])])
    let errors = Log()
    source.onProviderError.addObserver { change in
      if case .error(let e) = change.status { errors.add("\(change.identifier):\(e.kind)") }
    }
    let first = try await source.load()
    #expect(errors.entries == ["gated:authorizationRequired"])
    #expect(first.failedProviders["gated"]?.kind == .authorizationRequired)
    #expect(first.frame.count == 1)  // the other provider still delivered
    #expect(source.status(of: "gated") == .error(ProviderError(.authorizationRequired, "needs access")))

    gated.granted.withLock { $0 = true }
    let second = try await source.retry(provider: "gated")
    #expect(source.status(of: "gated") == .loaded)
    #expect(second.frame.count == 4)
    #expect(second.failedProviders.isEmpty)
    #expect(second.inputErrors == [InputError(line: 7, reason: "bad card", source: "gated")])
  }

  @Test func otherProviderErrorsAreWrapped() async throws {
    let source = ContactsDataSource(providers: [ThrowingProvider()])
    let r = try await source.load()
    #expect(r.failedProviders["broken"]?.kind == .other)
    #expect(r.frame.count == 0)
  }

  @Test func stageIsolation() async throws {
    let optional = ContactsDataSource(
      providers: [InMemoryProvider(contacts: family)],
      processors: [Failing(name: "custom", role: .optional), RequiredField(.phone)])
    let r = try await optional.load()
    #expect(r.report.failedStages == ["custom"])
    #expect(r.frame.count == 2)

    let core = ContactsDataSource(providers: [InMemoryProvider(contacts: family)], processors: [Failing(name: "normalize", role: .core)])
    await #expect(throws: PipelineError.self) { try await core.load() }

    let disabled = ContactsDataSource(
      providers: [InMemoryProvider(contacts: family)], processors: [Failing(name: "normalize", role: .core)],
      disabledStages: ["normalize"])
    #expect(try await disabled.load().report.stages.first?.status == .disabled)
  }

  @Test func contactsPassingAFilterAndFuzzySearch() async throws {
    let source = ContactsDataSource(providers: [InMemoryProvider(contacts: family)])
    try await source.load()
    #expect(try source.contacts(passing: RequiredField(.email)).map(\.uid) == ["2"])
    #expect(source.contacts.count == 3)  // unchanged
    #expect(source.contacts(matching: "hmr").map(\.uid) == ["1"])
    #expect(source.contacts(matching: "SIMP").map(\.uid) == ["1", "2"])
    #expect(source.contacts(matching: "0199").map(\.uid) == ["3"])  // field value
    #expect(source.contacts(matching: "zzz").isEmpty)
  }
}

@Suite struct SelectionTests {
  let contacts = (0..<6).map { i in
    Contact(uid: "\(i)", givenName: "P\(i)", fields: i % 2 == 0 ? [ContactField(kind: .phone, value: "\(i)")] : [])
  }

  func loaded(_ filters: [any SelectionFilter]) async throws -> ContactsDataSource {
    let s = ContactsDataSource(providers: [InMemoryProvider(contacts: contacts)], selectionFilters: filters)
    try await s.load()
    return s
  }

  @Test func selectAndDeselectFireSignals() async throws {
    let s = try await loaded([])
    let log = Log()
    s.onSelected.addObserver { log.add("sel:" + $0.compactMap(\.uid).joined(separator: ",")) }
    s.onDeselected.addObserver { log.add("desel:" + $0.compactMap(\.uid).joined(separator: ",")) }
    #expect(s.select(positions: [2, 0, 2, 99]) == [2, 0])
    #expect(s.selectedContacts.map(\.uid) == ["2", "0"])
    #expect(s.select(positions: [0]) == [])  // already selected: no-op, no signal
    s.deselect([s.contacts[2]])
    #expect(s.selectedContacts.map(\.uid) == ["0"])
    #expect(log.entries == ["sel:2,0", "desel:2"])
  }

  @Test func maximumSelectedCount() async throws {
    let maxFilter = MaximumSelectedCount(2)
    let s = try await loaded([maxFilter])
    let log = Log()
    maxFilter.onReachedMaximum.addObserver { log.add("reached:\($0)") }
    maxFilter.onAttemptedToExceedMaximum.addObserver { log.add("exceed:" + $0.compactMap(\.uid).joined(separator: ",")) }
    maxFilter.onNoLongerAtMaximum.addObserver { log.add("below:\($0)") }
    s.select(positions: [0])
    s.select(positions: [1, 2])  // would make 3: refused whole
    s.select(positions: [1])  // reaches 2
    s.select(positions: [3])  // refused
    s.deselect(positions: [0])  // back to 1
    #expect(log.entries == ["exceed:1,2", "reached:2", "exceed:3", "below:1"])
    #expect(s.selectedContacts.map(\.uid) == ["1"])
  }

  @Test func minimumSelectedCount() async throws {
    let minFilter = MinimumSelectedCount(1)
    let s = try await loaded([minFilter])
    let log = Log()
    minFilter.onAttemptedToDropBelowMinimum.addObserver { log.add("drop:" + $0.compactMap(\.uid).joined(separator: ",")) }
    s.select(positions: [0, 1])
    s.deselect(positions: [0, 1])  // would leave 0: refused
    s.deselect(positions: [1])
    #expect(log.entries == ["drop:0,1"])
    #expect(s.selectedContacts.map(\.uid) == ["0"])
  }

  @Test func requiredFieldSelection() async throws {
    let req = RequiredFieldSelectionFilter(.phone)
    let s = try await loaded([req])
    let log = Log()
    req.onRejected.addObserver { log.add("rejected:" + $0.compactMap(\.uid).joined(separator: ",")) }
    #expect(s.select(positions: [0, 1, 2, 3]) == [0, 2])
    #expect(log.entries == ["rejected:1,3"])
  }
}

@Suite struct FuzzySearchTests {
  let frame = Frame(table: ContactTable(contacts: [
    Contact(uid: "1", fullName: "Wednesday Addams"),
    Contact(uid: "2", givenName: "Morticia", familyName: "Addams"),
    Contact(uid: "3", fullName: "Ünal Çelik", fields: [ContactField(kind: .email, value: "unal@example.com")]),
  ]))

  func uids(_ rows: [UInt32]) -> [String] { rows.compactMap { frame.table.contact(at: Int($0)).uid } }

  @Test func subsequenceAnyCase() {
    #expect(uids(FuzzySearch.search(frame, query: "wda")) == ["1"])
    #expect(uids(FuzzySearch.search(frame, query: "ADDAMS")) == ["1", "2"])
    #expect(uids(FuzzySearch.search(frame, query: "ünal")) == ["3"])
    #expect(uids(FuzzySearch.search(frame, query: "example")) == ["3"])  // field value
    #expect(uids(FuzzySearch.search(frame, query: "tad")) == ["2"])  // given + family when no full name
    #expect(uids(FuzzySearch.search(frame, query: "")) == ["1", "2", "3"])
    #expect(uids(FuzzySearch.search(frame, query: "dw")) == [])
  }

  @Test func scoredBestFirstTiesInOrder() {
    let rows = FuzzySearch.search(frame, query: "a") { c, _ in c.uid == "2" ? 2 : 1 }
    #expect(uids(rows) == ["2", "1", "3"])
  }
}
