import OhanaCore

extension Deduplicator {
  /// The derived column with every source uid of a merged contact, joined by `,`.
  public static let sourceUIDsColumn = "dedupe.sourceUIDs"
  /// The derived column saying why contacts were merged (absent for a contact alone).
  public static let reasonColumn = "dedupe.reason"
  /// The derived column with the number of contacts merged into one.
  public static let mergedCountColumn = "dedupe.mergedCount"

  /// One contact per cluster of `result`, in the order of each cluster's first row.
  ///
  /// - the name comes from the member with the most complete name (most name
  ///   parts present, then the longest full name, then the first row); other
  ///   attributes from the most complete member, else the first member that
  ///   has them;
  /// - fields are the union of the members' fields, a value whose normalized
  ///   form (phone key, e-mail address) was already taken being dropped: the
  ///   first raw form is kept;
  /// - addresses likewise (postcode + street, else all columns), and extra
  ///   properties by name and value;
  /// - ``sourceUIDsColumn`` lists every member's uid, ``reasonColumn`` the
  ///   evidence (shared keys, agreeing comparisons, the weakest link's weight).
  ///
  /// The string pool is shared with the input; derived columns of the input
  /// are not carried over.
  ///
  /// - Complexity: O(rows + fields + addresses + pairs).
  public func merge(_ table: ContactTable, _ result: DedupeResult) -> ContactTable {
    let keys = ContactKeys(table: table, configuration: configuration)
    return merge(table, result, keys: keys)
  }

  func merge(_ table: ContactTable, _ result: DedupeResult, keys: ContactKeys) -> ContactTable {
    let n = table.rowCount
    // Members of each cluster, CSR by cluster representative.
    var counts = [Int32](repeating: 0, count: n + 1)
    for c in result.clusterOf { counts[Int(c) + 1] += 1 }
    for i in 0..<n { counts[i + 1] += counts[i] }
    var members = [Int32](repeating: 0, count: n)
    var fill = counts
    for r in 0..<n {
      let c = Int(result.clusterOf[r])
      members[Int(fill[c])] = Int32(r)
      fill[c] += 1
    }
    // Evidence per cluster.
    var reasonKeys = [UInt8](repeating: 0, count: n)
    var agree = [UInt8](repeating: 0, count: n)
    var minWeight = [Float](repeating: .infinity, count: n)
    for p in result.pairs {
      let c = Int(result.clusterOf[p.first])
      reasonKeys[c] |= p.sharedKeys.rawValue
      var a: UInt8 = 0
      for comp in Comparison.allCases where p.vector[comp] == 1 { a |= 1 << UInt8(comp.rawValue) }
      agree[c] |= a
      minWeight[c] = min(minWeight[c], Float(p.weight))
    }

    var b = ContactTableBuilder(pool: table.pool)
    b.reserve(contacts: result.mergedCount, fields: table.fields.count, addresses: table.addresses.count)
    var sourceUIDs: [StringID] = []
    var reasons: [StringID] = []
    var mergedCounts: [Int64] = []
    var seen = SeenKeys()
    var uidBytes: [UInt8] = []
    let attrs = ContactAttribute.allCases
    let nameAttrs: [ContactAttribute] = [.fullName, .givenName, .familyName, .middleName, .prefix, .suffix]
    let columns = table.attributes
    var isNameAttr = [Bool](repeating: false, count: attrs.count)
    for a in nameAttrs { isNameAttr[a.rawValue] = true }
    let uidColumn = table[.uid]
    let fieldKinds = table.fields.kind, fieldLabels = table.fields.label, fieldValues = table.fields.value
    let fieldGroups = table.fields.group, fieldParameters = table.fields.parameters
    let addressColumns = table.addresses.columns
    var order: [Int32] = []
    var addressValues = [StringID](repeating: .absent, count: addressColumns.count)
    for c in 0..<n where Int(result.clusterOf[c]) == c {
      let group = members[Int(counts[c])..<Int(counts[c + 1])]
      // The most complete member, and the most complete name.
      var best = c, nameBest = c
      if group.count > 1 {
        var bestScore = -1, nameScore = (-1, -1)
        for m32 in group {
          let m = Int(m32)
          var s = table.fieldRange(of: m).count + table.addressRange(of: m).count
          var parts = 0
          for a in 0..<columns.count where columns[a][m].isPresent {
            s += 1
            if isNameAttr[a] { parts += 1 }
          }
          if s > bestScore { best = m; bestScore = s }
          let ns = (parts, table.pool.length(of: columns[ContactAttribute.fullName.rawValue][m]))
          if ns > nameScore { nameBest = m; nameScore = ns }
        }
      }
      b.beginContact(sourceLine: Int(table.sourceLine[best]))
      for a in 0..<columns.count {
        let isName = isNameAttr[a]
        var v = columns[a][isName ? nameBest : best]
        if v.isAbsent && !isName && group.count > 1 {
          for m in group where columns[a][Int(m)].isPresent { v = columns[a][Int(m)]; break }
        }
        if v.isPresent, let attribute = ContactAttribute(rawValue: a) { b.set(attribute, v) }
      }
      // Photo: the most complete member's, else the first.
      var photoOwner = -1
      if !table.photo[best].isNone { photoOwner = best } else {
        for m in group where !table.photo[Int(m)].isNone { photoOwner = Int(m); break }
      }
      if photoOwner >= 0 {
        let id = table.photo[photoOwner]
        table.blobs.withData(id) { b.setPhoto($0, mediaType: table.blobs.mediaType(id)) }
      }
      // Fields, the most complete member first, then the others in row order.
      order.removeAll(keepingCapacity: true)
      order.append(Int32(best))
      for m in group where Int(m) != best { order.append(m) }
      seen.removeAll()
      for m in order {
        for f in table.fieldRange(of: Int(m)) {
          let kind = fieldKinds[f]
          let k = keys.fieldKeys[f]
          let key = k != 0
            ? Hash64.combine(k, UInt64(kind.rawValue))
            : Hash64.combine(UInt64(fieldValues[f].rawValue) | 1 << 40, UInt64(kind.rawValue))
          if !seen.insert(key) { continue }
          b.appendField(
            kind: kind, label: fieldLabels[f], value: fieldValues[f],
            group: fieldGroups[f], parameters: fieldParameters[f])
        }
      }
      seen.removeAll()
      for m in order {
        for a in table.addressRange(of: Int(m)) {
          let key = keys.addressKeys[a]
          if !seen.insert(key) { continue }
          for i in 0..<addressColumns.count { addressValues[i] = addressColumns[i][a] }
          b.appendAddress(addressValues)
        }
      }
      seen.removeAll()
      for m in order {
        for x in table.extraRange(of: Int(m)) {
          let key = Hash64.combine(UInt64(table.extras.name[x].rawValue), UInt64(table.extras.value[x].rawValue))
          if !seen.insert(key) { continue }
          b.appendExtra(
            name: table.extras.name[x], group: table.extras.group[x],
            parameters: table.extras.parameters[x], value: table.extras.value[x])
        }
      }
      b.endContact()
      mergedCounts.append(Int64(group.count))
      if group.count == 1 {
        // Provenance of a contact alone: its own uid, already in the pool.
        sourceUIDs.append(uidColumn[c])
        reasons.append(.absent)
        continue
      }
      uidBytes.removeAll(keepingCapacity: true)
      for m in group {
        let u = uidColumn[Int(m)]
        if u.isAbsent { continue }
        if !uidBytes.isEmpty { uidBytes.append(0x2C) }
        table.pool.withBytes(of: u) { uidBytes.append(contentsOf: $0) }
      }
      sourceUIDs.append(uidBytes.withUnsafeBytes { b.pool.intern($0) })
      reasons.append(b.pool.intern(Self.reasonText(keys: reasonKeys[c], agree: agree[c], weight: minWeight[c], links: group.count - 1)))
    }
    var merged = b.build()
    merged.setColumn(Self.sourceUIDsColumn, .string(sourceUIDs))
    merged.setColumn(Self.reasonColumn, .string(reasons))
    merged.setColumn(
      Self.mergedCountColumn, .int(mergedCounts, valid: Bitmap(count: mergedCounts.count, allSet: true)))
    return merged
  }

