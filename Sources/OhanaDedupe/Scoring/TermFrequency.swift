#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Term-frequency adjustments (as Splink's): two contacts agreeing exactly
/// on a rare name are likelier one person than two agreeing on a common
/// one. For an exact agreement on the family name or the canonical given
/// name, the pair's weight moves by `log2(typical / share)`, where `share`
/// is the share of contacts with that name and `typical` the share of the
/// name a random agreeing pair has in common (Σ share² / Σ share): common
/// names count less, rare ones more, and the average agreement is
/// unchanged. Clamped to [``minimum``, ``maximum``]: a name seen once
/// would otherwise outweigh every other comparison, and the cap up keeps
/// the scorer's early exit on phones and e-mails sound (see ``ScoreBound``).
package struct TermFrequency: Sendable {
  static let minimum: Float = -2
  static let maximum: Float = 1

  /// Per fold id: the adjustment of an exact agreement on it.
  private(set) var family: [Float] = []
  private(set) var given: [Float] = []

  init(keys: ContactKeys) {
    family = Self.adjustments(keys.familyCount)
    given = Self.adjustments(keys.givenCount)
  }

  static func adjustments(_ counts: [Int32]) -> [Float] {
    let total = counts.reduce(0.0) { $0 + Double($1) }
    if total == 0 { return [Float](repeating: 0, count: counts.count) }
    let squares = counts.reduce(0.0) { $0 + Double($1) * Double($1) }
    return counts.map { adjustment(count: Double($0), total: total, squares: squares) }
  }

  /// The adjustment of an exact agreement on a name that `count` of
  /// `total` contacts have, with Σ count² = `squares` over all names (also
  /// for counts made elsewhere: the distributed job counts over all tasks).
  package static func adjustment(count: Double, total: Double, squares: Double) -> Float {
    if count == 0 || total == 0 { return 0 }
    let typical = squares / (total * total)
    let share = count / total
    return Float(max(Double(minimum), min(Double(maximum), log2(typical / share))))
  }

  /// The adjustment of a pair with vector `v` (exact agreements only).
  @inline(__always)
  func adjustment(_ keys: ContactKeys, _ a: Int, _ b: Int, _ v: ComparisonVector) -> Float {
    var adj: Float = 0
    if v[.familyName] == 1 {
      let f = keys.family[a]
      if f.isPresent && f == keys.family[b] { adj += family[f.index] }
    }
    if v[.givenName] == 1 {
      let g = keys.givenCanonical[a]
      if g.isPresent && g == keys.givenCanonical[b] { adj += given[g.index] }
    }
    return adj
  }
}
