extension PersonFactory {
  /// A duplicate record of `p`, as another device or export would hold it:
  /// 1-3 realistic variations plus, often, the phones written differently.
  func duplicate(of p: Person, _ rng: inout SplitMix64) -> Person {
    var d = p
    let loc = locales[p.locale]
    let ops = 1 + rng.below(3)
    for _ in 0..<ops {
      let op = rng.weighted([
        20,  // 0 nickname
        18,  // 1 typo
        8,  // 2 swapped given / family
        20,  // 3 missing fields
        12,  // 4 extra fields
        10,  // 5 case change in the name
        8,  // 6 e-mail case change
        loc.nonLatin ? 10 : 0,  // 7 transliterated name
      ])
      if d.companyOnly && op != 3 && op != 4 && op != 6 {
        d.org = op == 5 ? d.org.uppercased() : d.org
        continue
      }
      switch op {
      case 0:
        if let nicks = loc.nicknames[d.given] {
          d.given = rng.pick(nicks)
        } else {
          typo(&d, &rng)
        }
      case 1: typo(&d, &rng)
      case 2:
        swap(&d.given, &d.family)
        swap(&d.givenLatin, &d.familyLatin)
        swap(&d.givenPhonetic, &d.familyPhonetic)
      case 3: dropFields(&d, &rng)
      case 4: addFields(&d, loc: loc, &rng)
      case 5:
        switch rng.below(3) {
        case 0: d.family = d.family.uppercased()
        case 1:
          d.given = d.given.lowercased()
          d.family = d.family.lowercased()
        default:
          d.given = d.given.uppercased()
          d.family = d.family.uppercased()
        }
      case 6:
        for i in d.emails.indices { d.emails[i].address = recase(d.emails[i].address, &rng) }
      default:
        d.given = capitalized(d.givenLatin)
        d.family = capitalized(d.familyLatin)
        d.middle = ""
        d.latinOrder = true
      }
    }
    if rng.chance(0.6) {
      // The same numbers, written another way.
      for i in d.phones.indices {
        var style = (d.phones[i].style + 20 + rng.below(60)) % 100
        // A number abroad stays international, and never with our IDD.
        if d.phones[i].number.plan !== loc.plan { style = 60 + style % 35 }
        d.phones[i].style = style
        d.phones[i].variant = rng.below(8)
        d.phones[i].appleLabel = nil
      }
    }
    if d.photoSeed != 0 && rng.chance(0.5) { d.photoSeed = 0 }
    return d
  }

  private func typo(_ d: inout Person, _ rng: inout SplitMix64) {
    let onGiven = !d.given.isEmpty && (d.family.isEmpty || rng.chance(0.5))
    var chars = Array(onGiven ? d.given : d.family)
    guard chars.count >= 3 else { return }
    let i = 1 + rng.below(chars.count - 2)
    switch rng.below(4) {
    case 0: chars.swapAt(i, i + 1)
    case 1: chars.remove(at: i)
    case 2: chars.insert(chars[i], at: i)
    default:
      let neighbours: [Character: Character] = [
        "a": "s", "e": "r", "i": "o", "o": "p", "n": "m", "r": "t", "t": "y", "l": "k", "s": "d",
        "m": "n", "u": "i", "h": "j",
      ]
      if let c = neighbours[chars[i]] { chars[i] = c } else { chars.remove(at: i) }
    }
    if onGiven { d.given = String(chars) } else { d.family = String(chars) }
  }

  private func dropFields(_ d: inout Person, _ rng: inout SplitMix64) {
    for _ in 0..<(1 + rng.below(2)) {
      switch rng.below(6) {
      case 0: if !d.emails.isEmpty { d.emails.removeLast() }
      case 1: d.addresses.removeAll()
      case 2:
        d.org = ""
        d.title = ""
        d.department = ""
      case 3: if d.phones.count > 1 { d.phones.removeLast() }
      case 4:
        d.note = ""
        d.birthday = nil
      default:
        d.middle = ""
        d.prefix = ""
        d.suffix = ""
        d.nickname = ""
        d.url = ""
      }
    }
  }

  private func addFields(_ d: inout Person, loc: LocaleSpec, _ rng: inout SplitMix64) {
    switch rng.below(3) {
    case 0:
      let n = plans[d.locale].makeNumber(mobile: true, rng: &rng)
      d.phones.append(PhoneEntry(number: n, kind: .workCell, style: rng.below(100), variant: rng.below(8)))
    case 1:
      let local = asciiSlug(d.givenLatin) + "." + asciiSlug(d.familyLatin)
      d.emails.append(EmailEntry(address: local + "@" + rng.pick(loc.domains), kind: .other))
    default:
      if d.note.isEmpty { d.note = "Added from business card, 2021" }
      if d.birthday == nil && !d.companyOnly {
        d.birthday = (1950 + rng.below(50), 1 + rng.below(12), 1 + rng.below(28))
      }
    }
  }

  private func recase(_ address: String, _ rng: inout SplitMix64) -> String {
    if rng.chance(0.3) { return address.uppercased() }
    var out = ""
    var startOfWord = true
    for c in address {
      out.append(startOfWord ? Character(c.uppercased()) : c)
      startOfWord = c == "." || c == "@" || c == "_"
    }
    return out
  }

  private func capitalized(_ s: String) -> String {
    guard let f = s.first else { return s }
    return f.uppercased() + s.dropFirst()
  }
}
