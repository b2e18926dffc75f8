import Foundation
import OhanaDatasets
import Testing
import _OhanaTestSupport

/// No vCard the command line writes breaks its version's cardinalities
/// (issue 43): `convert` of the real-export corpus and of cards that
/// repeat single-valued properties, and `dedupe`'s merged cards, each
/// checked by the independent `VCardRFCChecker`.
@Suite struct VCardCardinalityCLITests {
  static func problems(_ text: String) -> [String] {
    VCardRFCChecker.cards(text).flatMap { c in VCardRFCChecker.problems(c).map { "\($0) in \(c)" } }
  }

  /// A card with two N, two BDAY, two GENDER and two UID: one of each is
  /// written, the others as X-OHANA-ALT- (their values, escaped as text).
  @Test func repeatsAreWrittenBesideNeverTwice() throws {
    let dir = try TempDir()
    try dir.write(
      "in.vcf",
      [
        "BEGIN:VCARD", "VERSION:4.0", "UID:u1", "UID:u2", "FN:Ann Lee", "N:Lee;Ann;;;", "N:Li;Ann;;;", "BDAY:19800101",
        "BDAY:19810101", "GENDER:F", "GENDER:F;woman", "END:VCARD",
      ].map { $0 + "\r\n" }.joined())
    for to in ["vcard3", "vcard4"] {
      let r = try CLI.run(["convert", dir.path("in.vcf"), "-o", dir.path("out-\(to).vcf"), "--to", to, "-q"])
      #expect(r.status == 0, "\(r.stderr)")
      let out = String(decoding: try dir.read("out-\(to).vcf"), as: UTF8.self)
      #expect(Self.problems(out).isEmpty, "\(Self.problems(out))")
      #expect(out.contains("X-OHANA-ALT-N:Li\\;Ann\\;\\;\\;\r\n"), "\(out)")
      #expect(out.contains("X-OHANA-ALT-BDAY:19810101\r\n") && out.contains("X-OHANA-ALT-UID:u2\r\n"), "\(out)")
      if to == "vcard4" { #expect(out.contains("X-OHANA-ALT-GENDER:F\\;woman\r\n"), "\(out)") }
    }
  }

  /// The corpus converted to 3.0 and 4.0.
  @Test func corpusConvertedObeysTheTables() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/corpus/vcard")
      .standardized
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue,
      let e = FileManager.default.enumerator(atPath: root.path)
    else {
      print("WARNING: the shared vCard corpus is missing at \(root.path): corpusConvertedObeysTheTables NOT RUN")
      return
    }
    let dir = try TempDir()
    var files = 0, cards = 0
    for case let rel as String in e where rel.lowercased().hasSuffix(".vcf") {
      files += 1
      for to in ["vcard3", "vcard4"] {
        let r = try CLI.run(["convert", root.appendingPathComponent(rel).path, "-o", dir.path("o.vcf"), "--to", to, "-q"])
        guard r.status == 0 else { continue }  // unreadable corpus files are tested elsewhere
        let out = String(decoding: try dir.read("o.vcf"), as: UTF8.self)
        cards += VCardRFCChecker.cards(out).count
        #expect(Self.problems(out).isEmpty, "\(rel) as \(to): \(Self.problems(out).prefix(3))")
      }
    }
    #expect(files >= 150 && cards >= 500, "\(files) files, \(cards) cards")
  }

  /// dedupe's merged cards (members that disagree on every field).
  @Test func dedupeMergedCardsObeyTheTables() throws {
    let dir = try TempDir()
    var vcf: [UInt8] = []
    try DatasetGenerator(options: GeneratorOptions(contacts: 3000, seed: 4301, version: .mixed, dupRate: 0.5))
      .generate(threads: 2, vcard: { vcf += $0 })
    try vcf.withUnsafeBytes { try Data($0).write(to: dir.url.appendingPathComponent("in.vcf")) }
    for to in ["vcard3", "vcard4"] {
      let r = try CLI.run(["dedupe", dir.path("in.vcf"), "-o", dir.path("m.vcf"), "--to", to, "-q"])
      #expect(r.status == 0, "\(r.stderr)")
      let out = String(decoding: try dir.read("m.vcf"), as: UTF8.self)
      #expect(VCardRFCChecker.cards(out).count > 1000)
      #expect(Self.problems(out).isEmpty, "\(Self.problems(out).prefix(3))")
    }
  }
}
