import OhanaCore
import OhanaIO

/// NDJSON: one record per line.
public enum NDJSONSpec {
  /// Every line (LF-separated) that holds more than spaces, tabs and CRs is
  /// a record: imported, or reported at its line.
  public static func recordStarts(_ bytes: [UInt8]) -> [Int]? {
    var starts: [Int] = []
    for (i, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      starts.append(i + 1)
    }
    return starts
  }

  /// What NDJSON keeps, by design (see `NDJSONWriter` and `NDJSONReader`):
  /// everything but the position in the source, sourceProvider (not
  /// written), and the tags of fields and addresses (written, not read
  /// back). Contact derived values and tags, and the derived values of
  /// fields and addresses, do come back.
  public static func view(_ c: Contact) -> Contact? {
    var v = withoutPosition(c)
    v.sourceProvider = nil
    for i in v.fields.indices { v.fields[i].tags = [] }
    for i in v.addresses.indices { v.addresses[i].tags = [] }
    return v
  }

  public static let spec = ReaderSpec(
    readFormat: .ndjson, writeFormat: .ndjson,
    // 8,200 blank lines (skipped by the reader) fill its first 8 KiB.
    padded: { [UInt8](repeating: 0x0A, count: 8200) + $0 },
    roundTripView: view, recordStarts: recordStarts)
}
