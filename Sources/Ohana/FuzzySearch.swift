import OhanaCore

/// Subsequence search over contacts (Ohana's OHFuzzyMatchingUtility).
///
/// A contact matches when the query's characters appear in order, ignoring
/// case, in its full name (or, when it has none, its given and family names
/// joined by a space) or in any of its field values. Each distinct string is
/// tested once (the pool deduplicates values).
public enum FuzzySearch {
  /// Scores a matching contact against the query; higher is better.
  public typealias Scorer = @Sendable (Contact, String) -> Double

  /// The matching rows of `frame`, in frame order, or by `score` (best
  /// first, ties in frame order) when a scorer is given.
  public static func search(_ frame: Frame, query: String, score: Scorer? = nil) -> [UInt32] {
    let needle = Array(query.lowercased().unicodeScalars)
    let t = frame.table
    let rows = frame.rows
    if needle.isEmpty { return rows }
    var cache = [UInt8](repeating: 0, count: t.pool.count)  // 0 unknown, 1 no, 2 yes
    func matches(_ id: StringID) -> Bool {
      let i = id.index
      if i == 0 { return false }
      if cache[i] == 0 { cache[i] = isSubsequence(needle, of: t.pool.string(id) ?? "") ? 2 : 1 }
      return cache[i] == 2
    }
    var out: [UInt32] = []
    for r in rows {
      let row = Int(r)
      var hit: Bool
      let full = t[.fullName][row]
      if full.isPresent {
        hit = matches(full)
      } else {
        let name = [t.string(.givenName, at: row), t.string(.familyName, at: row)].compactMap { $0 }.joined(separator: " ")
        hit = isSubsequence(needle, of: name)
      }
      if !hit {
        for f in t.fieldRange(of: row) where matches(t.fields.value[f]) { hit = true; break }
      }
      if hit { out.append(r) }
    }
    guard let score else { return out }
    let scored = out.enumerated().map { (i, r) in (i, r, score(t.contact(at: Int(r)), query)) }
    return scored.sorted { $0.2 != $1.2 ? $0.2 > $1.2 : $0.0 < $1.0 }.map(\.1)
  }

  /// Whether `needle` (lower-cased scalars) is a subsequence of `text`, any case.
  public static func isSubsequence(_ needle: [Unicode.Scalar], of text: String) -> Bool {
    if needle.isEmpty { return true }
    var i = 0
    for s in text.lowercased().unicodeScalars where s == needle[i] {
      i += 1
      if i == needle.count { return true }
    }
    return false
  }

  /// Whether `query` matches `text` (characters in order, any case).
  public static func matches(_ query: String, _ text: String) -> Bool {
    isSubsequence(Array(query.lowercased().unicodeScalars), of: text)
  }
}
