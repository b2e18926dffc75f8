/// The attributes a candidate pair is compared on, and their levels.
///
/// Level 0 of every comparison is "no information" (a side has no value):
/// it adds no weight. The other levels go from strong agreement to
/// disagreement; a disagreement on given name or birthday is conflicting
/// evidence and carries a negative weight.
public enum Comparison: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  /// Given names: 1 same (or same canonical nickname), 2 Jaro-Winkler >= 0.92,
  /// 3 Jaro-Winkler >= 0.80, 4 same sound (``Phonetic``) or an initial
  /// that agrees (`j` / `jasmine`), 5 different.
  case givenName
  /// Family names (or a full name when no structured name): levels as given names.
  case familyName
  /// Phones: 1 a shared phone key, 2 none shared.
  case phone
  /// E-mails: 1 a shared normalized address, 2 none shared. In a vector
  /// (not a level of m and u), 3 is level 2 for a pair that shares no
  /// blocking key but a mailbox (``ComparisonVector/mailboxOnly``).
  case email
  /// Birthdays: 1 same, 2 close (one digit off, two neighbouring digits
  /// swapped, or day and month swapped), 3 same year only, 4 different. A date without a year
  /// (`--0312`) agrees with any date on that day.
  case birthday
  /// Addresses: 1 same postcode and street, 2 close (postcode the same or
  /// one character off, street close, house number not different), 3 same
  /// street (another house number), 4 same postcode, 5 near (street and
  /// house number, or a close postcode, in a close locality), 6 different
  /// (see ``AddressText``).
  case address

  /// The number of levels, null level included.
  public var levelCount: Int {
    switch self {
    case .givenName, .familyName: 6
    case .phone, .email: 3
    case .birthday: 5
    case .address: 7
    }
  }

  public var description: String {
    switch self {
    case .givenName: "given"
    case .familyName: "family"
    case .phone: "phone"
    case .email: "email"
    case .birthday: "birthday"
    case .address: "address"
    }
  }

  /// The name of `level` for explanations.
  public func levelName(_ level: Int) -> String {
    switch (self, level) {
    case (_, 0): "null"
    case (.givenName, 1), (.familyName, 1): "exact"
    case (.givenName, 2), (.familyName, 2): "jw>=0.92"
    case (.givenName, 3), (.familyName, 3): "jw>=0.80"
    case (.givenName, 4), (.familyName, 4): "phonetic-or-initial"
    case (.givenName, _), (.familyName, _): "different"
    case (.phone, 1), (.email, 1): "shared"
    case (.email, ComparisonVector.mailboxOnly): "same-mailbox-only"
    case (.phone, _), (.email, _): "none-shared"
    case (.birthday, 1): "same"
    case (.birthday, 2): "close"
    case (.birthday, 3): "same-year"
    case (.birthday, _): "different"
    case (.address, 1): "same"
    case (.address, 2): "close"
    case (.address, 3): "same-street"
    case (.address, 4): "same-postcode"
    case (.address, 5): "near"
    case (.address, _): "different"
    }
  }
}

/// One comparison vector: a level per ``Comparison``, three bits each.
public struct ComparisonVector: Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt32

  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The e-mail field's value for a pair with no e-mail address in
  /// common (level 2) that shares no blocking key but a mailbox (the same
  /// handle, ``BlockingKey/mailbox``: at another provider, or with the
  /// domain mistyped): a pair only the rule
  /// ``BlockingKey/mailbox`` brings. EM leaves such pairs out, and they
  /// are weighed as a population of their own
  /// (``FellegiSunterModel/mailboxShift``).
  ///
  /// Why not a level of its own for every pair with the same mailbox:
  /// fitted by EM over the candidates (which mostly agree on the name
  /// already) it weighed 9.3 bits, and on the independent generator's
  /// CRM table of 1M rows, where namesakes share handles built from their
  /// names (`jschmidt@` at two providers), precision fell from 0.9939 to
  /// 0.9863 (Benchmarks/HISTORY.md, session 36).
  public static let mailboxOnly = 3

  /// The level of comparison `c` as m and u count it (the e-mail's
  /// ``mailboxOnly`` is level 2, none shared).
  @inline(__always)
  public func modelLevel(_ c: Comparison) -> Int { min(self[c], c.levelCount - 1) }

  public init(levels: [Comparison: Int]) {
    rawValue = 0
    for (c, l) in levels { self[c] = l }
  }

  /// Distinct vectors fit in 18 bits.
  public static let space = 1 << 18

  @inlinable
  public subscript(_ c: Comparison) -> Int {
    get { Int((rawValue >> UInt32(c.rawValue * 3)) & 7) }
    set {
      let s = UInt32(c.rawValue * 3)
      rawValue = (rawValue & ~(7 << s)) | (UInt32(newValue & 7) << s)
    }
  }

  /// `given=exact,phone=shared,...` (null levels left out).
  public var description: String {
    Comparison.allCases.compactMap { c in
      let l = self[c]
      return l == 0 ? nil : "\(c)=\(c.levelName(l))"
    }.joined(separator: ",")
  }
}
