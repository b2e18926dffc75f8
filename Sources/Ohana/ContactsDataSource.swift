import OhanaCore
import OhanaProcessors
import Synchronization

/// A provider's status changed.
public struct ProviderStatusChange: Sendable {
  public let identifier: String
  public let status: ProviderStatus
}

/// What one ``ContactsDataSource/load()`` produced.
public struct LoadResult: Sendable {
  /// The final frame: the contacts after every processor, in order.
  public let frame: Frame
  public let report: RunReport
  /// Records the providers skipped (with line and reason).
  public let inputErrors: [InputError]
  /// Providers that failed, by identifier (their contacts are missing).
  public let failedProviders: [String: ProviderError]
}

/// Loads contacts from providers, runs them through the post processors,
/// and keeps a guarded selection (Ohana's OHContactsDataSource).
///
/// ```swift
/// let source = ContactsDataSource(
///   providers: [VCardProvider(path: "contacts.vcf")],
///   processors: [RequiredField(.phone), AlphabeticalSort(mode: .familyName, locale: "de")])
/// source.onReady.addObserver(self) { frame in print(frame.count) }
/// try await source.load()
/// let contacts = source.contacts
/// ```
///
/// Data flows one way: providers → processors in order → ready. Each step
/// fires a signal. Providers load concurrently; a provider that fails is
/// reported (``onProviderError``) with its `ProviderError.Kind` and the
/// load goes on with the others; after resolving the cause (for example an
/// authorization), call ``retry(provider:)``.
public final class ContactsDataSource: Sendable {
  public let providers: [any DataProvider]
  public let pipeline: Pipeline
  public let selectionFilters: [any SelectionFilter]

  // MARK: Signals (Ohana's onContactsDataSource... signals)
  /// Fired after every provider was asked, with the identifiers that loaded.
  public let onProvidersLoaded = Signal<[String]>()
  /// Fired on each provider status change.
  public let onProviderStatusChanged = Signal<ProviderStatusChange>()
  /// Fired when a provider fails (e.g. `.authorizationRequired`).
  public let onProviderError = Signal<ProviderStatusChange>()
  /// Fired when the processors finished, with the run report.
  public let onPostProcessorsFinished = Signal<RunReport>()
  /// Fired when contacts are ready, with the final frame (a snapshot).
  public let onReady = Signal<Frame>()
  /// Fired with the contacts that became selected.
  public let onSelected = Signal<[Contact]>()
  /// Fired with the contacts that became deselected.
  public let onDeselected = Signal<[Contact]>()

  private struct State {
    var results: [String: ProviderResult] = [:]
    var statuses: [String: ProviderStatus] = [:]
    var frame: Frame?
    var rows: [UInt32] = []
    var selected: Set<Int> = []
    var selectionOrder: [Int] = []
    var report: RunReport?
  }
  private let state = Mutex(State())

  public init(
    providers: [any DataProvider], processors: [any PostProcessor] = [],
    selectionFilters: [any SelectionFilter] = [], disabledStages: Set<String> = []
  ) {
    self.providers = providers
    self.pipeline = Pipeline(processors, disabled: disabledStages)
    self.selectionFilters = selectionFilters
    state.withLock { s in for p in providers { s.statuses[p.identifier] = .initialized } }
  }

  // MARK: Loading

  /// Loads every provider, runs the processors and fires the signals.
  /// - Throws: `PipelineError` when a core stage fails.
  @discardableResult
  public func load() async throws -> LoadResult {
    await withTaskGroup(of: Void.self) { group in
      for p in providers { group.addTask { await self.loadProvider(p) } }
    }
    let loaded = state.withLock { s in providers.map(\.identifier).filter { s.results[$0] != nil } }
    onProvidersLoaded.fire(loaded)
    return try runProcessors()
  }

  /// Loads one provider again (after the caller resolved its error) and
  /// re-runs the processors.
  @discardableResult
  public func retry(provider identifier: String) async throws -> LoadResult {
    guard let p = providers.first(where: { $0.identifier == identifier }) else {
      throw ProviderError(.unavailable, "no provider named \(identifier)")
    }
    await loadProvider(p)
    let loaded = state.withLock { s in providers.map(\.identifier).filter { s.results[$0] != nil } }
    onProvidersLoaded.fire(loaded)
    return try runProcessors()
  }

  /// The status of a provider.
  public func status(of identifier: String) -> ProviderStatus? {
    state.withLock { $0.statuses[identifier] }
  }

  private func setStatus(_ id: String, _ status: ProviderStatus) {
    state.withLock { $0.statuses[id] = status }
    let change = ProviderStatusChange(identifier: id, status: status)
    onProviderStatusChanged.fire(change)
    if case .error = status { onProviderError.fire(change) }
  }

  private func loadProvider(_ p: any DataProvider) async {
    setStatus(p.identifier, .processing)
    do {
      var result = try await p.loadContacts()
      // Stamp the provider on rows that do not name one.
      var t = result.table
      let pid = t.intern(p.identifier)
      let col = t[.sourceProvider]
      if col.contains(where: { $0.isAbsent }) {
        t.setAttribute(.sourceProvider, col.map { $0.isAbsent ? pid : $0 })
      }
      result.table = t
      result.errors = result.errors.map { e in
        var e = e
        if e.source == nil { e.source = p.identifier }
        return e
      }
      let r = result
      state.withLock { $0.results[p.identifier] = r }
      setStatus(p.identifier, .loaded)
    } catch {
      let pe = (error as? ProviderError) ?? ProviderError(.other, String(describing: error))
      state.withLock { $0.results[p.identifier] = nil }
      setStatus(p.identifier, .error(pe))
    }
  }

