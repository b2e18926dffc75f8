#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

import OhanaCore

extension DedupeResult {
  /// The uid of `row` (`row-N`, 1-based, when it has none).
  package static func uid(_ table: ContactTable, _ row: Int) -> [UInt8] {
    if !table.hasUID(at: row) { return Array("row-\(row + 1)".utf8) }
    return table.withUID(at: row) { Array($0) }
  }

  /// `uid,cluster_id` for every input contact, header first: the cluster id
  /// is the uid of the cluster's first contact (a contact alone has its
  /// own). `sink` receives the CSV in row order, in pieces of about 1 MiB
  /// (16,384 rows), encoded on `threads` cores (0: all) a round of pieces
  /// at a time.
  public func writeClustersCSV(table: ContactTable, threads: Int = 0, to sink: ([UInt8]) throws -> Void) rethrows {
    try sink(Array("uid,cluster_id\n".utf8))
    let count = min(table.rowCount, clusterOf.count)
    let piece = 1 << 14
    let round = piece * 4 * Parallel.workerCount(threads)
    var start = 0
    while start < count {
      let base = start, end = min(count, start + round)
      let pieces = Parallel.map(count: end - base, threads: threads, minimumChunk: piece) { range in
        var buf: [UInt8] = []
        buf.reserveCapacity(range.count * 80)
        for r in (base + range.lowerBound)..<(base + range.upperBound) {
          Self.appendUIDField(table, r, to: &buf)
          buf.append(0x2C)
          Self.appendUIDField(table, Int(clusterOf[r]), to: &buf)
          buf.append(0x0A)
        }
        return buf
      }
      for p in pieces { try sink(p) }
      start = end
    }
  }

  /// One JSON line per pair with its evidence and no personal data but the
  /// uids: `{"a":…,"b":…,"cluster":…,"weight":9.50,"keys":["phone"],
  /// "levels":{"given":"exact",…}}`. With the `model` that scored the
  /// pairs, each line also says how its weight was built (the review
  /// page's waterfall): `"prior"` (log2 of the prior odds of a match),
  /// `"parts"` (the weight of each comparison's level) and `"adjust"`
  /// (what the name-frequency adjustment added), so that
  /// `weight = Σ parts + adjust`. A table's other columns compared
  /// (with ``DedupeResult/explanationWeights``) come as `"columns"`
  /// (each one's level) and `"column_parts"` (its weight), and then
  /// `weight = Σ parts + Σ column_parts + adjust`.
  public static func writeExplanation(
    _ pairs: [MatchedPair], clusterOf: [Int32], table: ContactTable, model: FellegiSunterModel? = nil,
    to sink: ([UInt8]) throws -> Void
  ) rethrows {
    try writeExplanation(pairs, clusterOf: clusterOf, table: table, weights: model.map { ExplanationWeights($0) }, to: sink)
  }

  /// ``writeExplanation(_:clusterOf:table:model:to:)`` with the weights
  /// given (the other columns compared among them: `DedupeResult.columns`).
  package static func writeExplanation(
    _ pairs: [MatchedPair], clusterOf: [Int32], table: ContactTable, weights: ExplanationWeights?,
    to sink: ([UInt8]) throws -> Void
  ) rethrows {
    var buf: [UInt8] = []
    buf.reserveCapacity(1 << 20)
    for p in pairs {
      appendExplanation(p, table: table, cluster: uid(table, Int(clusterOf[p.first])), weights: weights, to: &buf)
      buf.append(0x0A)
      if buf.count >= 1 << 20 {
        try sink(buf)
        buf.removeAll(keepingCapacity: true)
      }
    }
    try sink(buf)
  }

  /// One pair's evidence as a JSON object (no line end): uids `a` and `b`,
  /// `cluster` when given, `weight`, shared blocking `keys` and the
  /// comparison `levels`.
  public static func appendExplanation(
    _ p: MatchedPair, table: ContactTable, cluster: [UInt8]?, weights: ExplanationWeights? = nil, to buf: inout [UInt8]
  ) {
    // A read of several inputs: where each of the two came from.
    let sources = table[.sourceProvider]
    let both =
      sources[p.first].isPresent || sources[p.second].isPresent
      ? (table.pool.bytes(of: sources[p.first]), table.pool.bytes(of: sources[p.second])) : nil
    appendExplanation(
      p, a: uid(table, p.first), b: uid(table, p.second), sources: both, cluster: cluster, weights: weights, to: &buf)
  }

