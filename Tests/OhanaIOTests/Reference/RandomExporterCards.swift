// A seeded random vCard writer for the differential tests: cards the way
// real exporters write them (Android 2.1, Outlook 2.1, Apple 3.0, Google
// 3.0, Sabre / Apple 4.0), then folded at random byte positions, with CRLF,
// LF-only or CR-only line ends. UTF-8 only. Shares no code with OhanaIO.

// SplitMix64 (the seeded generator) is in ReferenceSupport.swift.

enum GeneratedLineEnd: String, CaseIterable {
  case crlf, lf, cr
  var bytes: [UInt8] {
    switch self {
    case .crlf: [0x0D, 0x0A]
    case .lf: [0x0A]
    case .cr: [0x0D]
    }
  }
}

/// What the writer meant, for checking the reference itself.
struct IntendedCard {
  var style: String
  var fullName: String
  var emails: [String]
}

struct GeneratedFile {
  var bytes: [UInt8]
  var cards: [IntendedCard]
  /// Where each card is in `bytes` (for failure reports).
  var cardRanges: [Range<Int>]
}

enum RandomExporterCards {
  // MARK: Values

  static let latinGiven = ["José", "Zoë", "François", "Jürgen", "Åsa", "Łukasz", "Søren", "Chloé", "Ana María", "Mary-Kate", "Ignacy"]
  static let latinFamily = ["García", "Müller", "Østergård", "Nguyễn", "O'Brien", "Dvořák", "van der Berg", "Smith-Jones", "Żółć"]
  static let cyrillicGiven = ["Иван", "Мария", "Сергей", "Ольга"]
  static let cyrillicFamily = ["Петров", "Смирнова", "Кузнецов", "Соколова"]
  static let greekGiven = ["Γιώργος", "Ελένη", "Δημήτρης"]
  static let greekFamily = ["Παπαδόπουλος", "Νικολάου", "Οικονόμου"]
  static let cjkGiven = ["太郎", "花子", "伟", "민준", "美咲"]
  static let cjkFamily = ["山田", "佐藤", "王", "김", "髙橋"]
  static let emojiGiven = ["Anna 👩‍💻", "🎉 Party", "Bob 🇫🇷", "Zoë 😀"]
  static let prefixes = ["", "", "", "Dr.", "Mme", "Herr", "Prof. Dr."]
  static let suffixes = ["", "", "", "Jr.", "III", "PhD, MD"]
  static let orgs = [
    ("Acme, Inc.", "Sales; EMEA"), ("Müller & Söhne GmbH", ""), ("株式会社テスト", "開発部"), ("ООО «Ромашка»", "Бухгалтерия"),
    ("Initech", "TPS, Reports"), ("", ""),
  ]
  static let titles = ["Engineer", "Directrice générale", "Менеджер", "課長", "VP, Sales; Marketing", "C:\\Admin"]
  static let notes = [
    "Met at the conference, 2019; ask about \"Project X\".\nSecond line: ok\\done",
    "Первая строка\nВторая, с запятой; и точкой с запятой",
    "会議で会った。\n次回は東京で。",
    "Emoji 🎂 birthday; likes ☕, 🍰\n\nafter an empty line",
    "Plain note",
    "Trailing backslash \\",
    String(repeating: "Long note with many words, commas; and ümlauts. ", count: 4),
  ]
  static let domains = ["example.com", "mail.example.org", "пример.рф", "例え.jp", "sub.example.co.uk"]
  static let locals = ["jose.garcia", "zoe", "a+tag", "ivan.petrov", "yamada_taro", "o'brien", "info"]
  static let phones = [
    "+1 (555) 010-1234", "+49 30 1234567", "090-1234-5678", "+33 1 23 45 67 89", "(0)20 7946 0958", "555-0100;ext=12",
    "+7 495 123-45-67",
  ]
  static let streets = [
    "12, rue de la Paix; Bât. B", "Hauptstraße 5", "1 Infinite Loop", "ул. Ленина, д. 1", "東京都千代田区1-1",
    "Flat 3; 22 Baker St.", "Av. Paulista, 1000",
  ]
  static let localities = ["Saint-Étienne", "München", "Cupertino", "Москва", "千代田区", "London", "São Paulo"]
  static let regions = ["", "BY", "CA", "", "東京都", "", "SP"]
  static let codes = ["42000", "80331", "95014", "101000", "100-0001", "NW1 6XE", "01310-100"]
  static let countries = ["France", "Deutschland", "United States of America", "Россия", "日本", "UK", "Brasil"]
  static let birthdays = ["1980-01-02", "19800102", "--0415", "1975-12-31T00:00:00Z", "2001-02-03"]

