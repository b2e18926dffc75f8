import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

/// The real-export samples of `datasets/exports/` (written here in the
/// formats Google Contacts, Outlook in English and German, Apple Contacts
/// and Android export) read together. The oracle is the samples
/// themselves: every expected value below is what the file says, written
/// out by hand, not the reader's earlier output.
@Suite struct ExportSampleTests {
  static let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../datasets/exports").standardized

  static func inputs() -> [ContactInput] {
    ["google.csv", "outlook.csv", "outlook-de.csv", "apple.vcf", "android.vcf"].map {
      ContactInput(path: dir.appendingPathComponent($0).path, name: $0)
    }
  }

  static func readAll() throws -> ReadResult { try ContactIO.read(inputs: inputs()) }

  /// The contact of `source` whose full name is `name`.
  static func contact(_ r: ReadResult, _ source: String, _ name: String) throws -> Contact {
    let rows = try #require(r.sources.first { $0.name == source }).rows
    return try #require(rows.map { r.table.contact(at: $0) }.first { $0.fullName == name }, "\(name) in \(source)")
  }

  @Test func everyInputCountedAndEveryContactTagged() throws {
    let r = try Self.readAll()
    #expect(r.sources.map(\.name) == ["google.csv", "outlook.csv", "outlook-de.csv", "apple.vcf", "android.vcf"])
    #expect(r.sources.map(\.contacts) == [5, 3, 2, 3, 2])
    #expect(r.table.rowCount == 15)
    #expect(r.errors.isEmpty, "\(r.errors)")
    for s in r.sources {
      for row in s.rows {
        #expect(r.table.string(.sourceProvider, at: row) == s.name)
        let sources = r.table.fields.annotations[column: FieldTable.sourceColumn]
        for f in r.table.fieldRange(of: row) {
          #expect(sources?.value(at: f, pool: r.table.pool) == .string(s.name))
        }
      }
    }
    // Only the German Outlook file is not UTF-8 (windows-1252).
    #expect(r.sources.map(\.charset) == [nil, nil, "windows-1252", nil, nil])
  }

  @Test func googleCSV() throws {
    let r = try Self.readAll()
    let tom = try Self.contact(r, "google.csv", "Tom O'Brien")
    // "(212) 555-0147 ::: (212) 555-0199": two phones with the cell's label.
    #expect(tom.fields.filter { $0.kind == .phone }.map(\.value) == ["(212) 555-0147", "(212) 555-0199"])
    #expect(tom.fields.filter { $0.kind == .phone }.allSatisfy { $0.label == "Work" })
    #expect(tom.organization == "Hudson & Pike LLP" && tom.jobTitle == "Partner")
    let jasmine = try Self.contact(r, "google.csv", "Jasmine Okafor")
    #expect(jasmine.givenName == "Jasmine" && jasmine.familyName == "Okafor", "the full name is composed from the parts")
    #expect(jasmine.addresses.first?.street == "12 Wattle Grove")
    #expect(jasmine.addresses.first?.postalCode == "2131")
    #expect(jasmine.birthday == "1974-03-12")
    let priya = try Self.contact(r, "google.csv", "Priya Raman")
    #expect(priya.note == "Met at \"PyCon\", 2019")
    #expect(priya.birthday == "--08-21")
    let maria = try Self.contact(r, "google.csv", "María José García")
    #expect(maria.fields.first { $0.kind == .email }?.value == "mjgarcia@example.es")
  }

  @Test func outlookCSV() throws {
    let r = try Self.readAll()
    let tom = try Self.contact(r, "outlook.csv", "Tom O'Brien")
    #expect(tom.birthday == nil, "0/0/00 is Outlook's empty date")
    #expect(tom.addresses.count == 1)
    #expect(tom.addresses.first?.label == "work")
    #expect(tom.addresses.first?.street == "350 Fifth Avenue\r\nSuite 4100", "a quoted cell over two lines")
    #expect(tom.fields.first { $0.kind == .phone }.map { ($0.label, $0.value) } ?? ("", "") == ("work", "(212) 555-0147"))
    let jasmine = try Self.contact(r, "outlook.csv", "Jasmine Okafor")
    #expect(jasmine.birthday == "3/12/1974")
    #expect(jasmine.fields.first { $0.kind == .phone }?.label == "cell")
    #expect(jasmine.addresses.first?.label == "home")
    #expect(jasmine.addresses.first?.locality == "Ashfield")
  }

  @Test func outlookInGermanAndWindows1252() throws {
    let r = try Self.readAll()
    let j = try Self.contact(r, "outlook-de.csv", "Jürgen Müller")
    #expect(j.givenName == "Jürgen" && j.familyName == "Müller")
    #expect(j.organization == "Müller & Söhne GmbH")
    #expect(j.birthday == "15.3.1968")
    let phones = j.fields.filter { $0.kind == .phone }.map { "\($0.label ?? ""):\($0.value)" }
    #expect(Set(phones) == ["home:089 1234567", "cell:0151 23456789"])
    #expect(j.fields.first { $0.kind == .email }?.value == "juergen.mueller@example.de")
    let home = try #require(j.addresses.first)
    #expect(home.label == "home")
    #expect(home.street == "Schillerstraße 12" && home.locality == "München")
    #expect(home.postalCode == "80336" && home.country == "Deutschland")
    let emma = try Self.contact(r, "outlook-de.csv", "Emma Schulz")
    #expect(emma.note == "Nachbarin, Haus Nr. 14")
    #expect(emma.birthday == "1.1.1990")
  }

