import Testing

@testable import OhanaCore

/// UIDs that are UUIDs are kept as 16 bytes (``UUIDColumn``): each form
/// must write back the exact text it was read from, anything else must
/// stay a string, and every path that moves rows must move them along.
@Suite struct UUIDColumnTests {
  static let lower = "2f5d4a59-573b-4bcd-aa21-19495a7561cd"
  static let upper = "5E3F1A2B-0C4D-4E5F-8A9B-0C1D2E3F4A5B"
  static let urnLower = "urn:uuid:8540f030-2035-4b10-af4d-ffe6605643df"
  static let urnUpper = "URN:UUID:9B765F0C-4036-421B-B69A-EAFB7E64BBFF"
  static let digits = "12345678-1234-1234-1234-123456789012"

  func parse(_ s: String) -> UUIDColumn.Form? {
    var s = s
    return s.withUTF8 { UUIDColumn.parse(UnsafeRawBufferPointer($0))?.form }
  }

  /// The text of random values in every form against a plain reference:
  /// each nibble in turn, a digit or a letter, hyphens at 8, 12, 16, 20.
  @Test func renderMatchesAPlainReference() {
    func reference(_ form: UUIDColumn.Form, _ high: UInt64, _ low: UInt64) -> String {
      let digits = Array((form == .upper || form == .urnUpper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
      var out: [UInt8] = []
      for nibble in 0..<32 {
        if [8, 12, 16, 20].contains(nibble) { out.append(UInt8(ascii: "-")) }
        let word = nibble < 16 ? high : low
        out.append(digits[Int((word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)])
      }
      let prefix = form == .urnLower ? "urn:uuid:" : form == .urnUpper ? "URN:UUID:" : ""
      return prefix + String(decoding: out, as: UTF8.self)
    }
    var rng = SystemRandomNumberGenerator()
    var values: [(UInt64, UInt64)] = [(0, 0), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)]
    for _ in 0..<2000 { values.append((rng.next(), rng.next())) }
    for form: UUIDColumn.Form in [.lower, .upper, .urnLower, .urnUpper] {
      for (high, low) in values {
        let text = withUnsafeTemporaryAllocation(byteCount: 48, alignment: 8) { buffer -> String in
          let n = UUIDColumn.render(form, high, low, into: buffer)
          return String(decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<n]), as: UTF8.self)
        }
        #expect(text == reference(form, high, low))
      }
    }
  }

  @Test func everyFormWritesBackItsText() {
    let cases: [(String, UUIDColumn.Form)] = [
      (Self.lower, .lower), (Self.upper, .upper), (Self.urnLower, .urnLower), (Self.urnUpper, .urnUpper),
      (Self.digits, .lower), ("urn:uuid:" + Self.digits, .urnLower), ("URN:UUID:" + Self.digits, .urnUpper),
      ("00000000-0000-0000-0000-000000000000", .lower), ("ffffffff-ffff-ffff-ffff-ffffffffffff", .lower),
    ]
    var column = UUIDColumn()
    for (i, (text, form)) in cases.enumerated() {
      var t = text
      let parsed = t.withUTF8 { UUIDColumn.parse(UnsafeRawBufferPointer($0)) }
      #expect(parsed?.form == form, "\(text)")
      guard let parsed else { continue }
      column.set(i, form: parsed.form, high: parsed.high, low: parsed.low, rowCount: cases.count)
    }
    for (i, (text, _)) in cases.enumerated() {
      #expect(column.text(at: i) == text)
      // Appended after what is there, as written.
      var out = Array("x,".utf8)
      #expect(column.appendText(at: i, to: &out))
      #expect(String(decoding: out, as: UTF8.self) == "x," + text)
    }
    var none = Array("x".utf8)
    #expect(!column.appendText(at: cases.count + 1, to: &none) && none == Array("x".utf8), "no UUID: nothing appended")
    #expect(column.uuidCount == cases.count)
    column.checkInvariants(rows: cases.count)
  }