  /// ``appendExplanation(_:table:cluster:to:)`` with the two contacts'
  /// names (`a`, `b`) and inputs (`sources`) given (the entity store's
  /// contacts are not all in one table).
  package static func appendExplanation(
    _ p: MatchedPair, a: [UInt8], b: [UInt8], sources: ([UInt8], [UInt8])?, cluster: [UInt8]?,
    weights: ExplanationWeights? = nil, to buf: inout [UInt8]
  ) {
    buf.append(contentsOf: "{\"a\":".utf8)
    appendJSONString(a, to: &buf)
    buf.append(contentsOf: ",\"b\":".utf8)
    appendJSONString(b, to: &buf)
    if let sources {
      buf.append(contentsOf: ",\"sources\":[".utf8)
      appendJSONString(sources.0, to: &buf)
      buf.append(0x2C)
      appendJSONString(sources.1, to: &buf)
      buf.append(0x5D)
    }
    if let cluster {
      buf.append(contentsOf: ",\"cluster\":".utf8)
      appendJSONString(cluster, to: &buf)
    }
    buf.append(contentsOf: ",\"weight\":\(Deduplicator.formatWeight(p.weight)),\"keys\":[".utf8)
    let keys = BlockingKey.allCases.filter { p.sharedKeys.contains(.init($0)) }.map { "\"\($0)\"" }
    buf.append(contentsOf: keys.joined(separator: ",").utf8)
    buf.append(contentsOf: "],\"levels\":{".utf8)
    let levels = Comparison.allCases.map { "\"\($0)\":\"\($0.levelName(p.vector[$0]))\"" }
    buf.append(contentsOf: levels.joined(separator: ",").utf8)
    buf.append(0x7D)
    // The table's other columns, each as a comparison of its own:
    // `"columns":{"birthplace":"same",…}` and, with the weights,
    // `"column_parts":{"birthplace":7.31,…}`.
    let names = weights?.columnNames ?? []
    let columnParts = weights?.columnParts(p) ?? []
    if !names.isEmpty {
      buf.append(contentsOf: ",\"columns\":{".utf8)
      for (i, name) in names.enumerated() {
        if i > 0 { buf.append(0x2C) }
        appendJSONString(Array(name.utf8), to: &buf)
        buf.append(0x3A)
        appendJSONString(Array(columnParts[i].level.utf8), to: &buf)
      }
      buf.append(0x7D)
    }
    if let weights {
      buf.append(contentsOf: ",\"prior\":\(Deduplicator.formatWeight(weights.prior)),\"parts\":{".utf8)
      var sum = 0.0
      for (i, c) in Comparison.allCases.enumerated() {
        let part = weights.part(c, level: p.vector[c])
        sum += part
        if i > 0 { buf.append(0x2C) }
        buf.append(contentsOf: "\"\(c)\":\(Deduplicator.formatWeight(part))".utf8)
      }
      buf.append(0x7D)
      if !names.isEmpty {
        buf.append(contentsOf: ",\"column_parts\":{".utf8)
        for (i, name) in names.enumerated() {
          if i > 0 { buf.append(0x2C) }
          appendJSONString(Array(name.utf8), to: &buf)
          buf.append(contentsOf: ":\(Deduplicator.formatWeight(columnParts[i].weight))".utf8)
          sum += columnParts[i].weight
        }
        buf.append(0x7D)
      }
      buf.append(contentsOf: ",\"adjust\":\(Deduplicator.formatWeight(p.weight - sum))".utf8)
    }
    buf.append(0x7D)
  }

  /// The accepted pairs as JSON lines, with how each weight was built
  /// (see ``writeExplanation(_:clusterOf:table:model:to:)``).
  public func writeExplanation(table: ContactTable, to sink: ([UInt8]) throws -> Void) rethrows {
    try Self.writeExplanation(pairs, clusterOf: clusterOf, table: table, weights: explanationWeights, to: sink)
  }

