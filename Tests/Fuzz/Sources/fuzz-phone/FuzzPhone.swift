import OhanaPhone

#if canImport(Glibc)
  import Glibc
#endif

let engine = PhoneNumberEngine()

func finding(_ detail: String) -> Never {
  var text = "FUZZ FINDING [phone]: \(detail)\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  fatalError("fuzz check failed: phone")
}

/// The default region from the first bytes: `001` (non-geographic), else
/// two bytes, each an ASCII letter as it is or mapped onto A-Z, so every
/// input names a region (about a third of them supported; the rest
/// exercise the unknown-region paths).
func region(_ bytes: [UInt8]) -> (RegionCode, Int) {
  if bytes.starts(with: Array("001".utf8)) { return (.nonGeographic, 3) }
  guard bytes.count >= 2 else { return (.unknown, bytes.count) }
  func letter(_ b: UInt8) -> UInt8 {
    if (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) { return b }
    return 0x41 + b % 26
  }
  return (RegionCode(utf8: [letter(bytes[0]), letter(bytes[1])]) ?? .unknown, 2)
}

/// The phone engine: parse, the four formats, validity, type and region,
/// and the row the CLI writes. Besides no crash: parsing bytes and the
/// same text as a String agree; `appendFormats` writes what `format(as:)`
/// does; the result row holds the same formats and type; E.164 is `+` and
/// digits; a valid number's E.164 form parses back (region ZZ), to the
/// same country code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  let (defaultRegion, skip) = region(input)
  let raw = Array(input[skip...])
  let text = String(validating: raw, as: UTF8.self)
  var row: [UInt8] = []
  engine.appendResultColumns(utf8: raw, defaultRegion: defaultRegion, to: &row)
  let number: PhoneNumber
  do {
    number = try engine.parse(utf8: raw, defaultRegion: defaultRegion)
  } catch {
    if let text {
      do {
        let other = try engine.parse(text, defaultRegion: defaultRegion)
        finding("bytes fail with \(error), the String parses to \(other)")
      } catch let other {
        if other.code != error.code { finding("bytes fail with \(error), the String with \(other)") }
      }
    }
    if !row.starts(with: [0x30, 0x09]) { finding("parse failed but the row is \(String(decoding: row, as: UTF8.self))") }
    return 0
  }
  if let text {
    do {
      let other = try engine.parse(text, defaultRegion: defaultRegion)
      if other != number { finding("bytes parse to \(number), the String to \(other)") }
    } catch {
      finding("bytes parse to \(number), the String fails with \(error)")
    }
  }
  let formats = PhoneNumberFormat.allCases.map { engine.format(number, as: $0) }
  var appended: [UInt8] = []
  var ends: [Int] = []
  engine.appendFormats(number, PhoneNumberFormat.allCases, to: &appended, ends: &ends)
  var start = 0
  for (k, end) in ends.enumerated() {
    let piece = String(decoding: appended[start..<end], as: UTF8.self)
    if piece != formats[k] { finding("appendFormats gives \(piece), format(as:) \(formats[k]) for \(number)") }
    start = end
  }
  if ends.count != formats.count { finding("appendFormats gave \(ends.count) formats") }
  let (numberRegion, type) = engine.classify(number)
  if engine.numberType(number) != type || engine.regionCode(for: number) != numberRegion {
    finding("classify disagrees with numberType / regionCode(for:) for \(number)")
  }
  let expectedRow =
    "1\t" + formats.joined(separator: "\t") + "\t" + (type == .unknown ? "0" : "1") + "\t" + type.description
  if String(decoding: row, as: UTF8.self) != expectedRow {
    finding("row \(String(decoding: row, as: UTF8.self)) against \(expectedRow)")
  }
  let e164 = Array(engine.format(number, as: .e164).utf8)
  if e164.first != 0x2B || e164.count < 2 || !e164.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
    finding("E.164 \(String(decoding: e164, as: UTF8.self)) is not + and digits")
  }
  // A valid number's E.164 form parses (region ZZ) to the same country
  // code. Not to the same national number: libphonenumber strips a
  // national prefix after the country code too (9.0.43: BY "881 0 4132525"
  // is +375 8104132525, valid; "+3758104132525" parses to +375 104132525,
  // invalid), and the engine does what libphonenumber does.
  if engine.isValid(number) {
    do {
      let back = try engine.parse(utf8: e164, defaultRegion: .unknown)
      if back.countryCode != number.countryCode {
        finding("valid \(number) -> \(String(decoding: e164, as: UTF8.self)) -> \(back)")
      }
    } catch {
      finding("valid \(number): its E.164 \(String(decoding: e164, as: UTF8.self)) fails: \(error)")
    }
  }
  return 0
}
