import Testing

@testable import OhanaIO

/// A table's one-column names split into parts (``NameParts``), against
/// the parts written out by hand from the rule.
@Suite struct NamePartsTests {
  @Test(arguments: [
    ("Smith, John", "", "John", "", "Smith", true),
    ("  Smith ,  John  Paul ", "", "John", "Paul", "Smith", true),
    ("John Smith", "", "John", "", "Smith", false),
    ("Mary Ann Smith", "", "Mary", "Ann", "Smith", false),
    ("Dr. Jean-Pierre de la Fontaine", "Dr.", "Jean-Pierre", "", "de la Fontaine", false),
    ("Ludwig van Beethoven", "", "Ludwig", "", "van Beethoven", false),
    ("Mrs Ada King Lovelace", "Mrs", "Ada", "King", "Lovelace", false),
    ("Dr. Smith", "Dr.", "", "", "Smith", false),
  ])
  func splits(text: String, prefix: String, given: String, middle: String, family: String, inverted: Bool) {
    let parts = NameParts(text)
    #expect(parts?.prefix == prefix, "\(text)")
    #expect(parts?.given == given, "\(text)")
    #expect(parts?.middle == middle, "\(text)")
    #expect(parts?.family == family, "\(text)")
    #expect(parts?.inverted == inverted, "\(text)")
  }

  @Test(arguments: ["Cher", "", "a, b, c", ", John", "Smith,"])
  func leavesAloneWhatItCannotSplit(text: String) {
    #expect(NameParts(text) == nil, "\(text)")
  }

  @Test func theInvertedFormIsDisplayedGivenNameFirst() {
    #expect(NameParts("Smith, John Paul")?.displayed == "John Paul Smith")
  }
}
