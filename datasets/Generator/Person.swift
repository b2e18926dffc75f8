/// How a phone number is labelled on a card.
enum PhoneKind: UInt8, Sendable {
  case cell, iphone, home, work, workCell, fax, main, other
}

struct PhoneEntry: Sendable {
  var number: PhoneNumberValue
  var kind: PhoneKind
  /// 0-99, see `PhonePlan.format(_:style:variant:)`.
  var style: Int
  var variant: Int
  var pref: Bool = false
  /// Written as an Apple group (`itemN.TEL` + `itemN.X-ABLabel`).
  var appleLabel: String? = nil
}

enum EmailKind: UInt8, Sendable { case home, work, other }

struct EmailEntry: Sendable {
  var address: String
  var kind: EmailKind
  var pref: Bool = false
}

struct AddressEntry: Sendable {
  var work: Bool
  var poBox: String = ""
  var extended: String = ""
  var street: String
  var city: String
  var region: String
  var postal: String
  var country: String
}

/// One person as the generator imagines them; duplicates are variations
/// of a copy. Empty strings mean "absent".
struct Person: Sendable {
  var locale: Int
  var female: Bool
  var given = ""
  var family = ""
  var middle = ""
  var givenLatin = ""
  var familyLatin = ""
  var givenPhonetic = ""
  var familyPhonetic = ""
  var nickname = ""
  var prefix = ""
  var suffix = ""
  var companyOnly = false
  /// Name written given-first in Latin (a transliterated duplicate).
  var latinOrder = false
  var phones: [PhoneEntry] = []
  var emails: [EmailEntry] = []
  var addresses: [AddressEntry] = []
  var org = ""
  var department = ""
  var title = ""
  var note = ""
  var birthday: (year: Int, month: Int, day: Int)? = nil
  var url = ""
  var photoSeed: UInt64 = 0
  var socialHandle = ""
  var androidNickname = false
  var outlookDefaultAddress = false
}

/// Streams of the generator's PRNG; each item of each stream is independent.
enum Stream {
  static let person: UInt64 = 1
  static let duplicate: UInt64 = 2
  static let card: UInt64 = 3
  static let slots: UInt64 = 4
  static let household: UInt64 = 5
  static let householdFlag: UInt64 = 6
  static let handKeyed: UInt64 = 7
}

/// Builds people deterministically from (seed, index).
struct PersonFactory: Sendable {
  let seed: UInt64
  let locales: [LocaleSpec]
  let plans: [PhonePlan]
  let localeWeights: [Int]

  init(seed: UInt64) {
    self.seed = seed
    locales = generatorLocales
    plans = generatorLocales.map(\.plan)
    localeWeights = generatorLocales.map(\.weight)
  }

  /// Whether person `index` lives with person `index - 1` (shared family
  /// name, home address and home phone): a hard negative for dedupe.
  func isHouseholdMember(_ index: Int) -> Bool {
    guard index > 0 else { return false }
    var r = SplitMix64(seed: seed, stream: Stream.householdFlag, index: UInt64(index))
    guard r.chance(0.04) else { return false }
    var prev = SplitMix64(seed: seed, stream: Stream.householdFlag, index: UInt64(index - 1))
    return index - 1 == 0 || !prev.chance(0.04)
  }

  func person(_ index: Int) -> Person {
    var rng = SplitMix64(seed: seed, stream: Stream.person, index: UInt64(index))
    if isHouseholdMember(index) {
      // Same family and home as the previous person, different given name.
      var r = SplitMix64(seed: seed, stream: Stream.person, index: UInt64(index - 1))
      let head = basePerson(&r, household: nil)
      var p = basePerson(&rng, household: head)
      if !head.companyOnly && !p.companyOnly {
        p.addresses.removeAll { !$0.work }
        p.addresses.insert(contentsOf: head.addresses.filter { !$0.work }, at: 0)
        if p.addresses.allSatisfy(\.work) {
          p.addresses.insert(makeAddress(locales[p.locale], work: false, &r), at: 0)
        }
        p.phones.removeAll { $0.kind == .home }
        p.phones.insert(householdPhone(index - 1, locale: p.locale), at: min(1, p.phones.count))
      }
      return p
    }
    var p = basePerson(&rng, household: nil)
    if isHouseholdMember(index + 1) && !p.companyOnly {
      p.phones.removeAll { $0.kind == .home }
      p.phones.insert(householdPhone(index, locale: p.locale), at: min(1, p.phones.count))
      if p.addresses.allSatisfy(\.work) {
        var r = SplitMix64(seed: seed, stream: Stream.person, index: UInt64(index))
        _ = basePerson(&r, household: nil)
        p.addresses.insert(makeAddress(locales[p.locale], work: false, &r), at: 0)
      }
    }
    return p
  }

