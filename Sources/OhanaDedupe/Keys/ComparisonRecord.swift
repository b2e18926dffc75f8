import OhanaCore

/// One contact's comparison record: everything blocking, scoring and the
/// chaining guard read of a contact (``ContactKeys`` but the merge's
/// per-field keys), as bytes that mean the same in every table. The entity
/// store keeps one per contact, so that a stored contact is compared again
/// without parsing its vCard text and computing its keys (issue 16).
///
/// ```
/// version   1 byte (``version``)
/// flags     1 byte: bit 0, the name was written in a script other than Latin
/// given     u32 length, then the folded given name (0: none)
/// family    u32 length, then the folded family name (or full name or organization)
/// birthday  u32 (``KeyFunctions/birthdayKey(_:)``)
/// phones    u32 count, then u64 phone keys (suffix << 16 | calling code,
///           ``KeyFunctions/phoneKey(_:region:regionKnown:)``), sorted
/// e-mails   u32 count, then u64 e-mail keys (mailbox << 32 | address), sorted
/// addresses u32 count, then per address 10 u64: postcode+street key,
///           postcode key, house number, street, extended line and
///           locality letters (2 u64 each), postcode print
/// ```
/// Little-endian throughout. The rest (canonical given names, name keys,
/// phonetic codes, sketches, e-mail ids) is derived again on decoding by
/// the same code as the table path (``ContactKeys/finishNames()``,
/// ``ScoreRecord``), so a decoded contact scores exactly as the table's.
enum ComparisonRecord {
  /// 2: phone keys carry their calling code (1 had the suffix alone; a
  /// store of version 1 makes its records again when it is opened).
  /// 3: addresses without a postcode but with a locality are kept.
  /// 4: e-mail keys carry their mailbox in the high half
  /// (``KeyFunctions/emailKey(_:)``).
  static let version: UInt8 = 4

  static func append(_ keys: ContactKeys, row r: Int, to out: inout [UInt8]) {
    out.append(version)
    out.append(keys.nonLatinName[r] ? 1 : 0)
    keys.folds.withStorage { arena, ends in
      for id in [keys.given[r], keys.family[r]] {
        if id.isAbsent {
          put32(0, &out)
        } else {
          let bytes = arena[ends[id.index - 1]..<ends[id.index]]
          put32(UInt32(truncatingIfNeeded: bytes.count), &out)
          out.append(contentsOf: bytes)
        }
      }
    }
    put32(keys.birthday[r], &out)
    let ph = keys.phones(of: r), em = keys.emails(of: r), ad = keys.addresses(of: r)
    put32(UInt32(truncatingIfNeeded: ph.count), &out)
    for i in ph { put64(keys.phones[i], &out) }
    put32(UInt32(truncatingIfNeeded: em.count), &out)
    for i in em { put64(keys.emails[i], &out) }
    put32(UInt32(truncatingIfNeeded: ad.count), &out)
    for i in ad {
      let t = keys.addressTexts[i]
      for v in [
        keys.addresses[i], keys.postcodes[i], keys.houses[i], t.street.lo, t.street.hi, t.extended.lo, t.extended.hi,
        t.locality.lo, t.locality.hi, t.postcode,
      ] {
        put64(v, &out)
      }
    }
  }

  @inline(__always) static func put32(_ v: UInt32, _ out: inout [UInt8]) {
    for j in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> UInt32(8 * j))) }
  }

  @inline(__always) static func put64(_ v: UInt64, _ out: inout [UInt8]) {
    for j in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * j))) }
  }

  /// Reads a record's fields in order; every read is checked against the
  /// record's end, so a damaged record is an error, never a crash.
  struct Reader {
    let bytes: UnsafeRawBufferPointer
    var at: Int
    let end: Int
    var failed = false

    mutating func u8() -> UInt8 {
      guard at < end else {
        failed = true
        return 0
      }
      at += 1
      return bytes[at - 1]
    }

    mutating func u32() -> UInt32 { little() }

    mutating func u64() -> UInt64 { little() }

    /// A little-endian integer (0 and failed when the record ends first).
    mutating func little<T: FixedWidthInteger & UnsignedInteger>() -> T {
      let size = T.bitWidth / 8
      guard end - at >= size else {
        failed = true
        at = end
        return 0
      }
      var v: T = 0
      for j in 0..<size { v |= T(bytes[at + j]) << T(8 * j) }
      at += size
      return v
    }

    /// A count of items of `size` bytes each that must fit what is left.
    mutating func count(of size: Int) -> Int {
      let n = Int(u32())
      guard n <= (end - at) / size else {
        failed = true
        at = end
        return 0
      }
      return n
    }

    mutating func text() -> UnsafeRawBufferPointer {
      let n = count(of: 1)
      defer { at += n }
      return UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)])
    }
  }
}

