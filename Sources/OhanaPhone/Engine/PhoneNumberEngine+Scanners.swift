/// Hand-written scanners for libphonenumber's fixed (non-metadata) patterns:
/// possible-number extraction, viability (VALID_PHONE_NUMBER), the extension
/// grammar and RFC3966 phone-context syntax. Each mirrors the documented
/// regular expression exactly, including Unicode digits.
enum PhoneScanners {
  // MARK: Extraction

  /// libphonenumber's `_extract_possible_number`: the range from the first
  /// `+` or digit, without trailing junk, cut before a second number.
  static func possibleNumberRange(_ s: ScalarBuffer) -> Range<Int> {
    var start = 0
    while start < s.count {
      let c = s[start]
      if UnicodeClasses.isPlus(c) || UnicodeClasses.digitValue(c) >= 0 { break }
      start += 1
    }
    guard start < s.count else { return 0..<0 }
    var end = s.count
    while end > start {
      let c = s[end - 1]
      if c == 0x23 || (c != 0x5F && UnicodeClasses.isWord(c)) { break }
      end -= 1
    }
    // A second number: `[\\/] *x`.
    var i = s.mayContain(ScalarBuffer.Kind.slash) ? start : end
    while i < end {
      let c = s[i]
      if c == 0x5C || c == 0x2F {
        var j = i + 1
        while j < end && s[j] == 0x20 { j += 1 }
        if j < end && s[j] == 0x78 {
          end = i
          break
        }
      }
      i += 1
    }
    return start..<end
  }

  // MARK: Viability

  /// libphonenumber's `_is_viable_phone_number` on `s[range]`.
  static func isViable(_ s: ScalarBuffer, _ range: Range<Int>) -> Bool {
    let n = range.count
    guard n >= 2 else { return false }
    if n == 2 && UnicodeClasses.digitValue(s[range.lowerBound]) >= 0
      && UnicodeClasses.digitValue(s[range.lowerBound + 1]) >= 0
    {
      return true
    }
    var i = range.lowerBound
    let end = range.upperBound
    while i < end && UnicodeClasses.isPlus(s[i]) { i += 1 }
    var digits = 0
    while i < end && digits < 3 {
      let c = s[i]
      if UnicodeClasses.digitValue(c) >= 0 {
        digits += 1
      } else if !(UnicodeClasses.isPunctuation(c) || c == 0x2A) {
        return false
      }
      i += 1
    }
    guard digits == 3 else { return false }
    var j = i
    while j < end {
      let c = s[j]
      let inTail =
        UnicodeClasses.isPunctuation(c) || c == 0x2A || UnicodeClasses.isAlphaIgnoringCase(c)
        || UnicodeClasses.digitValue(c) >= 0
      if !inTail { break }
      j += 1
    }
    if j == end { return true }
    let tail = ExtensionTail(s, end)
    var k = j
    while k >= i {
      if mayStartExtension(s[k]) && extensionMatch(s, k, tail) != nil { return true }
      k -= 1
    }
    return false
  }

  // MARK: Extensions

  /// Whether an extension may be present at all (cheap pre-filter): every
  /// extension form needs a letter, `#`, `;`, `,`, `~` or a non-ASCII label.
  static func mayHaveExtension(_ s: ScalarBuffer, _ range: Range<Int>) -> Bool {
    typealias K = ScalarBuffer.Kind
    guard s.mayContain(K.nonASCII | K.letter | K.semicolon | K.extensionMark) else { return false }
    for i in range {
      let c = s[i]
      if c >= 0x80 || UnicodeClasses.isASCIILetter(c) || c == 0x23 || c == 0x3B || c == 0x2C || c == 0x7E {
        return true
      }
    }
    return false
  }

  /// libphonenumber's `_maybe_strip_extension`: the leftmost position where
  /// the extension grammar matches through the end, kept only if what
  /// precedes it is viable. Returns (number end, extension digit range).
  static func stripExtension(_ s: ScalarBuffer, _ range: Range<Int>) -> (Int, Range<Int>)? {
    guard mayHaveExtension(s, range) else { return nil }
    let tail = ExtensionTail(s, range.upperBound)
    var k = range.lowerBound
    while k < range.upperBound {
      if mayStartExtension(s[k]), let digits = extensionMatch(s, k, tail) {
        guard isViable(s, range.lowerBound..<k) else { return nil }
        return (k, digits)
      }
      k += 1
    }
    return nil
  }

