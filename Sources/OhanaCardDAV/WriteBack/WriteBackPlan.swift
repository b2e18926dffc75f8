import Foundation
import OhanaCore
import OhanaDedupe
import OhanaPhone

/// What a write-back will do to one address book, decided before anything
/// is written (`ohana dedupe URL --plan plan.json`): per cluster, the card
/// that survives (it keeps its href, UID and vCard version), the card it
/// becomes, and the cards to delete, each with the ETag and SHA-256 it had
/// when planned and its full text. `--apply` carries out exactly this.
public struct WriteBackPlan: Codable, Sendable {
  public static let formatName = "ohana-carddav-plan"

  public var format = Self.formatName
  public var version = 1
  /// The address book (absolute URL, no login in it).
  public var book: String
  /// Cards in the book when planned, groups included.
  public var cardsInBook: Int
  /// UIDs that more than one card of the book carries (a plan with any is
  /// refused unless forced).
  public var duplicateUids: [String]
  public var clusters: [Cluster]
  public var groups: [GroupUpdate]
  /// Clusters found but not planned, with the reason.
  public var skipped: [Skipped]

  public struct Card: Codable, Sendable, Equatable {
    public var href: String
    public var etag: String
    public var sha256: String
    public var uid: String?
    public var text: String
  }

  public struct Cluster: Codable, Sendable {
    public var id: Int
    public var survivor: Card
    /// The survivor's text after the merge.
    public var merged: String
    public var mergedSha256: String
    public var delete: [Card]
    /// What the merge did not add as it was: the other cards' values of
    /// properties the card holds once (``CardMerge``).
    public var setAside: [SetAside] = []

    public init(id: Int, survivor: Card, merged: String, mergedSha256: String, delete: [Card], setAside: [SetAside] = []) {
      self.id = id
      self.survivor = survivor
      self.merged = merged
      self.mergedSha256 = mergedSha256
      self.delete = delete
      self.setAside = setAside
    }