  struct Address {
    var poBox = ""
    var extended = ""
    var street: String
    var locality: String
    var region: String
    var code: String
    var country: String
    var types: [String]
    var components: [String] { [poBox, extended, street, locality, region, code, country] }
    var labelText: String { "\(street)\n\(code) \(locality)\n\(country)" }
  }

  struct Person {
    var given: String
    var family: String
    var middle: String
    var prefix: String
    var suffix: String
    var fullName: String
    var nickname: String?
    var org: (String, String)
    var title: String?
    var note: String?
    var birthday: String?
    var uid: String?
    var emails: [(String, [String])]
    var phones: [(String, [String])]
    var urls: [String]
    var addresses: [Address]
    var photo: [UInt8]?
  }

  static func person(_ r: inout SplitMix64) -> Person {
    let script = r.below(5)
    let given: String
    let family: String
    switch script {
    case 0: given = r.pick(latinGiven); family = r.pick(latinFamily)
    case 1: given = r.pick(cyrillicGiven); family = r.pick(cyrillicFamily)
    case 2: given = r.pick(greekGiven); family = r.pick(greekFamily)
    case 3: given = r.pick(cjkGiven); family = r.pick(cjkFamily)
    default: given = r.pick(emojiGiven); family = r.pick(latinFamily + cyrillicFamily)
    }
    let middle = r.chance(0.2) ? r.pick(["Q.", "Maria", "Ivanovich"]) : ""
    let prefix = r.pick(prefixes)
    let suffix = r.pick(suffixes)
    var fullName = script == 3 ? family + " " + given : [prefix, given, middle, family].filter { !$0.isEmpty }.joined(separator: " ")
    if !suffix.isEmpty { fullName += ", " + suffix }
    var emails: [(String, [String])] = []
    for _ in 0..<r.below(4) {
      emails.append(("\(r.pick(locals))\(r.below(100))@\(r.pick(domains))", [r.pick(["HOME", "WORK", "OTHER", "home", "work"])]))
    }
    var phoneList: [(String, [String])] = []
    for _ in 0..<r.below(4) {
      phoneList.append((r.pick(phones), r.pick([["CELL"], ["HOME"], ["WORK", "VOICE"], ["VOICE", "MSG", "WORK"], ["FAX", "WORK"], ["cell"]])))
    }
    var addresses: [Address] = []
    for _ in 0..<(r.chance(0.5) ? 1 : r.below(3)) {
      let k = r.below(streets.count)
      addresses.append(
        Address(
          poBox: r.chance(0.1) ? "PO Box 12" : "", extended: r.chance(0.1) ? "c/o Ünal, Suite 4" : "",
          street: streets[k], locality: localities[k], region: regions[k], code: codes[k], country: countries[k],
          types: [r.pick(["HOME", "WORK", "home", "OTHER"])]))
    }
    var photo: [UInt8]? = nil
    if r.chance(0.2) {
      photo = (0..<(20 + r.below(260))).map { _ in UInt8(truncatingIfNeeded: r.next()) }
    }
    let uuid = (0..<16).map { _ in UInt8(truncatingIfNeeded: r.next()) }
    let hex = uuid.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    var dashed = hex
    for at in [20, 16, 12, 8] { dashed.insert("-", at: dashed.index(dashed.startIndex, offsetBy: at)) }
    let uid: String? =
      switch r.below(6) {
      case 0: dashed
      case 1: dashed.uppercased()
      case 2: "urn:uuid:" + dashed
      case 3: "urn:uuid:" + dashed.uppercased()
      case 4: "\(hex.prefix(10))@example.com"
      default: nil
      }
    return Person(
      given: given, family: family, middle: middle, prefix: prefix, suffix: suffix, fullName: fullName,
      nickname: r.chance(0.2) ? r.pick(["Jojo", "Ваня", "Taro, T", "Zo; Z"]) : nil,
      org: r.pick(orgs), title: r.chance(0.5) ? r.pick(titles) : nil, note: r.chance(0.5) ? r.pick(notes) : nil,
      birthday: r.chance(0.4) ? r.pick(birthdays) : nil, uid: uid, emails: emails, phones: phoneList,
      urls: r.chance(0.3) ? ["https://example.com/~\(given.count)?a=1&b=2"] : [], addresses: addresses, photo: photo)
  }

