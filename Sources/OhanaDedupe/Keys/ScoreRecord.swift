import OhanaCore

/// What the scorer reads first of one contact, in one record (64 bytes):
/// the first address's postcode text (``AddressText/postcode``) and house
/// number (low 32 bits), the phone and e-mail sketch and mailbox print, the folded name ids
/// and the birthday. The address part only proves a difference: two
/// contacts with one address each, other postcodes and no house number in
/// common are "different" without a look at the address lists.
struct ScoreRecord: Sendable {
  var postcode: UInt64 = 0
  var sketch = ContactSketch()
  var given: StringID = .absent
  var givenCanonical: StringID = .absent
  var family: StringID = .absent
  var birthday: UInt32 = 0
  var house: UInt32 = 0
  /// Addresses with a postcode (the scorer's list), at most 255.
  var addressCount: UInt8 = 0
  var nonLatinName = false
  /// 16 bits of the first e-mail's mailbox (``KeyFunctions/mailbox(_:)``),
  /// 0 for none: two contacts with one e-mail each whose prints differ
  /// have no mailbox in common, without a look at the lists.
  var mailbox: UInt16 = 0

  init() {}

  /// The record of a contact with these sorted, unique `phones`, this many
  /// e-mails and addresses (the e-mail ids are set later, per table), and
  /// its first address's postcode text and house number.
  init(
    phones: ArraySlice<UInt64>, emailCount: Int, birthday: UInt32,
    names: (given: StringID, givenCanonical: StringID, family: StringID, nonLatin: Bool),
    addressCount: Int, first: (postcode: UInt64, house: UInt64)?
  ) {
    sketch.phoneCount = UInt8(min(phones.count, 255))
    sketch.emailCount = UInt8(min(emailCount, 255))
    for (i, p) in phones.prefix(ContactSketch.phoneSlots).enumerated() {
      sketch.setPhone(i, UInt32(truncatingIfNeeded: KeyFunctions.phoneSuffix(p)))
    }
    sketch.phoneCountries = phones.contains { KeyFunctions.phoneCountry($0) != 0 }
    given = names.given
    givenCanonical = names.givenCanonical
    family = names.family
    nonLatinName = names.nonLatin
    self.birthday = birthday
    self.addressCount = UInt8(min(addressCount, 255))
    if let first {
      postcode = first.postcode
      house = UInt32(truncatingIfNeeded: first.house)
    }
  }
}
