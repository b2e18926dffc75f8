/// The "hand-keyed" style (`ohana generate --style hand-keyed`): customer
/// and member records typed in by people, as record-linkage benchmarks
/// (FEBRL) model them, instead of synced address books.
///
/// - Most people (``HandKeyed/withoutContactShare``) have no phone and no
///   e-mail in any of their records: only names, a postal address and a
///   birth date (every such person has one) tie their records together.
/// - A duplicate gets the address-book variations (nicknames, name typos,
///   given and family swapped, missing fields), and then 1-3 of: a typo in
///   the street (a letter swapped, dropped or doubled, or two words run
///   together), a postcode digit changed, a birth date digit changed or day
///   and month swapped, the birth date or the locality missing, a house
///   number typed wrong.
extension PersonFactory {
  enum HandKeyed {
    /// Share of people whose records have no phone and no e-mail.
    static let withoutContactShare = 0.7
  }

  /// `p` as its first hand-keyed record: for most people no phone and no
  /// e-mail; everyone who is a person (not a company) has a birth date and
  /// a home address.
  func handKeyed(_ p: Person, index: Int) -> Person {
    var d = p
    var rng = SplitMix64(seed: seed, stream: Stream.handKeyed, index: UInt64(index))
    if rng.chance(HandKeyed.withoutContactShare) {
      d.phones = []
      d.emails = []
    }
    if d.birthday == nil && !d.companyOnly {
      d.birthday = (1930 + rng.below(75), 1 + rng.below(12), 1 + rng.below(28))
    }
    // A customer or member record has a postal address.
    if !d.companyOnly && d.addresses.allSatisfy(\.work) {
      d.addresses.insert(makeAddress(locales[d.locale], work: false, &rng), at: 0)
    }
    return d
  }

  /// A hand-keyed duplicate of the hand-keyed record `base`.
  func handKeyedDuplicate(of base: Person, _ rng: inout SplitMix64) -> Person {
    var d = duplicate(of: base, &rng)
    // What the first record lacked, the duplicate lacks too (a person
    // without contact details has none in any record).
    if base.phones.isEmpty { d.phones = [] }
    if base.emails.isEmpty { d.emails = [] }
    for _ in 0..<(1 + rng.below(3)) {
      switch rng.below(6) {
      case 0:
        if !d.addresses.isEmpty { d.addresses[0].street = streetTypo(d.addresses[0].street, &rng) }
      case 1:
        if !d.addresses.isEmpty { d.addresses[0].postal = digitTypo(d.addresses[0].postal, &rng) }
      case 2:
        if let b = d.birthday {
          if rng.chance(0.3) && b.day <= 12 {
            d.birthday = (b.year, b.day, b.month)
          } else {
            switch rng.below(3) {
            case 0: d.birthday = (b.year + (rng.chance(0.5) ? 1 : -1), b.month, b.day)
            case 1: d.birthday = (b.year, b.month, b.day % 10 == 9 ? b.day - 1 : b.day + 1)
            default: d.birthday = (b.year - (b.year % 10) + rng.below(10), b.month, b.day)
            }
          }
        }
      case 3: d.birthday = nil
      case 4: if !d.addresses.isEmpty { d.addresses[0].city = "" }
      default:
        if !d.addresses.isEmpty { d.addresses[0].street = houseTypo(d.addresses[0].street, &rng) }
      }
    }
    return d
  }

  private func streetTypo(_ s: String, _ rng: inout SplitMix64) -> String {
    var chars = Array(s)
    guard chars.count >= 4 else { return s }
    if rng.chance(0.25), let space = chars.indices.dropFirst().first(where: { chars[$0] == " " && $0 > 2 }) {
      chars.remove(at: space)  // two words run together
      return String(chars)
    }
    let i = 1 + rng.below(chars.count - 2)
    guard chars[i].isLetter else { return s }
    switch rng.below(3) {
    case 0: chars.swapAt(i, i + 1)
    case 1: chars.remove(at: i)
    default: chars.insert(chars[i], at: i)
    }
    return String(chars)
  }

  private func digitTypo(_ s: String, _ rng: inout SplitMix64) -> String {
    var chars = Array(s)
    let digits = chars.indices.filter { chars[$0].isASCII && chars[$0].isNumber }
    guard !digits.isEmpty else { return s }
    let i = digits[rng.below(digits.count)]
    let old = chars[i].asciiValue ?? 48
    chars[i] = Character(Unicode.Scalar(48 + (old - 48 + 1 + UInt8(rng.below(9))) % 10))
    return String(chars)
  }

  private func houseTypo(_ s: String, _ rng: inout SplitMix64) -> String {
    // The first digit run, one digit changed (house numbers come first or last).
    digitTypo(s, &rng)
  }
}