  /// `keys=phone+email; agree=given,family,phone; weight=7.42` (weight of
  /// the weakest accepted link in the cluster).
  static func reasonText(keys: UInt8, agree: UInt8, weight: Float, links: Int) -> String {
    let k = BlockingKey.Set(rawValue: keys).description
    let a = Comparison.allCases.filter { agree & (1 << UInt8($0.rawValue)) != 0 }.map(\.description)
      .joined(separator: ",")
    let w = weight.isFinite ? formatWeight(Double(weight)) : "?"
    return "keys=\(k.isEmpty ? "none" : k); agree=\(a.isEmpty ? "none" : a); weight=\(w)"
  }

  /// A weight with two decimals (`7.42`, `-3.10`), for reasons and explanations.
  public static func formatWeight(_ w: Double) -> String {
    let scaled = (w * 100).rounded()
    let sign = scaled < 0 ? "-" : ""
    let v = Int(abs(scaled))
    let frac = v % 100
    return "\(sign)\(v / 100).\(frac < 10 ? "0" : "")\(frac)"
  }
}

/// The normalized keys already taken for one merged contact: a short array
/// scanned linearly (clusters are small), turning into a hash set past 32
/// keys so that a contact with thousands of fields stays linear.
struct SeenKeys {
  private var small: [UInt64] = []
  private var large: Set<UInt64> = []
  private var usesSet = false

  /// Inserts `key`; false when it was already there.
  mutating func insert(_ key: UInt64) -> Bool {
    if usesSet { return large.insert(key).inserted }
    if small.contains(key) { return false }
    small.append(key)
    if small.count > 32 {
      large = Set(small)
      usesSet = true
    }
    return true
  }

  mutating func removeAll() {
    small.removeAll(keepingCapacity: true)
    if usesSet {
      large.removeAll()
      usesSet = false
    }
  }
}
