import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

/// The fast vCard reader against the reference reader (`ReferenceVCardReader`)
/// on random cards written the way real exporters write them and folded at
/// random byte positions (`RandomExporterCards`), card by card and property
/// by property. A failure prints the seed; `OHANA_DIFF_SEED=n swift test
/// --filter VCardDifferentialTests` tries another one.
@Suite(.serialized) struct VCardDifferentialTests {
  /// The fixed seeds of every run, and `OHANA_DIFF_SEED` when set.
  static var seeds: [UInt64] {
    var seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]
    if let text = ProcessInfo.processInfo.environment["OHANA_DIFF_SEED"] {
      if let extra = UInt64(text) {
        seeds.append(extra)
      } else {
        print("warning: OHANA_DIFF_SEED=\(text) is not a number; ignored")
      }
    }
    return seeds
  }
  static let cardsPerFile = 150

  struct Case {
    var name: String
    var file: GeneratedFile
    var reference: ReferenceVCardReader.Result
  }

  /// What the fast reader is given.
  enum Variant: String, CaseIterable, Sendable {
    /// Folds only from the value colon on.
    case foldsInValues
    /// Folds anywhere, inside property names and parameter values too.
    case foldsEverywhere
    /// The same files unfolded first by the reference (folds gone,
    /// quoted-printable soft breaks and base64 blocks left): a mismatch here
    /// is not about folding.
    case foldsEverywhereUnfoldedFirst
  }

  /// The files and what the reference reads from them, made once per run.
  static let withHeadFolds = cases(headFolds: true)
  static let withoutHeadFolds = cases(headFolds: false)

  static func cases(_ variant: Variant) -> [Case] {
    switch variant {
    case .foldsInValues: return withoutHeadFolds
    case .foldsEverywhere: return withHeadFolds
    case .foldsEverywhereUnfoldedFirst: return withHeadFolds.map(unfoldedFirst)
    }
  }

  /// The case's file with every card unfolded by the reference, CRLF line ends.
  static func unfoldedFirst(_ c: Case) -> Case {
    var file = c.file
    file.bytes = []
    file.cardRanges = []
    for range in c.file.cardRanges {
      let start = file.bytes.count
      for line in ReferenceVCardReader.unfold(ReferenceVCardReader.splitLines(Array(c.file.bytes[range]))) {
        file.bytes += line + [0x0D, 0x0A]
      }
      file.cardRanges.append(start..<file.bytes.count)
    }
    return Case(name: c.name + " unfolded", file: file, reference: c.reference)
  }

  static func cases(headFolds: Bool) -> [Case] {
    files(headFolds: headFolds).map { Case(name: $0.name, file: $0.file, reference: ReferenceVCardReader.read($0.file.bytes)) }
  }

  /// One file per seed and line end.
  static func files(headFolds: Bool = true) -> [(name: String, file: GeneratedFile)] {
    var out: [(String, GeneratedFile)] = []
    for seed in seeds {
      for (k, lineEnd) in GeneratedLineEnd.allCases.enumerated() {
        let file = RandomExporterCards.file(
          seed: seed &* 0x1_0000 &+ UInt64(k), cards: cardsPerFile, lineEnd: lineEnd, headFolds: headFolds)
        out.append(("seed \(seed) \(lineEnd.rawValue)", file))
      }
    }
    return out
  }

  // MARK: The fast reader's table in the reference's model

  static func model(_ c: Contact) -> RefContact {
    var m = RefContact()
    let attributes: [(String, String?)] = [
      ("uid", c.uid), ("fullName", c.fullName), ("givenName", c.givenName), ("familyName", c.familyName),
      ("middleName", c.middleName), ("prefix", c.prefix), ("suffix", c.suffix), ("nickname", c.nickname),
      ("organization", c.organization), ("department", c.department), ("jobTitle", c.jobTitle),
      ("birthday", c.birthday), ("note", c.note),
    ]
    for (name, value) in attributes {
      if let value, !value.isEmpty { m.attributes[name] = value }
    }
    func label(_ l: String?) -> [String] {
      (l ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }.sorted()
    }
    func group(_ g: String?) -> String? { g.flatMap(RefText.nonEmpty) }
    m.fields = c.fields.map {
      RefField(
        kind: $0.kind.name, label: label($0.label), value: $0.value, group: group($0.group),
        parameters: ReferenceVCardReader.meaning(ofStored: $0.parameters))
    }
    m.addresses = c.addresses.map {
      RefAddress(
        label: label($0.label), poBox: $0.poBox, extended: $0.extended, street: $0.street, locality: $0.locality,
        region: $0.region, postalCode: $0.postalCode, country: $0.country, group: group($0.group),
        parameters: ReferenceVCardReader.meaning(ofStored: $0.parameters))
    }
    m.extras = c.extras.map {
      RefExtra(
        name: $0.name, group: group($0.group), parameters: ReferenceVCardReader.meaning(ofStored: $0.parameters),
        value: $0.value)
    }
    m.photo = c.photo?.data
    m.photoMediaType = c.photo?.mediaType.flatMap(RefText.nonEmpty)
    return m
  }

  // MARK: Comparing

  struct Difference {
    /// e.g. `email.value`, `address.street`, `fields(count)`.
    var category: String
    var property: String
    var fast: String
    var reference: String
  }

  static func show(_ s: String?) -> String { s.map { $0.debugDescription } ?? "nil" }

  static func compare(fast f: RefContact, reference r: RefContact) -> [Difference] {
    var d: [Difference] = []
    for key in Set(f.attributes.keys).union(r.attributes.keys).sorted() where f.attributes[key] != r.attributes[key] {
      d.append(Difference(category: key, property: key, fast: show(f.attributes[key]), reference: show(r.attributes[key])))
    }
    if f.fields.count != r.fields.count {
      d.append(
        Difference(
          category: "fields(count)", property: "fields",
          fast: f.fields.map(\.description).joined(separator: " | "),
          reference: r.fields.map(\.description).joined(separator: " | ")))
    } else {
      for (i, (a, b)) in zip(f.fields, r.fields).enumerated() {
        let name = "fields[\(i)] (\(b.kind))"
        if a.kind != b.kind { d.append(Difference(category: "field.kind", property: name, fast: a.kind, reference: b.kind)) }
        if a.value != b.value {
          d.append(Difference(category: "\(b.kind).value", property: name, fast: show(a.value), reference: show(b.value)))
        }
        if a.label != b.label {
          d.append(Difference(category: "\(b.kind).label", property: name, fast: "\(a.label)", reference: "\(b.label)"))
        }
        if a.group != b.group {
          d.append(Difference(category: "\(b.kind).group", property: name, fast: show(a.group), reference: show(b.group)))
        }
        if a.parameters != b.parameters {
          d.append(
            Difference(
              category: "\(b.kind).parameters", property: name, fast: RefText.show(a.parameters),
              reference: RefText.show(b.parameters)))
        }
      }
    }
    if f.addresses.count != r.addresses.count {
      d.append(
        Difference(
          category: "addresses(count)", property: "addresses",
          fast: f.addresses.map(\.description).joined(separator: " | "),
          reference: r.addresses.map(\.description).joined(separator: " | ")))
    } else {
      for (i, (a, b)) in zip(f.addresses, r.addresses).enumerated() {
        let name = "addresses[\(i)]"
        let parts: [(String, String?, String?)] = [
          ("poBox", a.poBox, b.poBox), ("extended", a.extended, b.extended), ("street", a.street, b.street),
          ("locality", a.locality, b.locality), ("region", a.region, b.region),
          ("postalCode", a.postalCode, b.postalCode), ("country", a.country, b.country), ("group", a.group, b.group),
        ]
        for (part, x, y) in parts where x != y {
          d.append(Difference(category: "address.\(part)", property: "\(name).\(part)", fast: show(x), reference: show(y)))
        }
        if a.label != b.label {
          d.append(Difference(category: "address.label", property: name, fast: "\(a.label)", reference: "\(b.label)"))
        }
        if a.parameters != b.parameters {
          d.append(
            Difference(
              category: "address.parameters", property: name, fast: RefText.show(a.parameters),
              reference: RefText.show(b.parameters)))
        }
      }
    }
    if f.extras.count != r.extras.count {
      d.append(
        Difference(
          category: "extras(count)", property: "extras", fast: f.extras.map(\.description).joined(separator: " | "),
          reference: r.extras.map(\.description).joined(separator: " | ")))
    } else {
      for (i, (a, b)) in zip(f.extras, r.extras).enumerated() where a != b {
        d.append(
          Difference(
            category: "extra(\(b.name))", property: "extras[\(i)]", fast: a.description, reference: b.description))
      }
    }
    if f.photo != r.photo {
      d.append(
        Difference(
          category: "photo", property: "photo", fast: f.photo.map { "\($0.count) bytes" } ?? "nil",
          reference: r.photo.map { "\($0.count) bytes" } ?? "nil"))
    }
    if f.photoMediaType != r.photoMediaType {
      d.append(
        Difference(
          category: "photo.mediaType", property: "photo", fast: show(f.photoMediaType),
          reference: show(r.photoMediaType)))
    }
    return d
  }

  /// Collected mismatches of a run, with a readable summary.
  struct Findings {
    var cardsCompared = 0
    var cardsDiffering = 0
    var byCategory: [String: Int] = [:]
    var byStyle: [String: Int] = [:]
    var examples: [String] = []
    var problems: [String] = []
    /// The fast reader's error reasons (digits as `#`) and their counts.
    var errorReasons: [String: Int] = [:]
    static let maxExamples = 12

    mutating func record(_ where_: String, style: String, card: [UInt8], _ diffs: [Difference]) {
      cardsDiffering += 1
      byStyle[style, default: 0] += 1
      for c in Set(diffs.map(\.category)) { byCategory[c, default: 0] += 1 }
      if examples.count < Self.maxExamples {
        var text = "- \(where_) (\(style)):\n"
        for x in diffs.prefix(4) {
          text += "    \(x.property): fast \(x.fast)\n      reference \(x.reference)\n"
        }
        if diffs.count > 4 { text += "    ... and \(diffs.count - 4) more\n" }
        text += "    card: \(String(decoding: card, as: UTF8.self).debugDescription)\n"
        examples.append(text)
      }
    }

    var summary: String {
      let share = cardsCompared == 0 ? 0 : Double(cardsDiffering) * 100 / Double(cardsCompared)
      var s = "fast reader vs reference: \(cardsDiffering) of \(cardsCompared) card reads differ "
      s += "(\(String(format: "%.2f", share))%), seeds \(VCardDifferentialTests.seeds)\n"
      s += "by property (cards): "
      s += byCategory.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
      s += "by style (cards): " + byStyle.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      s += "\n"
      if !errorReasons.isEmpty {
        s += "fast reader errors: "
        s += errorReasons.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
      }
      if !problems.isEmpty {
        s += "problems (\(problems.count)):\n" + problems.prefix(Self.maxExamples).map { "- " + $0 }.joined(separator: "\n") + "\n"
      }
      s += "first \(examples.count) examples:\n" + examples.joined()
      return s
    }
  }

  /// The 1-based line of each card's BEGIN:VCARD (a CR LF pair is one line end).
  static func startLines(_ file: GeneratedFile) -> [Int] {
    var lines: [Int] = []
    var line = 1
    var pos = 0
    for range in file.cardRanges {
      while pos < range.lowerBound {
        let b = file.bytes[pos]
        if b == 0x0A || (b == 0x0D && (pos + 1 >= file.bytes.count || file.bytes[pos + 1] != 0x0A)) { line += 1 }
        pos += 1
      }
      lines.append(line)
    }
    return lines
  }

  // MARK: Tests

  /// The oracle first: the reference reads back what the writer meant
  /// (full names and e-mails), with no problem reported.
  @Test func referenceReadsWhatTheWriterMeant() {
    var failures: [String] = []
    var cards = 0
    for (name, file, ref) in (Self.withHeadFolds + Self.withoutHeadFolds).map({ ($0.name, $0.file, $0.reference) }) {
      if !ref.problems.isEmpty { failures.append("\(name): reference problems \(ref.problems.prefix(3))") }
      if ref.cards.count != file.cards.count {
        failures.append("\(name): reference read \(ref.cards.count) cards, \(file.cards.count) written")
        continue
      }
      for (i, (card, meant)) in zip(ref.cards, file.cards).enumerated() {
        cards += 1
        let emails = card.fields.filter { $0.kind == "email" }.map(\.value)
        if card.attributes["fullName"] != meant.fullName || emails != meant.emails {
          failures.append(
            "\(name) card \(i) (\(meant.style)): FN \(Self.show(card.attributes["fullName"])) e-mails \(emails), "
              + "meant \(meant.fullName.debugDescription) \(meant.emails)")
        }
      }
    }
    print("reference vs writer: \(cards) cards, \(failures.count) failures")
    #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(10).joined(separator: "\n"))")
  }

  /// The fast reader agrees with the reference on every card, with the
  /// default chunk size and with 4 KiB chunks (chunk boundaries crossed).
  /// Run on each ``Variant``.
  @Test(arguments: Variant.allCases) func fastReaderAgreesWithReference(_ variant: Variant) throws {
    var findings = Findings()
    for (name, file, ref) in Self.cases(variant).map({ ($0.name, $0.file, $0.reference) }) {
      let startLines = Self.startLines(file)
      for chunkSize in [2 << 20, 4096] {
        let fast = try ContactIO.read(bytes: file.bytes, options: ReadOptions(chunkSize: chunkSize))
        let label = "\(name) chunk \(chunkSize)"
        for e in fast.errors {
          let reason = String(e.reason.map { $0.isNumber ? "#" : $0 })
          findings.errorReasons[reason, default: 0] += 1
        }
        if !fast.errors.isEmpty || fast.recordsSkipped != 0 {
          findings.problems.append(
            "\(label): fast reader skipped \(fast.recordsSkipped), errors "
              + fast.errors.prefix(3).map { "line \($0.line): \($0.reason)" }.joined(separator: "; "))
        }
        let contacts = fast.table.contacts
        if contacts.count != file.cards.count || ref.cards.count != file.cards.count {
          findings.problems.append(
            "\(label): \(file.cards.count) cards written, fast read \(contacts.count), reference \(ref.cards.count)")
        }
        // Cards are matched by the line of their BEGIN:VCARD, so that a
        // card the fast reader skips does not shift the others.
        var fastByLine: [Int: Contact] = [:]
        for c in contacts { fastByLine[c.sourceLine] = c }
        for i in 0..<min(ref.cards.count, file.cards.count) {
          findings.cardsCompared += 1
          let card = Array(file.bytes[file.cardRanges[i]])
          guard let c = fastByLine[startLines[i]] else {
            findings.record(
              "\(label) card \(i)", style: file.cards[i].style, card: card,
              [Difference(category: "card missing", property: "card", fast: "not read", reference: "read")])
            continue
          }
          let diffs = Self.compare(fast: Self.model(c), reference: ref.cards[i])
          if !diffs.isEmpty {
            findings.record("\(label) card \(i)", style: file.cards[i].style, card: card, diffs)
          }
        }
      }
    }
    print("\(variant): " + findings.summary)
    #expect(findings.cardsDiffering == 0 && findings.problems.isEmpty, Comment(rawValue: findings.summary))
  }

  // MARK: Minimal cards

  /// A small card with hand-written expectations, checked on both readers.
  struct MinimalCard: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// What the card means (nil: as expected; else what is wrong).
    var check: @Sendable (RefContact) -> String?
    var testDescription: String { name }
  }

  static func expect<T: Equatable>(_ what: String, _ got: T, _ want: T) -> String? {
    got == want ? nil : "\(what): got \(got), want \(want)"
  }

  static func values(_ c: RefContact, _ kind: String) -> [String] { c.fields.filter { $0.kind == kind }.map(\.value) }

  static let minimalCards: [MinimalCard] = [
    // Issue 14: a fold inside a quoted LABEL (Apple / Sabre 4.0).
    MinimalCard(
      name: "fold inside a quoted parameter value",
      text: "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A B\r\nEMAIL:a@b.com\r\nADR;LABEL=\"x\r\n y\":;;street;city;;;\r\nEND:VCARD\r\n",
      check: { c in
        expect("emails", values(c, "email"), ["a@b.com"])
          ?? expect("streets", c.addresses.map(\.street), ["street"])
          ?? expect("localities", c.addresses.map(\.locality), ["city"])
          ?? expect("LABEL", c.addresses.first?.parameters["LABEL"], ["xy"])
      }),
    // evolution-data-server/13.vcf: a fold inside a bare TYPE list.
    MinimalCard(
      name: "fold inside a bare parameter value",
      text: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nADR;TYPE=WORK:;;1 Main St;Raleigh;NC;27601;U.S.A.\r\n"
        + "TEL;TYPE=VOICE,M\r\n SG,WORK:+1-919-676-9515\r\nEMAIL:a@b.com\r\nEND:VCARD\r\n",
      check: { c in
        expect("countries", c.addresses.map(\.country), ["U.S.A."])
          ?? expect("phones", values(c, "phone"), ["+1-919-676-9515"])
          ?? expect("phone labels", c.fields.first { $0.kind == "phone" }?.label, ["msg", "work"])
          ?? expect("emails", values(c, "email"), ["a@b.com"])
      }),
    // Folds inside property names, the first one right after BEGIN:VCARD; LF only, TAB.
    MinimalCard(
      name: "fold inside property names",
      text: "BEGIN:VCARD\nVERS\n ION:3.0\nFN:A\nEM\n\tAIL:a@b.com\nEND:VCARD\n",
      check: { c in expect("FN", c.attributes["fullName"], "A") ?? expect("emails", values(c, "email"), ["a@b.com"]) }),
    // A fold inside the parameters of a quoted-printable property, right
    // after `ENCODING=`: the soft breaks in its value still count.
    MinimalCard(
      name: "fold before QUOTED-PRINTABLE in the parameters",
      text: "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:A\r\nNOTE;ENCODING=\r\n QUOTED-PRINTABLE:one=0D=0Atw=\r\no\r\nEND:VCARD\r\n",
      check: { c in expect("note", c.attributes["note"], "one\ntwo") }),
    // RFC 6350 6.4.1 writes type lists quoted: TYPE="voice,home" is two types.
    MinimalCard(
      name: "quoted TYPE list in 4.0",
      text: "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;TYPE=\"voice,home\":tel:+1-555-555-5555\r\nEND:VCARD\r\n",
      check: { c in
        expect("phone labels", c.fields.first?.label, ["home"])
          ?? expect("TYPE", c.fields.first?.parameters["TYPE"], ["home", "voice"])
      }),
    // Guards that pass today: folds right after the colon, inside an escape
    // and inside a UTF-8 character; CR-only line ends.
    MinimalCard(
      name: "folds after the colon, inside an escape, CR only",
      text: "BEGIN:VCARD\rVERSION:3.0\rFN:\r Zo\u{00EB}\rNOTE:a\\\r nb\\\r\t,c\rEND:VCARD\r",
      check: { c in expect("FN", c.attributes["fullName"], "Zo\u{00EB}") ?? expect("note", c.attributes["note"], "a\nb,c") }),
  ]

  @Test(arguments: minimalCards) func minimalCard(_ card: MinimalCard) throws {
    let bytes = Array(card.text.utf8)
    let ref = ReferenceVCardReader.read(bytes)
    #expect(ref.problems.isEmpty && ref.cards.count == 1, "reference: \(ref.problems)")
    if let c = ref.cards.first, let wrong = card.check(c) { Issue.record("reference: \(wrong)") }
    let fast = try ContactIO.read(bytes: bytes)
    #expect(fast.errors.isEmpty, "fast reader errors: \(fast.errors.map { "line \($0.line): \($0.reason)" })")
    let contacts = fast.table.contacts
    #expect(contacts.count == 1, "fast reader: \(contacts.count) cards")
    if let c = contacts.first, let wrong = card.check(Self.model(c)) { Issue.record("fast reader: \(wrong)") }
  }
}
