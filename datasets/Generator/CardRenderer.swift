/// Writes one person as a vCard of the given version, choosing among the
/// spellings real exporters use (Apple, Google, Android, Outlook).
struct CardRenderer {
  let factory: PersonFactory

  func render(
    _ p: Person, uid: String, version: VCardVersion, into e: inout VCardEmitter,
    _ rng: inout SplitMix64
  ) {
    let loc = factory.locales[p.locale]
    e.beginCard(version)
    let apple = version == .v30 && rng.chance(0.4)
    if version != .v21 && rng.chance(0.3) {
      e.rawProperty("PRODID", apple ? "-//Apple Inc.//iPhone OS 17.4//EN" : "-//Ohana Generator//EN")
    }
    if version == .v40 && rng.chance(0.4) {
      e.rawProperty("KIND", p.companyOnly ? "org" : "individual")
    }
    e.property("N", components: [p.family, p.given, p.middle, p.prefix, p.suffix])
    e.property("FN", displayName(p, loc))
    if !p.nickname.isEmpty && version != .v21 { e.property("NICKNAME", p.nickname) }
    if !p.givenPhonetic.isEmpty && !p.latinOrder && rng.chance(0.7) {
      e.property("X-PHONETIC-FIRST-NAME", p.givenPhonetic)
      if !p.familyPhonetic.isEmpty { e.property("X-PHONETIC-LAST-NAME", p.familyPhonetic) }
    }
    if !p.org.isEmpty {
      e.property("ORG", components: p.department.isEmpty ? [p.org] : [p.org, p.department])
    }
    if !p.title.isEmpty { e.property("TITLE", p.title) }

    var item = 0
    for ph in p.phones { phone(ph, version: version, apple: apple, item: &item, into: &e) }
    for em in p.emails { email(em, version: version, apple: apple, into: &e) }
    for a in p.addresses {
      let params: [String]
      switch version {
      case .v21: params = [a.work ? "WORK" : "HOME"]
      case .v30: params = apple ? [a.work ? "type=WORK" : "type=HOME"] : [a.work ? "TYPE=WORK" : "TYPE=HOME"]
      case .v40: params = [a.work ? "TYPE=work" : "TYPE=home"]
      }
      e.property("ADR", params: params, components: [a.poBox, a.extended, a.street, a.city, a.region, a.postal, a.country])
    }
    if !p.url.isEmpty {
      if apple {
        item += 1
        let g = "item" + String(item)
        e.rawProperty("URL", group: g, p.url)
        e.rawProperty("X-ABLabel", group: g, "_$!<HomePage>!$_")
      } else {
        e.rawProperty("URL", p.url)
      }
    }
    if let b = p.birthday {
      let noYear = rng.chance(0.15)
      switch version {
      case .v40:
        e.rawProperty("BDAY", noYear ? "--" + two(b.month) + two(b.day) : String(b.year) + two(b.month) + two(b.day))
      case .v30 where noYear && apple:
        e.rawProperty("BDAY", params: ["X-APPLE-OMIT-YEAR=1604"], "1604-" + two(b.month) + "-" + two(b.day))
      default:
        e.rawProperty("BDAY", String(b.year) + "-" + two(b.month) + "-" + two(b.day))
      }
    }
    if !p.note.isEmpty { e.property("NOTE", p.note) }
    if p.photoSeed != 0 { e.photo(png: avatar(p.photoSeed)) }
    if !p.socialHandle.isEmpty {
      if version == .v21 {
        e.rawProperty("X-TWITTER", "@" + p.socialHandle)
      } else {
        e.rawProperty("X-SOCIALPROFILE", params: ["type=twitter"], "https://twitter.com/" + p.socialHandle)
      }
    }
    if p.androidNickname && (version != .v21 || !VCardEmitter.needsQuotedPrintable(p.nickname)) {
      e.rawProperty("X-ANDROID-CUSTOM", "vnd.android.cursor.item/nickname;" + p.nickname + ";1;;;;;;;;;;;;;")
    }
    if p.outlookDefaultAddress { e.rawProperty("X-MS-OL-DEFAULT-POSTAL-ADDRESS", "2") }
    if p.companyOnly && apple { e.rawProperty("X-ABShowAs", "COMPANY") }
    e.rawProperty("UID", uid)
    if version != .v21 && rng.chance(0.2) {
      e.rawProperty("REV", "20" + two(15 + rng.below(10)) + "-" + two(1 + rng.below(12)) + "-" + two(1 + rng.below(28)) + "T10:00:00Z")
    }
    e.endCard()
  }

