import Foundation
import OhanaCore
import Testing
import _OhanaTestSupport

@testable import OhanaIO

/// read → write 4.0 → read over every file of the shared corpus: the second
/// read must give the same contacts (names, fields, addresses, groups,
/// parameters, extra properties, photos) as the first.
@Suite struct CorpusRoundTripTests {
  static func comparable(_ c: Contact) -> Contact {
    var c = c
    c.sourceLine = 0
    c.sourceProvider = nil
    return c
  }

  static func files() -> [URL] {
    guard let dir = corpusDirectory() else { return [] }
    let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
    var out: [URL] = []
    while let u = e?.nextObject() as? URL {
      if u.pathExtension.lowercased() == "vcf" { out.append(u) }
    }
    return out.sorted { $0.path < $1.path }
  }

  @Test func roundTripEveryCorpusFile() throws {
    let files = Self.files()
    if files.isEmpty { return }
    var passed = 0
    var failed: [String] = []
    var noCards: [String] = []
    for url in files {
      let name = url.pathComponents.suffix(2).joined(separator: "/")
      let first = try ContactIO.read(path: url.path)
      if first.table.rowCount == 0 {
        noCards.append(name)
        continue
      }
      for version in [ContactFormat.vcard4, .vcard3] {
        var out: [UInt8] = []
        try ContactIO.write(first.table, format: version, to: &out)
        let second = try ContactIO.read(bytes: out)
        // A repeated single-valued property comes back as X-OHANA-ALT-.
        let a = first.table.contacts.map { Self.comparable(WrittenRepeats.expected($0, version4: version == .vcard4)) }
        let b = second.table.contacts.map(Self.comparable)
        // What the first read kept verbatim is written back as it was, so
        // the second read warns about exactly those lines again.
        let keptVerbatim = first.errors.filter { $0.reason.hasSuffix("kept verbatim") }.map(\.reason)
        if a != b || second.errors.map(\.reason) != keptVerbatim {
          failed.append("\(name) (\(version))")
          if let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            print("DIFF \(name) \(version) contact \(i):\n  \(a[i])\n  \(b[i])")
          } else {
            print("DIFF \(name) \(version): \(a.count) vs \(b.count) contacts, errors \(second.errors)")
          }
        }
      }
      if !failed.contains(where: { $0.hasPrefix(name + " ") }) { passed += 1 }
      if !first.errors.isEmpty {
        print("note: \(name): \(first.recordsRead) cards read, skipped: \(first.errors.map(\.description))")
      }
    }
    print(
      "corpus round trip: \(passed) of \(files.count) files passed; \(noCards.count) without readable cards \(noCards); failed: \(failed)"
    )
    #expect(failed.isEmpty)
  }
}
