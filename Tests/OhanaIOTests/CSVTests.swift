import OhanaCore
import Testing

@testable import OhanaIO

@Suite struct CSVTests {
  @Test func quotingEmbeddedNewlinesAndBOM() throws {
    let text = "\u{FEFF}fullName,note,phone 1 label,phone 1 value\r\n"
      + "\"Doe, John\",\"said \"\"hi\"\"\r\non two lines\",cell,+1 555\r\n"
      + "Plain,,,\n"
    let r = try read(text, format: .csv)
    #expect(r.errors.isEmpty)
    let c = r.table.contacts
    #expect(c.map(\.fullName) == ["Doe, John", "Plain"])
    #expect(c[0].note == "said \"hi\"\r\non two lines")
    #expect(c[0].fields.map(\.value) == ["+1 555"])
    #expect(c[0].fields.map(\.label) == ["cell"])
    #expect(c.map(\.sourceLine) == [2, 4])
  }

  @Test func googleContactsHeader() throws {
    let text = """
      Name,Given Name,Family Name,Nickname,Birthday,Notes,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Address 1 - Type,Address 1 - Street,Address 1 - City,Address 1 - Postal Code,Address 1 - Country,Organization 1 - Name,Organization 1 - Title,Website 1 - Type,Website 1 - Value
      Ada Lovelace,Ada,Lovelace,,1815-12-10,first programmer,* myContacts,* Home,ada@example.com ::: ada@math.org,Mobile,+44 20 1234,Work,+44 20 5678,Home,12 St James Sq,London,SW1,UK,Analytical Engines,Programmer,Blog,https://ada.example

      """
    let r = try read(text, format: .csv)
    #expect(r.errors.isEmpty)
    let a = try #require(r.table.contacts.first)
    #expect(a.fullName == "Ada Lovelace")
    #expect(a.givenName == "Ada")
    #expect(a.familyName == "Lovelace")
    #expect(a.birthday == "1815-12-10")
    #expect(a.note == "first programmer")
    #expect(a.organization == "Analytical Engines")
    #expect(a.jobTitle == "Programmer")
    #expect(a.fields(of: .email).map(\.value) == ["ada@example.com", "ada@math.org"])
    #expect(a.fields(of: .email).map(\.label) == ["* Home", "* Home"])
    #expect(a.fields(of: .phone).map(\.value) == ["+44 20 1234", "+44 20 5678"])
    #expect(a.fields(of: .phone).map(\.label) == ["Mobile", "Work"])
    #expect(a.fields(of: .url).map(\.value) == ["https://ada.example"])
    #expect(a.addresses.first?.locality == "London")
    #expect(a.addresses.first?.label == "Home")
    #expect(a.extras.map(\.parameters) == ["HEADER=Group Membership"])
  }

  @Test func outlookHeader() throws {
    let text = """
      First Name,Middle Name,Last Name,Title,Suffix,Company,Department,Job Title,Business Street,Business City,Business State,Business Postal Code,Business Country/Region,Home Phone,Mobile Phone,Business Phone,E-mail Address,E-mail 2 Address,Web Page,Notes
      John,Q,Public,Mr.,Jr.,Acme,R&D,Engineer,1 Main St,Springfield,IL,62701,USA,555-1,555-2,555-3,john@acme.com,jq@home.net,http://acme.com,"likes, commas"

      """
    let r = try read(text, format: .csv)
    let j = try #require(r.table.contacts.first)
    #expect([j.givenName, j.middleName, j.familyName, j.prefix, j.suffix] == ["John", "Q", "Public", "Mr.", "Jr."])
    #expect(j.organization == "Acme")
    #expect(j.department == "R&D")
    #expect(j.jobTitle == "Engineer")
    #expect(j.fields(of: .phone).map(\.label) == ["home", "cell", "work"])
    #expect(j.fields(of: .email).map(\.value) == ["john@acme.com", "jq@home.net"])
    #expect(j.fields(of: .url).map(\.value) == ["http://acme.com"])
    #expect(j.addresses.first?.street == "1 Main St")
    #expect(j.addresses.first?.label == "work")
    #expect(j.note == "likes, commas")
  }

  @Test func ownFormatRoundTrip() throws {
    let vcf = card(
      "BEGIN:VCARD", "VERSION:3.0", "FN:A, \"B\"", "N:B;A;;;", "ORG:X;Y", "NOTE:multi\\nline",
      "TEL;TYPE=CELL:1", "TEL;TYPE=HOME:2", "EMAIL:a@b.c", "ADR;TYPE=HOME:;;1 Road;Town;;123;NL", "END:VCARD",
      "BEGIN:VCARD", "VERSION:3.0", "FN:Second", "END:VCARD")
    let t = try read(vcf).table
    let csv = try written(t, .csv)
    let back = try read(csv, format: .csv)
    #expect(back.errors.isEmpty)
    let strip: (Contact) -> Contact = {
      var c = $0
      c.sourceLine = 0
      c.extras = []
      c.fields = c.fields.map { var f = $0; f.parameters = nil; f.group = nil; return f }
      c.addresses = c.addresses.map { var a = $0; a.parameters = nil; a.group = nil; return a }
      return c
    }
    #expect(back.table.contacts.map(strip) == t.contacts.map(strip))
  }

