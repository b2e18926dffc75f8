import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

/// One small card per vCard feature.
@Suite struct VCardFeatureTests {
  /// read → write 4.0 → read gives the same contacts.
  func roundTrips(_ text: String) throws -> Bool {
    let first = try read(text).table
    let again = try read(try written(first, .vcard4)).table
    let strip: (Contact) -> Contact = { var c = $0; c.sourceLine = 0; return c }
    return first.contacts.map(strip) == again.contacts.map(strip)
  }

  @Test func utf8ByteOrderMark() throws {
    let c = try contacts("\u{FEFF}" + card("BEGIN:VCARD", "VERSION:3.0", "FN:Zoë", "END:VCARD"))
    #expect(c.map(\.fullName) == ["Zoë"])
  }

  @Test func foldInsideMultibyteCharacter() throws {
    // "Zoë" with the fold between the two bytes of "ë" (C3 AB).
    var bytes = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Zo".utf8)
    bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xAB]
    bytes += Array("l\r\nEND:VCARD\r\n".utf8)
    let r = try ContactIO.read(bytes: bytes)
    #expect(r.table.contacts.map(\.fullName) == ["Zoël"])
  }

  @Test func tabFoldAndLFOnly() throws {
    let c = try contacts("BEGIN:VCARD\nVERSION:3.0\nNOTE:one \n\ttwo\nEND:VCARD\n")
    #expect(c.first?.note == "one two")
  }

  @Test func parameterForms() throws {
    let c = try contacts(
      card(
        "BEGIN:VCARD", "VERSION:3.0", "TEL;TYPE=cell,voice:1", "TEL;TYPE=WORK;TYPE=FAX:2",
        "TEL;TYPE=\"COMMA,SEPARATED:INSIDE.DQUOTE\",PREF:3", "END:VCARD"))
    let f = try #require(c.first).fields
    // A quoted TYPE value with commas is a list (RFC 6350 6.4.1: TYPE="voice,home").
    #expect(f.map(\.parameters) == ["TYPE=cell,voice", "TYPE=WORK,FAX", "TYPE=COMMA,\"SEPARATED:INSIDE.DQUOTE\",PREF"])
    #expect(f.map(\.label) == ["cell", "work,fax", "comma,separated:inside.dquote"])
  }

  @Test func bareTypeParameters21() throws {
    let c = try contacts(
      card("BEGIN:VCARD", "VERSION:2.1", "TEL;CELL;VOICE:555", "EMAIL;INTERNET;PREF:a@b.c", "END:VCARD"))
    let f = try #require(c.first).fields
    #expect(f[0].parameters == "TYPE=CELL,VOICE")
    #expect(f[0].label == "cell")
    #expect(f[1].parameters == "TYPE=INTERNET,PREF")
  }

  @Test func caretEscapesAndQuotesInParameters() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:4.0", "FN:x",
      "ADR;LABEL=\"Mr. ^'John^' Doe^n42 Main St\";GEO=\"geo:1,2\":;;42 Main St;Town;;;", "END:VCARD")
    let c = try contacts(text)
    let a = try #require(c.first?.addresses.first)
    let params = ParameterList(encoded: a.parameters ?? "")
    #expect(params.values("LABEL") == ["Mr. \"John\" Doe\n42 Main St"])
    #expect(params.values("GEO") == ["geo:1,2"])
    #expect(a.street == "42 Main St")
    let out = try written(try read(text).table, .vcard4).replacingOccurrences(of: "\r\n ", with: "")
    #expect(out.contains("ADR;LABEL=Mr. ^'John^' Doe^n42 Main St;GEO=\"geo:1,2\":;;42 Main St;Town;;;"))
    #expect(try roundTrips(text))
  }

  @Test func valueEscapes() throws {
    let c = try contacts(
      card("BEGIN:VCARD", "VERSION:3.0", "FN:a\\,b\\;c\\\\d\\ne", "NOTE:x\\Ny", "END:VCARD"))
    #expect(c.first?.fullName == "a,b;c\\d\ne")
    #expect(c.first?.note == "x\ny")
  }

  @Test func structuredNameAndAddress() throws {
    let c = try contacts(
      card(
        "BEGIN:VCARD", "VERSION:3.0", "N:Doe;John;Richter,James;Mr.;Sr.",
        "ADR;TYPE=HOME:PO 1;Apt 2;12 Elm St\\; Rear;Springfield;IL;62701;USA", "END:VCARD"))
    let h = try #require(c.first)
    #expect([h.familyName, h.givenName, h.middleName, h.prefix, h.suffix] == ["Doe", "John", "Richter,James", "Mr.", "Sr."])
    let a = try #require(h.addresses.first)
    #expect(a.poBox == "PO 1")
    #expect(a.extended == "Apt 2")
    #expect(a.street == "12 Elm St; Rear")
    #expect(a.locality == "Springfield")
    #expect(a.region == "IL")
    #expect(a.postalCode == "62701")
    #expect(a.country == "USA")
    #expect(a.label == "home")
  }

  @Test func appleGroups() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:3.0", "FN:x", "item1.TEL;type=pref:555", "item1.X-ABLabel:_$!<Mobile>!$_",
      "item2.ADR;type=WORK:;;1 Infinite Loop;Cupertino;CA;95014;USA", "item2.X-ABADR:us", "END:VCARD")
    let c = try #require(try contacts(text).first)
    #expect(c.fields.first?.group == "item1")
    #expect(c.addresses.first?.group == "item2")
    #expect(c.extras.map(\.name) == ["X-ABLabel", "X-ABADR"])
    #expect(c.extras.map(\.group) == ["item1", "item2"])
    #expect(c.extras.first?.value == "_$!<Mobile>!$_")
    #expect(try written(try read(text).table, .vcard4).contains("item1.X-ABLabel:_$!<Mobile>!$_"))
    #expect(try roundTrips(text))
  }

  @Test func nicknameAndCategoriesKept() throws {
    let text = card("BEGIN:VCARD", "VERSION:3.0", "FN:x", "NICKNAME:Jim,Jimmie", "CATEGORIES:friends,work", "END:VCARD")
    let c = try #require(try contacts(text).first)
    #expect(c.nickname == "Jim,Jimmie")
    #expect(c.extras.map(\.name) == ["CATEGORIES"])
    #expect(c.extras.first?.value == "friends,work")
    let out = try written(try read(text).table, .vcard4)
    #expect(out.contains("NICKNAME:Jim,Jimmie\r\n"))
    #expect(out.contains("CATEGORIES:friends,work\r\n"))
  }

  @Test func legacyNoteWithCommasKeptWhole() throws {
    let c = try contacts(card("BEGIN:VCARD", "VERSION:2.1", "NOTE:one, two; three\\n", "END:VCARD"))
    #expect(c.first?.note == "one, two; three\\n")
  }

  @Test func quotedPrintableSoftBreaks21() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:line one=0D=0Aline=",
      " two =C3=A4=", "=C3=B6", "END:VCARD")
    let c = try contacts(text)
    #expect(c.first?.note == "line one\nline two äö")
    #expect(try roundTrips(text))
  }

  @Test func charsetsThroughConverter() throws {
    var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=ISO-8859-1:M".utf8)
    bytes += [0xFC]  // ü
    bytes += Array("ller\r\nN;CHARSET=SHIFT_JIS:".utf8)
    bytes += [0x88, 0xC0, 0x93, 0xA1]  // 安藤
    bytes += Array(";;;;\r\nEND:VCARD\r\n".utf8)
    let r = try ContactIO.read(bytes: bytes)
    let c = try #require(r.table.contacts.first)
    #expect(c.fullName == "Müller")
    #expect(c.familyName == "安藤")
  }

  @Test func staleCharsetNotAppliedTwice() throws {
    // The value is already UTF-8 although the label says Latin-1.
    let text = card("BEGIN:VCARD", "VERSION:2.1", "FN;CHARSET=ISO-8859-1:Zoë", "TEL;CHARSET=UTF-8;HOME:1", "END:VCARD")
    let t = try read(text).table
    #expect(t.contacts.first?.fullName == "Zoë")
    #expect(t.contacts.first?.fields.first?.parameters == "TYPE=HOME")
    let out = try written(t, .vcard4)
    #expect(!out.contains("CHARSET"))
  }

  @Test func unknownCharsetDoesNotAbort() throws {
    var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=blabla:M".utf8)
    bytes += [0xE4]
    bytes += Array("\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:2.1\r\nFN:next\r\nEND:VCARD\r\n".utf8)
    let r = try ContactIO.read(bytes: bytes)
    #expect(r.table.contacts.map(\.fullName) == ["Mä", "next"])  // fallback charset windows-1252
  }

  @Test func utf16WithByteOrderMark() throws {
    let text = card("BEGIN:VCARD", "VERSION:3.0", "FN:Ωmega", "END:VCARD")
    var bytes: [UInt8] = [0xFF, 0xFE]
    for u in text.utf16 { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
    let r = try ContactIO.read(bytes: bytes)
    #expect(r.table.contacts.map(\.fullName) == ["Ωmega"])
  }

  @Test func base64Photos() throws {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
    var b64: [UInt8] = []
    Base64.encode(jpeg, into: &b64)
    let s = String(decoding: b64, as: UTF8.self)
    let v21 = try contacts(card("BEGIN:VCARD", "VERSION:2.1", "PHOTO;ENCODING=BASE64;TYPE=JPEG:", " " + s, "", "END:VCARD"))
    #expect(v21.first?.photo == Photo(data: jpeg, mediaType: "image/jpeg"))
    let v30 = try contacts(card("BEGIN:VCARD", "VERSION:3.0", "PHOTO;ENCODING=b;TYPE=JPEG:" + s, "END:VCARD"))
    #expect(v30.first?.photo == Photo(data: jpeg, mediaType: "image/jpeg"))
    let text40 = card("BEGIN:VCARD", "VERSION:4.0", "PHOTO:data:image/jpeg;base64," + s, "END:VCARD")
    let v40 = try contacts(text40)
    #expect(v40.first?.photo == Photo(data: jpeg, mediaType: "image/jpeg"))
    #expect(try written(try read(text40).table, .vcard4).contains("PHOTO:data:image/jpeg;base64," + s))
    #expect(try written(try read(text40).table, .vcard3).contains("PHOTO;ENCODING=b;TYPE=JPEG:" + s))
    // A photo by URL stays an extra property, whole.
    let url = try contacts(card("BEGIN:VCARD", "VERSION:4.0", "PHOTO:http://example.com/a,b.jpg", "END:VCARD"))
    #expect(url.first?.extras.first?.value == "http://example.com/a,b.jpg")
  }

  @Test func unknownPropertiesKeptWhole() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:4.0", "FN:x", "X-CUSTOM;X-PARAM=\"a;b\";TYPE=x:va\\,lue;two",
      "ROLE:Boss", "REV:20200101T000000Z", "END:VCARD")
    let c = try #require(try contacts(text).first)
    #expect(c.extras == [
      ExtraProperty(name: "X-CUSTOM", parameters: "X-PARAM=\"a;b\";TYPE=x", value: "va\\,lue;two"),
      ExtraProperty(name: "ROLE", value: "Boss"),
      ExtraProperty(name: "REV", value: "20200101T000000Z"),
    ])
    #expect(try roundTrips(text))
  }

  @Test func writerFoldsAt75OctetsOnCharacterBoundaries() throws {
    let long = String(repeating: "ä€😀x", count: 40)
    var b = ContactTableBuilder()
    b.beginContact()
    b.set(.fullName, b.pool.intern(long))
    b.endContact()
    var bytes: [UInt8] = []
    try ContactIO.write(b.build(), format: .vcard4, to: &bytes)
    let out = String(decoding: bytes, as: UTF8.self)
    for l in bytes.split(separator: ASCII.lf) {
      #expect(l.count <= 76)  // 75 octets + CR
      #expect(UTF8Validation.isValid(l))
    }
    #expect(try contacts(out).first?.fullName == long)
  }

  @Test func writerEscapes() throws {
    var b = ContactTableBuilder()
    b.beginContact()
    b.set(.fullName, b.pool.intern("a,b;c\\d\ne"))
    b.set(.familyName, b.pool.intern("Doe;Jr"))
    b.endContact()
    let out = try written(b.build(), .vcard4)
    #expect(out.contains("FN:a\\,b\\;c\\\\d\\ne\r\n"))
    #expect(out.contains("N:Doe\\;Jr;;;;\r\n"))
    let c = try #require(try contacts(out).first)
    #expect(c.fullName == "a,b;c\\d\ne")
    #expect(c.familyName == "Doe;Jr")
  }

  @Test func lowercaseMarkersAndMissingVersion() throws {
    let c = try contacts("begin:vcard\r\nfn:x\r\nend:vcard\r\nBEGIN:vCard \r\nFN:y\r\nEND:vCard\r\n")
    #expect(c.map(\.fullName) == ["x", "y"])
  }
}

@Suite struct VCardRepeatTests {
  @Test func secondOccurrencesBecomeExtras() throws {
    let text = card(
      "BEGIN:VCARD", "VERSION:3.0", "FN:One", "FN:Two", "N:A;B;;;", "N:C;D;;;", "ORG:X", "ORG:Y", "END:VCARD")
    let c = try #require(try contacts(text).first)
    #expect(c.fullName == "One")
    #expect(c.familyName == "A")
    #expect(c.organization == "X")
    #expect(c.extras == [
      ExtraProperty(name: "FN", value: "Two"), ExtraProperty(name: "N", value: "C;D;;;"),
      ExtraProperty(name: "ORG", value: "Y"),
    ])
  }
}

@Suite struct LineEndTests {
  @Test func carriageReturnOnlyLineEnds() throws {
    let c = try contacts("BEGIN:VCARD\rVERSION:3.0\rFN:Old Mac\rNOTE:a\r b\rEND:VCARD\r")
    #expect(c.map(\.fullName) == ["Old Mac"])
    #expect(c.first?.note == "ab")
  }
}