  private static let explicitLabels: [[UInt32]] = {
    var labels: [[UInt32]] = []
    for e in ["", "e"] {
      for mid in ["", "ensio", "ensio\u{301}", "ensi\u{F3}"] {
        for n in ["", "n"] {
          labels.append(Array((e + "xt" + mid + n).unicodeScalars.map(\.value)))
        }
      }
    }
    for l in ["\u{FF58}\u{FF54}", "\u{FF45}\u{FF58}\u{FF54}", "\u{FF58}\u{FF54}\u{FF4E}",
      "\u{FF45}\u{FF58}\u{FF54}\u{FF4E}", "\u{434}\u{43E}\u{431}", "anexo"]
    {
      labels.append(Array(l.unicodeScalars.map(\.value)))
    }
    return labels
  }()

  private static let ambiguousLabels: [[UInt32]] = [
    [0x78], [0xFF58], [0x23], [0xFF03], [0x7E], [0xFF5E], [0x69, 0x6E, 0x74], [0xFF49, 0xFF4E, 0xFF54],
  ]

  @inline(__always)
  private static func isSeparatorBeforeLabel(_ c: UInt32) -> Bool {
    c == 0x20 || c == 0xA0 || c == 0x09 || c == 0x2C
  }

  @inline(__always)
  private static func isSeparatorAfterLabel(_ c: UInt32) -> Bool {
    c == 0x20 || c == 0xA0 || c == 0x09 || c == 0x2C || c == 0x2D
  }

  /// `[:\.．]?[ \u00A0\t,-]*` exactly covering `s[from..<to]`.
  private static func isAfterLabel(_ s: ScalarBuffer, _ from: Int, _ to: Int) -> Bool {
    var p = from
    if p < to && (s[p] == 0x3A || s[p] == 0x2E || s[p] == 0xFF0E) { p += 1 }
    while p < to {
      if !isSeparatorAfterLabel(s[p]) { return false }
      p += 1
    }
    return true
  }

  private static func hasLabel(_ s: ScalarBuffer, _ at: Int, _ to: Int, _ label: [UInt32]) -> Bool {
    guard at + label.count <= to else { return false }
    for (i, c) in label.enumerated() where UnicodeClasses.lower(s[at + i]) != c { return false }
    return true
  }

  /// What every extension match through `end` shares: an optional final
  /// `#` and the run of digits before it.
  struct ExtensionTail {
    let hasHash: Bool
    let digitsEnd: Int
    let runStart: Int

    init(_ s: ScalarBuffer, _ end: Int) {
      hasHash = end > 0 && s[end - 1] == 0x23
      digitsEnd = hasHash ? end - 1 : end
      var start = digitsEnd
      while start > 0 && UnicodeClasses.digitValue(s[start - 1]) >= 0 { start -= 1 }
      runStart = start
    }
  }

  /// Whether the extension grammar (for parsing) matches all of `s[k..<end]`;
  /// returns the range of the extension digits.
  static func extensionMatch(_ s: ScalarBuffer, _ k: Int, _ end: Int) -> Range<Int>? {
    extensionMatch(s, k, ExtensionTail(s, end))
  }

  /// Every extension form starts with a separator, `,`, `;` or a label.
  @inline(__always)
  static func mayStartExtension(_ c: UInt32) -> Bool {
    switch c {
    case 0x20, 0xA0, 0x09, 0x2C, 0x3B, 0x2D: return true
    default: return mayStartLabel(c)
    }
  }

  /// Labels start with one of these (lower-cased): x e ｘ ｅ д a # ＃ ~ ～ i ｉ.
  @inline(__always)
  private static func mayStartLabel(_ c: UInt32) -> Bool {
    switch UnicodeClasses.lower(c) {
    case 0x78, 0x65, 0xFF58, 0xFF45, 0x434, 0x61, 0x23, 0xFF03, 0x7E, 0xFF5E, 0x69, 0xFF49: return true
    default: return false
    }
  }