extension ContactKeys {
  /// The keys of contacts from their comparison records (`bytes`, the
  /// i-th record ending at `ends[i]`); nil when a record is damaged or of
  /// another version. The merge's per-field keys are not kept: merge a
  /// table's own keys.
  init?(records bytes: [UInt8], ends: [Int]) {
    let n = ends.count
    given = [StringID](repeating: .absent, count: n)
    family = given
    nonLatinName = [Bool](repeating: false, count: n)
    birthday = [UInt32](repeating: 0, count: n)
    phoneOffsets.reserveCapacity(n + 1)
    emailOffsets.reserveCapacity(n + 1)
    addressOffsets.reserveCapacity(n + 1)
    var ok = true
    bytes.withUnsafeBytes { raw in
      var start = 0
      for r in 0..<n {
        guard ends[r] >= start && ends[r] <= raw.count else {
          ok = false
          return
        }
        var rd = ComparisonRecord.Reader(bytes: raw, at: start, end: ends[r])
        start = ends[r]
        guard rd.u8() == ComparisonRecord.version else {
          ok = false
          return
        }
        nonLatinName[r] = rd.u8() & 1 != 0
        given[r] = folds.intern(rd.text())
        family[r] = folds.intern(rd.text())
        birthday[r] = rd.u32()
        for _ in 0..<rd.count(of: 8) { phones.append(rd.u64()) }
        phoneOffsets.append(UInt32(truncatingIfNeeded: phones.count))
        for _ in 0..<rd.count(of: 8) { emails.append(rd.u64()) }
        emailOffsets.append(UInt32(truncatingIfNeeded: emails.count))
        for _ in 0..<rd.count(of: 80) {
          addresses.append(rd.u64())
          postcodes.append(rd.u64())
          houses.append(rd.u64())
          var t = AddressText()
          t.street.lo = rd.u64()
          t.street.hi = rd.u64()
          t.extended.lo = rd.u64()
          t.extended.hi = rd.u64()
          t.locality.lo = rd.u64()
          t.locality.hi = rd.u64()
          t.postcode = rd.u64()
          addressTexts.append(t)
        }
        addressOffsets.append(UInt32(truncatingIfNeeded: addresses.count))
        guard !rd.failed && rd.at == rd.end else {
          ok = false
          return
        }
      }
    }
    guard ok else { return nil }
    finishNames()
    records.reserveCapacity(n)
    for r in 0..<n {
      let ph = phones(of: r), ad = addresses(of: r)
      records.append(
        ScoreRecord(
          phones: phones[ph], emailCount: emails(of: r).count, birthday: birthday[r],
          names: (given[r], givenCanonical[r], family[r], nonLatinName[r]),
          addressCount: ad.count, first: ad.isEmpty ? nil : (addressTexts[ad.lowerBound].postcode, houses[ad.lowerBound])))
    }
    assignEmailIDs()
  }
}

extension LinkKeys {
  /// The comparison records of `rows` (``ComparisonRecord``), end to end:
  /// the i-th ends at `ends[i]`. Encoded on all cores.
  package func comparisonRecords(_ rows: Range<Int>, threads: Int? = nil) -> (bytes: [UInt8], ends: [Int]) {
    let keys = self.keys
    let parts = Parallel.map(count: rows.count, threads: threads ?? configuration.threads, minimumChunk: 16384) { range in
      var bytes: [UInt8] = []
      var ends: [Int] = []
      bytes.reserveCapacity(range.count * 160)
      ends.reserveCapacity(range.count)
      for i in range {
        ComparisonRecord.append(keys, row: rows.lowerBound + i, to: &bytes)
        ends.append(bytes.count)
      }
      return (bytes, ends)
    }
    if parts.count == 1, let only = parts.first { return only }
    var bytes: [UInt8] = []
    var ends: [Int] = []
    bytes.reserveCapacity(parts.reduce(0) { $0 + $1.0.count })
    ends.reserveCapacity(rows.count)
    for (b, e) in parts {
      let base = bytes.count
      bytes.append(contentsOf: b)
      for x in e { ends.append(base + x) }
    }
    return (bytes, ends)
  }

  /// The keys of contacts from their comparison records (nil when one is
  /// damaged or of another version); they block and score exactly as the
  /// keys of the table the records were made from.
  package init?(records bytes: [UInt8], ends: [Int], configuration: DedupeConfiguration) {
    guard let k = ContactKeys(records: bytes, ends: ends) else { return nil }
    keys = k
    self.configuration = configuration
  }

  /// The distinct texts outside ASCII (names, countries) whose folds the
  /// keys of `table` read (an entity store keeps their folds: ``NameFolder``).
  package static func nonASCIINameTexts(_ table: ContactTable) -> [[UInt8]] { ContactKeys.nonASCIINameTexts(table) }

  /// Folds made earlier, given before keys are computed (``NameFolder/remember(_:)``).
  package static func rememberFolds(_ folds: [([UInt8], [UInt8])]) { NameFolder.shared.remember(folds) }

  /// The fold of a name text (through the same memo).
  package static func fold(_ text: [UInt8]) -> [UInt8] { NameFolder.shared.folded(text) }

  /// The comparison record format's version (a store keeps it in `meta`).
  package static var recordVersion: Int { Int(ComparisonRecord.version) }
}
