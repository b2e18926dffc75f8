import OhanaText

/// A small seeded generator (SplitMix64), so random tests repeat exactly.
struct SeededRNG: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random names mixing scripts, case, accents, spaces and shared prefixes.
func randomNames(count: Int, seed: UInt64) -> [String] {
  var rng = SeededRNG(seed: seed)
  let pieces = [
    "a", "A", "á", "Á", "ä", "Ä", "ae", "Ae", "o", "ö", "Ö", "oe", "u", "ü", "ß", "ss", "e", "é",
    "è", "ê", "n", "ñ", "c", "ç", "s", "š", "z", "ž", "i", "y", "j", "l", "ł", "å", "Å", "ø",
    "Müller", "Mueller", "Muller", "van ", "de la ", "O'", "-", " ", "Σ", "σ", "ς", "Ω", "α",
    "Б", "б", "Ж", "ё", "Е", "あ", "ア", "か", "カ", "ｶ", "漢", "字", "東", "京", "李", "王",
    "김", "이", "ا", "ب", "ש", "ก", "1", "2", "10", "\u{0301}", "Schmidt", "Schmitt",
  ]
  var names: [String] = []
  for _ in 0..<count {
    let parts = Int.random(in: 0...6, using: &rng)
    var s = ""
    for _ in 0..<parts { s += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
    names.append(s)
  }
  return names
}

extension Collator {
  /// Sorts strings by the key path (keys, radix sort); returns input indices.
  func keyOrder(_ strings: [String], parallel: Bool = true) -> [Int] {
    let keys = sortKeys(for: ByteStrings(strings), parallel: parallel)
    return KeySort.order(keys, parallel: parallel).map { Int($0) }
  }

  /// Sorts strings by the key path; returns the strings.
  func keySorted(_ strings: [String]) -> [String] {
    keyOrder(strings).map { strings[$0] }
  }
}
