import OhanaCore
import OhanaDatasets
import OhanaDedupe
import OhanaIO
import Testing

/// The stored comparison record against the table path: keys decoded from
/// records must block and score exactly as the keys computed from the
/// table they were made from (the table path is what a full run uses).
@Suite struct ComparisonRecordTests {
  /// Contacts the generator does not make: other scripts, organization
  /// only, no name, more phones and e-mails than the sketch holds, several
  /// addresses, one without a postcode, birthdays in every form.
  static let edgeCards = """
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e1\r\nFN:Иван Петров\r\nN:Петров;Иван;;;\r\nTEL:+7 495 123 45 67\r\nBDAY:19740312\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e2\r\nFN:Ivan Petrov\r\nN:Petrov;Ivan;;;\r\nTEL:+7 495 123 45 67\r\nBDAY:1974-03-12\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e3\r\nORG:Acme Pty Ltd\r\nTEL:+61 2 9999 0000\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e4\r\nFN:Acme Pty Ltd\r\nORG:Acme Pty Ltd\r\nTEL:+61299990000\r\nEMAIL:info@acme.example\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e5\r\nEMAIL:a@x.example\r\nEMAIL:b@x.example\r\nEMAIL:c@x.example\r\nEMAIL:d@x.example\r\nEMAIL:e@x.example\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e6\r\nFN:Jo Bloggs\r\nN:Bloggs;Jo;;;\r\nEMAIL:e@x.example\r\nTEL:+12125550101\r\nTEL:+12125550102\r\nTEL:+12125550103\r\nTEL:+12125550104\r\nTEL:+12125550105\r\nTEL:+12125550106\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e7\r\nFN:Joe Bloggs\r\nN:Bloggs;Joseph;;;\r\nTEL:+12125550106\r\nADR;TYPE=home:;rosedale;12 wattle grove;ashfield;nsw;2131;Australia\r\nADR;TYPE=work:;;1 Main St;Springfield;IL;62701;USA\r\nADR:;;Somewhere only;;;;\r\nBDAY:--0312\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e8\r\nFN:jasmine okafor\r\nN:okafor;jasmine;;;\r\nADR;TYPE=home:;rosedale;12 wattle grove;ashfield;nsw;2131;Australia\r\nBDAY:19740312\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e9\r\nFN:jasmnie okafor\r\nN:okafor;jasmnie;;;\r\nADR;TYPE=home:;rosedaie;12 watle grove;ashfield;nsw;2131;Australia\r\nBDAY:19740312\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:4.0\r\nUID:e10\r\nEND:VCARD\r\n
    """

  static func generated(_ n: Int, seed: UInt64, handKeyed: Bool) throws -> ContactTable {
    var bytes: [UInt8] = []
    let g = DatasetGenerator(
      options: GeneratorOptions(contacts: n, seed: seed, version: .mixed, dupRate: 0.2, handKeyed: handKeyed))
    try g.generate(vcard: { bytes.append(contentsOf: $0) })
    return try ContactIO.read(bytes: bytes, format: .vcard4).table
  }

  static func tables() throws -> [(String, ContactTable)] {
    [
      ("address book", try generated(3000, seed: 5, handKeyed: false)),
      ("hand-keyed", try generated(3000, seed: 6, handKeyed: true)),
      ("edge cases", try ContactIO.read(bytes: Array(edgeCards.utf8), format: .vcard4).table),
    ]
  }

  static var configuration: DedupeConfiguration {
    var c = DedupeConfiguration()
    c.termFrequencies = false
    return c
  }

