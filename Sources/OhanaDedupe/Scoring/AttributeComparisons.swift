#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import OhanaCore

/// Comparisons of the columns the model has no comparison of its own for:
/// a table's gender, birthplace, occupation or customer number, anything a
/// table brings beside names, dates, phones, e-mails and addresses.
///
/// **Which columns.** The job title when the caller asks (a table's
/// occupation column maps there; ``DedupeConfiguration/compareJobTitle``),
/// the `GENDER` property and every column of a table kept as
/// `X-CSV;HEADER=<name>` (the columns no role took: see the README's
/// "Tables"), each compared when
/// - at least ``minimumPresence`` of the contacts have a value, and
/// - values repeat: at most ``maximumDistinctShare`` of the values present
///   are distinct (a record id, a sign-up timestamp or a free-text note,
///   different on every record, says nothing of who it is).
///
/// Values are compared exactly after folding: letters and digits only,
/// ASCII lower-cased (`Teacher`, `teacher.` and `TEACHER` agree). `null`,
/// `n/a`, `nan`, `none` and `unknown` are missing.
///
/// **Weights** (only with fitted weights, as term frequencies: the
/// built-in weights were set without them):
/// - u, the chance that two random contacts agree, is Σ share² over the
///   values (as Splink's u from random pairs), and per value its share
///   (term frequency: two records agreeing on a rare birthplace say more
///   than two agreeing on a common one);
/// - m, the chance that a true duplicate agrees, is measured on the pairs
///   the other comparisons already make sure of (weight at least the
///   threshold plus ``confidentMargin``), where both sides have a value:
///   `(agree + 1) / (both + 2)`;
/// - an agreement on value v weighs `log2(m / share(v))`, at least 0 and
///   at most 2 more than `log2(m / u)`; a disagreement
///   `log2((1 - m) / (1 - u))`, at most 0 and at least -6. A column whose
///   m is not above u, or with fewer than ``minimumConfidentPairs`` such
///   pairs, weighs nothing. So agreement never weighs against a match and
///   disagreement never for one (monotone by construction).
package struct AttributeComparisons: Sendable {
  /// Share of contacts that must have a value.
  static let minimumPresence = 0.05
  /// Largest share of distinct values among the values present.
  static let maximumDistinctShare = 0.5
  /// How far above the threshold a pair's other comparisons must put it
  /// for it to count when m is measured.
  static let confidentMargin: Float = 3
  /// Pairs with both values present needed to measure m.
  static let minimumConfidentPairs = 20

  package struct Attribute: Sendable {
    /// `title`, `GENDER`, or the table's header (`birthplace`).
    package var name: String
    /// Per contact, its value's code (0: none).
    var codes: [UInt32]
    /// Per code, how many contacts have it.
    var counts: [Int32]
    var present: Int
    package var m = 0.0
    package var u = 0.0
    /// Per code, the weight of an agreement on it.
    var same: [Float] = []
    package var different: Float = 0
    /// The agreement weight of a value of typical frequency.
    package var typicalSame: Float = 0
    package var confidentPairs = 0
  }

  package private(set) var attributes: [Attribute] = []

  package var isEmpty: Bool { attributes.isEmpty }

  package init() {}

  /// The comparable columns of `table` (see the type's documentation).
  package init(table: ContactTable, jobTitle: Bool = true) {
    let n = table.rowCount
    guard n >= 2 else { return }
    let pool = table.pool
    var candidates: [(name: String, codes: [UInt32], index: [UInt64: UInt32], counts: [Int32])] = []
    func add(_ name: String) -> Int {
      if let i = candidates.firstIndex(where: { $0.name == name }) { return i }
      candidates.append((name, [UInt32](repeating: 0, count: n), [:], [0]))
      return candidates.count - 1
    }
    func code(_ c: Int, _ row: Int, _ id: StringID) {
      guard id.isPresent, candidates[c].codes[row] == 0 else { return }
      let key = pool.withBytes(of: id) { Self.foldedKey($0) }
      guard key != 0 else { return }
      if let k = candidates[c].index[key] {
        candidates[c].codes[row] = k
        candidates[c].counts[Int(k)] += 1
      } else {
        let k = UInt32(candidates[c].counts.count)
        candidates[c].index[key] = k
        candidates[c].counts.append(1)
        candidates[c].codes[row] = k
      }
    }
    let titles = table[.jobTitle]
    if jobTitle && (0..<n).contains(where: { titles[$0].isPresent }) {
      let c = add("title")
      for r in 0..<n { code(c, r, titles[r]) }
    }
    let extras = table.extras
    // Extras by name (and, for X-CSV, by their HEADER parameter).
    var slot: [UInt64: Int] = [:]
    for r in 0..<n {
      for e in table.extraRange(of: r) {
        let nameID = extras.name[e]
        let kind = slot[UInt64(nameID.rawValue) << 32 | UInt64(extras.parameters[e].rawValue)]
        let c: Int?
        if let kind {
          c = kind >= 0 ? kind : nil
        } else {
          let name = (pool.string(nameID) ?? "").uppercased()
          var found: Int? = nil
          if name == "GENDER" {
            found = add("GENDER")
          } else if name == "X-CSV" {
            let params = pool.string(extras.parameters[e]) ?? ""
            if let header = Self.header(params) { found = add(header) }
          }
          slot[UInt64(nameID.rawValue) << 32 | UInt64(extras.parameters[e].rawValue)] = found ?? -1
          c = found
        }
        if let c { code(c, r, extras.value[e]) }
      }
    }
    let names = NameForms(table: table)
    for c in candidates {
      let present = c.counts.reduce(0) { $0 + Int($1) }
      let distinct = c.counts.count - 1
      guard Double(present) >= Self.minimumPresence * Double(n), distinct >= 2,
        Double(distinct) <= Self.maximumDistinctShare * Double(present)
      else { continue }
      if let share = names.restatedShare(codes: c.codes, index: c.index), share >= Self.restatedNameShare {
        restated.append(Restated(name: c.name, share: share))
        continue
      }
      attributes.append(Attribute(name: c.name, codes: c.codes, counts: c.counts, present: present))
    }
  }

  /// A column left out because it says again what the name columns say.
  package struct Restated: Sendable, Equatable {
    /// The column's name (its header).
    package var name: String
    /// The share of the rows looked at whose value is the contact's name.
    package var share: Double
  }

  /// The columns not compared because they restate the name (see
  /// ``restatedNameShare``).
  package private(set) var restated: [Restated] = []

  /// Least share of rows (of those with a value and a name) on which a
  /// column's folded value is the contact's own name, given and family
  /// in either order, one of them alone, or the formatted name, for the
  /// column to be taken as a restatement of the name and not compared.
  ///
  /// A table that carries a name twice (Splink's historical figures:
  /// `first_and_surname` beside `first_name` and `surname`) would
  /// otherwise count one agreement three times: the column weighed 11.6
  /// bits on top of the two name comparisons, and namesakes passed the
  /// threshold (historical 50k: precision 0.981 → 0.923, F1 0.873 →
  /// 0.829; Benchmarks/HISTORY.md, session 38). Typos made in one copy
  /// only keep most rows equal; a column of its own (a birthplace, an
  /// occupation) equals a name on almost no row.
  static let restatedNameShare = 0.5

  /// The forms of each row's name a restating column would hold, folded
  /// and hashed as ``foldedKey(_:)`` folds a column's values.
  struct NameForms {
    let table: ContactTable
    let given: StringColumn
    let family: StringColumn
    let full: StringColumn

    init(table: ContactTable) {
      self.table = table
      given = table[.givenName]
      family = table[.familyName]
      full = table[.fullName]
    }

    /// Rows looked at per column, spread over the table.
    static let sample = 5_000

    /// The share of sampled rows, of those with a value in `codes` and a
    /// name, whose value is one of the row's name forms; nil when no row
    /// has both.
    func restatedShare(codes: [UInt32], index: [UInt64: UInt32]) -> Double? {
      let n = codes.count
      guard n > 0 else { return nil }
      var keyOf = [UInt64](repeating: 0, count: index.count + 1)
      for (key, code) in index where Int(code) < keyOf.count { keyOf[Int(code)] = key }
      let step = max(1, n / Self.sample)
      var looked = 0, equal = 0
      var r = 0
      while r < n {
        defer { r += step }
        let code = codes[r]
        guard code != 0, Int(code) < keyOf.count else { continue }
        let g = given[r], f = family[r], fn = full[r]
        guard g.isPresent || f.isPresent || fn.isPresent else { continue }
        looked += 1
        let value = keyOf[Int(code)]
        if forms(g, f, fn).contains(value) { equal += 1 }
      }
      return looked == 0 ? nil : Double(equal) / Double(looked)
    }

    /// The hashes of given + family, family + given, each alone and the
    /// formatted name, folded.
    private func forms(_ g: StringID, _ f: StringID, _ fn: StringID) -> [UInt64] {
      let pool = table.pool
      let gb = g.isPresent ? pool.bytes(of: g) : []
      let fb = f.isPresent ? pool.bytes(of: f) : []
      var out: [UInt64] = []
      for bytes in [gb + fb, fb + gb, gb, fb] where !bytes.isEmpty {
        out.append(bytes.withUnsafeBytes { AttributeComparisons.foldedKey($0) })
      }
      if fn.isPresent { out.append(pool.withBytes(of: fn) { AttributeComparisons.foldedKey($0) }) }
      return out
    }
  }

  /// The HEADER parameter's value in `params` (`HEADER=birthplace`).
  static func header(_ params: String) -> String? {
    for part in params.split(separator: ";") {
      let kv = part.split(separator: "=", maxSplits: 1)
      if kv.count == 2 && kv[0].uppercased() == "HEADER" {
        var v = String(kv[1])
        if v.hasPrefix("\"") && v.hasSuffix("\"") && v.count >= 2 { v = String(v.dropFirst().dropLast()) }
        return v.isEmpty ? nil : v
      }
    }
    return nil
  }

  /// The folded value's hash: letters and digits, ASCII lower-cased (other
  /// bytes as they are); 0 for none or a missing word.
  static func foldedKey(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    // Folded into a stack buffer: one call a cell, no allocation.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { buf in
      var n = 0
      for var b in bytes {
        if b >= 0x41 && b <= 0x5A { b |= 0x20 }
        if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b >= 0x80 {
          buf[n] = b
          n += 1
        }
      }
      if n == 0 { return 0 }
      let folded = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buf[0..<n]))
      if n <= 7 && missingWords.contains(where: { $0.elementsEqual(folded) }) { return 0 }
      return Hash64.hash(folded, seed: 0xA77) | 1
    }
  }

  static let missingWords: [[UInt8]] = ["null", "na", "nan", "none", "unknown", "nil"].map { Array($0.utf8) }

  /// Least m (how often one person's records agree on the column) for a
  /// column to weigh: a value each record has of its own (a sign-up date,
  /// a row's timestamp) agrees on 0.1% of confident pairs, yet above its
  /// u of 0.03% it would weigh 2 bits for agreeing. Measured on the
  /// independent generator's web tables (Benchmarks/HISTORY.md,
  /// 2026-12-06, session 31): with such a column weighing, F1 fell from
  /// 0.96 to 0.94.
  static let minimumM = 0.3

  /// Measures m on `confident` (pairs the other comparisons make sure of,
  /// `a << 32 | b`) and sets the weights.
  package mutating func estimate(confident: [UInt64]) {
    for i in attributes.indices {
      var a = attributes[i]
      var both = 0, agree = 0
      for p in confident {
        let x = a.codes[Int(p >> 32)], y = a.codes[Int(p & 0xFFFF_FFFF)]
        if x == 0 || y == 0 { continue }
        both += 1
        if x == y { agree += 1 }
      }
      let total = Double(a.present)
      let u = a.counts.reduce(0.0) { $0 + Double($1) * Double($1) } / (total * total)
      let m = (Double(agree) + 1) / (Double(both) + 2)
      a.m = m
      a.u = u
      a.confidentPairs = both
      if both < Self.minimumConfidentPairs || m < Self.minimumM || m <= u || u >= 1 {
        a.same = [Float](repeating: 0, count: a.counts.count)
        a.different = 0
        a.typicalSame = 0
      } else {
        let typical = log2(m / u)
        a.typicalSame = Float(typical)
        a.same = a.counts.map { count in
          count == 0 ? 0 : Float(max(0, min(typical + 2, log2(m / (Double(count) / total)))))
        }
        a.different = Float(max(-6, min(0, log2((1 - m) / (1 - u)))))
      }
      attributes[i] = a
    }
  }

  /// Whether any column weighs something (after ``estimate(confident:)``).
  package var weighs: Bool { attributes.contains { $0.typicalSame != 0 || $0.different != 0 } }

  /// The weight the columns add to the pair `a`, `b`.
  @inline(__always)
  package func adjustment(_ a: Int, _ b: Int, agreementsOf which: Agreements = .all) -> Float {
    var w: Float = 0
    for t in attributes where !t.same.isEmpty {
      let x = t.codes[a], y = t.codes[b]
      if x == 0 || y == 0 { continue }
      if x == y {
        if which == .notBlocked && Blocking.blocksOn(t) { continue }
        w += t.same[Int(x)]
      } else {
        w += t.different
      }
    }
    return w
  }

  package enum Agreements: Sendable { case all, notBlocked }

  /// What each column said of the pair `a`, `b`, in ``attributes``'
  /// order: its level (`same`, `different`, or `null` where a side has no
  /// value) and the weight it added, as ``adjustment(_:_:agreementsOf:)``
  /// adds them (their sum is that adjustment).
  package func parts(_ a: Int, _ b: Int, agreementsOf which: Agreements = .all) -> [(level: String, weight: Float)] {
    attributes.map { t in
      let x = t.codes[a], y = t.codes[b]
      if t.same.isEmpty || x == 0 || y == 0 { return ("null", 0) }
      if x != y { return ("different", t.different) }
      if which == .notBlocked && Blocking.blocksOn(t) { return ("same", 0) }
      return ("same", t.same[Int(x)])
    }
  }

  /// The largest weight the columns can add to a pair.
  package var maximum: Float {
    attributes.reduce(0) { $0 + ($1.same.max() ?? 0) }
  }
}
