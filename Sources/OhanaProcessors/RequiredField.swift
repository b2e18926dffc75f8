import OhanaCore

/// What a contact must have to pass ``RequiredField``.
public enum Requirement: Hashable, Sendable, CustomStringConvertible {
  /// At least one field of this kind.
  case field(FieldKind)
  /// A value for this attribute (given name, family name, organization...).
  case attribute(ContactAttribute)
  /// A photo.
  case photo
  /// At least one postal address.
  case postalAddress

  public static let phone = Requirement.field(.phone)
  public static let email = Requirement.field(.email)
  public static let url = Requirement.field(.url)
  public static let impp = Requirement.field(.impp)
  public static let givenName = Requirement.attribute(.givenName)
  public static let familyName = Requirement.attribute(.familyName)
  public static let fullName = Requirement.attribute(.fullName)

  /// Parses `phone`, `email`, `url`, `impp`, `other`, `address`, `photo`, or an attribute name.
  public init?(name: String) {
    let n = name.lowercased()
    if let k = FieldKind(name: n) { self = .field(k); return }
    switch n {
    case "address", "postal", "postaladdress", "adr": self = .postalAddress
    case "photo": self = .photo
    default:
      guard let a = ContactAttribute(name: name) else { return nil }
      self = .attribute(a)
    }
  }

  public var description: String {
    switch self {
    case .field(let k): k.name
    case .attribute(let a): a.name
    case .photo: "photo"
    case .postalAddress: "address"
    }
  }

  /// The rows of `table` that meet the requirement, as a column pass.
  /// - Complexity: O(rows).
  public func rows(of table: ContactTable) -> Bitmap {
    let n = table.rowCount
    switch self {
    case .field(let kind):
      // The table keeps a kind summary per contact: one byte test a row.
      let bit = UInt8(1) << (kind.rawValue & 7)
      return table.fieldKinds.withUnsafeBufferPointer { kinds in Bitmap(count: n) { kinds[$0] & bit != 0 } }
    case .attribute(let a):
      if a == .uid && !table.uuids.isEmpty {
        // Uids that are UUIDs are kept apart from the string column.
        let uuids = table.uuids
        return table[a].withUnsafeReader { col in Bitmap(count: n) { col.isPresent($0) || uuids.form(at: $0) != .none } }
      }
      return table[a].withUnsafeReader { col in Bitmap(count: n) { col.isPresent($0) } }
    case .photo:
      return table.photo.withUnsafeBufferPointer { col in Bitmap(count: n) { col[$0].rawValue != 0 } }
    case .postalAddress:
      return table.addressOffsets.withUnsafeBufferPointer { off in Bitmap(count: n) { off[$0] != off[$0 + 1] } }
    }
  }
}

/// Keeps contacts that have a field of a kind, an attribute, a photo or an
/// address (Ohana's OHRequiredFieldPostProcessor). A filter: narrows the
/// selection, keeps the table and the order.
public struct RequiredField: PostProcessor {
  public let requirement: Requirement
  public init(_ requirement: Requirement) { self.requirement = requirement }
  public var name: String { "required-\(requirement)" }
  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    frame.narrowed(to: requirement.rows(of: frame.table))
  }
}

/// Keeps contacts with at least one postal address (Ohana's
/// OHRequiredPostalAddressPostProcessor).
public struct RequiredPostalAddress: PostProcessor {
  public init() {}
  public var name: String { "required-address" }
  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    frame.narrowed(to: Requirement.postalAddress.rows(of: frame.table))
  }
}
