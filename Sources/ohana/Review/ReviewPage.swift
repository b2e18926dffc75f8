import Ohana

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pair of the review: two rows of the table and how their weight was
/// built, from `--explain` or from a dedupe run in the same process.
struct ReviewPair {
  var a: Int
  var b: Int
  var weight: Double
  /// Level names, one per comparison of ``ReviewPage/comparisons``.
  var levels: [String]
  /// Weights, one per comparison, when known.
  var parts: [Double]?
  var adjust: Double?
  var keys: [String]
}

extension ReviewPair {
  /// A pair a dedupe in this process (or a store) found, with its parts
  /// from the model's `weights`.
  /// The table's other columns compared follow the model's comparisons
  /// (``comparisons(_:)``).
  init(_ p: MatchedPair, weights: ExplanationWeights) {
    let columns = weights.columnParts(p)
    let parts = Comparison.allCases.map { weights.part($0, level: p.vector[$0]) } + columns.map(\.weight)
    self.init(
      a: p.first, b: p.second, weight: p.weight,
      levels: Comparison.allCases.map { $0.levelName(p.vector[$0]) } + columns.map(\.level),
      parts: parts, adjust: p.weight - parts.reduce(0, +),
      keys: BlockingKey.allCases.filter { p.sharedKeys.contains(.init($0)) }.map(\.description))
  }
}

extension ReviewPair {
  /// The comparisons of pairs made by ``init(_:weights:)``: the model's,
  /// then the other columns (named as `--explain` files are read back).
  static func comparisons(_ weights: ExplanationWeights) -> [String] {
    Comparison.allCases.map(\.description) + weights.columnNames.map(ExplainedPair.comparisonName(ofColumn:))
  }
}

/// The review page (README "Review the clusters"): one self-contained HTML
/// file. The template (`Review/Page/review.html`, `.css`, `.js`) is
/// compiled into the binary; the data goes into the page as one JSON
/// document of column arrays (the contract is at the top of `review.js`),
/// and a Content-Security-Policy names the page's one script and one
/// style by their SHA-256, so that nothing else runs and no request leaves
/// the page.
struct ReviewPage {
  var table: ContactTable
  /// For every row, its cluster (any number; rows of one number are one
  /// cluster); -1 for a row the clusters do not name (a cluster alone).
  var clusterOf: [Int32]
  /// The name of a cluster number (its id in `--clusters`).
  var clusterName: (Int32) -> String
  var comparisons: [String]
  var pairs: [ReviewPair]
  /// log2 of the prior odds of a match, when known.
  var prior: Double?
  /// For every row, its cluster in a previous run (`--since`), if given.
  var previous: [Int32]?
  /// Whether a cluster number changed in the last run (an entity store's
  /// page), if known.
  var changed: ((Int32) -> Bool)? = nil
  var title: String
  var inputs: [String]
  /// The contacts the page stands for, when more than the table holds
  /// (an entity store's page holds only clustered contacts).
  var contactCount: Int? = nil
  /// The chaining guard's refusals, when the page's own dedupe ran: pairs
  /// the cross pairs refused, and pairs refused for the cluster cap.
  var guardRefusals: (crossPairs: Int, size: Int)? = nil

  /// What building the page found: pairs that do not fit the clusters.
  struct Counts {
    var clusters = 0
    var members = 0
    var pairs = 0
    var pairsOutside = 0
    var changed = 0
  }

  /// The page's bytes.
  func html() -> (page: [UInt8], counts: Counts) {
    let (data, counts) = json()
    let style = Self.template("review.css", PackageResources.review_css)
    let script = Self.template("review.js", PackageResources.review_js)
    let csp =
      "default-src 'none'; script-src 'sha256-\(Self.digest(script))'; style-src 'sha256-\(Self.digest(style))'; "
      + "img-src data:; base-uri 'none'; form-action 'none'"
    var out: [UInt8] = []
    out.reserveCapacity(data.count + script.count + style.count + 4096)
    var template = Self.template("review.html", PackageResources.review_html)[...]
    // The template's placeholders, each once: {{TITLE}} {{CSP}} {{STYLE}} {{DATA}} {{SCRIPT}}.
    while let open = Self.find(Array("{{".utf8), in: template) {
      out.append(contentsOf: template[template.startIndex..<open])
      guard let close = Self.find(Array("}}".utf8), in: template[(open + 2)...]) else {
        template = template[open...]
        break
      }
      let name = String(decoding: template[(open + 2)..<close], as: UTF8.self)
      switch name {
      case "TITLE": Self.appendHTMLText(title, to: &out)
      case "CSP": Self.appendHTMLText(csp, to: &out)
      case "STYLE": out.append(contentsOf: style)
      case "SCRIPT": out.append(contentsOf: script)
      case "DATA": out.append(contentsOf: data)
      default: out.append(contentsOf: template[open..<(close + 2)])
      }
      template = template[(close + 2)...]
    }
    out.append(contentsOf: template)
    return (out, counts)
  }