  @Test func appleAndAndroidVCards() throws {
    let r = try Self.readAll()
    let tom = try Self.contact(r, "apple.vcf", "Tom O'Brien")
    // item1.TEL + item1.X-ABLabel:desk: the label travels with its group.
    let desk = try #require(tom.fields.first { $0.value == "+1 (212) 555-0199" })
    #expect(desk.group == "item1")
    #expect(tom.note == "Prefers e-mail, not calls.\nAssistant: Rae")
    let kenji = try Self.contact(r, "apple.vcf", "渡辺 健二")
    #expect(kenji.familyName == "渡辺")
    #expect(kenji.note?.hasSuffix("second week of June.") == true, "the folded NOTE is one value")
    #expect(kenji.note?.contains("speaksEnglish") == false && kenji.note?.contains("speaks English") == true)
    let juergen = try Self.contact(r, "android.vcf", "Jürgen Müller")
    #expect(juergen.addresses.first?.street == "Schillerstraße 12", "quoted-printable UTF-8")
    let priya = try Self.contact(r, "android.vcf", "Priya Raman")
    // =0D=0A is a line break (the reader keeps line breaks as LF or CRLF);
    // a soft line break (= at the end of the line) joins the value.
    #expect(
      priya.note?.replacingOccurrences(of: "\r\n", with: "\n")
        == "Met at PyCon 2019.\nShe leads the data team; ask about the Chennai meetup.")
  }

  /// A CSV with windows-1252 lines and UTF-8 lines: each line is read in
  /// its own encoding (UTF-8 lines are not decoded a second time).
  @Test func mixedCharsetCSVLines() throws {
    var bytes = Array("First Name,Last Name\r\n".utf8)
    bytes += [0x4A, 0xFC, 0x72, 0x67, 0x65, 0x6E, 0x2C, 0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72, 0x0D, 0x0A]  // Jürgen,Müller in windows-1252
    bytes += Array("Zoë,Ångström\r\n".utf8)
    let r = try ContactIO.read(bytes: bytes, format: .csv)
    #expect(r.table.contacts.map(\.fullName) == ["Jürgen Müller", "Zoë Ångström"])
    #expect(r.undeclaredCharset?.name == "windows-1252")
  }

  /// A cell that is not UTF-8 after the first 4 KB is decoded as one in
  /// them would be (fuzz finding crash-1f101f0c: it was kept raw, so the
  /// written file read back differently). Written and read again, the
  /// contacts are the same.
  @Test func lateNonUTF8CellIsDecodedAndRoundTrips() throws {
    var bytes = Array("uid,fullName,note\r\n".utf8)
    for i in 0..<100 { bytes += Array("u\(i),Name \(i),\(String(repeating: "x", count: 40))\r\n".utf8) }
    #expect(bytes.count > 4096)
    bytes += Array("late,".utf8) + [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72, 0x20, 0xD8] + Array(",n\r\n".utf8)  // "Müller Ø" in windows-1252
    let first = try ContactIO.read(bytes: bytes, format: .csv)
    #expect(first.table.contacts.last?.fullName == "Müller Ø")
    #expect(first.undeclaredCharset?.name == "windows-1252" && first.undeclaredCharset?.values == 1)
    var written: [UInt8] = []
    try ContactIO.write(first.table, format: .csv, to: &written)
    let back = try ContactIO.read(bytes: written, format: .csv)
    #expect(back.table.contacts == first.table.contacts)
    #expect(back.undeclaredCharset == nil, "what was written is UTF-8")
  }

  /// Two neighbouring cells that are each not UTF-8 but whose bytes
  /// together are (`…\u{CE}` then `\u{B1}`, which joined read as `α`) are
  /// both decoded (fuzz finding crash-c1991135: the record's text was
  /// checked as a whole, found UTF-8, and both cells kept raw, so the
  /// written file read back differently). Expected text: windows-1252's
  /// table (0xCE is Î, 0xB1 is ±).
  @Test func cellsThatAreUTF8OnlyTogetherAreEachDecoded() throws {
    var bytes = Array("First Name,Last Name,Notes\r\n".utf8)
    bytes += Array("Ada,Quist".utf8) + [0xCE] + Array(",".utf8) + [0xB1] + Array("\r\n".utf8)
    bytes += Array("Ben,Ruiz,ok\r\n".utf8)
    let first = try ContactIO.read(bytes: bytes, format: .csv)
    #expect(first.table.contacts.map(\.familyName) == ["QuistÎ", "Ruiz"])
    #expect(first.table.contacts.first?.note == "±")
    #expect(first.undeclaredCharset?.name == "windows-1252" && first.undeclaredCharset?.values == 2)
    var written: [UInt8] = []
    try ContactIO.write(first.table, format: .csv, to: &written)
    #expect(written.withUnsafeBytes { ByteScan.isValidUTF8($0) })
    let back = try ContactIO.read(bytes: written, format: .csv)
    #expect(back.table.contacts == first.table.contacts)
  }

  /// A bad record in one input is reported with that input's name and
  /// line; the other inputs are read in full.
  @Test func anErrorNamesItsInput() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-inputs-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let bad = dir.appendingPathComponent("bad.csv")
    try Data("First Name,Last Name\r\nAda,Quist\r\nBen,Ruiz,extra,cells\r\nCleo,Marsh\r\n".utf8).write(to: bad)
    let r = try ContactIO.read(inputs: [ContactInput(path: bad.path, name: "crm")] + Self.inputs())
    #expect(r.sources.first?.contacts == 2 && r.sources.first?.skipped == 1)
    #expect(r.table.rowCount == 17)
    let e = try #require(r.errors.first)
    #expect(e.source == "crm" && e.line == 3)
    // A missing input stops the read, naming it.
    #expect(throws: ContactIOError.self) {
      _ = try ContactIO.read(inputs: Self.inputs() + [ContactInput(path: dir.appendingPathComponent("none.vcf").path)])
    }
  }
}
