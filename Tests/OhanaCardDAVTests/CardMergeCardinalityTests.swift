import Foundation
import OhanaDatasets
import OhanaPhone
import Testing
import _OhanaTestSupport

@testable import OhanaCardDAV

/// The write-back's merge keeps every property's cardinality (issue 43):
/// checked by `VCardRFCChecker`, a table typed apart from the merge's and
/// a parser that shares nothing with `VCardText`.
@Suite struct CardMergeCardinalityTests {
  static func cardTexts(_ text: String) -> [VCardText] { VCardRFCChecker.cards(text).compactMap { VCardText($0) } }

  /// Generated cards of every version, with their truth clusters.
  static func generated(_ contacts: Int, seed: UInt64, version: VersionMode) throws -> (cards: [String], cluster: [String: String]) {
    var vcf: [UInt8] = []
    var truth: [UInt8] = []
    try DatasetGenerator(options: GeneratorOptions(contacts: contacts, seed: seed, version: version, dupRate: 0.4))
      .generate(threads: 2, vcard: { vcf += $0 }, truth: { truth += $0 })
    var cluster: [String: String] = [:]
    for line in String(decoding: truth, as: UTF8.self).split(separator: "\n").dropFirst() {
      let parts = line.split(separator: ",")
      if parts.count == 2 { cluster[String(parts[0])] = String(parts[1]) }
    }
    return (VCardRFCChecker.cards(String(decoding: vcf, as: UTF8.self)), cluster)
  }