  @Test func nearMissesStayStrings() {
    let misses = [
      "2f5d4a59-573b-4bcd-aa21-19495A7561cd",  // mixed case
      "2f5d4a59573b-4bcd-aa21-19495a7561cd-",  // hyphens elsewhere
      "2f5d4a59-573b-4bcd-aa21-19495a7561c",  // 35
      "2f5d4a59-573b-4bcd-aa21-19495a7561cd0",  // 37
      "2f5d4a59-573b-4bcd-aa21-19495a7561cg",  // not hex
      "{2f5d4a59-573b-4bcd-aa21-19495a7561c}",
      "urn:uuid:5E3F1A2B-0C4D-4E5F-8A9B-0C1D2E3F4A5B",  // prefix and digits in other cases
      "URN:UUID:2f5d4a59-573b-4bcd-aa21-19495a7561cd",
      "Urn:uuid:2f5d4a59-573b-4bcd-aa21-19495a7561cd",
      "urn:uuid:2f5d4a59-573b-4bcd-aa21-19495a7561c",
      "", "2f5d4a59-573b-4bcd-aa21-19495a7561cd ",
    ]
    for m in misses { #expect(parse(m) == nil, "\(m)") }
  }

  /// A table with UUID uids packed behaves like the same table with them
  /// as strings: rows, gathering, concatenation, the builder.
  @Test func packedTablesMatchStringTables() {
    let uids: [String?] = [Self.lower, "not-a-uuid", nil, Self.upper, Self.urnLower, Self.urnUpper, Self.digits]
    let contacts = uids.enumerated().map { i, u in Contact(uid: u, givenName: "G\(i)") }
    let plain = ContactTable(contacts: contacts)
    var packed = plain
    packed.packUUIDs()
    packed.checkInvariants()
    #expect(packed.uuids.uuidCount == 5)
    #expect(packed[.uid].filter(\.isPresent).count == 1)
    for r in 0..<plain.rowCount {
      #expect(packed.contact(at: r) == plain.contact(at: r))
      #expect(packed.uid(at: r) == uids[r])
      #expect(packed.hasUID(at: r) == (uids[r] != nil))
      #expect(packed.withUID(at: r) { String(decoding: $0, as: UTF8.self) } == (uids[r] ?? ""))
    }
    let order: [UInt32] = [6, 2, 0, 0, 5, 1]
    let g = packed.gathering(rows: order)
    #expect(g.uuids.uuidCount == 4)
    for (i, r) in order.enumerated() { #expect(g.uid(at: i) == uids[Int(r)]) }
    // Rows without UUIDs gather to empty storage.
    #expect(packed.gathering(rows: [1, 2]).uuids.isEmpty)
    // Concatenation, with the UUID part in the middle and at either end.
    let joined = ContactTable.concatenate([plain, packed, plain, packed])
    joined.checkInvariants()
    #expect(joined.rowCount == 4 * uids.count)
    for r in 0..<joined.rowCount { #expect(joined.uid(at: r) == uids[r % uids.count]) }
    // Unpacking gives the string table back.
    var unpacked = packed
    unpacked.internUUIDs()
    #expect(unpacked.uuids.isEmpty)
    #expect(unpacked[.uid] == plain[.uid])
    // Rows added by a builder after packed rows have no UUID.
    var b = ContactTableBuilder()
    b.table = packed
    b.beginContact()
    b.set(.givenName, b.pool.intern("new"))
    let built = b.build()
    built.checkInvariants()
    #expect(built.rowCount == uids.count + 1)
    #expect(built.uid(at: uids.count) == nil)
    #expect(built.uid(at: 0) == Self.lower)
    // Replacing the uid column replaces every uid.
    var replaced = packed
    replaced.setAttribute(.uid, StringColumn(repeating: .absent, count: replaced.rowCount))
    #expect((0..<replaced.rowCount).allSatisfy { replaced.uid(at: $0) == nil })
  }
}

/// The batch tools' malloc setting reaches the C library.
@Suite struct ProcessMemoryTests {
  @Test func mmapThresholdIsSetOnGlibc() {
    #if os(Linux) && canImport(Glibc)
    #expect(ProcessMemory.fixMmapThreshold(ProcessMemory.batchThreshold))
    #endif
  }
}
