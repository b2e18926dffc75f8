import OhanaCore
import OhanaText
import Testing

@testable import OhanaProcessors

@Suite struct AlphabeticalSortTests {
  func sorted(_ contacts: [Contact], _ sort: AlphabeticalSort, order: [UInt32]? = nil) throws
    -> [String]
  {
    let frame = Frame(table: ContactTable(contacts: contacts), order: order)
    let out = try sort.process(frame, context: ProcessingContext())
    return out.contacts.compactMap(\.uid)
  }

  let people: [Contact] = [
    Contact(uid: "1", givenName: "Zoe", familyName: "Müller"),
    Contact(uid: "2", givenName: "Anna", familyName: "Müller"),
    Contact(uid: "3", givenName: "Ärne", familyName: "Zorn"),
    Contact(uid: "4", givenName: "Bert"),
    Contact(uid: "5", givenName: "Carl", familyName: "Mueller"),
    Contact(uid: "6", familyName: "Adams"),
    Contact(uid: "7", givenName: "Anna", familyName: "Åberg"),
  ]

  @Test func familyNameModeBreaksTiesByGivenNameAndPutsMissingLast() throws {
    #expect(try sorted(people, AlphabeticalSort(mode: .familyName, locale: "de"))
      == ["7", "6", "5", "2", "1", "3", "4"])
    // Swedish: Å after Z.
    #expect(try sorted(people, AlphabeticalSort(mode: .familyName, locale: "sv"))
      == ["6", "5", "2", "1", "3", "7", "4"])
    // Phonebook German: Müller sorts as "Mueller", before Muller.
    let pair = [Contact(uid: "u", familyName: "Muller"), Contact(uid: "ü", familyName: "Müller")]
    #expect(try sorted(pair, AlphabeticalSort(mode: .familyName, locale: "de")) == ["u", "ü"])
    #expect(try sorted(pair, AlphabeticalSort(mode: .familyName, locale: "de-u-co-phonebk"))
      == ["ü", "u"])
  }

  @Test func contactsWithoutPrimaryKeepIncomingOrder() throws {
    let contacts = [
      Contact(uid: "p", givenName: "Zed"),
      Contact(uid: "q", givenName: "Abe"),
      Contact(uid: "r", givenName: "Max", familyName: "Young"),
    ]
    #expect(try sorted(contacts, AlphabeticalSort(mode: .familyName, locale: "en")) == ["r", "p", "q"])
    #expect(try sorted(contacts, AlphabeticalSort(mode: .familyName, locale: "en"), order: [1, 0, 2])
      == ["r", "q", "p"])
  }

  @Test func givenNameModeBreaksTiesByFamilyName() throws {
    #expect(try sorted(people, AlphabeticalSort(mode: .givenName, locale: "de"))
      == ["7", "2", "3", "4", "5", "1", "6"])
  }

  @Test func fullNameModeComposesMissingFullNames() throws {
    let contacts = [
      Contact(uid: "a", fullName: "Zed Alpha"),
      Contact(uid: "b", givenName: "Bob", familyName: "Young"),  // "Bob Young"
      Contact(uid: "c", fullName: "Carla Díaz"),
      Contact(uid: "d"),
      Contact(uid: "e", givenName: "Bob", familyName: "Young", middleName: "A."),  // "Bob A. Young"
    ]
    #expect(try sorted(contacts, AlphabeticalSort(mode: .fullName, locale: "en"))
      == ["e", "b", "c", "a", "d"])
  }

  @Test func familyFirstLocalesComposeFamilyFirst() throws {
    let contacts = [
      Contact(uid: "x", givenName: "Zsófia", familyName: "Kovács"),  // hu: "Kovács Zsófia"
      Contact(uid: "y", givenName: "Anna", familyName: "Nagy"),  // hu: "Nagy Anna"
    ]
    #expect(try sorted(contacts, AlphabeticalSort(mode: .fullName, locale: "hu")) == ["x", "y"])
    #expect(try sorted(contacts, AlphabeticalSort(mode: .fullName, locale: "en")) == ["y", "x"])
    let composer = NameComposer(locale: "ja-JP")
    var pool = StringPool()
    let name = ComposedName(
      given: pool.intern("太郎"), middle: .absent, family: pool.intern("山田"))
    #expect(String(decoding: composer.compose(name, pool: pool), as: UTF8.self) == "山田太郎")
    #expect(
      String(decoding: NameComposer(locale: "vi").compose(name, pool: pool), as: UTF8.self)
        == "山田 太郎")
  }

  @Test func stableForEqualNamesAndRespectsIncomingOrderAndSelection() throws {
    let contacts = (0..<6).map { Contact(uid: "\($0)", givenName: $0 % 2 == 0 ? "Ana" : "ana") }
    let primary = AlphabeticalSort(mode: .givenName, locale: "en", strength: .primary)
    #expect(try sorted(contacts, primary) == ["0", "1", "2", "3", "4", "5"])
    #expect(try sorted(contacts, primary, order: [5, 4, 3, 2, 1, 0]) == ["5", "4", "3", "2", "1", "0"])
    // Tertiary: lowercase first, then stable within each case.
    #expect(try sorted(contacts, AlphabeticalSort(mode: .givenName, locale: "en"))
      == ["1", "3", "5", "0", "2", "4"])

    var frame = Frame(table: ContactTable(contacts: people))
    frame = frame.narrowed(to: Bitmap(count: people.count) { $0 != 1 && $0 != 4 })
    let out = try AlphabeticalSort(mode: .familyName, locale: "de").process(
      frame, context: ProcessingContext())
    #expect(out.contacts.compactMap(\.uid) == ["7", "6", "1", "3", "4"])
    #expect(out.selection == frame.selection)
  }

  /// On random contacts, the order agrees with ICU's pairwise comparison of
  /// (primary, secondary), missing values last, ties in incoming order.
  @Test(arguments: [AlphabeticalSort.Mode.givenName, .familyName, .fullName])
  func agreesWithPairwiseCollation(mode: AlphabeticalSort.Mode) throws {
    var rng = SplitMix(seed: 99)
    let given = ["Anna", "anna", "Ánna", "Åsa", "Örjan", "Zoe", "Борис", "太郎", "Émile", ""]
    let family = ["Müller", "Mueller", "Muller", "Åberg", "Zorn", "Иванов", "山田", "de la Cruz", ""]
    let contacts = (0..<500).map { i -> Contact in
      let g = given[Int(rng.next() % UInt64(given.count))]
      let f = family[Int(rng.next() % UInt64(family.count))]
      let full: String? = rng.next() % 3 == 0 ? "\(f), \(g)" : nil
      return Contact(uid: "\(i)", fullName: full, givenName: g.isEmpty ? nil : g, familyName: f.isEmpty ? nil : f)
    }
    let sort = AlphabeticalSort(mode: mode, locale: "sv")
    let order = try sorted(contacts, sort).compactMap { Int($0) }
    #expect(order.sorted() == Array(0..<contacts.count))
    let collator = try Collator(locale: "sv")
    func keyParts(_ c: Contact) -> (String?, String?) {
      switch mode {
      case .givenName: return (c.givenName, c.familyName)
      case .familyName: return (c.familyName, c.givenName)
      case .fullName:
        if let full = c.fullName { return (full, nil) }
        let parts = [c.givenName, c.middleName, c.familyName].compactMap { $0 }
        return (parts.isEmpty ? nil : parts.joined(separator: " "), nil)
      }
    }
    func cmp(_ a: String?, _ b: String?) -> CollationOrder {
      switch (a, b) {
      case (nil, nil): return .same
      case (nil, _): return .descending
      case (_, nil): return .ascending
      case (let x?, let y?): return collator.compare(x, y)
      }
    }
    for k in 1..<order.count {
      let (i, j) = (order[k - 1], order[k])
      let (pa, sa) = keyParts(contacts[i])
      let (pb, sb) = keyParts(contacts[j])
      var c = cmp(pa, pb)
      if c == .same && pa != nil { c = cmp(sa, sb) }
      #expect(c != .descending, "\(contacts[i]) after \(contacts[j])")
      if c == .same { #expect(i < j) }
    }
  }

  @Test func badLocaleAttributeIsAProcessorErrorNotACrash() throws {
    // Any locale string opens (ICU falls back to root); sorting still works.
    #expect(try sorted(people, AlphabeticalSort(mode: .familyName, locale: "qq-nope")).count == 7)
    #expect(try sorted([], AlphabeticalSort(mode: .familyName, locale: "en")) == [])
  }
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
