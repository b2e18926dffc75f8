import Synchronization
import Testing
import Ohana

/// The README's library quick start, kept compiling and true.
@Suite struct QuickStartTests {
  @Test func readmeQuickStart() async throws {
    // 1. Providers load contacts (here from memory; VCardProvider, CSVProvider
    //    and NDJSONProvider read files).
    let provider = InMemoryProvider(contacts: [
      Contact(givenName: "Homer", familyName: "Simpson",
              fields: [ContactField(kind: .phone, label: "cell", value: "+1 939 555 0113")]),
      Contact(givenName: "Marge", familyName: "Simpson"),
    ])

    // 2. Post processors run in order, as passes over columns.
    let dataSource = ContactsDataSource(
      providers: [provider],
      processors: [
        RequiredField(.phone),
        Statistics(),
        MapProcessor.rows("full_name") { contact in
          contact.fullName = [contact.givenName, contact.familyName].compactMap { $0 }.joined(separator: " ")
        },
      ])

    // 3. Signals announce every step.
    let names = Mutex<[String]>([])
    dataSource.onReady.addObserver { frame in
      names.withLock { $0 = frame.contacts.compactMap(\.fullName) }
    }

    let result = try await dataSource.load()
    #expect(names.withLock { $0 } == ["Homer Simpson"])
    #expect(dataSource.contacts.first?.properties["stats.hasMobile"] == .bool(true))
    #expect(result.report.stages.map(\.name) == ["required-phone", "stats", "full_name"])
  }
}
