import OhanaCore
import Testing

@testable import OhanaDedupe

/// Dedupe gives the same clusters, merged contacts, provenance and
/// clusters file whether uids are strings or packed UUIDs.
@Suite struct UUIDMergeTests {
  @Test func packedUUIDsMergeLikeStrings() throws {
    let u = (0..<6).map { String(format6($0)) }
    let contacts: [Contact] = [
      Contact(uid: u[0], givenName: "Kate", familyName: "Smith", fields: [ContactField(kind: .phone, value: "+1 312 644 3332")]),
      Contact(uid: "plain-uid", givenName: "Zed", familyName: "Zulu", fields: [ContactField(kind: .phone, value: "+44 20 7031 3000")]),
      Contact(uid: u[1], givenName: "Kate", familyName: "Smith", organization: "Acme",
        fields: [ContactField(kind: .phone, value: "(312) 644-3332"), ContactField(kind: .email, value: "k@x.org")]),
      Contact(givenName: "Kate", familyName: "Smith", fields: [ContactField(kind: .phone, value: "312 644 3332")]),
      Contact(uid: u[2], givenName: "Solo", familyName: "One", fields: [ContactField(kind: .phone, value: "+49 30 1234567")]),
      Contact(uid: "other", givenName: "Ann", familyName: "Lee", fields: [ContactField(kind: .email, value: "ann@y.org")]),
      Contact(uid: u[3], givenName: "Ann", familyName: "Lee", fields: [ContactField(kind: .email, value: "ANN@y.org")]),
    ]
    let plain = ContactTable(contacts: contacts)
    var packed = plain
    packed.packUUIDs()
    #expect(packed.uuids.uuidCount == 4)
    let d = Deduplicator()
    let (rp, mp) = d.deduplicate(plain)
    let (rq, mq) = d.deduplicate(packed)
    #expect(rp.clusterOf == rq.clusterOf)
    #expect(mp.rowCount == mq.rowCount)
    #expect(mp.rowCount < plain.rowCount, "some contacts merged")
    mq.checkInvariants()
    for r in 0..<mp.rowCount {
      #expect(mp.contact(at: r) == mq.contact(at: r))
      #expect(mp.uid(at: r) == mq.uid(at: r))
      let sp = mp.annotations[column: Deduplicator.sourceUIDsColumn]?.value(at: r, pool: mp.pool)
      let sq = mq.annotations[column: Deduplicator.sourceUIDsColumn]?.value(at: r, pool: mq.pool)
      #expect(sp == sq)
    }
    var csvP: [UInt8] = [], csvQ: [UInt8] = []
    rp.writeClustersCSV(table: plain) { csvP += $0 }
    rq.writeClustersCSV(table: packed) { csvQ += $0 }
    #expect(csvP == csvQ)
    #expect(String(decoding: csvQ, as: UTF8.self).contains(u[0]))
  }

  /// A lower-case UUID made from `i`.
  func format6(_ i: Int) -> String {
    let hex = Array("0123456789abcdef")
    let body = (0..<32).map { k in hex[(i * 7 + k * 3) % 16] }
    let s = String(body)
    let p = [8, 4, 4, 4, 12]
    var out: [String] = []
    var start = s.startIndex
    for n in p {
      let end = s.index(start, offsetBy: n)
      out.append(String(s[start..<end]))
      start = end
    }
    return out.joined(separator: "-")
  }
}