  /// A file of the template: the one compiled in, or in a debug build
  /// the one in `$OHANA_REVIEW_TEMPLATE_DIR` (to work on the page without
  /// building again).
  static func template(_ name: String, _ compiled: [UInt8]) -> [UInt8] {
    #if DEBUG
      if let dir = getenv("OHANA_REVIEW_TEMPLATE_DIR").map({ String(cString: $0) }),
        let bytes = try? readWholeFile(dir + "/" + name, option: "OHANA_REVIEW_TEMPLATE_DIR")
      {
        return bytes
      }
    #endif
    return compiled
  }

  static func digest(_ bytes: [UInt8]) -> String {
    var b64: [UInt8] = []
    Base64.encode(SHA256.hash(bytes), into: &b64)
    return String(decoding: b64, as: UTF8.self)
  }

  private static func find(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
    guard needle.count <= hay.count else { return nil }
    var i = hay.startIndex
    while i + needle.count <= hay.endIndex {
      if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  static func appendHTMLText(_ text: String, to out: inout [UInt8]) {
    for b in text.utf8 {
      switch b {
      case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
      default: out.append(b)
      }
    }
  }

  // MARK: The data

  /// The clusters of two or more, each a list of rows in row order.
  func groups() -> [[Int]] {
    var byCluster: [Int32: Int] = [:]
    var groups: [[Int]] = []
    for r in 0..<table.rowCount {
      let c = clusterOf[r]
      if c < 0 { continue }
      if let g = byCluster[c] {
        groups[g].append(r)
      } else {
        byCluster[c] = groups.count
        groups.append([r])
      }
    }
    return groups.filter { $0.count >= 2 }
  }

  /// The JSON document (version 1) with every `<` written as `\u003c`, so
  /// that no value can end the script element it sits in.
  func json() -> ([UInt8], Counts) {
    let groups = groups()
    var counts = Counts()
    var memberOf = [Int32](repeating: -1, count: table.rowCount)
    var clusterOfMember: [Int32] = []
    var rows: [Int] = []
    for (g, members) in groups.enumerated() {
      for r in members {
        memberOf[r] = Int32(rows.count)
        rows.append(r)
        clusterOfMember.append(Int32(g))
      }
    }
    counts.clusters = groups.count
    counts.members = rows.count
    // The pairs of each cluster, in the order given.
    var pairsOf = [[Int]](repeating: [], count: groups.count)
    for (i, p) in pairs.enumerated() {
      let ma = memberOf[p.a], mb = memberOf[p.b]
      guard ma >= 0, mb >= 0, clusterOfMember[Int(ma)] == clusterOfMember[Int(mb)] else {
        counts.pairsOutside += 1
        continue
      }
      pairsOf[Int(clusterOfMember[Int(ma)])].append(i)
    }
    counts.pairs = pairsOf.reduce(0) { $0 + $1.count }
    let changed = changedClusters(groups)
    counts.changed = changed.reduce(0) { $0 + ($1 ? 1 : 0) }

    let o = JSONOut()
    o.raw("{\"format\":\"ohana-review\",\"version\":1,\"title\":")
    o.string(title)
    o.raw(",\"inputs\":")
    o.array(inputs) { o.string($0) }
    o.raw(
      ",\"counts\":{\"contacts\":\(contactCount ?? table.rowCount),\"clusters\":\(counts.clusters),\"members\":\(counts.members),\"pairs\":\(counts.pairs)"
        + (guardRefusals.map { ",\"refusedByCrossPairs\":\($0.crossPairs),\"refusedForSize\":\($0.size)" } ?? "") + "}"
    )
    o.raw(",\"comparisons\":")
    o.array(comparisons) { o.string($0) }
    o.raw(",\"prior\":")
    if let prior { o.number(prior) } else { o.raw("null") }
    o.raw(",\"sinceKnown\":\(previous != nil || self.changed != nil)")

    // Members, column by column.
    o.raw(",\"members\":{\"uid\":")
    o.array(rows) { o.text(DedupeResult.uid(table, $0)) }
    o.raw(",\"name\":")
    o.array(rows) { o.string(name(of: $0)) }
    for (key, attribute) in [("given", ContactAttribute.givenName), ("family", .familyName), ("org", .organization)] {
      o.raw(",\"\(key)\":")
      o.array(rows) { o.string(table.string(attribute, at: $0) ?? "") }
    }
    for (key, kind) in [("email", FieldKind.email), ("phone", .phone)] {
      o.raw(",\"\(key)\":")
      o.array(rows) { r in
        o.array(Array(table.fieldRange(of: r)).filter { table.fields.kind[$0] == kind }) { f in
          o.text(table.pool.bytes(of: table.fields.value[f]))
        }
      }
    }
    o.raw(",\"address\":")
    o.array(rows) { r in o.array(Array(table.addressRange(of: r))) { o.string(address($0)) } }
    o.raw(",\"birthday\":")
    o.array(rows) { o.string(Self.isoDate(table.string(.birthday, at: $0) ?? "")) }
    o.raw(",\"source\":")
    o.array(rows) { o.string(table.string(.sourceProvider, at: $0) ?? (inputs.count == 1 ? inputs[0] : "")) }

    // Clusters.
    var start = 0, pairStart = 0
    var starts: [Int] = [], pairStarts: [Int] = []
    for (g, members) in groups.enumerated() {
      starts.append(start)
      pairStarts.append(pairStart)
      start += members.count
      pairStart += pairsOf[g].count
    }
    o.raw("},\"clusters\":{\"id\":")
    o.array(groups) { o.string(clusterName(clusterOf[$0[0]])) }
    o.raw(",\"start\":")
    o.array(starts) { o.raw(String($0)) }
    o.raw(",\"size\":")
    o.array(groups) { o.raw(String($0.count)) }
    o.raw(",\"weakest\":")
    o.array(pairsOf) { list in
      if let w = list.map({ pairs[$0].weight }).min() { o.number(w) } else { o.raw("null") }
    }
    o.raw(",\"changed\":")
    o.array(changed) { o.raw($0 ? "1" : "0") }
    o.raw(",\"pairStart\":")
    o.array(pairStarts) { o.raw(String($0)) }
    o.raw(",\"pairCount\":")
    o.array(pairsOf) { o.raw(String($0.count)) }

    // Pairs, cluster by cluster. Level names and shared keys are numbers
    // into small tables, and the parts are the level's weight, given once
    // per level when every pair agrees on it (as the model's do): fewer
    // bytes than strings and numbers a pair.
    let order = pairsOf.flatMap { $0 }
    var levelNames = [[String]](repeating: [], count: comparisons.count)
    var levelIndex = [[String: Int]](repeating: [:], count: comparisons.count)
    var levelWeights = [[Double?]](repeating: [], count: comparisons.count)
    var consistent = true
    var keyNames: [String] = []
    var keyIndex: [String: Int] = [:]
    var levelNumbers = [[Int]]()
    levelNumbers.reserveCapacity(order.count)
    var keyMasks = [UInt64]()
    keyMasks.reserveCapacity(order.count)
    for i in order {
      let p = pairs[i]
      var numbers = [Int](repeating: 0, count: comparisons.count)
      for c in comparisons.indices {
        let name = c < p.levels.count ? p.levels[c] : "null"
        let l: Int
        if let known = levelIndex[c][name] {
          l = known
        } else {
          l = levelNames[c].count
          levelIndex[c][name] = l
          levelNames[c].append(name)
          levelWeights[c].append(nil)
        }
        numbers[c] = l
        if let parts = p.parts, c < parts.count {
          if let w = levelWeights[c][l] {
            if abs(w - parts[c]) > 0.005 { consistent = false }
          } else {
            levelWeights[c][l] = parts[c]
          }
        } else {
          consistent = false
        }
      }
      levelNumbers.append(numbers)
      var mask: UInt64 = 0
      for k in p.keys {
        let bit: Int
        if let known = keyIndex[k] {
          bit = known
        } else {
          bit = keyNames.count
          keyIndex[k] = bit
          keyNames.append(k)
        }
        if bit < 53 { mask |= 1 << UInt64(bit) }  // exact in a JSON number
      }
      keyMasks.append(mask)
    }
    o.raw("},\"levelNames\":")
    o.array(levelNames) { o.array($0) { o.string($0) } }
    o.raw(",\"levelWeights\":")
    if consistent && !order.isEmpty {
      o.array(levelWeights) { o.array($0) { w in if let w { o.number(w) } else { o.raw("null") } } }
    } else {
      o.raw("null")
    }
    o.raw(",\"keyNames\":")
    o.array(keyNames) { o.string($0) }
    o.raw(",\"pairs\":{\"a\":")
    o.array(order) { o.raw(String(memberOf[pairs[$0].a])) }
    o.raw(",\"b\":")
    o.array(order) { o.raw(String(memberOf[pairs[$0].b])) }
    o.raw(",\"weight\":")
    o.array(order) { o.number(pairs[$0].weight) }
    o.raw(",\"levels\":")
    o.array(levelNumbers) { o.array($0) { o.raw(String($0)) } }
    o.raw(",\"parts\":")
    if consistent {
      o.raw("null")
    } else {
      o.array(order) { i in
        if let parts = pairs[i].parts { o.array(parts) { o.number($0) } } else { o.raw("null") }
      }
    }
    o.raw(",\"adjust\":")
    o.array(order) { i in
      if let a = pairs[i].adjust { abs(a) < 0.005 ? o.raw("0") : o.number(a) } else { o.raw("null") }
    }
    o.raw(",\"keys\":")
    o.array(keyMasks) { o.raw(String($0)) }
    o.raw("}}")
    return (o.bytes, counts)
  }

  /// Whether each group's members differ from the previous run's cluster
  /// of its first member (all false without `--since`).
  func changedClusters(_ groups: [[Int]]) -> [Bool] {
    if let changed { return groups.map { changed(clusterOf[$0[0]]) } }
    guard let previous else { return Array(repeating: false, count: groups.count) }
    var size: [Int32: Int] = [:]
    for c in previous where c >= 0 { size[c, default: 0] += 1 }
    return groups.map { members in
      let first = previous[members[0]]
      if first < 0 { return true }
      return size[first] != members.count || members.contains { previous[$0] != first }
    }
  }

  /// A birthday as ISO 8601 shows it: `19520302` as `1952-03-02`, a
  /// date without a year (`--0302`) as `--03-02`; other text as it is.
  static func isoDate(_ text: String) -> String {
    let b = Array(text.utf8)
    func digits(_ r: Range<Int>) -> Bool { b[r].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    if b.count == 8 && digits(0..<8) {
      return String(decoding: b[0..<4], as: UTF8.self) + "-" + String(decoding: b[4..<6], as: UTF8.self) + "-"
        + String(decoding: b[6..<8], as: UTF8.self)
    }
    if b.count == 6 && b[0] == 0x2D && b[1] == 0x2D && digits(2..<6) {
      return "--" + String(decoding: b[2..<4], as: UTF8.self) + "-" + String(decoding: b[4..<6], as: UTF8.self)
    }
    return text
  }

  func name(of row: Int) -> String {
    if let full = table.string(.fullName, at: row), !full.isEmpty { return full }
    let parts = [ContactAttribute.prefix, .givenName, .middleName, .familyName, .suffix].compactMap {
      table.string($0, at: row)
    }.filter { !$0.isEmpty }
    if !parts.isEmpty { return parts.joined(separator: " ") }
    return table.string(.organization, at: row) ?? ""
  }

  func address(_ a: Int) -> String {
    let parts = [AddressAttribute.poBox, .extended, .street, .locality, .region, .postalCode, .country].map {
      table.pool.string(table.addresses[$0][a]) ?? ""
    }.filter { !$0.isEmpty }
    return parts.joined(separator: ", ")
  }
}

/// A JSON writer for the page's data: strings escaped so that the text is
/// safe inside an HTML script element (`<` `>` `&` as `\u00XX`, and the
/// line and paragraph separators that old parsers took for line ends).
final class JSONOut {
  private(set) var bytes: [UInt8] = []

  func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

  func number(_ v: Double) {
    guard v.isFinite else { return raw("null") }
    raw(Deduplicator.formatWeight(v))
  }

  func array<S: Sequence>(_ items: S, _ element: (S.Element) -> Void) {
    bytes.append(UInt8(ascii: "["))
    var first = true
    for item in items {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      element(item)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  func string(_ s: String) { text(Array(s.utf8)) }

  /// A string from UTF-8 bytes (invalid sequences become U+FFFD).
  func text(_ utf8: [UInt8]) {
    let text = Array(String(decoding: utf8, as: UTF8.self).utf8)
    bytes.append(UInt8(ascii: "\""))
    var i = 0
    while i < text.count {
      let b = text[i]
      switch b {
      case 0x22: raw("\\\"")
      case 0x5C: raw("\\\\")
      case 0x0A: raw("\\n")
      case 0x0D: raw("\\r")
      case 0x09: raw("\\t")
      case 0..<0x20, 0x3C, 0x3E, 0x26: escape(UInt32(b))
      case 0xE2 where i + 2 < text.count && text[i + 1] == 0x80 && (text[i + 2] == 0xA8 || text[i + 2] == 0xA9):
        escape(text[i + 2] == 0xA8 ? 0x2028 : 0x2029)
        i += 2
      default: bytes.append(b)
      }
      i += 1
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private func escape(_ v: UInt32) {
    let hex = Array("0123456789abcdef".utf8)
    raw("\\u")
    for shift in [12, 8, 4, 0] { bytes.append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
  }
}
