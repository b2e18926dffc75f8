#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
import Ohana

/// `--truth`: the true entity of each contact, for measuring a dedupe run.
///
/// A CSV file with a header line, then `uid,entity` per line (further
/// columns ignored; a field may be double-quoted, with `""` for a quote),
/// the format `ohana generate --truth` and `Benchmarks/compare/dedupe`
/// write. Contacts whose uid is missing from it are left out of the counts.
enum TruthFile {
  static func read(_ path: String, table: ContactTable) throws -> [Int32] {
    let bytes: [UInt8]
    do {
      bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw CLIError("cannot read --truth \(path): \(error)")
    }
    var entities: [String: Int32] = [:]
    var entityOf: [String: Int32] = [:]
    var lineNo = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNo += 1
      if lineNo == 1 { continue }  // the header
      let f = Self.fields(line)
      if f.count == 1 && f[0].isEmpty { continue }
      guard f.count >= 2 else { throw CLIError("--truth \(path):\(lineNo): expected uid,entity") }
      let id = entities[f[1]] ?? Int32(entities.count)
      entities[f[1]] = id
      entityOf[f[0]] = id
    }
    var truth = [Int32](repeating: -1, count: table.rowCount)
    for r in 0..<table.rowCount where table.hasUID(at: r) {
      let uid = table.withUID(at: r) { String(decoding: $0, as: UTF8.self) }
      truth[r] = entityOf[uid] ?? -1
    }
    return truth
  }

  /// The fields of one CSV line (a trailing CR dropped).
  static func fields(_ line: ArraySlice<UInt8>) -> [String] {
    var out: [String] = []
    var field: [UInt8] = []
    var i = line.startIndex
    var end = line.endIndex
    if end > i && line[end - 1] == 0x0D { end -= 1 }
    var quoted = false
    while i < end {
      let b = line[i]
      if quoted {
        if b == 0x22 {
          if i + 1 < end && line[i + 1] == 0x22 {
            field.append(0x22)
            i += 1
          } else {
            quoted = false
          }
        } else {
          field.append(b)
        }
      } else if b == 0x22 && field.isEmpty {
        quoted = true
      } else if b == 0x2C {
        out.append(String(decoding: field, as: UTF8.self))
        field.removeAll()
      } else {
        field.append(b)
      }
      i += 1
    }
    out.append(String(decoding: field, as: UTF8.self))
    return out
  }

  /// Pairwise precision, recall and F1 of `clusterOf` against `truth`
  /// (rows with a negative entity left out), counted by cluster × entity
  /// intersections, so linear in the rows.
  ///
  /// Linking two tables without their own pairs (`link`, ``LinkSides``),
  /// a pair is a left row and a right row: a cluster of two left rows and
  /// a right one predicts two pairs, not three (as Splink's `link_only`
  /// scores).
  static func pairwise(truth: [Int32], clusterOf: [Int32], link: LinkSides? = nil)
    -> (precision: Double, recall: Double, f1: Double)
  {
    if let link, !link.withinSides { return across(truth: truth, clusterOf: clusterOf, link: link) }
    var both: [Int64: Int] = [:]
    var clusters: [Int32: Int] = [:]
    var entities: [Int32: Int] = [:]
    for r in truth.indices where truth[r] >= 0 && r < clusterOf.count {
      both[Int64(clusterOf[r]) << 32 | Int64(truth[r]), default: 0] += 1
      clusters[clusterOf[r], default: 0] += 1
      entities[truth[r], default: 0] += 1
    }
    func pairs(_ n: Int) -> Int { n * (n - 1) / 2 }
    let tp = both.values.reduce(0) { $0 + pairs($1) }
    let predicted = clusters.values.reduce(0) { $0 + pairs($1) }
    let actual = entities.values.reduce(0) { $0 + pairs($1) }
    let p = predicted == 0 ? 1 : Double(tp) / Double(predicted)
    let r = actual == 0 ? 1 : Double(tp) / Double(actual)
    return (p, r, p + r == 0 ? 0 : 2 * p * r / (p + r))
  }

  /// ``pairwise(truth:clusterOf:link:)`` over left-right pairs: per
  /// cluster × entity, per cluster and per entity the left and right rows,
  /// a pair being one of each.
  private static func across(truth: [Int32], clusterOf: [Int32], link: LinkSides)
    -> (precision: Double, recall: Double, f1: Double)
  {
    var both: [Int64: (Int, Int)] = [:]
    var clusters: [Int32: (Int, Int)] = [:]
    var entities: [Int32: (Int, Int)] = [:]
    func add(_ counts: inout (Int, Int), _ right: Bool) {
      if right { counts.1 += 1 } else { counts.0 += 1 }
    }
    for r in truth.indices where truth[r] >= 0 && r < clusterOf.count {
      let right = link.isRight(r)
      add(&both[Int64(clusterOf[r]) << 32 | Int64(truth[r]), default: (0, 0)], right)
      add(&clusters[clusterOf[r], default: (0, 0)], right)
      add(&entities[truth[r], default: (0, 0)], right)
    }
    let tp = both.values.reduce(0) { $0 + $1.0 * $1.1 }
    let predicted = clusters.values.reduce(0) { $0 + $1.0 * $1.1 }
    let actual = entities.values.reduce(0) { $0 + $1.0 * $1.1 }
    let p = predicted == 0 ? 1 : Double(tp) / Double(predicted)
    let r = actual == 0 ? 1 : Double(tp) / Double(actual)
    return (p, r, p + r == 0 ? 0 : 2 * p * r / (p + r))
  }
}

/// A ratio with four decimals (`0.9845`).
func formatRatio(_ x: Double) -> String {
  let v = Int((x * 10_000).rounded())
  let frac = v % 10_000
  return String(v / 10_000) + "." + String(repeating: "0", count: 4 - String(frac).count) + String(frac)
}

func formatWeight(_ w: Double) -> String { Deduplicator.formatWeight(w) }
