/// Names as a normalization job writes them (issue 46, item 2): case put
/// right in names typed all in capitals or all in lower case, titles and
/// suffixes moved out of the name parts, and a full name split into
/// parts. Pure functions over one value; ``NameNormalization`` runs them
/// over a table's columns.
///
/// The rules, decided here (README "Normalizing"):
/// - A value with both capitals and lower-case letters is never re-cased:
///   "McDonald", "van Gogh" and "DeShawn" are as their owner wrote them.
/// - Re-casing capitalizes each word and each part of a hyphenated or
///   apostrophe-joined word (`O'Brien`, `Jean-Pierre`, `D'Angelo`), keeps
///   family-name particles in lower case when a name part follows them
///   (`van der Berg`, `de la Fontaine`; a particle alone or last is
///   capitalized: `De`), writes `Mc` and `Mac` prefixes with the next
///   letter capital (`McDonald`, `MacLeod`) except for the names in
///   ``macNames`` that are words of their own (`Mack`, `Machin`, `Macey`),
///   and writes Roman numerals and suffix acronyms in their usual form
///   (`III`, `PhD`, `MD`).
/// - Titles (``titles``) lead a full name or a given name and go to the
///   prefix; suffixes (``suffixes``) end a full name or a family name and
///   go to the suffix, with or without a comma before them.
/// - "Smith, John" (one comma, the part before it not a suffix) is family
///   name first.
public enum NameText {
  /// Family-name particles written in lower case before another part.
  public static let particles: Set<String> = [
    "van", "von", "der", "den", "de", "del", "della", "dello", "degli", "dei", "da", "das", "dos", "do", "di",
    "du", "des", "la", "le", "les", "lo", "ten", "ter", "te", "zu", "zur", "af", "av", "bin", "binti", "ibn", "al", "el",
    "y", "st.",
  ]

  /// Names that begin with "Mac" but are not "Mac" and a name (the next
  /// letter stays lower case). Surnames in common use in English records.
  public static let macNames: Set<String> = [
    "mac", "mace", "macey", "macedo", "machado", "machen", "machin", "machine", "macias", "mack", "mackey", "mackie",
    "macklin", "mackintosh", "macon", "macri", "maciel", "macek", "machala", "macho",
  ]

  /// Titles (lower case, without their final dot) moved to the prefix.
  public static let titles: Set<String> = [
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "dame", "lady", "lord", "rev", "reverend", "fr",
    "father", "sr", "sister", "br", "brother", "hon", "judge", "capt", "captain", "col", "colonel", "gen", "general",
    "lt", "sgt", "maj", "major", "adm", "admiral", "cmdr", "herr", "frau", "mme", "mlle", "m", "sra", "srta", "don",
    "doña", "dona", "dott", "ing", "mag",
  ]

  /// Titles that are also common given names or name parts: a title only
  /// when another given-name word follows.
  static let ambiguousTitles: Set<String> = ["don", "m", "judge", "major", "general", "father", "sister", "brother", "lady", "sr", "br", "col"]

  /// Suffixes (lower case, dots and final dot taken out) moved to the
  /// suffix, mapped to how they are written.
  public static let suffixes: [String: String] = [
    "jr": "Jr.", "sr": "Sr.", "ii": "II", "iii": "III", "iv": "IV", "v": "V", "vi": "VI", "vii": "VII",
    "viii": "VIII", "ix": "IX", "phd": "PhD", "md": "MD", "dds": "DDS", "dmd": "DMD", "esq": "Esq.",
    "mba": "MBA", "cpa": "CPA", "rn": "RN", "jd": "JD", "dvm": "DVM", "do": "DO", "obe": "OBE", "mbe": "MBE",
    "cbe": "CBE", "kbe": "KBE", "frs": "FRS", "msc": "MSc", "bsc": "BSc", "ma": "MA", "ba": "BA", "llm": "LLM",
    "psyd": "PsyD", "edd": "EdD", "dsc": "DSc", "pe": "PE", "qc": "QC", "kc": "KC",
  ]

  /// Suffixes that are also name parts (a family name "Do", "Ma", "Ba",
  /// a given name "V"): a suffix only after a comma or another suffix, or
  /// written with dots.
  static let ambiguousSuffixes: Set<String> = ["do", "ma", "ba", "v", "vi", "pe", "rn", "jd"]

  // MARK: Case