  private func householdPhone(_ head: Int, locale: Int) -> PhoneEntry {
    var r = SplitMix64(seed: seed, stream: Stream.household, index: UInt64(head))
    let n = plans[locale].makeNumber(mobile: false, rng: &r)
    return PhoneEntry(number: n, kind: .home, style: r.below(60), variant: r.below(8))
  }

  private func pickGiven(_ loc: LocaleSpec, female: Bool, _ rng: inout SplitMix64) -> NameEntry {
    rng.pick(female ? loc.female : loc.male)
  }

  // MARK: One person

  /// One person; with `household`, of that person's locale and family.
  private func basePerson(_ rng: inout SplitMix64, household head: Person?) -> Person {
    var li = rng.weighted(localeWeights)
    if let head, !head.companyOnly { li = head.locale }
    let loc = locales[li]
    let plan = plans[li]
    var p = Person(locale: li, female: rng.chance(0.5))

    p.companyOnly = head == nil && rng.chance(0.015)
    let company = rng.chance(0.7) ? rng.pick(loc.companies) : nil
    if p.companyOnly {
      p.org = company?.name ?? rng.pick(loc.companies).name
    } else {
      let common = rng.chance(0.03)
      var given = common ? (p.female ? loc.female[0] : loc.male[0]) : pickGiven(loc, female: p.female, &rng)
      var fi = common ? 0 : rng.below(loc.family.count)
      if let head, !head.companyOnly {
        let forms = head.female ? (loc.familyFemale ?? loc.family) : loc.family
        fi = forms.firstIndex { $0.native == head.family } ?? fi
        if given.native == head.given { given = pickGiven(loc, female: !p.female, &rng) }
      }
      let family = p.female ? (loc.familyFemale?[fi] ?? loc.family[fi]) : loc.family[fi]
      p.given = given.native
      p.givenLatin = given.latin
      p.givenPhonetic = given.phonetic ?? ""
      p.family = family.native
      p.familyLatin = family.latin
      p.familyPhonetic = family.phonetic ?? ""
      if !loc.middle.isEmpty && rng.chance(loc.order == .familyFirstSpaced ? 0.7 : 0.25) {
        p.middle = rng.pick(loc.middle).native
      }
      if rng.chance(0.04) {
        p.prefix = rng.pick(["Dr.", "Prof.", p.female ? "Ms." : "Mr."])
      }
      if loc.region == "US" && rng.chance(0.03) { p.suffix = rng.pick(["Jr.", "III", "PhD"]) }
      if rng.chance(0.05), let nicks = loc.nicknames[p.given] { p.nickname = rng.pick(nicks) }
      if rng.chance(0.45) { p.org = company?.name ?? rng.pick(loc.companies).name }
      if !p.org.isEmpty && rng.chance(0.6) { p.title = rng.pick(sharedTitles) }
      if !p.org.isEmpty && rng.chance(0.15) {
        p.department = rng.pick(["Sales", "R&D", "Human Resources", "Finance; Controlling", "IT"])
      }
    }

    // Phones: how people of this country write them, mostly consistently.
    let personStyle = rng.below(100)
    let count = p.companyOnly ? 1 + rng.below(2) : 1 + rng.weighted([50, 30, 14, 6])
    for k in 0..<count {
      let kind: PhoneKind
      if p.companyOnly {
        kind = k == 0 ? .main : .fax
      } else {
        switch k {
        case 0: kind = rng.chance(0.15) ? .iphone : .cell
        case 1: kind = .home
        case 2: kind = .work
        default: kind = rng.pick([.workCell, .fax, .main, .other])
        }
      }
      let mobile = kind == .cell || kind == .iphone || kind == .workCell || kind == .other
      var entry: PhoneEntry
      if k > 0 && rng.chance(0.05) {
        // A number abroad is written internationally.
        let other = rng.below(plans.count)
        entry = PhoneEntry(
          number: plans[other].makeNumber(mobile: mobile, rng: &rng), kind: kind,
          style: 60 + rng.below(35), variant: rng.below(8))
      } else {
        var n = plan.makeNumber(mobile: mobile, rng: &rng)
        if (kind == .work || kind == .main) && plan.extensions && rng.chance(0.2) {
          n.ext = String(10 + rng.below(990))
        }
        entry = PhoneEntry(
          number: n, kind: kind, style: rng.chance(0.7) ? personStyle : rng.below(100),
          variant: rng.below(8))
      }
      if k == 0 && count > 1 && rng.chance(0.3) { entry.pref = true }
      if rng.chance(0.08) {
        entry.appleLabel = rng.chance(0.5) ? "_$!<Mobile>!$_" : rng.pick(appleCustomLabels)
      }
      p.phones.append(entry)
    }

    // E-mail addresses from the Latin form of the name.
    let domainOfWork = company?.domain ?? loc.companies[0].domain
    if p.companyOnly {
      if rng.chance(0.7) {
        p.emails.append(EmailEntry(address: rng.pick(["info@", "contact@", "office@"]) + domainOfWork, kind: .work))
      }
    } else {
      let emailCount = rng.weighted([25, 50, 20, 5])
      for k in 0..<emailCount {
        if k == 1 && !p.org.isEmpty {
          p.emails.append(EmailEntry(address: emailLocal(p, &rng) + "@" + domainOfWork, kind: .work))
        } else {
          let domain = rng.pick(loc.domains)
          var local = emailLocal(p, &rng)
          if domain == "qq.com" && rng.chance(0.5) { local = String(10000 + rng.below(2_000_000_000)) }
          p.emails.append(EmailEntry(address: local + "@" + domain, kind: k == 0 ? .home : .other))
        }
      }
      if p.emails.count > 1 && rng.chance(0.3) { p.emails[0].pref = true }
    }

    if rng.chance(0.55) { p.addresses.append(makeAddress(loc, work: false, &rng)) }
    if !p.org.isEmpty && rng.chance(p.companyOnly ? 0.8 : 0.12) {
      p.addresses.append(makeAddress(loc, work: true, &rng))
    }
    if rng.chance(0.12) {
      p.note = !loc.notes.isEmpty && rng.chance(0.4) ? rng.pick(loc.notes) : rng.pick(sharedNotes)
    }
    if !p.companyOnly && rng.chance(0.25) {
      p.birthday = (1940 + rng.below(66), 1 + rng.below(12), 1 + rng.below(28))
    }
    if rng.chance(0.08) {
      p.url = p.companyOnly || rng.chance(0.5)
        ? "https://www." + domainOfWork + "/"
        : "https://" + asciiSlug(p.givenLatin + p.familyLatin) + ".blog.example/"
    }
    if rng.chance(0.02) { p.photoSeed = rng.next() | 1 }
    if !p.companyOnly && rng.chance(0.05) {
      p.socialHandle = asciiSlug(p.givenLatin) + "_" + asciiSlug(p.familyLatin) + String(rng.below(100))
    }
    p.androidNickname = !p.nickname.isEmpty && rng.chance(0.5)
    p.outlookDefaultAddress = !p.addresses.isEmpty && rng.chance(0.2)
    return p
  }

