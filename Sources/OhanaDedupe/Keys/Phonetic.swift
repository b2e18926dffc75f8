/// A phonetic code of a folded name, for blocking: names that sound alike
/// (`smith` / `smyth` / `schmidt`, `catherine` / `katherine`, `okafor` /
/// `okafour`) get the same code, so one typo in a vowel or a doubled letter
/// does not keep a pair from ever being compared.
///
/// A refined Soundex (Russell and Odell's consonant classes), chosen over
/// Double Metaphone for being small and exact to state:
/// - only ASCII letters count (names reach here folded and transliterated);
///   `ph` is `f`, `ck` is `k`, a leading `kn` / `wr` / `ps` drops its first letter;
/// - consonant classes: b f p v → 1, c g j k q s x z → 2, d t → 3, l → 4,
///   m n → 5, r → 6; the first letter is coded too (so `c` and `k` agree),
///   a leading vowel as 7;
/// - a, e, i, o, u, y separate letters of one class (`tutt` is 3 3), h and w
///   do not; repeats are collapsed;
/// - up to 8 codes, 4 bits each, with the count; 0 when there is no letter.
enum Phonetic {
  static func code(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var letters: [UInt8] = []
    letters.reserveCapacity(min(bytes.count, 32))
    for var b in bytes {
      if b >= 0x41 && b <= 0x5A { b |= 0x20 }
      if b >= 0x61 && b <= 0x7A { letters.append(b) }
      if letters.count >= 32 { break }
    }
    if letters.isEmpty { return 0 }
    var start = 0
    if letters.count > 2 {
      let a = letters[0], b = letters[1]
      if (a == 0x6B && b == 0x6E) || (a == 0x77 && b == 0x72) || (a == 0x70 && b == 0x73) { start = 1 }  // kn, wr, ps
    }
    var out: UInt64 = 0
    var count: UInt64 = 0
    var last: UInt8 = 255
    var i = start
    while i < letters.count && count < 8 {
      var c = letters[i]
      let next: UInt8 = i + 1 < letters.count ? letters[i + 1] : 0
      if c == 0x70 && next == 0x68 {  // ph
        c = 0x66
        i += 1
      } else if c == 0x63 && next == 0x6B {  // ck
        c = 0x6B
        i += 1
      }
      let cls = Self.classOf(c)
      if i == start {
        let first: UInt8 = cls == 0 ? (c == 0x68 || c == 0x77 ? 0 : 7) : cls
        if first != 0 {
          out = out << 4 | UInt64(first)
          count += 1
        }
        last = cls
      } else if cls == 0 {
        // Vowels separate; h and w are transparent.
        if c != 0x68 && c != 0x77 { last = 0 }
      } else if cls != last {
        out = out << 4 | UInt64(cls)
        count += 1
        last = cls
      }
      i += 1
    }
    if count == 0 { return 0 }
    return (out << 4 | count) &+ 0x5000_0000_0000_0000
  }

  @inline(__always)
  private static func classOf(_ c: UInt8) -> UInt8 {
    switch c {
    case 0x62, 0x66, 0x70, 0x76: 1  // b f p v
    case 0x63, 0x67, 0x6A, 0x6B, 0x71, 0x73, 0x78, 0x7A: 2  // c g j k q s x z
    case 0x64, 0x74: 3  // d t
    case 0x6C: 4  // l
    case 0x6D, 0x6E: 5  // m n
    case 0x72: 6  // r
    default: 0  // vowels, y, h, w
    }
  }
}