  // MARK: Encodings (the writer's own)

  static func escape(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "\\": out += "\\\\"
      case ",": out += "\\,"
      case ";": out += "\\;"
      case "\n": out += "\\n"
      default: out.append(c)
      }
    }
    return out
  }

  /// vCard 2.1 structured component: only `;` is escaped.
  static func escape21(_ s: String) -> String { s.replacing(";", with: "\\;") }

  static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var out = ""
    var i = 0
    while i < bytes.count {
      let b0 = Int(bytes[i])
      let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
      let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
      out.append(alphabet[b0 >> 2])
      out.append(alphabet[(b0 & 3) << 4 | b1 >> 4])
      out.append(i + 1 < bytes.count ? alphabet[(b1 & 15) << 2 | b2 >> 6] : "=")
      out.append(i + 2 < bytes.count ? alphabet[b2 & 63] : "=")
      i += 3
    }
    return out
  }

  /// Quoted-printable tokens of `s` (newlines as `=0D=0A`, as Android does).
  static func qpTokens(_ s: String) -> [String] {
    var tokens: [String] = []
    let hex = Array("0123456789ABCDEF")
    for b in Array(s.replacing("\n", with: "\r\n").utf8) {
      if b >= 33 && b <= 126 && b != 0x3D || b == 0x20 {
        tokens.append(String(UnicodeScalar(b)))
      } else {
        tokens.append("=" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)]))
      }
    }
    return tokens
  }

  // MARK: Lines

  enum LineKind {
    case marker, blank
    /// A property's first line; `valueStart`: where the value begins, and
    /// whether it is quoted-printable.
    case property(valueStart: Int, qp: Bool)
    /// A line after a quoted-printable soft break.
    case qpContinuation
    /// A line an exporter folded itself (starts with a blank).
    case folded
  }

  struct Line {
    var bytes: [UInt8]
    var kind: LineKind
  }

  struct CardWriter {
    var lines: [Line] = []

    mutating func marker(_ s: String) { lines.append(Line(bytes: Array(s.utf8), kind: .marker)) }
    mutating func blank() { lines.append(Line(bytes: [], kind: .blank)) }

    /// `head` is `NAME;PARAMS` (with group), `value` the encoded value.
    mutating func property(_ head: String, _ value: String) {
      let bytes = Array((head + ":" + value).utf8)
      lines.append(Line(bytes: bytes, kind: .property(valueStart: head.utf8.count + 1, qp: false)))
    }

    /// A quoted-printable property, soft-broken at about 74 bytes.
    mutating func qpProperty(_ head: String, _ text: String) {
      var current = Array((head + ":").utf8)
      let valueStart = current.count
      var first = true
      for token in RandomExporterCards.qpTokens(text) {
        if current.count + token.utf8.count > 74 && current.count > (first ? valueStart : 0) {
          current.append(0x3D)
          lines.append(Line(bytes: current, kind: first ? .property(valueStart: valueStart, qp: true) : .qpContinuation))
          first = false
          current = []
        }
        // A line after a soft break never starts with a blank (it would
        // read as a fold): such a space is written =20.
        current.append(contentsOf: Array((current.isEmpty && !first && token == " " ? "=20" : token).utf8))
      }
      lines.append(Line(bytes: current, kind: first ? .property(valueStart: valueStart, qp: true) : .qpContinuation))
    }

    /// 2.1 base64: data on continuation lines (`indent` each), then a blank line.
    mutating func base64Block(_ head: String, _ data: String, firstOnHeadLine: Bool, indent: String) {
      var rest = Substring(data)
      if firstOnHeadLine {
        let n = min(60, rest.count)
        property(head, String(rest.prefix(n)))
        rest = rest.dropFirst(n)
      } else {
        property(head, "")
      }
      while !rest.isEmpty {
        let n = min(72, rest.count)
        lines.append(Line(bytes: Array((indent + rest.prefix(n)).utf8), kind: .folded))
        rest = rest.dropFirst(n)
      }
      blank()
    }
  }

  static func typeParams21(_ types: [String]) -> String { types.map { ";" + $0.uppercased() }.joined() }

  // MARK: Styles

  static func android21(_ p: Person, _ r: inout SplitMix64) -> CardWriter {
    var w = CardWriter()
    w.marker("BEGIN:VCARD")
    w.property("VERSION", "2.1")
    func text(_ head: String, _ value: String) {
      if value.unicodeScalars.allSatisfy({ $0.isASCII }) && !value.contains("\n") {
        w.property(head, value)
      } else {
        w.qpProperty(head + ";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE", value)
      }
    }
    text("N", [p.family, p.given, p.middle, p.prefix, p.suffix].map(escape21).joined(separator: ";"))
    text("FN", p.fullName)
    if let n = p.nickname { text("X-ANDROID-CUSTOM", "vnd.android.cursor.item/nickname;\(n);1;;;;;;;;;;;;;") }
    for (v, t) in p.phones { w.property("TEL" + typeParams21(t), v.replacing(";", with: ",")) }
    for (v, t) in p.emails { text("EMAIL" + typeParams21(t), v) }
    for a in p.addresses { text("ADR" + typeParams21(a.types), a.components.map(escape21).joined(separator: ";")) }
    if !p.org.0.isEmpty { text("ORG", [p.org.0, p.org.1].map(escape21).joined(separator: ";")) }
    if let t = p.title { text("TITLE", t) }
    if let n = p.note { text("NOTE", n) }
    if let b = p.birthday { w.property("BDAY", b) }
    for u in p.urls { w.property("URL", u) }
    if let photo = p.photo {
      w.base64Block("PHOTO;ENCODING=BASE64;JPEG", base64(photo), firstOnHeadLine: true, indent: " ")
    }
    w.marker("END:VCARD")
    return w
  }

  static func outlook21(_ p: Person, _ r: inout SplitMix64) -> CardWriter {
    var w = CardWriter()
    w.marker("BEGIN:VCARD")
    w.property("VERSION", "2.1")
    func text(_ head: String, _ value: String) {
      if value.contains("\n") {
        w.qpProperty(head + ";CHARSET=utf-8;ENCODING=QUOTED-PRINTABLE", value)
      } else if value.unicodeScalars.allSatisfy({ $0.isASCII }) {
        w.property(head, value)
      } else {
        w.property(head + ";CHARSET=utf-8", value)
      }
    }
    text("N;LANGUAGE=en-us", [p.family, p.given, p.middle, p.prefix, p.suffix].map(escape21).joined(separator: ";"))
    text("FN", p.fullName)
    if !p.org.0.isEmpty { text("ORG", [p.org.0, p.org.1].map(escape21).joined(separator: ";")) }
    if let t = p.title { text("TITLE", t) }
    if let n = p.note { text("NOTE", n) }
    for (v, t) in p.phones { w.property("TEL" + typeParams21(t) + (t.contains("VOICE") ? "" : ";VOICE"), v.replacing(";", with: ",")) }
    for (i, a) in p.addresses.enumerated() {
      let pref = i == 0 ? ";PREF" : ""
      text("ADR" + typeParams21(a.types) + pref, a.components.map(escape21).joined(separator: ";"))
      w.qpProperty("LABEL" + typeParams21(a.types) + pref + ";ENCODING=QUOTED-PRINTABLE", a.labelText)
    }
    for (i, e) in p.emails.enumerated() { w.property("EMAIL" + (i == 0 ? ";PREF" : "") + ";INTERNET", e.0) }
    for u in p.urls { w.property("URL;WORK", u) }
    if let b = p.birthday { w.property("BDAY", b) }
    if let photo = p.photo {
      w.base64Block("PHOTO;TYPE=JPEG;ENCODING=BASE64", base64(photo), firstOnHeadLine: false, indent: "  ")
    }
    w.property("X-MS-OL-DEFAULT-POSTAL-ADDRESS", "\(r.below(3))")
    w.property("REV", "20240102T030405Z")
    w.marker("END:VCARD")
    return w
  }

  static func apple30(_ p: Person, _ r: inout SplitMix64) -> CardWriter {
    var w = CardWriter()
    w.marker("BEGIN:VCARD")
    w.property("VERSION", "3.0")
    w.property("PRODID", "-//Apple Inc.//iPhone OS 17.4//EN")
    w.property("N", [p.family, p.given, p.middle, p.prefix, p.suffix].map(escape).joined(separator: ";"))
    w.property("FN", escape(p.fullName))
    if let n = p.nickname { w.property("NICKNAME", escape(n)) }
    if !p.org.0.isEmpty { w.property("ORG", escape(p.org.0) + ";" + escape(p.org.1)) }
    if let t = p.title { w.property("TITLE", escape(t)) }
    var item = 0
    for (i, (v, t)) in p.emails.enumerated() {
      let types = r.chance(0.5) ? "type=INTERNET,\(t[0])" + (i == 0 ? ",pref" : "") : "type=INTERNET;type=\(t[0])" + (i == 0 ? ";type=pref" : "")
      if r.chance(0.3) {
        item += 1
        w.property("item\(item).EMAIL;\(types)", escape(v))
        w.property("item\(item).X-ABLabel", "_$!<Other>!$_")
      } else {
        w.property("EMAIL;\(types)", escape(v))
      }
    }
    for (v, t) in p.phones {
      let types = t.map { "type=" + $0 }.joined(separator: ";")
      if r.chance(0.3) {
        item += 1
        w.property("item\(item).TEL;\(types)", escape(v))
        w.property("item\(item).X-ABLabel", r.pick(["_$!<Mobile>!$_", "iPhone", "Büro, 2. Stock"]).replacing(",", with: "\\,"))
      } else {
        w.property("TEL;\(types)", escape(v))
      }
    }
    for (i, a) in p.addresses.enumerated() {
      item += 1
      let label = r.chance(0.5) ? ";LABEL=\"\(a.street.replacing("\"", with: "'")) \(a.locality)\"" : ""
      w.property(
        "item\(item).ADR;type=\(a.types[0])" + (i == 0 ? ";type=pref" : "") + label,
        a.components.map(escape).joined(separator: ";"))
      w.property("item\(item).X-ABADR", r.pick(["us", "de", "fr"]))
    }
    for u in p.urls {
      item += 1
      w.property("item\(item).URL;type=pref", escape(u))
      w.property("item\(item).X-ABLabel", "_$!<HomePage>!$_")
    }
    if r.chance(0.3) { w.property("IMPP;X-SERVICE-TYPE=Skype;type=HOME;type=pref", "skype:\(p.given.count)user") }
    if let n = p.note { w.property("NOTE", escape(n)) }
    if let b = p.birthday { w.property(r.chance(0.5) ? "BDAY;value=date" : "BDAY", b) }
    if let photo = p.photo { w.property("PHOTO;ENCODING=b;TYPE=JPEG", base64(photo)) }
    if r.chance(0.3) { w.property("X-SOCIALPROFILE;type=twitter", "x-apple:\(p.given.count)") }
    if let uid = p.uid { w.property("UID", uid) }
    w.marker("END:VCARD")
    return w
  }

  static func google30(_ p: Person, _ r: inout SplitMix64) -> CardWriter {
    var w = CardWriter()
    w.marker("BEGIN:VCARD")
    w.property("VERSION", "3.0")
    w.property("FN", escape(p.fullName))
    w.property("N", [p.family, p.given, p.middle, p.prefix, p.suffix].map(escape).joined(separator: ";"))
    if let n = p.nickname { w.property("NICKNAME", escape(n)) }
    for (v, t) in p.emails { w.property("EMAIL;TYPE=INTERNET;TYPE=\(t[0].uppercased())", escape(v)) }
    for (v, t) in p.phones { w.property("TEL;TYPE=\(t.joined(separator: ","))", escape(v)) }
    for a in p.addresses {
      w.property("ADR;TYPE=\(a.types[0].uppercased())", a.components.map(escape).joined(separator: ";"))
    }
    if !p.org.0.isEmpty { w.property("ORG", escape(p.org.0)) }
    if let t = p.title { w.property("TITLE", escape(t)) }
    for (i, u) in p.urls.enumerated() {
      // Google escapes the colon of URLs.
      w.property("item\(i + 1).URL", escape(u).replacing(":", with: "\\:"))
      w.property("item\(i + 1).X-ABLabel", "PROFILE")
    }
    if let n = p.note { w.property("NOTE", escape(n)) }
    if let b = p.birthday { w.property("BDAY", b) }
    if r.chance(0.3) { w.property("PHOTO", "https://lh3.googleusercontent.com/a/x\(r.below(1000))=s100") }
    w.property("CATEGORIES", r.pick(["myContacts", "myContacts,starred", "Family\\, close,myContacts"]))
    w.marker("END:VCARD")
    return w
  }

  static func sabre40(_ p: Person, _ r: inout SplitMix64) -> CardWriter {
    var w = CardWriter()
    w.marker("BEGIN:VCARD")
    w.property("VERSION", "4.0")
    w.property("PRODID", "-//Sabre//Sabre VObject 4.5.4//EN")
    if let uid = p.uid { w.property("UID", uid) }
    w.property("FN", escape(p.fullName))
    w.property("N", [p.family, p.given, p.middle, p.prefix, p.suffix].map(escape).joined(separator: ";"))
    if r.chance(0.15) {
      // A second N (another script): an extra property.
      w.property("N;ALTID=1;LANGUAGE=ja", "ヤマダ;タロウ;;;")
    }
    if let n = p.nickname { w.property("NICKNAME", escape(n)) }
    w.property("GENDER", r.pick(["M", "F", "O;nonbinary", "U"]))
    for (i, (v, t)) in p.emails.enumerated() {
      w.property("EMAIL;TYPE=\(t[0].lowercased())" + (i == 0 ? ";PREF=1" : ""), escape(v))
    }
    for (i, (v, t)) in p.phones.enumerated() {
      let digits = v.filter { $0.isNumber || $0 == "+" || $0 == "-" }
      let types = t.map { $0.lowercased() }
      let typeParam: String
      switch r.below(3) {
      case 0: typeParam = "TYPE=\"\(types.joined(separator: ","))\""  // as RFC 6350's examples
      case 1: typeParam = "TYPE=\(types.joined(separator: ","))"
      default: typeParam = types.map { "TYPE=" + $0 }.joined(separator: ";")
      }
      w.property("TEL;VALUE=uri;\(typeParam)" + (i == 0 ? ";PREF=1" : ""), "tel:" + digits)
    }
    for a in p.addresses {
      // The label: RFC 6868 carets, or the backslash-n Apple writes.
      let label = r.chance(0.5)
        ? a.labelText.replacing("^", with: "^^").replacing("\"", with: "^'").replacing("\n", with: "^n")
        : a.labelText.replacing("\"", with: "'").replacing("\n", with: "\\n")
      w.property(
        "ADR;TYPE=\(a.types[0].lowercased());LABEL=\"\(label)\"", a.components.map(escape).joined(separator: ";"))
    }
    if !p.org.0.isEmpty { w.property("ORG", escape(p.org.0) + (p.org.1.isEmpty ? "" : ";" + escape(p.org.1))) }
    if let t = p.title { w.property("TITLE;LANGUAGE=en", escape(t)) }
    for u in p.urls { w.property("URL;TYPE=home", escape(u)) }
    if r.chance(0.3) { w.property("IMPP;TYPE=personal;PREF=1", "xmpp:\(p.given.count)@example.org") }
    if let n = p.note { w.property("NOTE", escape(n)) }
    if let b = p.birthday { w.property("BDAY", b) }
    if let photo = p.photo {
      w.property("PHOTO", "data:image/jpeg;base64," + base64(photo))
      if r.chance(0.3) { w.property("PHOTO;MEDIATYPE=image/png", "https://example.com/p\(r.below(9)).png") }
    }
    if r.chance(0.2) { w.property("X-OHANA-OTHER;TYPE=spouse", escape(r.pick(latinGiven))) }
    if r.chance(0.2) { w.property("item1.FN", "Grouped full name") }
    if r.chance(0.2) { w.property("NOTE", "a second note\\, kept as an extra") }
    w.property("REV", "20240102T030405Z")
    w.marker("END:VCARD")
    return w
  }

  // MARK: Folding

  /// Where a line may be folded: 1 ..< count, never so that the first part
  /// of a quoted-printable value ends in `=` (that reads as a soft break)
  /// and never right after a leading blank.
  /// `headFolds`: folds before the value colon (in the name and the
  /// parameters) are allowed.
  static func foldable(_ line: Line, at k: Int, headFolds: Bool) -> Bool {
    guard k >= 1 && k < line.bytes.count else { return false }
    switch line.kind {
    case .marker, .blank: return false
    case .property(let valueStart, let qp):
      if !headFolds && k < valueStart { return false }
      if qp && k > valueStart && line.bytes[k - 1] == 0x3D { return false }
    case .qpContinuation:
      if line.bytes[k - 1] == 0x3D { return false }
    case .folded:
      if k < 2 { return false }
    }
    return true
  }

  /// Candidate positions by kind: inside the name, inside the parameters,
  /// inside quotes, right after the colon, after a backslash, inside a
  /// multi-byte character, anywhere.
  static func targets(_ line: Line, headFolds: Bool) -> [[Int]] {
    let b = line.bytes
    var name: [Int] = [], params: [Int] = [], quoted: [Int] = [], afterColon: [Int] = []
    var escapes: [Int] = [], multibyte: [Int] = [], anywhere: [Int] = []
    var colon = -1
    if case .property = line.kind {
      var inQuotes = false
      var nameEnd = -1
      for i in b.indices {
        if b[i] == 0x22 { inQuotes.toggle() }
        if nameEnd < 0 && (b[i] == 0x3B || b[i] == 0x3A) { nameEnd = i }
        if b[i] == 0x3A && !inQuotes {
          colon = i
          break
        }
        if nameEnd < 0 && i > 0 { name.append(i) }
        if nameEnd >= 0 && i > nameEnd { params.append(i) }
        if inQuotes && b[i] != 0x22 { quoted.append(i) }
      }
      if colon >= 0 { afterColon.append(colon + 1) }
    }
    for i in 1..<max(b.count, 1) {
      if b[i - 1] == 0x5C { escapes.append(i) }
      if b[i] & 0xC0 == 0x80 { multibyte.append(i) }
      anywhere.append(i)
    }
    return [name, params, quoted, afterColon, escapes, multibyte, anywhere].map { $0.filter { foldable(line, at: $0, headFolds: headFolds) } }
      .filter { !$0.isEmpty }
  }

  /// The line folded at some random positions (maybe none).
  static func fold(_ line: Line, headFolds: Bool, _ r: inout SplitMix64) -> [[UInt8]] {
    var cuts = Set<Int>()
    let groups = targets(line, headFolds: headFolds)
    if !groups.isEmpty {
      if r.chance(0.4) { cuts.insert(r.pick(r.pick(groups))) }
      if r.chance(0.2) { cuts.insert(r.pick(r.pick(groups))) }
      // An exporter's own folding at 75 octets.
      if line.bytes.count > 75 && r.chance(0.5) {
        var k = 75
        while k < line.bytes.count {
          if foldable(line, at: k, headFolds: headFolds) { cuts.insert(k) }
          k += 74
        }
      }
    }
    var pieces: [[UInt8]] = []
    var start = 0
    for k in cuts.sorted() {
      pieces.append(Array(line.bytes[start..<k]))
      start = k
    }
    pieces.append(Array(line.bytes[start...]))
    return pieces.enumerated().map { i, piece in i == 0 ? piece : [r.chance(0.7) ? 0x20 : 0x09] + piece }
  }

  // MARK: Files

  static let styles = ["android21", "outlook21", "apple30", "google30", "sabre40"]

  static func write(_ style: String, _ p: Person, _ r: inout SplitMix64) -> CardWriter {
    switch style {
    case "android21": android21(p, &r)
    case "outlook21": outlook21(p, &r)
    case "apple30": apple30(p, &r)
    case "google30": google30(p, &r)
    default: sabre40(p, &r)
    }
  }

  /// `cards` cards in random styles; each line folded at random positions
  /// (before the value colon too when `headFolds`).
  static func file(seed: UInt64, cards: Int, lineEnd: GeneratedLineEnd, headFolds: Bool = true) -> GeneratedFile {
    var r = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    var intended: [IntendedCard] = []
    var ranges: [Range<Int>] = []
    for _ in 0..<cards {
      let start = bytes.count
      let p = person(&r)
      let style = r.pick(styles)
      let writer = write(style, p, &r)
      intended.append(IntendedCard(style: style, fullName: p.fullName, emails: p.emails.map(\.0)))
      for line in writer.lines {
        for piece in fold(line, headFolds: headFolds, &r) {
          bytes += piece
          bytes += lineEnd.bytes
        }
      }
      ranges.append(start..<bytes.count)
    }
    return GeneratedFile(bytes: bytes, cards: intended, cardRanges: ranges)
  }
}
