import OhanaCore

/// A run's ``DedupeDecision``s resolved to rows: the groups to unite before
/// any scored pair (`same`), the row pairs never to join (`different`), and
/// the decisions skipped, each with its line and why.
///
/// Decisions are taken in order. One that names a uid no contact has is
/// skipped whole (nothing of it is half applied). One that contradicts the
/// decisions before it (a `same` that would put two contacts together that
/// an earlier `different` keeps apart, or a `different` between contacts an
/// earlier `same` joined) is skipped too: the earlier decision stands.
/// Every row of a uid counts (an input may repeat a uid).
///
/// The entity store resolves its kept decisions against the rows of one
/// run, which hold only some of their contacts (`partial`): a uid not
/// among them is left out of the decision, not a reason to skip it (the
/// store checked every decision against all its contacts when it took it).
package struct DecisionConstraints: Sendable {
  /// Pairs of rows to unite, without the guard, before the scored pairs.
  package private(set) var unions: [(Int, Int)] = []
  /// Row pairs (lower row << 32 | higher row) that must not share a cluster.
  package private(set) var apart: Set<UInt64> = []
  package private(set) var applied = 0
  package private(set) var skipped: [InputError] = []

  package var isEmpty: Bool { unions.isEmpty && apart.isEmpty }

  @inline(__always) static func pair(_ x: Int, _ y: Int) -> UInt64 {
    UInt64(min(x, y)) << 32 | UInt64(max(x, y))
  }

  /// Whether rows `x` and `y` must stay apart.
  @inline(__always) package func keepsApart(_ x: Int, _ y: Int) -> Bool {
    !apart.isEmpty && apart.contains(Self.pair(x, y))
  }

  package init() {}

  /// Resolves `decisions` against the uids of `rowCount` rows (`uid(r)`).
  package init(_ decisions: [DedupeDecision], rowCount: Int, partial: Bool = false, uid: (Int) -> String?) {
    guard !decisions.isEmpty else { return }
    var wanted = Set<String>()
    for d in decisions {
      wanted.formUnion(d.uids)
      wanted.formUnion(d.from)
    }
    var rowsOf: [String: [Int]] = [:]
    for r in 0..<rowCount {
      if let u = uid(r), wanted.contains(u) { rowsOf[u, default: []].append(r) }
    }
    // Union-find over the rows that decisions name.
    var parent: [Int: Int] = [:]
    func find(_ x: Int) -> Int {
      var r = x
      while let p = parent[r], p != r { r = p }
      var c = x
      while let p = parent[c], p != r {
        parent[c] = r
        c = p
      }
      return r
    }
    for d in decisions {
      func rows(_ uids: [String]) -> [Int]? {
        var out: [Int] = []
        for u in uids {
          guard let rs = rowsOf[u] else {
            if partial { continue }
            return nil
          }
          out.append(contentsOf: rs)
        }
        return out
      }
      if partial {
        // Nothing of it among these rows: nothing to do here.
        let a = rows(d.uids) ?? [], b = rows(d.from) ?? []
        if d.kind == .same ? a.count < 2 : (a.isEmpty || b.isEmpty) { continue }
      }
      guard let a = rows(d.uids), let b = rows(d.from) else {
        skipped.append(InputError(line: d.line, reason: "names a uid that no contact has; decision skipped", severity: .warning))
        continue
      }
      switch d.kind {
      case .same:
        let roots = Set(a.map(find))
        if apart.contains(where: { roots.contains(find(Int($0 >> 32))) && roots.contains(find(Int($0 & 0xFFFF_FFFF))) }) {
          skipped.append(
            InputError(line: d.line, reason: "contradicts an earlier \"different\" decision; decision skipped", severity: .warning))
          continue
        }
        for r in a.dropFirst() where find(r) != find(a[0]) {
          parent[find(r)] = find(a[0])
          unions.append((a[0], r))
        }
      case .different:
        if a.contains(where: { x in b.contains { y in find(x) == find(y) } }) {
          skipped.append(
            InputError(line: d.line, reason: "contradicts an earlier \"same\" decision; decision skipped", severity: .warning))
          continue
        }
        for x in a {
          for y in b where x != y { apart.insert(Self.pair(x, y)) }
        }
      }
      applied += 1
    }
  }
}
