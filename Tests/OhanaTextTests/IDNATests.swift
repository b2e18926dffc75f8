import Testing

@testable import OhanaText

/// `IDNA` over ICU's UTS #46. Expectations are the standards' own: the
/// Punycode of "bücher" (RFC 3492's well-known example form), UTS #46's
/// mapping (full-width letters and capitals to lower case), IDNA 2008's
/// nontransitional ß, and STD3's refusal of a leading hyphen.
@Suite struct IDNATests {
  @Test func unicodeAndASCIIForms() {
    #expect(IDNA.shared.toASCII("Bücher.Example") == .init(name: "xn--bcher-kva.example", errors: 0))
    #expect(IDNA.shared.toUnicode("xn--bcher-kva.example") == .init(name: "bücher.example", errors: 0))
    #expect(IDNA.shared.toUnicode("ＦＵＬＬ.COM").name == "full.com")
    #expect(IDNA.shared.toASCII("straße.de").name == "xn--strae-oqa.de")
  }

  @Test func refusedNamesCarryErrors() {
    #expect(!IDNA.shared.toASCII("-bad.com").isValid)
    #expect(!IDNA.shared.toASCII("under_score.com").isValid)
    #expect(!IDNA.shared.toUnicode("xn--zz.com").isValid)
  }
}