  static func extensionMatch(_ s: ScalarBuffer, _ k: Int, _ tail: ExtensionTail) -> Range<Int>? {
    let hasHash = tail.hasHash
    let digitsEnd = tail.digitsEnd
    guard k < digitsEnd else { return nil }
    let digitsStart = Swift.max(tail.runStart, k)
    let length = digitsEnd - digitsStart
    guard length >= 1 else { return nil }
    let digits = digitsStart..<digitsEnd
    // `;ext=` + 1-20 digits.
    if !hasHash && length <= 20 && digitsStart - k == 5 {
      let l = [0x3B, 0x65, 0x78, 0x74, 0x3D] as [UInt32]
      if hasLabel(s, k, digitsStart, l) { return digits }
    }
    // Explicit and ambiguous labels.
    var p = k
    while p < digitsStart && isSeparatorBeforeLabel(s[p]) { p += 1 }
    let labelPossible = p < digitsStart && mayStartLabel(s[p])
    if labelPossible && length <= 20 {
      for label in explicitLabels where hasLabel(s, p, digitsStart, label) {
        if isAfterLabel(s, p + label.count, digitsStart) { return digits }
      }
    }
    if labelPossible && length <= 9 {
      for label in ambiguousLabels where hasLabel(s, p, digitsStart, label) {
        if isAfterLabel(s, p + label.count, digitsStart) { return digits }
      }
    }
    // `[- ]+` + 1-6 digits + `#`.
    if hasHash && length <= 6 && digitsStart > k {
      var q = k
      while q < digitsStart && (s[q] == 0x2D || s[q] == 0x20) { q += 1 }
      if q == digitsStart { return digits }
    }
    // Auto-dialling `,,` or `;` (1-15 digits), then commas only (1-9 digits).
    var q = k
    while q < digitsStart && (s[q] == 0x20 || s[q] == 0xA0 || s[q] == 0x09) { q += 1 }
    if length <= 15 && q < digitsStart {
      if s[q] == 0x3B && isAfterLabel(s, q + 1, digitsStart) { return digits }
      if q + 1 < digitsStart && s[q] == 0x2C && s[q + 1] == 0x2C && isAfterLabel(s, q + 2, digitsStart) {
        return digits
      }
    }
    if length <= 9 && q < digitsStart && s[q] == 0x2C {
      var r = q
      while r < digitsStart && s[r] == 0x2C { r += 1 }
      // `(?:,)+` is greedy but may give commas back to the separator run.
      if isAfterLabel(s, r, digitsStart) { return digits }
      var back = r - 1
      while back > q {
        if isAfterLabel(s, back, digitsStart) { return digits }
        back -= 1
      }
    }
    return nil
  }

  // MARK: RFC3966

  /// Whether a phone-context value is a global number or a domain name.
  static func isValidPhoneContext(_ s: ScalarBuffer, _ range: Range<Int>) -> Bool {
    guard !range.isEmpty else { return false }
    if s[range.lowerBound] == 0x2B {
      var digits = 0
      for i in (range.lowerBound + 1)..<range.upperBound {
        let c = s[i]
        if UnicodeClasses.digitValue(c) >= 0 {
          digits += 1
        } else if !(c == 0x2D || c == 0x2E || c == 0x28 || c == 0x29) {
          return false
        }
      }
      if digits > 0 { return true }
    }
    return isDomainName(s, range)
  }

  private static func isDomainName(_ s: ScalarBuffer, _ range: Range<Int>) -> Bool {
    var end = range.upperBound
    if end > range.lowerBound && s[end - 1] == 0x2E { end -= 1 }
    guard end > range.lowerBound else { return false }
    var labelStart = range.lowerBound
    var i = range.lowerBound
    while i <= end {
      if i == end || s[i] == 0x2E {
        guard i > labelStart else { return false }
        let first = s[labelStart]
        let last = s[i - 1]
        let isTop = i == end
        let firstOK = isTop ? UnicodeClasses.isASCIILetter(first) : isAlnum(first)
        guard firstOK, isAlnum(last) else { return false }
        for j in labelStart..<i where !(isAlnum(s[j]) || s[j] == 0x2D) { return false }
        labelStart = i + 1
      }
      i += 1
    }
    return true
  }

  @inline(__always)
  private static func isAlnum(_ c: UInt32) -> Bool {
    UnicodeClasses.isASCIILetter(c) || UnicodeClasses.digitValue(c) >= 0
  }
}
