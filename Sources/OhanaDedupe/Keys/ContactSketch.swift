/// The phone and e-mail evidence of one contact, packed: up to four phone
/// suffixes (``KeyFunctions/phoneSuffix(_:)``: below 10^9, so 32 bits hold
/// one exactly) and up to three e-mail ids (exact, see `assignEmailIDs`).
/// Two contacts within those counts are compared exactly from their
/// sketches, unless both have a phone whose calling code is known
/// (`phoneCountries`): a shared suffix is then checked against the lists
/// (``KeyFunctions/samePhone(_:_:)``). More values send the scorer to the
/// exact lists.
struct ContactSketch: Sendable {
  /// Phones a sketch holds.
  static let phoneSlots = 4
  var p0: UInt32 = 0, p1: UInt32 = 0, p2: UInt32 = 0, p3: UInt32 = 0
  var e0: UInt32 = 0, e1: UInt32 = 0, e2: UInt32 = 0
  var phoneCount: UInt8 = 0
  var emailCount: UInt8 = 0
  /// Whether some phone's calling code is known.
  var phoneCountries = false

  mutating func setPhone(_ i: Int, _ v: UInt32) {
    switch i {
    case 0: p0 = v
    case 1: p1 = v
    case 2: p2 = v
    default: p3 = v
    }
  }

  mutating func setEmail(_ i: Int, _ v: UInt32) {
    switch i {
    case 0: e0 = v
    case 1: e1 = v
    default: e2 = v
    }
  }

  /// 0 when a side has none, 2 when no suffix is shared, 1 when one is or
  /// may be (more than four, or calling codes on both sides: the lists
  /// decide).
  @inline(__always)
  static func phoneLevel(_ a: ContactSketch, _ b: ContactSketch) -> Int {
    if a.phoneCount == 0 || b.phoneCount == 0 { return 0 }
    if a.phoneCount > 4 || b.phoneCount > 4 { return 1 }
    let na = Int(a.phoneCount), nb = Int(b.phoneCount)
    func has(_ x: UInt32) -> Bool { x == b.p0 || (nb > 1 && x == b.p1) || (nb > 2 && x == b.p2) || (nb > 3 && x == b.p3) }
    return has(a.p0) || (na > 1 && has(a.p1)) || (na > 2 && has(a.p2)) || (na > 3 && has(a.p3)) ? 1 : 2
  }

  /// 0 when a side has none, 2 when none is shared, 1 when one is or may
  /// be (more than three: the lists decide).
  @inline(__always)
  static func emailLevel(_ a: ContactSketch, _ b: ContactSketch) -> Int {
    if a.emailCount == 0 || b.emailCount == 0 { return 0 }
    if a.emailCount > 3 || b.emailCount > 3 { return 1 }
    return share(a.e0, a.e1, a.e2, Int(a.emailCount), b.e0, b.e1, b.e2, Int(b.emailCount)) ? 1 : 2
  }

  @inline(__always)
  static func share(
    _ a0: UInt32, _ a1: UInt32, _ a2: UInt32, _ na: Int, _ b0: UInt32, _ b1: UInt32, _ b2: UInt32, _ nb: Int
  ) -> Bool {
    func has(_ x: UInt32) -> Bool { x == b0 || (nb > 1 && x == b1) || (nb > 2 && x == b2) }
    return has(a0) || (na > 1 && has(a1)) || (na > 2 && has(a2))
  }
}
