/// A full name in one table cell split into its parts, as the table route
/// reads a `name` column when no column gives given or family names.
///
/// - `Smith, John` (one comma): family `Smith`, given `John` (and the
///   full name becomes `John Smith`).
/// - `John Smith`, `Mary Ann Smith`, `Dr. Jean-Pierre de la Fontaine`:
///   a leading honorific (``ColumnDetection/honorifics``: `Dr.`, `Mrs`,
///   `Herr`...) is the prefix; the first word is the given name; the last
///   word, with the lower-case particles before it (`de la`, `van der`,
///   `von`), is the family name; the words between are middle names.
/// - One word, or a comma that does not make two parts, is not split.
///
/// Decided for dedupe: two records of one person written with and without
/// a structured name then compare given with given and family with family
/// (a full name alone compared only as one family name, so "Amy Lyons" and
/// "A Lyons" had no given name to agree on).
struct NameParts: Equatable {
  var prefix = ""
  var given = ""
  var middle = ""
  var family = ""
  /// Written family first (`Smith, John`).
  var inverted = false

  /// The name as displayed, given name first.
  var displayed: String { [prefix, given, middle, family].filter { !$0.isEmpty }.joined(separator: " ") }

  static let particles: Set<String> = [
    "van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la", "le", "ten", "ter", "zu",
    "bin", "al", "el", "mac", "st",
  ]

  init?(_ text: String) {
    let commas = text.split(separator: ",", omittingEmptySubsequences: false)
    if commas.count == 2 {
      let family = commas[0].split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
      let rest = commas[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      guard !family.isEmpty, let first = rest.first else { return nil }
      self.family = family
      given = first
      middle = rest.dropFirst().joined(separator: " ")
      inverted = true
      return
    }
    guard commas.count == 1 else { return nil }
    var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    if let first = words.first, words.count > 2 || (words.count == 2 && first.hasSuffix(".")),
      ColumnDetection.honorifics.contains(first.lowercased().filter { $0 != "." })
    {
      prefix = first
      words.removeFirst()
      // `Dr. Smith`: a prefix and a family name.
      if words.count == 1 {
        family = words[0]
        return
      }
    }
    guard words.count >= 2 else { return nil }
    given = words[0]
    var start = words.count - 1
    while start > 1 && Self.particles.contains(words[start - 1]) { start -= 1 }
    family = words[start...].joined(separator: " ")
    middle = words[1..<start].joined(separator: " ")
  }
}
