import OhanaText
import Testing

@Suite struct CollatorTests {
  @Test func icuVersionLooksLikeAVersion() {
    let v = ICU.version
    #expect(v.split(separator: ".").count >= 2)
    #expect(v.first?.isNumber == true)
  }

  @Test func germanUmlautSortsWithItsBaseLetter() throws {
    let de = try Collator(locale: "de")
    #expect(de.keySorted(["Mulzer", "Müller", "Mueller", "Muller"])
      == ["Mueller", "Muller", "Müller", "Mulzer"])
    // Primary level: Ä is an A; the accent matters only after the base letters.
    #expect(de.compare("Äb", "Ac") == .ascending)
    #expect(de.compare("Ab", "Äb") == .ascending)
  }

  @Test func germanPhonebookSortsUmlautAsLetterPlusE() throws {
    for locale in ["de-u-co-phonebk", "de@collation=phonebook"] {
      let phonebook = try Collator(locale: locale)
      #expect(phonebook.icuLocale == "de@collation=phonebook")
      #expect(phonebook.keySorted(["Mulzer", "Müller", "Mueller", "Muller"])
        == ["Mueller", "Müller", "Muller", "Mulzer"])
      #expect(phonebook.compare("Äb", "Ac") == .descending)  // Äb ~ Aeb > Ac
      #expect(phonebook.compare("Äf", "Af") == .ascending)  // Äf ~ Aef < Af
    }
  }

  @Test func swedishPutsÅÄÖAfterZ() throws {
    let sv = try Collator(locale: "sv")
    #expect(sv.keySorted(["Östen", "Zorn", "Ärling", "Adam", "Åberg"])
      == ["Adam", "Zorn", "Åberg", "Ärling", "Östen"])
    let de = try Collator(locale: "de")
    #expect(de.keySorted(["Östen", "Zorn", "Ärling", "Adam", "Åberg"])
      == ["Åberg", "Adam", "Ärling", "Östen", "Zorn"])
  }

  @Test func lithuanianYBetweenIAndJ() throws {
    let lt = try Collator(locale: "lt")
    #expect(lt.keySorted(["jonas", "yla", "ignas"]) == ["ignas", "yla", "jonas"])
    let root = try Collator(locale: "root")
    #expect(root.keySorted(["jonas", "yla", "ignas"]) == ["ignas", "jonas", "yla"])
  }

  @Test func estonianŠZŽAfterS() throws {
    let et = try Collator(locale: "et")
    #expect(et.keySorted(["tee", "žurnaal", "zoo", "šokk", "sai"])
      == ["sai", "šokk", "zoo", "žurnaal", "tee"])
  }

  @Test func japaneseKanaBeforeKanjiAndInGojuonOrder() throws {
    let ja = try Collator(locale: "ja")
    let sorted = ja.keySorted(["漢字", "かな", "あい", "カナ", "さくら", "山田"])
    #expect(Array(sorted.prefix(4)) == ["あい", "かな", "カナ", "さくら"])
    #expect(Set(sorted.suffix(2)) == ["漢字", "山田"])
    // Hiragana and katakana of the same syllable differ only at a lower level.
    let primary = try Collator(locale: "ja", strength: .primary)
    #expect(primary.compare("かな", "カナ") == .same)
    let quaternary = try Collator(locale: "ja", strength: .quaternary)
    #expect(quaternary.compare("かな", "カナ") != .same)
  }

  @Test func mixedScriptsFollowScriptOrder() throws {
    let root = try Collator(locale: "root")
    #expect(root.keySorted(["王", "Борис", "Ωmega", "Anna", "김", "אבי"])
      == ["Anna", "Ωmega", "Борис", "אבי", "김", "王"])
  }

  @Test func pinyinCollationOrdersHanBySound() throws {
    let pinyin = try Collator(locale: "zh-u-co-pinyin")
    // 阿 (ā) < 北 (běi) < 中 (zhōng) in pinyin, whatever their stroke or radical order.
    #expect(pinyin.keySorted(["中", "北", "阿"]) == ["阿", "北", "中"])
  }

  @Test func caseAndAccentTieOrder() throws {
    let en = try Collator(locale: "en")
    // Accents (secondary) outrank case (tertiary); lowercase first by default.
    #expect(en.keySorted(["Á", "á", "A", "a", "b"]) == ["a", "A", "á", "Á", "b"])
    let upperFirst = try Collator(locale: "en", caseFirst: .upperFirst)
    #expect(upperFirst.keySorted(["a", "A"]) == ["A", "a"])
    let secondary = try Collator(locale: "en", strength: .secondary)
    #expect(secondary.compare("a", "A") == .same)
    #expect(secondary.compare("a", "á") == .ascending)
  }

  @Test func shiftedIgnoresPunctuationAndSpaces() throws {
    let shifted = try Collator(locale: "en", strength: .tertiary, alternate: .shifted)
    #expect(shifted.compare("de la cruz", "delacruz") != .descending)
    // The apostrophe is ignored: O'Brien sorts as OBrien, after Oberst.
    #expect(shifted.keySorted(["O'Brien", "Obama", "Oberst"]) == ["Obama", "Oberst", "O'Brien"])
    let plain = try Collator(locale: "en")
    #expect(plain.keySorted(["O'Brien", "Obama"]) == ["O'Brien", "Obama"])
  }

  @Test func numericOption() throws {
    let numeric = try Collator(locale: "en", numeric: true)
    #expect(numeric.keySorted(["file10", "file2", "file1"]) == ["file1", "file2", "file10"])
  }

  @Test func unknownLocaleFallsBackToRoot() throws {
    let unknown = try Collator(locale: "qq")
    #expect(unknown.actualLocale == "root")
    let de = try Collator(locale: "de")
    #expect(de.actualLocale != "")
  }

  @Test func sortKeyAgreesWithCompare() throws {
    let de = try Collator(locale: "de")
    let a = de.sortKey("Müller")
    let b = de.sortKey("Muller")
    #expect(a.last == 0)
    #expect(!a.dropLast().contains(0))
    #expect(b.lexicographicallyPrecedes(a))
    #expect(de.compare("Muller", "Müller") == .ascending)
    var arena: [UInt8] = [1, 2, 3]
    let n = de.appendSortKey(utf8: Array("Müller".utf8), to: &arena)
    #expect(Array(arena.dropFirst(3)) == a && n == a.count)
    // Ill-formed UTF-8 is not an error: it sorts as U+FFFD.
    #expect(de.sortKey(utf8: [0xFF, 0x41]).last == 0)
    #expect(de.compare(utf8: [0xC3], [0x41]) == .descending)
  }

  @Test func bulkKeysMatchSingleKeys() throws {
    let de = try Collator(locale: "de")
    let names = randomNames(count: 3_000, seed: 7)
    let strings = ByteStrings(names)
    let parallel = de.sortKeys(for: strings, parallel: true)
    let sequential = de.sortKeys(for: strings, parallel: false)
    #expect(parallel.storage == sequential.storage)
    #expect(parallel.count == names.count)
    for i in stride(from: 0, to: names.count, by: 97) {
      #expect(Array(parallel[i]) == de.sortKey(names[i]))
    }
    let picked = [5, 3, 3, 2_999]
    let selected = de.sortKeys(for: strings, selecting: picked)
    for (i, id) in picked.enumerated() { #expect(Array(selected[i]) == de.sortKey(names[id])) }
  }

  @Test func collatorIsUsableFromManyThreads() async throws {
    let sv = try Collator(locale: "sv")
    let expected = sv.sortKey("Östen Åberg")
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask {
          (0..<200).allSatisfy { _ in
            sv.sortKey("Östen Åberg") == expected && sv.compare("Zorn", "Åberg") == .ascending
          }
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }
}
