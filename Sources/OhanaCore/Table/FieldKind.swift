/// The kind of a contact field (a row of the fields table).
public enum FieldKind: UInt8, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible, BitwiseCopyable {
  case phone = 0
  case email = 1
  case url = 2
  /// Instant messaging (vCard IMPP).
  case impp = 3
  /// Anything else that is a labelled value (vCard RELATED, X-SOCIALPROFILE...).
  case other = 4

  /// The lower-case name used by the command line and NDJSON (`phone`, `email`...).
  public var name: String {
    switch self {
    case .phone: "phone"
    case .email: "email"
    case .url: "url"
    case .impp: "impp"
    case .other: "other"
    }
  }

  public var description: String { name }

  /// Parses a name (`phone`, `email`, `url`, `impp`, `other`), any case.
  public init?(name: String) {
    switch name.lowercased() {
    case "phone", "tel": self = .phone
    case "email": self = .email
    case "url": self = .url
    case "impp": self = .impp
    case "other": self = .other
    default: return nil
    }
  }

  /// A bit for this kind in a kind mask.
  @inlinable public var bit: UInt8 { 1 << rawValue }
}

/// The single-valued string attributes of a contact: one column each.
public enum ContactAttribute: Int, CaseIterable, Hashable, Sendable, Codable {
  case uid, fullName, givenName, familyName, middleName, prefix, suffix, nickname
  case organization, department, jobTitle, birthday, note, sourceProvider

  public var name: String {
    switch self {
    case .uid: "uid"
    case .fullName: "fullName"
    case .givenName: "givenName"
    case .familyName: "familyName"
    case .middleName: "middleName"
    case .prefix: "prefix"
    case .suffix: "suffix"
    case .nickname: "nickname"
    case .organization: "organization"
    case .department: "department"
    case .jobTitle: "jobTitle"
    case .birthday: "birthday"
    case .note: "note"
    case .sourceProvider: "sourceProvider"
    }
  }

  public init?(name: String) {
    guard let a = Self.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
    self = a
  }
}

/// The string columns of a postal address.
public enum AddressAttribute: Int, CaseIterable, Hashable, Sendable, Codable {
  case label, street, locality, region, postalCode, country, poBox, extended, group, parameters
}
