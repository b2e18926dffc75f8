/// A short string of ASCII digits held inline (no heap allocation), used for
/// the normalized number while parsing and for the national significant
/// number while formatting.
///
/// Holds up to `capacity` digits; appending more sets `overflowed` and keeps
/// only the first `capacity` (such numbers always end as TOO_LONG).
struct DigitString {
  static let capacity = 64
  private var storage = InlineArray<64, UInt8>(repeating: 0)
  private(set) var count = 0
  private(set) var overflowed = false

  init() {}

  init(ascii: some Sequence<UInt8>) {
    for byte in ascii { append(byte) }
  }

  @inline(__always)
  subscript(index: Int) -> UInt8 { storage[index] }

  @inline(__always)
  mutating func append(_ asciiDigit: UInt8) {
    if count < Self.capacity {
      storage[count] = asciiDigit
      count += 1
    } else {
      overflowed = true
    }
  }

  mutating func removeAll() {
    count = 0
    overflowed = false
  }

  /// The digits from `start` on.
  func dropping(first start: Int) -> DigitString {
    var out = DigitString()
    var i = start
    while i < count {
      out.append(storage[i])
      i += 1
    }
    out.overflowed = overflowed
    return out
  }

  func hasPrefix(_ value: Int) -> Bool {
    var text = DigitString()
    text.appendDecimal(value)
    guard text.count <= count else { return false }
    for i in 0..<text.count where text[i] != storage[i] { return false }
    return true
  }

  mutating func appendDecimal(_ value: Int) {
    appendDecimal(UInt64(clamping: value))
  }

  mutating func appendDecimal(_ value: UInt64) {
    var divisor: UInt64 = 1
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      append(UInt8(truncatingIfNeeded: 0x30 + rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// Sets the digits to the national significant number of `number`.
  mutating func setNationalNumber(_ number: PhoneNumber) {
    removeAll()
    let zeros = number.leadingZeroCount
    for _ in 0..<zeros { append(0x30) }
    appendDecimal(number.nationalNumber)
  }

  /// The value of the digits (at most 19 digits are meaningful).
  var value: UInt64 {
    var v: UInt64 = 0
    for i in 0..<count { v = v &* 10 &+ UInt64(storage[i] &- 0x30) }
    return v
  }

  var string: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    for i in 0..<count { bytes.append(storage[i]) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
