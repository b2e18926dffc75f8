import OhanaCore
import OhanaProcessors

/// Where each value of a merged contact came from (issue 46, item 3: "each
/// value of the golden record carries its provenance").
///
/// A merged contact's phones, e-mails, URLs and other labelled values, and
/// its addresses, are the union of its members' (``Deduplicator/merge(_:_:)``).
/// Each of them, in a cluster of two or more contacts, is given its
/// member's origin: `SOURCE:UID` (the member's `--source` name, a colon,
/// its uid), `UID` when it has no source, and `row-N` (its 1-based row in
/// the read) when it has no uid either. The same form as the single-valued
/// fields' ``Survivorship/fieldSourcesColumn`` (`name=crm:U17`).
///
/// - NDJSON: each field's and address's `properties.origin`.
/// - vCard (`dedupe --value-sources`): the parameter `X-OHANA-SOURCE` on
///   each `TEL`, `EMAIL`, `ADR`... of a merged card
///   (``originParameters(_:)``). RFC 6350 §5.10 and RFC 2426 §4 allow
///   such `x-name` parameters; readers that do not know one ignore it.
///   Not `PID`/`CLIENTPIDMAP`: those name a property instance for
///   synchronisation, and a source's uid is not one.
///
/// A contact that stays alone gets no origin: all its values are its own.
public enum ValueOrigins {
  /// The derived column on the fields and addresses.
  public static let column = "origin"
  /// The vCard parameter ``originParameters(_:)`` writes.
  public static let parameter = "X-OHANA-SOURCE"

  /// The origin text of `row` (see the type's documentation).
  static func origin(_ table: ContactTable, _ row: Int) -> [UInt8] {
    var out: [UInt8] = []
    let source = table[.sourceProvider][row]
    if source.isPresent {
      table.pool.withBytes(of: source) { out.append(contentsOf: $0) }
      out.append(0x3A)
    }
    if table.hasUID(at: row) {
      table.withUID(at: row) { out.append(contentsOf: $0) }
    } else {
      out.append(contentsOf: "row-\(row + 1)".utf8)
    }
    return out
  }

  /// `table` with an ``column`` on the fields and addresses of every
  /// contact that `clusterOf` puts in a cluster of two or more, its texts
  /// interned into the table's pool. Unchanged when there is no such
  /// contact.
  static func annotated(_ table: ContactTable, clusterOf: [Int32]) -> ContactTable {
    let n = min(table.rowCount, clusterOf.count)
    var size = [Int32](repeating: 0, count: n)
    for r in 0..<n where Int(clusterOf[r]) < n { size[Int(clusterOf[r])] += 1 }
    let clustered = { (r: Int) -> Bool in Int(clusterOf[r]) < n && size[Int(clusterOf[r])] > 1 }
    guard (0..<n).contains(where: clustered) else { return table }
    var out = table
    var fieldOrigins = [StringID](repeating: .absent, count: table.fields.count)
    var addressOrigins = [StringID](repeating: .absent, count: table.addresses.count)
    for r in 0..<n where clustered(r) {
      let fields = table.fieldRange(of: r), addresses = table.addressRange(of: r)
      if fields.isEmpty && addresses.isEmpty { continue }
      let id = origin(table, r).withUnsafeBytes { out.pool.intern($0) }
      for j in fields { fieldOrigins[j] = id }
      for j in addresses { addressOrigins[j] = id }
    }
    out.fields.annotations.setColumn(column, .string(fieldOrigins))
    out.addresses.annotations.setColumn(column, .string(addressOrigins))
    return out
  }

  /// Moves each field's and address's ``column`` into its parameters as
  /// ``parameter`` (replacing one already there), for a vCard output.
  /// Values without an origin are left as they are.
  public static func originParameters(_ table: inout ContactTable) {
    var pool = table.pool
    if case .string(let origins)? = table.fields.annotations[column: column] {
      var parameters = Array(table.fields.parameters)
      for (j, o) in origins.enumerated() where o.isPresent && j < parameters.count {
        parameters[j] = with(o, parameters: parameters[j], label: table.fields.label[j], pool: &pool)
      }
      table.fields.parameters = StringColumn(parameters)
      table.fields.annotations.removeColumn(column)
    }
    if case .string(let origins)? = table.addresses.annotations[column: column] {
      let p = AddressAttribute.parameters.rawValue, l = AddressAttribute.label.rawValue
      var parameters = Array(table.addresses.columns[p])
      for (j, o) in origins.enumerated() where o.isPresent && j < parameters.count {
        parameters[j] = with(o, parameters: parameters[j], label: table.addresses.columns[l][j], pool: &pool)
      }
      table.addresses.columns[p] = StringColumn(parameters)
      table.addresses.annotations.removeColumn(column)
    }
    table.pool = pool
  }

  /// `parameters` (with `label` as `TYPE` when none are stored) with
  /// ``parameter`` set to `origin`.
  static func with(_ origin: StringID, parameters: StringID, label: StringID, pool: inout StringPool) -> StringID {
    guard let text = pool.string(origin) else { return parameters }
    return ComparisonKeys.set(parameter: parameter, text, parameters: parameters, label: label, pool: &pool)
  }
}
