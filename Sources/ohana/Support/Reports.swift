#if canImport(FoundationEssentials)
  // JSON and trimming only: FoundationEssentials, which the argument parser
  // loads anyway, not all of Foundation (about 9 MB more resident memory).
  import FoundationEssentials
#else
  import Foundation
#endif
import Ohana

/// The JSON report `ohana process --report` writes. Counts, stage names,
/// line numbers and reasons only: no contact values.
struct ProcessReport: Encodable {
  struct Input: Encodable {
    var path: String
    var bytes: Int
    var records: Int
    var skipped: Int
    var charset: CharsetEntry?
  }
  struct Output: Encodable {
    var path: String
    var format: String
    var contacts: Int
  }
  struct Timings: Encodable {
    var read: Double
    var pipeline: Double
    var write: Double
    var total: Double
  }
  var tool = "ohana " + VersionInfo.tool
  var input: Input
  var errors: [ErrorEntry]
  var errorsTruncated: Bool
  var stages: [StageReport]
  var output: Output
  var timings: Timings
  var peakMemoryBytes: Int
}

/// How undeclared 8-bit text was decoded (see `UndeclaredCharset`).
struct CharsetEntry: Encodable {
  var name: String
  /// declared (--charset), detected or fallback.
  var source: String
  var values: Int
  var detected: String?
  var confidence: Int?
  var couldNotReread: Bool?
  var firstChunkOnly: Bool?

  init?(_ c: UndeclaredCharset?) {
    guard let c else { return nil }
    name = c.name
    source = c.source.rawValue
    values = c.values
    detected = c.detection?.name
    confidence = c.detection?.confidence
    couldNotReread = c.couldNotReread ? true : nil
    firstChunkOnly = c.firstChunkOnly ? true : nil
  }
}

struct ErrorEntry: Encodable {
  var line: Int
  var reason: String

  /// At most `limit` errors, and whether more were left out.
  static func list(_ errors: [InputError], limit: Int = 1000) -> ([ErrorEntry], Bool) {
    (errors.prefix(limit).map { ErrorEntry(line: $0.line, reason: $0.reason) }, errors.count > limit)
  }
}

enum JSON {
  static func encode(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
    } catch {
      throw CLIError("cannot encode the report")
    }
  }

  /// Writes JSON to a file (temp file + rename) or to standard output.
  static func write(_ value: some Encodable, to path: String) throws {
    let out = try OutputFile(path: path)
    try out.write(try encode(value))
    try out.commit()
  }
}
