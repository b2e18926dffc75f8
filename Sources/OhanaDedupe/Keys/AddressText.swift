/// What the address comparison reads of one address besides its keys: the
/// street, the extended address line and the locality as their first 16
/// letters, and the postcode as its first 8 letters and digits.
///
/// Letters are ASCII lower case (and bytes of other scripts as they are);
/// spaces, punctuation and digits are left out, so a split or run-together
/// word (`wattle grove` / `wattlegrove`) and the house number do not count:
/// the house number is compared on its own (``ContactKeys/houses``).
/// Fixed size (56 bytes), so a million addresses need no string pool.
struct AddressText: Sendable, Equatable {
  var street = Letters16()
  var extended = Letters16()
  var locality = Letters16()
  /// Upper-case ASCII letters and digits (and other bytes), first 8,
  /// first byte lowest; 0 = none.
  var postcode: UInt64 = 0

  init() {}

  /// The postcode as ``postcode`` holds it.
  static func postcodePrint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var v: UInt64 = 0
    var n = 0
    for var b in bytes where n < 8 {
      if b >= 0x61 && b <= 0x7A { b &= ~0x20 }
      if (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 {
        v |= UInt64(b) << UInt64(8 * n)
        n += 1
      }
    }
    return v
  }

  /// Postcodes: 0 the same, 1 close (one character different, or two
  /// neighbours swapped: `4217` / `4127`), 2 different, 3 a side has none.
  static func postcodeLevel(_ a: UInt64, _ b: UInt64) -> Int {
    if a == 0 || b == 0 { return 3 }
    if a == b { return 0 }
    var differ = 0
    var first = -1
    for i in 0..<8 {
      let x = (a >> UInt64(8 * i)) & 0xFF, y = (b >> UInt64(8 * i)) & 0xFF
      if x != y {
        differ += 1
        if first < 0 { first = i }
      }
    }
    if differ == 1 { return 1 }
    if differ == 2 && first < 7 {
      let s = UInt64(8 * first)
      let x0 = (a >> s) & 0xFF, x1 = (a >> (s + 8)) & 0xFF
      let y0 = (b >> s) & 0xFF, y1 = (b >> (s + 8)) & 0xFF
      if x0 == y1 && x1 == y0 { return 1 }
    }
    return 2
  }

  /// Street, extended line and locality similarity at which two are close.
  static let closeSimilarity = 0.88

  /// The ``Comparison/address`` level of two addresses whose postcode and
  /// street keys do not both agree (level 1 is decided by the keys):
  /// 2 close: postcode the same or close, the streets close and the house
  ///   numbers not different;
  /// 3 same street: postcode the same or close, the streets close, another
  ///   house number;
  /// 4 same postcode (the streets not close), or where a side has no
  ///   postcode, the same locality;
  /// 5 near: the streets close with the same house number and the
  ///   localities close, or a close postcode in a close locality (a
  ///   postcode typed wrong);
  /// 6 different.
  /// A street is also compared with the other's extended line (the two
  /// lines are often written the other way round).
  static func level(_ x: AddressText, house hx: UInt64, _ y: AddressText, house hy: UInt64) -> Int {
    let pc = postcodeLevel(x.postcode, y.postcode)
    if pc == 3 {
      // A side has no postcode (a town and perhaps a street): the street
      // decides as above, else the same locality counts as the same
      // postcode would.
      if Self.streetsClose(x, y) { return hx == 0 || hy == 0 || hx == hy ? 2 : 3 }
      return x.locality.isClose(to: y.locality) ? 4 : 6
    }
    if pc >= 2 {
      // Most candidate pairs (sharing a phone or a name) live elsewhere:
      // with other postcodes only "near" is left, which needs the same
      // house number (checked first, it is free), then close localities
      // and streets.
      if hx == 0 || hx != hy || !x.locality.isClose(to: y.locality) { return 6 }
      return Self.streetsClose(x, y) ? 5 : 6
    }
    if Self.streetsClose(x, y) { return hx == 0 || hy == 0 || hx == hy ? 2 : 3 }
    if pc == 0 { return 4 }
    return x.locality.isClose(to: y.locality) ? 5 : 6
  }

  /// The streets are close, or one's street is close to the other's
  /// extended line.
  private static func streetsClose(_ x: AddressText, _ y: AddressText) -> Bool {
    x.street.isClose(to: y.street) || x.street.isClose(to: y.extended) || x.extended.isClose(to: y.street)
  }
}

/// Up to 16 bytes of letters of a text (see ``AddressText``), zero-padded.
struct Letters16: Sendable, Equatable {
  var lo: UInt64 = 0
  var hi: UInt64 = 0

  init() {}

  init(_ bytes: UnsafeRawBufferPointer) {
    var n = 0
    for var b in bytes where n < 16 {
      if b >= 0x41 && b <= 0x5A { b |= 0x20 }
      if (b >= 0x61 && b <= 0x7A) || b >= 0x80 {
        if n < 8 { lo |= UInt64(b) << UInt64(8 * n) } else { hi |= UInt64(b) << UInt64(8 * (n - 8)) }
        n += 1
      }
    }
  }

  var isEmpty: Bool { lo == 0 }

  var count: Int {
    if hi != 0 { return 16 - hi.leadingZeroBitCount / 8 }
    return 8 - lo.leadingZeroBitCount / 8
  }

  /// Both present and equal, or Jaro-Winkler at least
  /// ``AddressText/closeSimilarity``.
  func isClose(to other: Letters16) -> Bool {
    if isEmpty || other.isEmpty { return false }
    if self == other { return true }
    var a = (lo.littleEndian, hi.littleEndian), b = (other.lo.littleEndian, other.hi.littleEndian)
    let na = count, nb = other.count
    return withUnsafeBytes(of: &a) { pa in
      withUnsafeBytes(of: &b) { pb in
        JaroWinkler.similarity(UnsafeRawBufferPointer(rebasing: pa[0..<na]), UnsafeRawBufferPointer(rebasing: pb[0..<nb]))
      }
    } >= AddressText.closeSimilarity
  }
}