    enum CodingKeys: String, CodingKey { case id, survivor, merged, mergedSha256, delete, setAside }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      id = try c.decode(Int.self, forKey: .id)
      survivor = try c.decode(Card.self, forKey: .survivor)
      merged = try c.decode(String.self, forKey: .merged)
      mergedSha256 = try c.decode(String.self, forKey: .mergedSha256)
      delete = try c.decode([Card].self, forKey: .delete)
      // Plans written before the list was kept have none.
      setAside = try c.decodeIfPresent([SetAside].self, forKey: .setAside) ?? []
    }
  }

  /// Another card's value of a property the merged card holds once, and
  /// where it went: `NICKNAME` (another given name), `X-OHANA-ALT-<NAME>`
  /// (kept beside the survivor's), or "" (not carried; the undo log keeps
  /// the card).
  public struct SetAside: Codable, Sendable, Equatable {
    public var property: String
    public var value: String
    /// The href of the card it came from.
    public var from: String
    public var into: String
    public var reason: String
  }

  /// A group card naming a merged-away UID: it will name the survivor's.
  public struct GroupUpdate: Codable, Sendable {
    public var group: Card
    /// The group's text once every planned cluster is merged.
    public var updated: String
    /// Merged-away UID -> the survivor's UID.
    public var members: [String: String]
  }

  public struct Skipped: Codable, Sendable {
    public var hrefs: [String]
    public var reason: String
  }

  /// Adds a cluster found but not planned.
  public mutating func skip(hrefs: [String], reason: String) { skipped.append(Skipped(hrefs: hrefs, reason: reason)) }

  public var deleteCount: Int { clusters.reduce(0) { $0 + $1.delete.count } }

  /// The share of the book the plan deletes.
  public var deleteShare: Double { cardsInBook == 0 ? 0 : Double(deleteCount) / Double(cardsInBook) }

  static func hex(_ text: String) -> String {
    SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  static func card(_ c: CardDAVCard, _ text: VCardText?) -> Card? {
    guard let etag = c.etag else { return nil }
    let body = String(decoding: c.data, as: UTF8.self)
    return Card(href: c.url.absoluteString, etag: etag, sha256: hex(body), uid: text?.uid, text: body)
  }

  /// Plans the merge of `clusters` (each a list of indices into
  /// `book.cards`, two or more); national phone numbers of a card with no
  /// country are read in `region` (``CardMerge``).
  ///
  /// The survivor is the cluster's card with the most properties (the
  /// first href in order on a tie). A cluster is skipped, and said so,
  /// when one of its cards is not vCard 3.0 or 4.0, has no ETag, or has
  /// no UID while a group names members by UID, and when its merged card
  /// would break its version's cardinalities (``VCardCardinality``: a
  /// survivor that already repeats one), with the property named.
  ///
  /// `fieldChoices` (survivorship rules, issue 46): per card index, the
  /// card of its cluster each ruled field is taken from. The survivor's
  /// text is still the one kept, but the properties of a field chosen from
  /// another card are that card's (``Survivorship/Field``: `N` and `FN`
  /// for the name, `NICKNAME`, `ORG`, `TITLE`, `BDAY`, `NOTE`); the
  /// survivor's own values of it are then treated as another card's
  /// (``CardMerge``: kept as `X-OHANA-ALT-<NAME>`, a different given name
  /// joining NICKNAME), so that nothing is dropped.
  public static func make(
    book: CardDAVReader.Book, clusters: [[Int]], region: String = "US", fieldChoices: [Int: [Survivorship.Field: Int]] = [:]
  ) -> WriteBackPlan {
    let merger = CardMerge(defaultRegion: RegionCode(region) ?? .us)
    let texts = book.cards.map { VCardText(String(decoding: $0.data, as: UTF8.self)) }
    var uidCount: [String: Int] = [:]
    for t in texts { if let u = t?.uid, !u.isEmpty { uidCount[u, default: 0] += 1 } }
    var plan = WriteBackPlan(
      book: HTTPClientTransport.redacted(book.url), cardsInBook: book.cards.count,
      duplicateUids: uidCount.filter { $0.value > 1 }.map(\.key).sorted(), clusters: [], groups: [], skipped: [])
    var survivorUID: [String: String] = [:]
    let ordered = clusters.map { $0.sorted { book.cards[$0].url.absoluteString < book.cards[$1].url.absoluteString } }
      .sorted { book.cards[$0[0]].url.absoluteString < book.cards[$1[0]].url.absoluteString }
    for members in ordered where members.count >= 2 {
      let hrefs = members.map { book.cards[$0].url.absoluteString }
      var reason: String? = nil
      for m in members {
        guard let t = texts[m] else {
          reason = "a card is not one vCard"
          break
        }
        if t.version != "3.0" && t.version != "4.0" { reason = "a card is vCard \(t.version.isEmpty ? "of no version" : t.version), not 3.0 or 4.0" }
        if book.cards[m].etag == nil { reason = "the server gave a card no ETag" }
      }
      if let reason {
        plan.skipped.append(Skipped(hrefs: hrefs, reason: reason))
        continue
      }
      guard
        let survivorIndex = members.max(by: { a, b in
          let (la, lb) = (texts[a]?.lines.count ?? 0, texts[b]?.lines.count ?? 0)
          return la != lb ? la < lb : book.cards[a].url.absoluteString > book.cards[b].url.absoluteString
        })
      else { continue }
      let others = members.filter { $0 != survivorIndex }
      guard var survivorText = texts[survivorIndex], let survivor = card(book.cards[survivorIndex], survivorText) else { continue }
      var otherTexts = others.compactMap { i in texts[i].map { (card: $0, from: book.cards[i].url.absoluteString) } }
      if let choices = fieldChoices[members[0]],
        let displaced = Self.takeChosen(choices, into: &survivorText, survivor: survivorIndex, members: members, texts: texts)
      {
        otherTexts.insert((card: displaced, from: book.cards[survivorIndex].url.absoluteString), at: 0)
      }
      let result = merger.merge(survivor: survivorText, others: otherTexts)
      let problems = CardMerge.violations(result.card)
      if !problems.isEmpty {
        plan.skipped.append(
          Skipped(
            hrefs: hrefs, reason: "the merged card would break vCard \(survivorText.version): \(problems.joined(separator: "; "))"))
        continue
      }
      let merged = result.card.text
      let deletes = others.compactMap { card(book.cards[$0], texts[$0]) }
      plan.clusters.append(
        Cluster(
          id: plan.clusters.count + 1, survivor: survivor, merged: merged, mergedSha256: hex(merged), delete: deletes,
          setAside: result.setAside))
      if let su = survivor.uid {
        for d in deletes { if let u = d.uid, u != su { survivorUID[u] = su } }
      }
    }
    // Groups that name a merged-away UID.
    for g in book.groups {
      guard let text = texts[g], let card = card(book.cards[g], text) else { continue }
      let (updated, members) = updatedGroup(text, survivorUID)
      if !members.isEmpty { plan.groups.append(GroupUpdate(group: card, updated: updated.text, members: members)) }
    }
    return plan
  }

  /// The properties of a survivorship field in a card (none for the
  /// department, which is part of `ORG`: the organization's rule decides it).
  static func properties(of field: Survivorship.Field) -> Set<String> {
    switch field {
    case .name: ["N", "FN"]
    case .nickname: ["NICKNAME"]
    case .organization: ["ORG"]
    case .department: []
    case .jobTitle: ["TITLE"]
    case .birthday: ["BDAY"]
    case .note: ["NOTE"]
    }
  }

  /// `survivor` with each field chosen from another member of the cluster
  /// given that member's lines of it (ungrouped), in the place of its own;
  /// its own lines so replaced, as a card of their own (nil when none),
  /// for the merge to treat as another card's.
  static func takeChosen(
    _ choices: [Survivorship.Field: Int], into survivor: inout VCardText, survivor index: Int, members: [Int],
    texts: [VCardText?]
  ) -> VCardText? {
    var displaced: [VCardText.Line] = []
    for field in Survivorship.Field.allCases {
      guard let chosen = choices[field], chosen != index, members.contains(chosen), let from = texts[chosen] else {
        continue
      }
      let names = properties(of: field)
      let theirs = from.lines.filter { $0.group.isEmpty && names.contains($0.name) && $0.raw.unicodeScalars.last == "\n" }
      guard !theirs.isEmpty else { continue }
      var lines: [VCardText.Line] = []
      var placed = false
      for l in survivor.lines {
        if l.group.isEmpty && names.contains(l.name) {
          displaced.append(l)
          if !placed {
            lines += theirs
            placed = true
          }
        } else {
          if !placed && l.name == "END" {
            lines += theirs
            placed = true
          }
          lines.append(l)
        }
      }
      survivor.lines = lines
    }
    guard !displaced.isEmpty else { return nil }
    let text = "BEGIN:VCARD\r\nVERSION:\(survivor.version)\r\n" + displaced.map { l in l.raw.unicodeScalars.last == "\n" ? l.raw : l.raw + "\r\n" }.joined() + "END:VCARD\r\n"
    return VCardText(text)
  }

  static let memberNames: Set<String> = ["MEMBER", "X-ADDRESSBOOKSERVER-MEMBER"]

  /// A group with each member UID in `survivorUID` replaced by its
  /// survivor's (a member named twice so is named once), and the UIDs
  /// replaced.
  static func updatedGroup(_ group: VCardText, _ survivorUID: [String: String]) -> (VCardText, [String: String]) {
    var replaced: [String: String] = [:]
    var named = Set<String>()
    for l in group.lines where memberNames.contains(l.name) { named.insert(VCardText.memberUID(l.value)) }
    var lines: [VCardText.Line] = []
    for l in group.lines {
      guard memberNames.contains(l.name), let to = survivorUID[VCardText.memberUID(l.value)] else {
        lines.append(l)
        continue
      }
      replaced[VCardText.memberUID(l.value)] = to
      guard named.insert(to).inserted else { continue }  // the survivor is a member already
      let prefix = l.value.lowercased().hasPrefix("urn:uuid:") ? String(l.value.prefix(9)) : ""
      lines.append(
        VCardText.written(
          group: l.group, name: l.nameAsWritten, parameters: l.parameters, value: prefix + to))
    }
    return (VCardText(lines: lines), replaced)
  }

  // MARK: Reading and writing

  public func json() throws -> Data {
    let e = JSONEncoder()
    e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    e.keyEncodingStrategy = .convertToSnakeCase
    return try e.encode(self) + Data("\n".utf8)
  }

  public static func read(_ data: Data) throws -> WriteBackPlan {
    let d = JSONDecoder()
    d.keyDecodingStrategy = .convertFromSnakeCase
    let plan = try d.decode(WriteBackPlan.self, from: data)
    guard plan.format == formatName, plan.version == 1 else {
      throw CardDAVError(.refused, "not an ohana CardDAV plan of version 1 (format \(plan.format), version \(plan.version))")
    }
    return plan
  }
}