  func displayName(_ p: Person, _ loc: LocaleSpec) -> String {
    if p.companyOnly || (p.given.isEmpty && p.family.isEmpty) {
      return p.org.isEmpty ? p.nickname : p.org
    }
    let order: NameOrder = p.latinOrder ? .givenFirst : loc.order
    switch order {
    case .familyFirstJoined:
      return p.family + p.given
    case .familyFirstSpaced:
      return joined([p.family, p.middle, p.given])
    case .givenFirst:
      return joined([p.prefix, p.given, p.middle, p.family, p.suffix])
    }
  }

  private func joined(_ parts: [String]) -> String {
    var s = ""
    for part in parts where !part.isEmpty {
      if !s.isEmpty { s += " " }
      s += part
    }
    return s
  }

  private func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }

  private func phone(
    _ ph: PhoneEntry, version: VCardVersion, apple: Bool, item: inout Int, into e: inout VCardEmitter
  ) {
    let plan = ph.number.plan
    let text = plan.format(ph.number, style: ph.style, variant: ph.variant)
    switch version {
    case .v21:
      var params: [String]
      switch ph.kind {
      case .cell, .iphone, .other: params = ["CELL"]
      case .home: params = ["HOME", "VOICE"]
      case .work: params = ["WORK", "VOICE"]
      case .workCell: params = ["WORK", "CELL"]
      case .fax: params = ["WORK", "FAX"]
      case .main: params = ["VOICE"]
      }
      if ph.pref { params.append("PREF") }
      e.rawProperty("TEL", params: params, text)
    case .v30:
      if let label = ph.appleLabel {
        item += 1
        let g = "item" + String(item)
        e.rawProperty("TEL", group: g, params: ph.pref ? ["type=pref"] : [], text)
        e.property("X-ABLabel", group: g, label)
        return
      }
      var types: [String]
      switch ph.kind {
      case .cell: types = ["CELL", "VOICE"]
      case .iphone: types = ["IPHONE", "CELL", "VOICE"]
      case .home: types = ["HOME", "VOICE"]
      case .work: types = ["WORK", "VOICE"]
      case .workCell: types = ["WORK", "CELL"]
      case .fax: types = ["WORK", "FAX"]
      case .main: types = ["MAIN"]
      case .other: types = ["OTHER"]
      }
      if ph.pref { types.append("pref") }
      if apple {
        e.rawProperty("TEL", params: types.map { "type=" + $0 }, text)
      } else if ph.variant & 1 == 0 {
        e.rawProperty("TEL", params: ["TYPE=" + types[0]], text)
      } else {
        e.rawProperty("TEL", params: ["TYPE=" + types.joined(separator: ",")], text)
      }
    case .v40:
      let type: String
      switch ph.kind {
      case .cell, .iphone: type = ph.variant & 1 == 0 ? "cell" : "\"voice,cell\""
      case .home: type = "home"
      case .work: type = "work"
      case .workCell: type = "\"work,cell\""
      case .fax: type = "fax"
      case .main, .other: type = "voice"
      }
      var params = ["TYPE=" + type]
      if ph.pref { params.append("PREF=1") }
      if ph.style >= 85 && ph.style < 95 {
        e.rawProperty("TEL", params: ["VALUE=uri"] + params, plan.telURI(ph.number))
      } else {
        e.rawProperty("TEL", params: params, text)
      }
    }
  }

  private func email(_ em: EmailEntry, version: VCardVersion, apple: Bool, into e: inout VCardEmitter) {
    let kind: String
    switch em.kind {
    case .home: kind = "HOME"
    case .work: kind = "WORK"
    case .other: kind = "OTHER"
    }
    switch version {
    case .v21:
      e.rawProperty("EMAIL", params: em.pref ? ["INTERNET", kind, "PREF"] : ["INTERNET", kind], em.address)
    case .v30:
      if apple {
        var params = ["type=INTERNET", "type=" + kind]
        if em.pref { params.append("type=pref") }
        e.rawProperty("EMAIL", params: params, em.address)
      } else {
        e.rawProperty("EMAIL", params: ["TYPE=INTERNET," + kind + (em.pref ? ",PREF" : "")], em.address)
      }
    case .v40:
      var params = em.kind == .other ? [] : ["TYPE=" + kind.lowercased()]
      if em.pref { params.append("PREF=1") }
      e.rawProperty("EMAIL", params: params, em.address)
    }
  }

  private func avatar(_ seed: UInt64) -> [UInt8] {
    var r = SplitMix64(seed: seed)
    let bg = (UInt8(truncatingIfNeeded: r.next()), UInt8(truncatingIfNeeded: r.next()), UInt8(truncatingIfNeeded: r.next()))
    let fg = (bg.0 ^ 0xA0, bg.1 ^ 0x60, bg.2 ^ 0xC0)
    return TinyPNG.avatar(size: 16, background: bg, foreground: fg)
  }
}