  @Test func decodedKeysBlockAndScoreAsTheTablesKeys() throws {
    for (name, table) in try Self.tables() {
      let config = Self.configuration
      let direct = LinkKeys(table: table, configuration: config)
      let n = direct.count
      let (bytes, ends) = direct.comparisonRecords(0..<n)
      #expect(ends.count == n)
      let decoded = try #require(LinkKeys(records: bytes, ends: ends, configuration: config), "\(name): records decode")
      #expect(decoded.count == n)

      // Every blocking key, neighbourhood, name order, class and term hash.
      func blockKeys(_ k: LinkKeys) -> [[UInt64]] {
        var out = [[UInt64]](repeating: [], count: n)
        k.forEachBlockingKey(0..<n) { r, key, _ in out[r].append(key) }
        return out
      }
      #expect(blockKeys(direct) == blockKeys(decoded), "\(name): blocking keys")
      var differ = 0
      for r in 0..<n {
        if direct.neighbourhoodKey(r) != decoded.neighbourhoodKey(r) || direct.sortedNameKey(r) != decoded.sortedNameKey(r)
          || direct.contactClass(r) != decoded.contactClass(r) || direct.termHashes(r) != decoded.termHashes(r)
        {
          differ += 1
        }
      }
      #expect(differ == 0, "\(name): \(differ) rows' neighbourhood, name order, class or name hashes differ")

      // The candidate pairs, and every pair's vector and weight; also pairs
      // the blocking never makes (the guard scores those).
      let model = FellegiSunterModel.defaults
      let pairsDirect = direct.candidatePairs(model: model, involvingRowsFrom: 0)
      #expect(pairsDirect == decoded.candidatePairs(model: model, involvingRowsFrom: 0), "\(name): candidate pairs")
      #expect(!pairsDirect.isEmpty)
      let a = LinkScorer(keys: direct, model: model), b = LinkScorer(keys: decoded, model: model)
      var vectors = 0
      var sample = pairsDirect.map { (Int($0 >> 32), Int($0 & 0xFFFF_FFFF)) }
      for i in 0..<min(n, 2000) { sample.append((i, (i * 7919 + 13) % n)) }
      for (x, y) in sample {
        if a.vector(x, y) != b.vector(x, y) || a.weight(x, y) != b.weight(x, y) { vectors += 1 }
      }
      #expect(vectors == 0, "\(name): \(vectors) of \(sample.count) pairs score differently")
      print("comparison records, \(name): \(n) contacts, \(bytes.count / max(1, n)) bytes a record, \(sample.count) pairs compared")
    }
  }

  /// The two hand-keyed cards of issue 15 still match through records.
  @Test func theIssueExampleMatchesThroughRecords() throws {
    let table = try ContactIO.read(bytes: Array(Self.edgeCards.utf8), format: .vcard4).table
    let direct = LinkKeys(table: table, configuration: Self.configuration)
    let (bytes, ends) = direct.comparisonRecords(0..<direct.count)
    let decoded = try #require(LinkKeys(records: bytes, ends: ends, configuration: Self.configuration))
    let s = LinkScorer(keys: decoded, model: .defaults)
    #expect(s.weight(7, 8) >= Self.configuration.threshold, "jasmine / jasmnie okafor reach the threshold")
  }

  @Test func damagedRecordsAreRefused() throws {
    let table = try ContactIO.read(bytes: Array(Self.edgeCards.utf8), format: .vcard4).table
    let keys = LinkKeys(table: table, configuration: Self.configuration)
    let (bytes, ends) = keys.comparisonRecords(0..<keys.count)
    // Cut short, a byte too many, another version, a count past the end.
    #expect(LinkKeys(records: Array(bytes.dropLast()), ends: ends.dropLast() + [bytes.count - 1], configuration: Self.configuration) == nil)
    var longer = bytes
    longer.append(0)
    #expect(LinkKeys(records: longer, ends: ends.dropLast() + [longer.count], configuration: Self.configuration) == nil)
    var other = bytes
    other[0] = 99
    #expect(LinkKeys(records: other, ends: ends, configuration: Self.configuration) == nil)
    var huge = bytes
    huge[2] = 0xFF
    huge[3] = 0xFF
    huge[4] = 0xFF
    huge[5] = 0x7F
    #expect(LinkKeys(records: huge, ends: ends, configuration: Self.configuration) == nil)
    #expect(LinkKeys(records: bytes, ends: ends.map { $0 + 1 }, configuration: Self.configuration) == nil)
    #expect(LinkKeys(records: bytes, ends: ends, configuration: Self.configuration) != nil)
  }
}