  /// `text` in name case, or nil when it is to be left alone: it has both
  /// capitals and lower-case letters, or no cased letter at all.
  /// Whitespace runs become one space and the ends are trimmed.
  public static func recased(_ text: String) -> String? {
    var upper = false, lower = false
    for s in text.unicodeScalars {
      if s.properties.isUppercase { upper = true } else if s.properties.isLowercase { lower = true }
      if upper && lower { return nil }
    }
    guard upper || lower else { return nil }
    let words = words(text)
    guard !words.isEmpty else { return nil }
    var out: [String] = []
    for (i, w) in words.enumerated() {
      out.append(recasedWord(w, isLast: i == words.count - 1, isOnly: words.count == 1))
    }
    return out.joined(separator: " ")
  }

  /// Whether a name's UTF-8 bytes are settled: neither tidying nor
  /// re-casing would change it. True for printable ASCII without white
  /// space at its ends or two spaces in a row (its words joined by one
  /// space are itself, and ASCII is NFC), with both a capital and a small
  /// letter (mixed case: never re-cased). A no is only "not known here".
  public static func isSettledASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
    var upper = false, lower = false, space = false
    for b in bytes {
      guard b >= 0x20 && b <= 0x7E else { return false }
      if b == 0x20 {
        if space { return false }
        space = true
        continue
      }
      space = false
      if b >= 0x41 && b <= 0x5A { upper = true } else if b >= 0x61 && b <= 0x7A { lower = true }
    }
    return upper && lower
  }

  /// The words of `text` (split on white space, empty ones dropped).
  public static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
  }

  /// One word of a name in name case (see ``recased(_:)``).
  static func recasedWord(_ word: String, isLast: Bool, isOnly: Bool) -> String {
    let low = word.lowercased()
    if particles.contains(low) && !isLast && !isOnly { return low }
    let bare = low.filter { $0 != "." }
    if word.count <= 8, let s = suffixes[bare], !(ambiguousSuffixes.contains(bare) && !word.contains(".")) {
      // A suffix as it is written (its dots kept when it had them and
      // the canonical form has none: "Ph.D." stays dotted).
      return word.contains(".") && !s.contains(".") ? dotted(word) : s
    }
    // Hyphenated parts each in case.
    return low.split(separator: "-", omittingEmptySubsequences: false).map { part in
      apostrophePart(String(part))
    }.joined(separator: "-")
  }

  /// A suffix written with dots ("ph.d."), its letters in the case of the
  /// suffix's usual form.
  static func dotted(_ word: String) -> String {
    let bare = word.lowercased().filter { $0 != "." }
    guard let form = suffixes[bare] else { return word }
    var letters = Array(form.filter { $0 != "." })
    var out = ""
    for c in word {
      if c == "." { out.append(c) } else if !letters.isEmpty { out.append(letters.removeFirst()) } else { out.append(c) }
    }
    return out
  }

  /// A lower-case part that may hold apostrophes: `o'brien` → `O'Brien`
  /// (a one-letter prefix before the apostrophe: O', D', L'); otherwise
  /// only the first letter is capital (`ng'ang'a` → `Ng'ang'a`).
  static func apostrophePart(_ part: String) -> String {
    let pieces = part.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "'" || $0 == "’" })
    guard pieces.count > 1 else { return capitalizedPart(part) }
    let marks = part.filter { $0 == "'" || $0 == "’" }.map { $0 }
    var out = capitalizedPart(String(pieces[0]))
    for (i, p) in pieces.dropFirst().enumerated() {
      out.append(marks[i])
      out += pieces[0].count == 1 && i == 0 ? capitalizedPart(String(p)) : String(p)
    }
    return out
  }

  /// A lower-case part with its first letter capital, and the letter after
  /// a `mc` or `mac` prefix (see ``macNames``).
  static func capitalizedPart(_ part: String) -> String {
    guard let first = part.first else { return part }
    if part.hasPrefix("mc") && part.count > 3 {
      return "Mc" + capitalizedPart(String(part.dropFirst(2)))
    }
    if part.hasPrefix("mac") && part.count > 4 && !macNames.contains(part) {
      return "Mac" + capitalizedPart(String(part.dropFirst(3)))
    }
    return String(first).uppercased() + part.dropFirst()
  }

  // MARK: Parts

  /// A person's name parts.
  public struct Parts: Equatable, Sendable, CustomStringConvertible {
    public var prefix: [String] = []
    public var given = ""
    public var middle: [String] = []
    public var family = ""
    public var suffix: [String] = []
    public init() {}
    public var description: String {
      "prefix=\(prefix.joined(separator: " "))|given=\(given)|middle=\(middle.joined(separator: " "))|family=\(family)|suffix=\(suffix.joined(separator: " "))"
    }
  }

  /// Whether `word` (as typed) is a title: its lower-case form without a
  /// final dot is one of ``titles``.
  static func isTitle(_ word: String) -> Bool {
    var low = word.lowercased()
    if low.hasSuffix(".") { low.removeLast() }
    return titles.contains(low)
  }

  /// `word` as typed (commas after it taken off) when it is a suffix, or
  /// nil. `strict`: the ambiguous ones (``ambiguousSuffixes``) count only
  /// when dotted. Its case is put right with the rest of the name
  /// (``recased(_:)``), only where the name was typed in one case.
  static func suffix(_ word: String, strict: Bool) -> String? {
    var w = word
    while w.hasSuffix(",") { w.removeLast() }
    let bare = w.lowercased().filter { $0 != "." }
    guard suffixes[bare] != nil else { return nil }
    if strict && ambiguousSuffixes.contains(bare) && !w.contains(".") { return nil }
    return w
  }

  /// Leading titles taken off `words` (at least one word is left, and an
  /// ambiguous title only when a word follows it that is not a suffix).
  static func takeTitles(_ words: inout [String]) -> [String] {
    var out: [String] = []
    while words.count > 1, isTitle(words[0]) {
      var low = words[0].lowercased()
      if low.hasSuffix(".") { low.removeLast() }
      if ambiguousTitles.contains(low) && !words[0].hasSuffix(".") && words.count < 3 { break }
      out.append(words.removeFirst())
    }
    return out
  }

  /// Trailing suffixes taken off `words` (at least one word is left).
  static func takeSuffixes(_ words: inout [String], afterComma: Bool = false) -> [String] {
    var out: [String] = []
    while words.count > 1, let s = suffix(words[words.count - 1], strict: !afterComma && out.isEmpty) {
      out.insert(s, at: 0)
      words.removeLast()
    }
    return out
  }

  /// The parts of a full name written in one field: "Dr. John A. Smith
  /// Jr.", "Smith, John A.", "Smith Jr., John", "John Smith, PhD". The
  /// family name takes the last word with the particles before it
  /// ("Ludwig van Beethoven"); one word alone is a given name.
  public static func parse(_ text: String) -> Parts {
    var parts = Parts()
    let commaPieces = text.split(separator: ",", omittingEmptySubsequences: true).map {
      String($0).trimmingWhitespace
    }.filter { !$0.isEmpty }
    var familyFirst: [String]? = nil
    var rest = words(text.replacingCommas)
    if commaPieces.count >= 2 {
      // "Smith, John", "Smith Jr., John", "John Smith, Jr.", "Smith, John, Jr."
      let tailSuffixes = commaPieces.dropFirst().allSatisfy { piece in
        words(piece).allSatisfy { suffix($0, strict: false) != nil }
      }
      if tailSuffixes {
        rest = words(commaPieces[0])
        parts.suffix = commaPieces.dropFirst().flatMap { words($0).compactMap { suffix($0, strict: false) } }
      } else {
        var family = words(commaPieces[0])
        let familySuffixes = takeSuffixes(&family, afterComma: false)
        familyFirst = family
        rest = words(commaPieces[1])
        var trailing: [String] = []
        for piece in commaPieces.dropFirst(2) { trailing += words(piece).compactMap { suffix($0, strict: false) } }
        parts.suffix = familySuffixes + trailing
      }
    }
    parts.prefix = takeTitles(&rest)
    if familyFirst == nil { parts.suffix = takeSuffixes(&rest) + parts.suffix } else {
      parts.suffix += takeSuffixes(&rest)
    }
    if let familyFirst {
      parts.family = familyFirst.joined(separator: " ")
      parts.given = rest.first ?? ""
      parts.middle = Array(rest.dropFirst())
      return parts
    }
    guard !rest.isEmpty else { return parts }
    if rest.count == 1 {
      parts.given = rest[0]
      return parts
    }
    // The family name: the last word, and the particles before it.
    var start = rest.count - 1
    while start > 1 && particles.contains(rest[start - 1].lowercased()) { start -= 1 }
    parts.family = rest[start...].joined(separator: " ")
    parts.given = rest[0]
    parts.middle = Array(rest[1..<start])
    return parts
  }
}

extension String {
  /// Without white space at either end.
  var trimmingWhitespace: String {
    var s = Substring(self)
    while let f = s.first, f.isWhitespace { s.removeFirst() }
    while let l = s.last, l.isWhitespace { s.removeLast() }
    return String(s)
  }

  /// Commas as spaces.
  fileprivate var replacingCommas: String { String(map { $0 == "," ? " " : $0 }) }
}