  @Test func badRecords() throws {
    let text = "fullName,note\r\nok,1\r\ntoo,many,cells\r\nfine,2\r\n\"unterminated,3\r\n"
    let r = try read(text, format: .csv)
    #expect(r.table.contacts.map(\.fullName) == ["ok", "fine"])
    #expect(r.errors.map(\.line) == [3, 5])
    #expect(r.errors.map(\.reason) == ["record has 3 cells, header has 2", "unterminated quoted cell"])
    let small = try read(text, format: .csv, chunkSize: 5)
    #expect(small.table.contacts.map(\.fullName) == ["ok", "fine"])
    #expect(small.errors.map(\.line) == [3, 5])
  }
}

@Suite struct NDJSONTests {
  @Test func readKeys() throws {
    let text = """
      {"uid":"u1","fullName":"Zoë \\"Z\\" \\u00e9\\ud83d\\ude00","givenName":"Zoë","fields":[{"type":"phone","label":"cell","value":"+1 555","parameters":"TYPE=CELL"},{"type":"email","value":"z@e.com","group":"item1"}],"addresses":[{"label":"home","street":"1 Road","locality":"Town"}],"extras":[{"name":"X-FOO","value":"bar"}],"tags":["vip"],"properties":{"score":3},"unknown":[1,{"a":null}]}

      {"fullName":"Second"}
      """
    let r = try read(text, format: .ndjson)
    #expect(r.errors.isEmpty)
    let c = r.table.contacts
    #expect(c.count == 2)
    #expect(c[0].fullName == "Zoë \"Z\" é😀")
    #expect(c[0].uid == "u1")
    #expect(c[0].fields.map(\.kind) == [.phone, .email])
    #expect(c[0].fields[0].parameters == "TYPE=CELL")
    #expect(c[0].fields[1].group == "item1")
    #expect(c[0].addresses.first?.street == "1 Road")
    #expect(c[0].extras == [ExtraProperty(name: "X-FOO", value: "bar")])
    #expect(c[0].tags == ["vip"])
    #expect(c[0].properties["score"] == .int(3))
    #expect(c[1].fullName == "Second")
    #expect(c[1].tags.isEmpty)
    #expect(c.map(\.sourceLine) == [1, 3])
  }

  @Test func vcardToNDJSONAndBack() throws {
    let vcf = card(
      "BEGIN:VCARD", "VERSION:4.0", "FN:A\\nB", "N:B;A;;;", "PHOTO:data:image/png;base64,iVBORw0K",
      "item1.TEL;TYPE=cell:1", "item1.X-ABLabel:mobile", "ADR;LABEL=\"x^ny\":;;1 Road;Town;;123;NL",
      "X-CUSTOM;P=1:v\\,w", "END:VCARD")
    let t = try read(vcf).table
    let json = try written(t, .ndjson)
    #expect(json.split(separator: "\n").count == 1)
    let back = try read(json, format: .ndjson)
    #expect(back.errors.isEmpty)
    let strip: (Contact) -> Contact = { var c = $0; c.sourceLine = 0; return c }
    #expect(back.table.contacts.map(strip) == t.contacts.map(strip))
  }

  @Test func badLines() throws {
    let text = "{\"fullName\":\"ok\"}\n{\"fullName\":\"broken\"\n[1,2]\n{\"fullName\":\"x\",\"tags\":[\"t\"],\"fields\":[{\"type\":\"fax\"}]}\n{\"fullName\":\"fine\"}\n"
    let r = try read(text, format: .ndjson)
    #expect(r.table.contacts.map(\.fullName) == ["ok", "fine"])
    #expect(r.errors.map(\.line) == [2, 3, 4])
    #expect(r.errors.map(\.reason) == ["unterminated JSON object", "line is not a JSON object", "unknown field type"])
    #expect(r.table.contacts.allSatisfy { $0.tags.isEmpty })
  }
}

@Suite struct WriteTests {
  @Test func writeToPathIsAtomic() throws {
    let t = try read(card("BEGIN:VCARD", "FN:x", "END:VCARD")).table
    let dir = "/tmp/ohana-io-test-\(UInt32.random(in: 0...UInt32.max))"
    try FileManagerShim.mkdir(dir)
    let path = dir + "/out.vcf"
    try ContactIO.write(t, format: .vcard4, to: path)
    let r = try ContactIO.read(path: path)
    #expect(r.table.contacts.map(\.fullName) == ["x"])
    #expect(try FileManagerShim.list(dir) == ["out.vcf"])
    #expect(throws: ContactIOError.self) { try ContactIO.write(t, format: .vcard21, to: path) }
  }

  @Test func formatNames() {
    #expect(ContactFormat(fileExtension: "VCF") == .vcard4)
    #expect(ContactFormat(path: "/a/b.ndjson") == .ndjson)
    #expect(ContactFormat(path: "noext") == nil)
    #expect(ContactFormat(name: "vcard3") == .vcard3)
    #expect(ContactFormat.sniff(Array("\u{FEFF}BEGIN:VCARD".utf8)[...]) == .vcard4)
    #expect(ContactFormat.sniff(Array("{\"a\":1}".utf8)[...]) == .ndjson)
    #expect(ContactFormat.sniff(Array("a,b".utf8)[...]) == .csv)
  }
}
