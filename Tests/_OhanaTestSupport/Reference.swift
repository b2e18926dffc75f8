import OhanaCore

// A plain array-of-objects implementation of every built-in processor, the
// way Ohana (iOS) did it: one contact object at a time, Swift strings,
// dictionaries for custom properties. It is the oracle of the differential
// tests and the baseline of the benchmarks; it is deliberately simple.

public final class RefField {
  public var kind: FieldKind
  public var label: String?
  public var value: String
  public var group: String?
  public var parameters: String?
  public var customProperties: [String: PropertyValue] = [:]
  public var tags: Set<String> = []
  public init(_ f: ContactField) {
    kind = f.kind; label = f.label; value = f.value; group = f.group; parameters = f.parameters
    customProperties = f.properties; tags = f.tags
  }
  public func copy() -> RefField { RefField(snapshot()) }
  public func snapshot() -> ContactField {
    ContactField(kind: kind, label: label, value: value, group: group, parameters: parameters, properties: customProperties, tags: tags)
  }
}

public final class RefContact {
  // Stored properties, as Ohana's OHContact had them.
  public var uid, fullName, givenName, familyName, middleName, prefix, suffix, nickname: String?
  public var organization, department, jobTitle, birthday, note, sourceProvider: String?
  public var photo: Photo?
  public var sourceLine: Int
  public var fields: [RefField]
  public var addresses: [PostalAddress]
  public var extras: [ExtraProperty]
  public var customProperties: [String: PropertyValue]
  public var tags: Set<String>

  public init(_ c: Contact) {
    uid = c.uid; fullName = c.fullName; givenName = c.givenName; familyName = c.familyName
    middleName = c.middleName; prefix = c.prefix; suffix = c.suffix; nickname = c.nickname
    organization = c.organization; department = c.department; jobTitle = c.jobTitle
    birthday = c.birthday; note = c.note; sourceProvider = c.sourceProvider
    photo = c.photo; sourceLine = c.sourceLine
    fields = c.fields.map(RefField.init)
    addresses = c.addresses; extras = c.extras
    customProperties = c.properties; tags = c.tags
  }

  public subscript(_ a: ContactAttribute) -> String? {
    switch a {
    case .uid: uid
    case .fullName: fullName
    case .givenName: givenName
    case .familyName: familyName
    case .middleName: middleName
    case .prefix: prefix
    case .suffix: suffix
    case .nickname: nickname
    case .organization: organization
    case .department: department
    case .jobTitle: jobTitle
    case .birthday: birthday
    case .note: note
    case .sourceProvider: sourceProvider
    }
  }

  public func copy() -> RefContact { RefContact(value()) }

  public func value() -> Contact {
    var c = Contact(photo: photo, sourceLine: sourceLine, fields: fields.map { $0.snapshot() },
                    addresses: addresses, extras: extras, properties: customProperties, tags: tags)
    for a in ContactAttribute.allCases { c[a] = self[a] }
    return c
  }
}

public enum Reference {
  public static func contacts(_ cs: [Contact]) -> [RefContact] { cs.map(RefContact.init) }

  public static func reverse(_ cs: [RefContact]) -> [RefContact] { cs.reversed() }

  public static func has(_ c: RefContact, kind: FieldKind) -> Bool { c.fields.contains { $0.kind == kind } }

  public static func requiredField(_ cs: [RefContact], kind: FieldKind) -> [RefContact] {
    cs.filter { has($0, kind: kind) }
  }

  public static func requiredAttribute(_ cs: [RefContact], _ a: ContactAttribute) -> [RefContact] {
    cs.filter { ($0[a] ?? "").isEmpty == false }
  }

  public static func requiredPhoto(_ cs: [RefContact]) -> [RefContact] { cs.filter { $0.photo != nil } }

  public static func requiredAddress(_ cs: [RefContact]) -> [RefContact] { cs.filter { !$0.addresses.isEmpty } }

  /// Split: one contact per field of `kind`, with only that field.
  public static func split(_ cs: [RefContact], kind: FieldKind, sourceRows: [Int]) -> [RefContact] {
    var out: [RefContact] = []
    for (c, src) in zip(cs, sourceRows) {
      for f in c.fields where f.kind == kind {
        let n = c.copy()
        n.fields = [f.copy()]
        n.customProperties["split.sourceRow"] = .int(Int64(src))
        out.append(n)
      }
    }
    return out
  }

  public static func statistics(_ cs: [RefContact]) -> [RefContact] {
    for c in cs {
      c.customProperties["stats.fieldCount"] = .int(Int64(c.fields.count))
      c.customProperties["stats.phoneCount"] = .int(Int64(c.fields.filter { $0.kind == .phone }.count))
      c.customProperties["stats.emailCount"] = .int(Int64(c.fields.filter { $0.kind == .email }.count))
      let mobile = c.fields.contains { f in
        guard f.kind == .phone, let l = f.label?.lowercased() else { return false }
        let tokens = l.split(whereSeparator: { ",; /_$!<>".contains($0) })
        return tokens.contains { $0 == "cell" || $0 == "mobile" || $0 == "iphone" }
      }
      c.customProperties["stats.hasMobile"] = .bool(mobile)
    }
    return cs
  }

  /// Composite over filters, as Ohana did it: run each filter on the input,
  /// keep the input's order, combine membership by identity.
  public static func composite(_ cs: [RefContact], _ op: String, _ filters: [([RefContact]) -> [RefContact]]) -> [RefContact] {
    let results = filters.map { f in Set(f(cs).map { ObjectIdentifier($0) }) }
    return cs.filter { c in
      let id = ObjectIdentifier(c)
      let n = results.filter { $0.contains(id) }.count
      switch op {
      case "and": return n == results.count
      case "or": return n > 0
      default: return n % 2 == 1
      }
    }
  }
}