  /// How this result's pair weights were built: its model, and the other
  /// columns it compared.
  public var explanationWeights: ExplanationWeights {
    ExplanationWeights(model, columns: columns)
  }

  /// A row's name (``uid(_:_:)``) as a CSV field, read in place (no array
  /// is built for a row).
  static func appendUIDField(_ table: ContactTable, _ row: Int, to buf: inout [UInt8]) {
    // A UUID's text (hex digits, hyphens, a `urn:uuid:` prefix) needs no quotes.
    if table.uuids.appendText(at: row, to: &buf) { return }
    if table.hasUID(at: row) {
      table.withUID(at: row) { appendCSVField($0, to: &buf) }
    } else {
      buf.append(contentsOf: "row-\(row + 1)".utf8)
    }
  }

  static func appendCSVField<C: Collection<UInt8>>(_ bytes: C, to buf: inout [UInt8]) {
    if bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
      buf.append(0x22)
      for b in bytes {
        if b == 0x22 { buf.append(0x22) }
        buf.append(b)
      }
      buf.append(0x22)
    } else {
      buf.append(contentsOf: bytes)
    }
  }

  /// Appends `text` as a JSON string.
  public static func appendJSONText(_ text: String, to buf: inout [UInt8]) { appendJSONString(Array(text.utf8), to: &buf) }

  package static func appendJSONString(_ bytes: [UInt8], to buf: inout [UInt8]) {
    buf.append(0x22)
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      switch scalar {
      case "\"": buf.append(contentsOf: "\\\"".utf8)
      case "\\": buf.append(contentsOf: "\\\\".utf8)
      case "\n": buf.append(contentsOf: "\\n".utf8)
      case "\r": buf.append(contentsOf: "\\r".utf8)
      case "\t": buf.append(contentsOf: "\\t".utf8)
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          buf.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        } else {
          buf.append(contentsOf: String(scalar).utf8)
        }
      }
    }
    buf.append(0x22)
  }
}

/// A model's weights as an explanation states them: each comparison
/// level's weight, and the prior odds of a match, both in log2.
public struct ExplanationWeights: Sendable {
  /// `log2(lambda / (1 - lambda))`.
  public let prior: Double
  private let levels: [[Double]]
  /// The table's other columns that were compared (``AttributeComparisons``),
  /// if any.
  let columns: AttributeComparisons?
  private let includesPrior: Bool

  public init(_ model: FellegiSunterModel) {
    prior = model.priorLogOdds
    levels = model.weights
    columns = nil
    includesPrior = model.includesPrior
  }

  /// With the other columns a dedupe compared (`DedupeResult.columns`).
  package init(_ model: FellegiSunterModel, columns: AttributeComparisons?) {
    prior = model.priorLogOdds
    levels = model.weights
    self.columns = columns.flatMap { $0.isEmpty ? nil : $0 }
    includesPrior = model.includesPrior
  }

  /// The names of the other columns compared (a table's headers, `title`,
  /// `GENDER`), in the order of ``columnParts(_:)``.
  public var columnNames: [String] { columns?.attributes.map(\.name) ?? [] }

  /// Each other column's level (`same`, `different`, `null`) and weight
  /// for the pair `p`, as the dedupe weighed it: a pair the rule
  /// `column+name` alone found is not credited for agreeing on the column
  /// it was found by.
  public func columnParts(_ p: MatchedPair) -> [(level: String, weight: Double)] {
    guard let columns else { return [] }
    let onlyByColumns = p.sharedKeys == BlockingKey.Set(.otherColumns) && !includesPrior
    return columns.parts(p.first, p.second, agreementsOf: onlyByColumns ? .notBlocked : .all).map {
      ($0.level, Double($0.weight))
    }
  }

  /// The weight that `level` of `comparison` adds (0 for null).
  public func part(_ comparison: Comparison, level: Int) -> Double {
    let row = levels[comparison.rawValue]
    guard level > 0, level < row.count else { return 0 }
    return row[level]
  }
}
