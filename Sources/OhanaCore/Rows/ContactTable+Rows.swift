extension ContactTable {
  /// Materializes contact `row` as a value.
  /// - Complexity: O(its fields, addresses and extras).
  public func contact(at row: Int) -> Contact {
    var c = Contact()
    for a in ContactAttribute.allCases { c[a] = pool.string(attributes[a.rawValue][row]) }
    if let uuid = uuids.text(at: row) { c.uid = uuid }
    let p = photo[row]
    if !p.isNone { c.photo = Photo(data: blobs.data(p), mediaType: pool.string(blobs.mediaType(p))) }
    c.sourceLine = Int(sourceLine[row])
    c.fields = fieldRange(of: row).map { field(at: $0) }
    c.addresses = addressRange(of: row).map { address(at: $0) }
    c.extras = extraRange(of: row).map { i in
      ExtraProperty(
        name: pool.string(extras.name[i]) ?? "", group: pool.string(extras.group[i]),
        parameters: pool.string(extras.parameters[i]), value: pool.string(extras.value[i]) ?? "")
    }
    c.properties = annotations.properties(at: row, pool: pool)
    c.tags = Set(annotations.tagNames(at: row))
    return c
  }

  /// Materializes field row `i` (an index into ``fields``).
  public func field(at i: Int) -> ContactField {
    ContactField(
      kind: fields.kind[i], label: pool.string(fields.label[i]), value: pool.string(fields.value[i]) ?? "",
      group: pool.string(fields.group[i]), parameters: pool.string(fields.parameters[i]),
      properties: fields.annotations.properties(at: i, pool: pool),
      tags: Set(fields.annotations.tagNames(at: i)))
  }

  /// Materializes address row `i`.
  public func address(at i: Int) -> PostalAddress {
    var a = PostalAddress()
    for attr in AddressAttribute.allCases { a[attr] = pool.string(addresses.columns[attr.rawValue][i]) }
    a.properties = addresses.annotations.properties(at: i, pool: pool)
    a.tags = Set(addresses.annotations.tagNames(at: i))
    return a
  }

  /// All contacts in row order.
  public var contacts: [Contact] { (0..<rowCount).map { contact(at: $0) } }

  /// Builds a table from contact values (derived values and tags become
  /// derived columns and tags).
  public init(contacts: [Contact]) {
    var b = ContactTableBuilder()
    var contactProps: [(row: Int, props: [String: PropertyValue])] = []
    var contactTags: [String: [Int]] = [:]
    var fieldProps: [(row: Int, props: [String: PropertyValue])] = []
    var fieldTags: [String: [Int]] = [:]
    var addrProps: [(row: Int, props: [String: PropertyValue])] = []
    var addrTags: [String: [Int]] = [:]
    for (row, c) in contacts.enumerated() {
      b.beginContact(sourceLine: c.sourceLine)
      for a in ContactAttribute.allCases { if let v = c[a] { b.set(a, v) } }
      if let p = c.photo { b.setPhoto(p.data, mediaType: b.pool.intern(p.mediaType)) }
      for f in c.fields {
        let i = b.table.fields.count
        if !f.properties.isEmpty { fieldProps.append((i, f.properties)) }
        for t in f.tags { fieldTags[t, default: []].append(i) }
        b.appendField(
          kind: f.kind, label: b.pool.intern(f.label), value: b.pool.intern(f.value),
          group: b.pool.intern(f.group), parameters: b.pool.intern(f.parameters))
      }
      for a in c.addresses {
        let i = b.table.addresses.count
        if !a.properties.isEmpty { addrProps.append((i, a.properties)) }
        for t in a.tags { addrTags[t, default: []].append(i) }
        b.appendAddress(AddressAttribute.allCases.map { b.pool.intern(a[$0]) })
      }
      for x in c.extras {
        b.appendExtra(
          name: b.pool.intern(x.name), group: b.pool.intern(x.group),
          parameters: b.pool.intern(x.parameters), value: b.pool.intern(x.value))
      }
      if !c.properties.isEmpty { contactProps.append((row, c.properties)) }
      for t in c.tags { contactTags[t, default: []].append(row) }
      b.endContact()
    }
    var t = b.build()
    t.annotations = Self.annotations(contactProps, contactTags, count: t.rowCount, pool: &t.pool)
    t.fields.annotations = Self.annotations(fieldProps, fieldTags, count: t.fields.count, pool: &t.pool)
    t.addresses.annotations = Self.annotations(addrProps, addrTags, count: t.addresses.count, pool: &t.pool)
    self = t
  }

  private static func annotations(
    _ props: [(row: Int, props: [String: PropertyValue])], _ tags: [String: [Int]], count: Int,
    pool: inout StringPool
  ) -> Annotations {
    var a = Annotations()
    var names: [String] = []
    var seen = Set<String>()
    for (_, p) in props { for k in p.keys.sorted() where seen.insert(k).inserted { names.append(k) } }
    for name in names {
      // All integers, all booleans, or else text (no value is dropped).
      let values = props.compactMap { p in p.props[name].map { (row: p.row, value: $0) } }
      a.setColumn(name, DerivedColumn.typed(values, rows: count, pool: &pool))
    }
    for (name, rows) in tags { a.setTag(name, Bitmap(count: count, setting: rows)) }
    return a
  }
}
