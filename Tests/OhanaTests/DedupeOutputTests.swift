import Foundation
import Testing

@testable import Ohana

/// `Deduplicator.deduplicate(_:provenance:)`: leaving out the derived
/// columns (what `ohana dedupe` does for a vCard or CSV output) must not
/// change a byte of those outputs. The oracle is the full merge's own
/// output through the same writers: the test fails if a writer starts to
/// read a derived column, or if the merge without provenance keeps other
/// rows, fields or values.
@Suite struct DedupeOutputTests {
  static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("datasets/sample-1000.vcf").path

  @Test func mergeWithoutProvenanceWritesTheSameVCardAndCSV() throws {
    let table = try ContactIO.read(path: Self.sample).table
    let dedupe = Deduplicator()
    let (result, full) = dedupe.deduplicate(table)
    let (plainResult, plain) = dedupe.deduplicate(table, provenance: false, evidence: false)
    #expect(result.clusterOf == plainResult.clusterOf)
    // The same pairs joined, with their shared keys left out.
    #expect(result.pairs.count == plainResult.pairs.count)
    #expect(result.pairs.allSatisfy { !$0.sharedKeys.isEmpty })
    #expect(plainResult.pairs.allSatisfy { $0.sharedKeys.isEmpty })
    #expect(result.pairs.map { [$0.first, $0.second] } == plainResult.pairs.map { [$0.first, $0.second] })
    #expect(result.pairs.map(\.weight) == plainResult.pairs.map(\.weight))
    // The sample has duplicates, so the merge did something.
    #expect(full.rowCount < table.rowCount - 100)
    #expect(plain.rowCount == full.rowCount)
    for name in [
      Deduplicator.sourceUIDsColumn, Deduplicator.reasonColumn, Deduplicator.mergedCountColumn,
    ] {
      #expect(full.annotations[column: name] != nil, "\(name)")
      #expect(plain.annotations[column: name] == nil, "\(name)")
    }
    for format: ContactFormat in [.vcard4, .vcard3, .csv] {
      var a: [UInt8] = [], b: [UInt8] = []
      try ContactIO.write(full, format: format, to: &a)
      try ContactIO.write(plain, format: format, to: &b)
      #expect(a.count > 100_000, "\(format)")
      #expect(a == b, "\(format)")
    }
    // NDJSON does write them: there the full merge's output differs.
    var a: [UInt8] = [], b: [UInt8] = []
    try ContactIO.write(full, format: .ndjson, to: &a)
    try ContactIO.write(plain, format: .ndjson, to: &b)
    #expect(String(decoding: a, as: UTF8.self).contains("dedupe.sourceUIDs"))
    #expect(!String(decoding: b, as: UTF8.self).contains("dedupe.sourceUIDs"))
  }
}
