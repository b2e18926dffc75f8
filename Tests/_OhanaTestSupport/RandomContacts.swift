import OhanaCore

/// Random but plausible contacts for differential tests and benchmarks.
public enum RandomContacts {
  static let given = ["Marge", "Homer", "Maggie", "Lisa", "Bart", "Gomez", "Morticia", "Wednesday",
                      "Jürgen", "Åsa", "Zoë", "Łukasz", "Ana", "José", "Ólafur", "Анна", "Дмитрий", "陽翔", "さくら", "민준", "Ali", "Fatima"]
  static let family = ["Simpson", "Addams", "Müller", "Öberg", "Nowak", "García", "Smith", "Иванов", "佐藤", "김", "Haddad", "Cohen", "O'Brien"]
  static let labels = ["cell", "home", "work", "iPhone", "MOBILE", "main", "_$!<Mobile>!$_", "fax", "other", "Cell"]
  static let orgs = ["Springfield Nuclear", "Addams Family Estate", "ACME", "Krusty Burger"]

  /// `count` contacts from `seed`: about 3 fields and 1 address each on average.
  public static func make(count: Int, seed: UInt64) -> [Contact] {
    var rng = SeededRandom(seed: seed)
    var out: [Contact] = []
    out.reserveCapacity(count)
    for i in 0..<count { out.append(one(i, &rng)) }
    return out
  }

  /// The same contacts as a table, built column by column (fast path for big sizes).
  public static func table(count: Int, seed: UInt64) -> ContactTable {
    var rng = SeededRandom(seed: seed)
    var b = ContactTableBuilder(pool: StringPool(capacity: count * 2))
    b.reserve(contacts: count, fields: count * 3, addresses: count)
    var scratch: [UInt8] = []
    func digits(_ n: UInt64, prefix: String) -> StringID {
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: prefix.utf8)
      var x = n
      var tmp: [UInt8] = []
      repeat { tmp.append(UInt8(48 + x % 10)); x /= 10 } while x > 0
      scratch.append(contentsOf: tmp.reversed())
      return scratch.withUnsafeBytes { b.pool.intern($0) }
    }
    let labelIDs = labels.map { b.pool.intern($0) }
    let givenIDs = given.map { b.pool.intern($0) }
    let familyIDs = family.map { b.pool.intern($0) }
    let orgIDs = orgs.map { b.pool.intern($0) }
    let city = b.pool.intern("Springfield")
    for i in 0..<count {
      b.beginContact(sourceLine: i + 1)
      b.set(.uid, digits(UInt64(i), prefix: "uid-"))
      let g = rng.chance(0.9) ? rng.pick(givenIDs) : .absent
      let f = rng.chance(0.85) ? rng.pick(familyIDs) : .absent
      b.set(.givenName, g)
      b.set(.familyName, f)
      if rng.chance(0.7) { b.set(.fullName, digits(UInt64.random(in: 0..<UInt64(count), using: &rng), prefix: "Person ")) }
      if rng.chance(0.3) { b.set(.organization, rng.pick(orgIDs)) }
      let nf = Int.random(in: 0...6, using: &rng)
      for _ in 0..<nf {
        let r = Int.random(in: 0..<10, using: &rng)
        let kind: FieldKind = r < 5 ? .phone : r < 8 ? .email : r < 9 ? .url : .other
        let value = kind == .phone
          ? digits(UInt64.random(in: 2_000_000_000...9_999_999_999, using: &rng), prefix: "+1")
          : digits(UInt64.random(in: 0..<UInt64(max(1, count * 2)), using: &rng), prefix: kind == .email ? "user" : "v")
        b.appendField(kind: kind, label: rng.chance(0.9) ? rng.pick(labelIDs) : .absent, value: value)
      }
      let na = Int.random(in: 0...2, using: &rng)
      for _ in 0..<na {
        b.appendAddress(street: digits(UInt64.random(in: 1...999, using: &rng), prefix: "Evergreen Terrace "), locality: city,
                        postalCode: digits(UInt64.random(in: 10000...99999, using: &rng), prefix: ""))
      }
      b.endContact()
    }
    return b.build()
  }

  static func one(_ i: Int, _ rng: inout SeededRandom) -> Contact {
    var c = Contact(uid: "uid-\(i)", sourceLine: i + 1)
    if rng.chance(0.9) { c.givenName = rng.pick(given) }
    if rng.chance(0.85) { c.familyName = rng.pick(family) }
    if rng.chance(0.7) { c.fullName = [c.givenName, c.familyName].compactMap { $0 }.joined(separator: " ") }
    if c.fullName == "" { c.fullName = nil }
    if rng.chance(0.3) { c.organization = rng.pick(orgs) }
    if rng.chance(0.05) { c.photo = Photo(data: [0xFF, 0xD8, UInt8(i & 0xFF)], mediaType: "image/jpeg") }
    for _ in 0..<Int.random(in: 0...6, using: &rng) {
      let r = Int.random(in: 0..<10, using: &rng)
      let kind: FieldKind = r < 5 ? .phone : r < 8 ? .email : r < 9 ? .url : .other
      let value = kind == .phone ? "+1 555 \(Int.random(in: 1000...9999, using: &rng))" : "v\(Int.random(in: 0..<500, using: &rng))"
      c.fields.append(ContactField(kind: kind, label: rng.chance(0.9) ? rng.pick(labels) : nil, value: value,
                                   group: rng.chance(0.2) ? "item\(Int.random(in: 1...3, using: &rng))" : nil))
    }
    for _ in 0..<Int.random(in: 0...2, using: &rng) {
      c.addresses.append(PostalAddress(label: rng.chance(0.5) ? "home" : nil, street: "\(Int.random(in: 1...999, using: &rng)) Evergreen Terrace",
                                       locality: "Springfield", postalCode: "\(Int.random(in: 10000...99999, using: &rng))", country: "USA"))
    }
    if rng.chance(0.2) { c.extras.append(ExtraProperty(name: "X-SPOUSE", value: rng.pick(given))) }
    return c
  }
}
