import OhanaCore
import Testing

@testable import OhanaIO

@Suite struct VCardBasicsTests {
  @Test func simple30() throws {
    let c = try contacts(
      card(
        "BEGIN:VCARD", "VERSION:3.0", "FN:Homer Simpson", "N:Simpson;Homer;Jay;Mr.;",
        "TEL;TYPE=CELL,VOICE:+1 555 0100", "EMAIL;TYPE=INTERNET:homer@example.com",
        "ORG:Power Plant;Sector 7G", "TITLE:Safety Inspector", "NOTE:Likes donuts\\, beer\\nand TV",
        "END:VCARD"))
    #expect(c.count == 1)
    let h = try #require(c.first)
    #expect(h.fullName == "Homer Simpson")
    #expect(h.familyName == "Simpson")
    #expect(h.givenName == "Homer")
    #expect(h.middleName == "Jay")
    #expect(h.prefix == "Mr.")
    #expect(h.suffix == nil)
    #expect(h.organization == "Power Plant")
    #expect(h.department == "Sector 7G")
    #expect(h.jobTitle == "Safety Inspector")
    #expect(h.note == "Likes donuts, beer\nand TV")
    #expect(h.fields.count == 2)
    #expect(h.fields[0].kind == .phone)
    #expect(h.fields[0].value == "+1 555 0100")
    #expect(h.fields[0].label == "cell")
    #expect(h.fields[0].parameters == "TYPE=CELL,VOICE")
    #expect(h.fields[1].kind == .email)
    #expect(h.fields[1].label == nil)
    #expect(h.sourceLine == 1)
  }
}
