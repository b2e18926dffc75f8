import OhanaCore
import Testing

@testable import OhanaIO

/// Derived values of fields and addresses (`properties` inside a field or
/// an address: a field's `source`, `phone.e164`) read back from NDJSON.
/// The distributed job ships contacts between tasks as NDJSON lines, so a
/// value lost here was a merged contact whose fields no longer named their
/// input. The expected values are the JSON literals below.
@Suite struct NDJSONPropertiesTests {
  static let text = """
    {"uid":"a","fields":[{"type":"phone","value":"+1 202 555 0143","properties":{"source":"a.vcf","phone.e164":"+12025550143","n":3,"ok":true}},{"type":"email","value":"x@example.com"}],"addresses":[{"street":"1 Main St","properties":{"geo.checked":false}}]}
    {"uid":"broken","fields":[{"type":"phone","value":"1","properties":{"source":"lost.vcf"}}], oops}
    {"uid":"b","fields":[{"type":"phone","value":"+44 20 7946 0958","properties":{"source":"b.csv"}}]}

    """

  @Test func fieldAndAddressPropertiesReadBack() throws {
    let r = try ContactIO.read(bytes: Array(Self.text.utf8), format: .ndjson)
    #expect(r.table.rowCount == 2)
    #expect(r.errors.map(\.line) == [2])
    let t = r.table
    #expect(t.fields.count == 3)
    let f0 = t.fields.annotations.properties(at: 0, pool: t.pool)
    #expect(f0 == ["source": .string("a.vcf"), "phone.e164": .string("+12025550143"), "n": .int(3), "ok": .bool(true)])
    #expect(t.fields.annotations.properties(at: 1, pool: t.pool).isEmpty)
    // The broken line's field left nothing behind: the third field is b's.
    #expect(t.fields.annotations.properties(at: 2, pool: t.pool) == ["source": .string("b.csv")])
    #expect(t.addresses.annotations.properties(at: 0, pool: t.pool) == ["geo.checked": .bool(false)])
  }

  @Test func writtenFieldPropertiesRoundTrip() throws {
    let r = try ContactIO.read(bytes: Array(Self.text.utf8), format: .ndjson)
    var out: [UInt8] = []
    try ContactIO.write(r.table, format: .ndjson, to: &out)
    let again = try ContactIO.read(bytes: out, format: .ndjson).table
    for i in 0..<r.table.fields.count {
      #expect(again.fields.annotations.properties(at: i, pool: again.pool) == r.table.fields.annotations.properties(at: i, pool: r.table.pool))
    }
  }
}