  private func runProcessors() throws -> LoadResult {
    let (tables, errors, failed) = state.withLock { s -> ([ContactTable], [InputError], [String: ProviderError]) in
      var tables: [ContactTable] = []
      var errors: [InputError] = []
      var failed: [String: ProviderError] = [:]
      for p in providers {
        if let r = s.results[p.identifier] {
          tables.append(r.table)
          errors += r.errors
        } else if case .error(let e)? = s.statuses[p.identifier] {
          failed[p.identifier] = e
        }
      }
      return (tables, errors, failed)
    }
    let input = Frame(table: ContactTable.concatenate(tables))
    let (frame, report) = try pipeline.run(input)
    let rows = frame.rows
    state.withLock { s in
      s.frame = frame
      s.rows = rows
      s.selected = []
      s.selectionOrder = []
      s.report = report
    }
    onPostProcessorsFinished.fire(report)
    onReady.fire(frame)
    return LoadResult(frame: frame, report: report, inputErrors: errors, failedProviders: failed)
  }

  // MARK: Contacts

  /// The final frame, or nil before the first load.
  public var frame: Frame? { state.withLock { $0.frame } }

  /// The last run's report.
  public var report: RunReport? { state.withLock { $0.report } }

  /// The contacts after every processor, in order.
  public var contacts: [Contact] { frame?.contacts ?? [] }

  /// The contacts that also pass `filter` (run on the current frame; the
  /// data source does not change).
  public func contacts(passing filter: some PostProcessor) throws -> [Contact] {
    guard let f = frame else { return [] }
    return try filter.process(f, context: ProcessingContext()).contacts
  }

  /// The contacts whose full name or a field value contains `query`'s
  /// characters in order, any case (Ohana's OHFuzzyMatchingUtility).
  public func contacts(matching query: String, score: FuzzySearch.Scorer? = nil) -> [Contact] {
    guard let f = frame else { return [] }
    return FuzzySearch.search(f, query: query, score: score).map { f.table.contact(at: Int($0)) }
  }

  // MARK: Selection

  /// The selected contacts, in the order they were selected.
  public var selectedContacts: [Contact] {
    let (frame, order) = state.withLock { ($0.frame, $0.selectionOrder) }
    guard let frame else { return [] }
    return order.map { frame.table.contact(at: $0) }
  }

  /// Selects contacts by position in ``contacts``; selection filters may
  /// refuse some. Returns the positions that became selected.
  @discardableResult
  public func select(positions: [Int]) -> [Int] {
    changeSelection(positions: positions, selecting: true)
  }

  /// Deselects contacts by position in ``contacts``.
  @discardableResult
  public func deselect(positions: [Int]) -> [Int] {
    changeSelection(positions: positions, selecting: false)
  }

  /// Selects contacts (matched by value against ``contacts``).
  @discardableResult
  public func select(_ contacts: [Contact]) -> [Contact] {
    select(positions: positions(of: contacts)).map { self.contact(atPosition: $0) }.compactMap { $0 }
  }

  /// Deselects contacts (matched by value).
  @discardableResult
  public func deselect(_ contacts: [Contact]) -> [Contact] {
    deselect(positions: positions(of: contacts)).map { self.contact(atPosition: $0) }.compactMap { $0 }
  }

  private func contact(atPosition p: Int) -> Contact? {
    let (frame, rows) = state.withLock { ($0.frame, $0.rows) }
    guard let frame, p >= 0, p < rows.count else { return nil }
    return frame.table.contact(at: Int(rows[p]))
  }

  private func positions(of contacts: [Contact]) -> [Int] {
    let all = self.contacts
    var index: [Contact: [Int]] = [:]
    for (i, c) in all.enumerated() { index[c, default: []].append(i) }
    var used = Set<Int>()
    var out: [Int] = []
    for c in contacts {
      if let p = index[c]?.first(where: { !used.contains($0) }) { used.insert(p); out.append(p) }
    }
    return out
  }

  private func changeSelection(positions: [Int], selecting: Bool) -> [Int] {
    guard let (frame, rows, selected) = state.withLock({ s in s.frame.map { ($0, s.rows, s.selected) } }) else { return [] }
    // Positions -> table rows, dropping out-of-range and no-op ones.
    var candidates: [Int] = []
    var seen = Set<Int>()
    for p in positions where p >= 0 && p < rows.count {
      let r = Int(rows[p])
      if selected.contains(r) == selecting { continue }
      if seen.insert(r).inserted { candidates.append(r) }
    }
    for f in selectionFilters {
      if candidates.isEmpty { break }
      candidates = selecting
        ? f.filterForSelection(candidates, selected: selected, frame: frame)
        : f.filterForDeselection(candidates, selected: selected, frame: frame)
    }
    guard !candidates.isEmpty else { return [] }
    let (old, new) = state.withLock { s -> (Int, Set<Int>) in
      let old = s.selected.count
      if selecting {
        for r in candidates where s.selected.insert(r).inserted { s.selectionOrder.append(r) }
      } else {
        let gone = Set(candidates)
        s.selected.subtract(gone)
        s.selectionOrder.removeAll { gone.contains($0) }
      }
      return (old, s.selected)
    }
    let changed = candidates.map { frame.table.contact(at: $0) }
    if selecting { onSelected.fire(changed) } else { onDeselected.fire(changed) }
    for f in selectionFilters { f.selectionDidChange(selected: new, oldCount: old, frame: frame) }
    let positionOf = Dictionary(rows.enumerated().map { (Int($0.element), $0.offset) }, uniquingKeysWith: { a, _ in a })
    return candidates.compactMap { positionOf[$0] }
  }
}
