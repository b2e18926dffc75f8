/// The eight contacts of Uber Ohana's example app, as one vCard 3.0 file.
///
/// Photos are on Marge, Wednesday, Homer, Morticia and Gomez only, so that
/// "has given name + family name + photo" keeps exactly Gomez, Morticia and
/// Wednesday Addams and Homer and Marge Simpson. Mom has a given name only
/// and "bae" a nickname only. Phone numbers are fictional but well formed.
public enum OhanaExample {
  public static let contactCount = 8

  public static func vcard() -> [UInt8] {
    var e = VCardEmitter()
    func card(
      uid: String, family: String, given: String, fn: String, nickname: String = "",
      org: String = "", phones: [(String, String)] = [], emails: [(String, String)] = [],
      address: [String]? = nil, photo: ((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))? = nil,
      note: String = ""
    ) {
      e.beginCard(.v30)
      e.property("N", components: [family, given, "", "", ""])
      e.property("FN", fn)
      if !nickname.isEmpty { e.property("NICKNAME", nickname) }
      if !org.isEmpty { e.property("ORG", org) }
      for (type, number) in phones { e.rawProperty("TEL", params: ["TYPE=" + type], number) }
      for (type, address) in emails { e.rawProperty("EMAIL", params: ["TYPE=INTERNET," + type], address) }
      if let address { e.property("ADR", params: ["TYPE=HOME"], components: address) }
      if !note.isEmpty { e.property("NOTE", note) }
      if let photo { e.photo(png: TinyPNG.avatar(size: 16, background: photo.0, foreground: photo.1)) }
      e.rawProperty("UID", uid)
      e.endCard()
    }
    let evergreen = ["", "", "742 Evergreen Terrace", "Springfield", "OR", "97475", "USA"]
    let cemetery = ["", "", "0001 Cemetery Lane", "Westfield", "NJ", "07090", "USA"]
    card(
      uid: "ohana-example-marge", family: "Simpson", given: "Marge", fn: "Marge Simpson",
      phones: [("CELL", "(541) 342-0113"), ("HOME", "(541) 342-0100")],
      emails: [("HOME", "marge@simpsons.example")], address: evergreen,
      photo: ((250, 220, 90), (40, 90, 220)))
    card(
      uid: "ohana-example-mom", family: "", given: "Mom", fn: "Mom",
      phones: [("CELL", "+1 541 342 0177")], note: "Call on Sundays")
    card(
      uid: "ohana-example-wednesday", family: "Addams", given: "Wednesday", fn: "Wednesday Addams",
      phones: [("CELL", "201-794-0122")],
      emails: [("HOME", "wednesday@addams.example")],
      photo: ((30, 30, 30), (235, 235, 235)))
    card(
      uid: "ohana-example-homer", family: "Simpson", given: "Homer", fn: "Homer Simpson",
      org: "Springfield Nuclear Power Plant",
      phones: [("WORK", "(541) 342-0199 ext. 7"), ("CELL", "541.342.0153")],
      emails: [("HOME", "homer@simpsons.example"), ("WORK", "h.simpson@snpp.example")],
      address: evergreen, photo: ((255, 217, 15), (250, 250, 250)), note: "Mmm… donuts; sector 7-G")
    card(
      uid: "ohana-example-maggie", family: "Simpson", given: "Maggie", fn: "Maggie Simpson",
      address: evergreen)
    card(
      uid: "ohana-example-morticia", family: "Addams", given: "Morticia", fn: "Morticia Addams",
      emails: [("HOME", "morticia@addams.example")],
      photo: ((60, 10, 60), (240, 230, 230)))
    card(
      uid: "ohana-example-gomez", family: "Addams", given: "Gomez", fn: "Gomez Addams",
      phones: [("HOME", "(201) 794-0001"), ("CELL", "+1 (201) 794-0199")],
      emails: [("HOME", "gomez@addams.example")], address: cemetery,
      photo: ((90, 60, 40), (20, 20, 20)))
    card(
      uid: "ohana-example-bae", family: "", given: "", fn: "bae", nickname: "bae",
      phones: [("CELL", "(415) 763-0143")])
    return e.out
  }
}