  private func emailLocal(_ p: Person, _ rng: inout SplitMix64) -> String {
    let g = asciiSlug(p.givenLatin)
    let f = asciiSlug(p.familyLatin)
    switch rng.below(7) {
    case 0: return g + "." + f
    case 1: return g + f
    case 2: return String(g.prefix(1)) + f
    case 3: return f + "." + g
    case 4: return g + "." + f + String(rng.below(100))
    case 5: return g + "_" + f + String(60 + rng.below(40))
    default: return g + String(1960 + rng.below(50))
    }
  }

  func makeAddress(_ loc: LocaleSpec, work: Bool, _ rng: inout SplitMix64) -> AddressEntry {
    let city = rng.pick(loc.cities)
    let street = rng.pick(loc.streets)
    let n = String(1 + rng.below(rng.chance(0.8) ? 120 : 2000))
    let line: String
    switch loc.streetStyle {
    case .numberFirst: line = n + " " + street
    case .numberLast: line = street + " " + n
    case .numberLastComma: line = street + ", " + n
    case .numberFirstComma: line = n + ", " + street
    case .russian: line = street + ", д. " + n + (rng.chance(0.6) ? ", кв. " + String(1 + rng.below(300)) : "")
    case .turkish: line = street + " No: " + n + (rng.chance(0.5) ? " D: " + String(1 + rng.below(20)) : "")
    case .chinese: line = street + n + "号"
    case .japanese:
      line = street + String(1 + rng.below(5)) + "-" + String(1 + rng.below(30)) + "-" + String(1 + rng.below(20))
    }
    var postal: [UInt8] = []
    for b in city.postal.utf8 {
      switch b {
      case UInt8(ascii: "#"): postal.append(UInt8(ascii: "0") + UInt8(rng.below(10)))
      case UInt8(ascii: "@"): postal.append(UInt8(ascii: "A") + UInt8(rng.below(26)))
      default: postal.append(b)
      }
    }
    var a = AddressEntry(
      work: work, street: line, city: city.name, region: city.region,
      postal: String(decoding: postal, as: UTF8.self), country: rng.chance(0.6) ? loc.country : "")
    if rng.chance(0.04) { a.poBox = "PO Box " + String(100 + rng.below(9000)) }
    if rng.chance(0.06) { a.extended = rng.pick(["Apt 4B", "Suite 200", "2nd floor", "c/o Reception"]) }
    return a
  }
}

/// Lower-case ASCII letters and digits of a Latin-form name.
func asciiSlug(_ s: String) -> String {
  var out: [UInt8] = []
  for b in s.utf8 {
    switch b {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(b)
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(b | 0x20)
    default: continue
    }
  }
  return out.isEmpty ? "contact" : String(decoding: out, as: UTF8.self)
}
