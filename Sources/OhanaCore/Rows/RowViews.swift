/// One contact field as a value (a row of ``FieldTable`` materialized).
public struct ContactField: Hashable, Sendable, Codable {
  public var kind: FieldKind
  public var label: String?
  public var value: String
  public var group: String?
  /// Parameters as text in vCard syntax (see ``ParameterList``).
  public var parameters: String?
  /// Derived values (Ohana's `customProperties`), e.g. `phone.e164`.
  public var properties: [String: PropertyValue]
  public var tags: Set<String>

  public init(
    kind: FieldKind, label: String? = nil, value: String, group: String? = nil,
    parameters: String? = nil, properties: [String: PropertyValue] = [:], tags: Set<String> = []
  ) {
    self.kind = kind; self.label = label; self.value = value; self.group = group
    self.parameters = parameters; self.properties = properties; self.tags = tags
  }
}

/// One postal address as a value.
public struct PostalAddress: Hashable, Sendable, Codable {
  public var label: String?
  public var street: String?
  public var locality: String?
  public var region: String?
  public var postalCode: String?
  public var country: String?
  public var poBox: String?
  public var extended: String?
  public var group: String?
  public var parameters: String?
  public var properties: [String: PropertyValue]
  public var tags: Set<String>

  public init(
    label: String? = nil, street: String? = nil, locality: String? = nil, region: String? = nil,
    postalCode: String? = nil, country: String? = nil, poBox: String? = nil, extended: String? = nil,
    group: String? = nil, parameters: String? = nil,
    properties: [String: PropertyValue] = [:], tags: Set<String> = []
  ) {
    self.label = label; self.street = street; self.locality = locality; self.region = region
    self.postalCode = postalCode; self.country = country; self.poBox = poBox; self.extended = extended
    self.group = group; self.parameters = parameters; self.properties = properties; self.tags = tags
  }

  public subscript(_ a: AddressAttribute) -> String? {
    get {
      switch a {
      case .label: label
      case .street: street
      case .locality: locality
      case .region: region
      case .postalCode: postalCode
      case .country: country
      case .poBox: poBox
      case .extended: extended
      case .group: group
      case .parameters: parameters
      }
    }
    set {
      switch a {
      case .label: label = newValue
      case .street: street = newValue
      case .locality: locality = newValue
      case .region: region = newValue
      case .postalCode: postalCode = newValue
      case .country: country = newValue
      case .poBox: poBox = newValue
      case .extended: extended = newValue
      case .group: group = newValue
      case .parameters: parameters = newValue
      }
    }
  }
}

/// A property the model has no column for, kept whole.
public struct ExtraProperty: Hashable, Sendable, Codable {
  public var name: String
  public var group: String?
  public var parameters: String?
  public var value: String

  public init(name: String, group: String? = nil, parameters: String? = nil, value: String) {
    self.name = name; self.group = group; self.parameters = parameters; self.value = value
  }
}

/// A photo: its bytes and media type.
public struct Photo: Hashable, Sendable, Codable {
  public var data: [UInt8]
  public var mediaType: String?
  public init(data: [UInt8], mediaType: String? = nil) { self.data = data; self.mediaType = mediaType }
}

/// One contact as a value, materialized from a row of a ``ContactTable``
/// (``ContactTable/contact(at:)``); a table can be built back from an array
/// of them (``ContactTable/init(contacts:)``).
public struct Contact: Hashable, Sendable, Codable {
  public var uid: String?
  public var fullName: String?
  public var givenName: String?
  public var familyName: String?
  public var middleName: String?
  public var prefix: String?
  public var suffix: String?
  public var nickname: String?
  public var organization: String?
  public var department: String?
  public var jobTitle: String?
  public var birthday: String?
  public var note: String?
  public var sourceProvider: String?
  public var photo: Photo?
  /// The line where the contact starts in its source (0 = unknown).
  public var sourceLine: Int
  public var fields: [ContactField]
  public var addresses: [PostalAddress]
  public var extras: [ExtraProperty]
  public var properties: [String: PropertyValue]
  public var tags: Set<String>

  public init(
    uid: String? = nil, fullName: String? = nil, givenName: String? = nil, familyName: String? = nil,
    middleName: String? = nil, prefix: String? = nil, suffix: String? = nil, nickname: String? = nil,
    organization: String? = nil, department: String? = nil, jobTitle: String? = nil,
    birthday: String? = nil, note: String? = nil, sourceProvider: String? = nil, photo: Photo? = nil,
    sourceLine: Int = 0, fields: [ContactField] = [], addresses: [PostalAddress] = [],
    extras: [ExtraProperty] = [], properties: [String: PropertyValue] = [:], tags: Set<String> = []
  ) {
    self.uid = uid; self.fullName = fullName; self.givenName = givenName; self.familyName = familyName
    self.middleName = middleName; self.prefix = prefix; self.suffix = suffix; self.nickname = nickname
    self.organization = organization; self.department = department; self.jobTitle = jobTitle
    self.birthday = birthday; self.note = note; self.sourceProvider = sourceProvider; self.photo = photo
    self.sourceLine = sourceLine; self.fields = fields; self.addresses = addresses; self.extras = extras
    self.properties = properties; self.tags = tags
  }

  public subscript(_ a: ContactAttribute) -> String? {
    get {
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
    set {
      switch a {
      case .uid: uid = newValue
      case .fullName: fullName = newValue
      case .givenName: givenName = newValue
      case .familyName: familyName = newValue
      case .middleName: middleName = newValue
      case .prefix: prefix = newValue
      case .suffix: suffix = newValue
      case .nickname: nickname = newValue
      case .organization: organization = newValue
      case .department: department = newValue
      case .jobTitle: jobTitle = newValue
      case .birthday: birthday = newValue
      case .note: note = newValue
      case .sourceProvider: sourceProvider = newValue
      }
    }
  }

  /// The fields of `kind`.
  public func fields(of kind: FieldKind) -> [ContactField] { fields.filter { $0.kind == kind } }
}