  static func corpusCards(filePath: String = #filePath) -> [String]? {
    let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/corpus/vcard")
      .standardized
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue,
      let e = FileManager.default.enumerator(atPath: root.path)
    else { return nil }
    var out: [String] = []
    for case let rel as String in e where rel.lowercased().hasSuffix(".vcf") || rel.lowercased().hasSuffix(".vcard") {
      guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(rel).path) else { continue }
      out += VCardRFCChecker.cards(String(decoding: data, as: UTF8.self))
    }
    return out
  }

  struct Tally {
    var cards = 0
    var merges = 0
    var validSurvivors = 0
    var byVersion: [String: Int] = [:]
    var setAside = 0
    var skipped = 0
  }

  /// Merges `clusters` (texts, survivor first) and checks each merged card.
  static func check(_ clusters: [[String]], into tally: inout Tally, merger: CardMerge) {
    for texts in clusters where texts.count >= 2 {
      // A cluster with a card that is not one vCard (`BEGIN:VCARD ` with a
      // blank after it, in the corpus) is skipped by the plan: not merged.
      let parsed = texts.map { VCardText($0) }
      guard parsed.allSatisfy({ $0 != nil }), let survivor = parsed[0] else {
        tally.skipped += 1
        continue
      }
      let others = parsed.dropFirst().enumerated().compactMap { i, t in t.map { (card: $0, from: "card\(i)") } }
      let result = merger.merge(survivor: survivor, others: others)
      let merged = result.card.text
      tally.cards += texts.count
      tally.merges += 1
      tally.byVersion[survivor.version, default: 0] += 1
      tally.setAside += result.setAside.count
      let survivorProblems = VCardRFCChecker.problems(texts[0])
      let mergedProblems = VCardRFCChecker.problems(merged)
      // The merge never makes a card break the tables ...
      if survivorProblems.isEmpty {
        tally.validSurvivors += 1
        #expect(mergedProblems.isEmpty, "merged card breaks the RFC tables: \(mergedProblems)")
      }
      // ... and the plan's own check (which skips a cluster; it also
      // refuses lines that are no property) agrees with the independent
      // checker on every card, broken survivors included.
      let malformed = VCardRFCChecker.malformedLines(merged)
      #expect(
        CardMerge.violations(result.card).isEmpty == (mergedProblems.isEmpty && malformed.isEmpty),
        "\(mergedProblems) \(malformed.map { Array($0.unicodeScalars.prefix(60)) }) vs \(CardMerge.violations(result.card)) \(result.card.lines.filter { !$0.raw.unicodeScalars.contains(":") }.map { Array($0.raw.unicodeScalars.prefix(60)) })")
      // Every other card's differing value of a single-valued property
      // is listed as set aside (nothing dropped silently).
      let singles = VCardRFCChecker.singleValued(survivor.version).subtracting(["VERSION", "UID", "REV", "PRODID", "KIND"])
      var survivorValues: [String: [String]] = [:]
      for l in VCardRFCChecker.logicalLines(texts[0]) {
        let p = VCardRFCChecker.property(l)
        survivorValues[p.name, default: []].append(p.value)
      }
      let mergedLines = Set(VCardRFCChecker.logicalLines(merged).map { VCardRFCChecker.property($0) }.map { "\($0.name):\($0.value)" })
      for t in texts.dropFirst() {
        for l in VCardRFCChecker.logicalLines(t) {
          let p = VCardRFCChecker.property(l)
          guard singles.contains(p.name), let mine = survivorValues[p.name], !mine.isEmpty else { continue }
          let fold = { (s: String) in s.lowercased().split(separator: " ").joined(separator: " ") }
          let same = mine.contains { fold($0) == fold(p.value) }
            || (p.name == "N" && mine.contains { a in
              let c = { (s: String) in s.lowercased().split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }.reversed().drop(while: \.isEmpty).reversed() as [String] }
              return c(a) == c(p.value)
            })
          if same { continue }
          // Listed, or carried beside the survivor's (a value that differs
          // from one already carried only in case is that value).
          let listed = result.setAside.contains { $0.property == p.name && $0.value == p.value }
          // (Carried as text: its `;` and `,` escaped, so compared without backslashes.)
          let bare = { (s: String) in fold(s.replacingOccurrences(of: "\\", with: "")) }
          let carried = mergedLines.contains { $0.hasPrefix("X-OHANA-ALT-\(p.name):") && bare(String($0.dropFirst(13 + p.name.count))) == bare(p.value) }
          #expect(listed || carried, "\(p.name):\(p.value) dropped without a word\nSURVIVOR\n\(texts[0])\nOTHERS\n\(texts.dropFirst().joined())\nMERGED\n\(merged)\nASIDE \(result.setAside)")
        }
      }
    }
  }

  /// At least 10,000 cards of vCard 2.1, 3.0 and 4.0: generated clusters
  /// of one person, random clusters of different people (the worst case:
  /// every name differs), and random clusters of the real-export corpus.
  @Test func mergesOfManyClustersObeyTheRFCTables() throws {
    var tally = Tally()
    let merger = CardMerge(defaultRegion: .us)
    var rng = SeededRandom(seed: 43)
    // One person's records (the generator's truth), every version.
    let (cards, cluster) = try Self.generated(6300, seed: 43, version: .mixed)
    var byCluster: [String: [String]] = [:]
    var order: [String] = []
    for c in cards {
      let uid = VCardRFCChecker.logicalLines(c).map(VCardRFCChecker.property).first { $0.name == "UID" }?.value ?? ""
      let k = cluster[uid] ?? uid
      if byCluster[k] == nil { order.append(k) }
      byCluster[k, default: []].append(c)
    }
    Self.check(order.compactMap { byCluster[$0] }.filter { $0.count >= 2 }, into: &tally, merger: merger)
    // Random clusters of 2-6 different people.
    var shuffled = cards
    shuffled.shuffle(using: &rng)
    var i = 0
    var random: [[String]] = []
    while i < shuffled.count {
      let n = 2 + Int.random(in: 0..<5, using: &rng)
      random.append(Array(shuffled[i..<min(shuffled.count, i + n)]))
      i += n
    }
    Self.check(random, into: &tally, merger: merger)
    // The corpus, in random clusters of 2-4 (and each file's cards in one).
    if let corpus = Self.corpusCards() {
      var c = corpus
      c.shuffle(using: &rng)
      var k = 0
      var groups: [[String]] = []
      while k < c.count {
        let n = 2 + Int.random(in: 0..<3, using: &rng)
        groups.append(Array(c[k..<min(c.count, k + n)]))
        k += n
      }
      Self.check(groups, into: &tally, merger: merger)
    } else {
      print("WARNING: the shared vCard corpus is missing; the merge was checked on generated cards only")
    }
    print("card merges checked: \(tally.merges) merges of \(tally.cards) cards, by survivor version \(tally.byVersion), \(tally.setAside) values set aside, \(tally.skipped) clusters skipped (a card that is not one vCard)")
    #expect(tally.cards >= 10_000)
    #expect(Set(tally.byVersion.keys).isSuperset(of: ["2.1", "3.0", "4.0"]))
    #expect(tally.validSurvivors * 10 >= tally.merges * 9)
  }

  static func card(_ lines: [String], version: String = "3.0") -> VCardText? {
    VCardText((["BEGIN:VCARD", "VERSION:\(version)"] + lines + ["END:VCARD"]).map { $0 + "\r\n" }.joined())
  }

  /// The issue's card: a second N (a typo of the survivor's), a second FN,
  /// one number written two ways (`0091 81226 94899` and `081226 94899`,
  /// both +91 81226 94899 by libphonenumber), Evolution's FILE-AS twice.
  @Test func theReportedCardHoldsEachPropertyOnce() throws {
    let survivor = try #require(
      Self.card([
        "UID:a", "N:थापा;उषा;;;", "FN:उषा थापा", "X-EVOLUTION-FILE-AS:थापा\\, उषा", "TEL;TYPE=CELL:0091 81226 94899",
        "ADR;TYPE=HOME:;;12 MG Road;Pune;;411001;India",
      ]))
    let other = try #require(
      Self.card(["UID:b", "N:ाथपा;उषा:", "FN:उषा ाथपा", "X-EVOLUTION-FILE-AS:ाथपा\\, उषा", "TEL;TYPE=CELL:081226 94899", "EMAIL:usha@example.in"]))
    let result = CardMerge(defaultRegion: .us).merge(survivor: survivor, others: [(other, "b.vcf")])
    let text = result.card.text
    #expect(VCardRFCChecker.problems(text).isEmpty, "\(VCardRFCChecker.problems(text))")
    let names = VCardRFCChecker.logicalLines(text).map { VCardRFCChecker.property($0).name }
    #expect(names.filter { $0 == "N" }.count == 1)
    #expect(names.filter { $0 == "FN" }.count == 1)
    #expect(names.filter { $0 == "TEL" }.count == 1)
    #expect(names.filter { $0 == "X-EVOLUTION-FILE-AS" }.count == 1)
    #expect(names.contains("EMAIL"))
    #expect(text.contains("X-OHANA-ALT-N:ाथपा\\;उषा:"))
    #expect(Set(result.setAside.map(\.property)) == ["N", "FN", "X-EVOLUTION-FILE-AS"])
    #expect(result.setAside.allSatisfy { $0.from == "b.vcf" })
    #expect(result.setAside.first { $0.property == "X-EVOLUTION-FILE-AS" }?.into == "")
  }

  /// Another given name of the same family is a nickname; a typo is not.
  @Test func anotherGivenNameBecomesANickname() throws {
    let survivor = try #require(Self.card(["UID:a", "N:Smith;Robert;;;", "FN:Robert Smith"], version: "4.0"))
    let bob = try #require(Self.card(["UID:b", "N:Smith;Bob;;;", "FN:Bob Smith"], version: "4.0"))
    let typo = try #require(Self.card(["UID:c", "N:Smith;Robret;;;", "FN:Robret Smith"], version: "4.0"))
    let result = CardMerge().merge(survivor: survivor, others: [(bob, "b"), (typo, "c")])
    let text = result.card.text
    #expect(VCardRFCChecker.problems(text).isEmpty)
    #expect(text.contains("NICKNAME:Bob\r\n"))
    #expect(text.contains("X-OHANA-ALT-N:Smith\\;Robret\\;\\;\\;\r\n"))
    #expect(result.setAside.first { $0.property == "N" && $0.value.contains("Bob") }?.into == "NICKNAME")
    #expect(result.setAside.first { $0.property == "N" && $0.value.contains("Robret") }?.into == "X-OHANA-ALT-N")
  }

  /// Phones are compared as numbers, in the card's country: the same
  /// number in national and international form is one line; two numbers
  /// that share their last digits are two.
  @Test func phonesAreComparedByTheirE164Value() throws {
    let survivor = try #require(Self.card(["UID:a", "N:Weber;Jan;;;", "FN:Jan Weber", "TEL:+49 30 1234567", "ADR:;;Hauptstr. 1;Berlin;;10115;Deutschland"]))
    let other = try #require(
      Self.card(["UID:b", "N:Weber;Jan;;;", "FN:Jan Weber", "TEL:030 1234567", "TEL:089 1234567", "ADR:;;;;;;Germany"]))
    let result = CardMerge(defaultRegion: .us).merge(survivor: survivor, others: [(other, "b")])
    let tels = VCardRFCChecker.logicalLines(result.card.text).map(VCardRFCChecker.property).filter { $0.name == "TEL" }.map(\.value)
    #expect(tels == ["+49 30 1234567", "089 1234567"])
  }
}
