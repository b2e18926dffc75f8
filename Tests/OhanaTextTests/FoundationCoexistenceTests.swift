import Foundation
import OhanaText
import Testing

/// Foundation on Linux carries its own ICU copy (lib_FoundationICU, symbols
/// prefixed `swift_`); OhanaText calls the system ICU through versioned names
/// (`ucol_open_72`). Both must work in one process.
@Suite struct FoundationCoexistenceTests {
  @Test func systemICUAndFoundationICUInOneProcess() throws {
    let region = Locale(identifier: "de_DE").localizedString(forRegionCode: "SE")
    #expect(region == "Schweden")
    let sv = try Collator(locale: "sv")
    #expect(sv.keySorted(["Östen", "Zorn"]) == ["Zorn", "Östen"])
    #expect(ICU.version.hasPrefix("7") || ICU.version.first?.isNumber == true)
  }
}
