import OhanaCore

/// The comparison keys `normalize --comparison-keys` writes (issue 46): a
/// parameter `X-OHANA-KEY` on each e-mail (``EmailText/comparisonKey(_:)``)
/// and each address (its street's ``StreetText/key(_:country:)``). A key
/// already there is replaced, so a book normalizes to itself.
package enum ComparisonKeys {
  static let parameter = "X-OHANA-KEY"

  /// `parameters` (with `label` as `TYPE` when none are stored) with the
  /// key set, or taken off for nil.
  static func set(_ key: String?, parameters: StringID, label: StringID, pool: inout StringPool) -> StringID {
    set(parameter: parameter, key, parameters: parameters, label: label, pool: &pool)
  }

  /// `parameters` (with `label` as `TYPE` when none are stored) with the
  /// parameter `name` set to `value` (one already there replaced), or
  /// taken off for nil.
  package static func set(
    parameter name: String, _ value: String?, parameters: StringID, label: StringID, pool: inout StringPool
  ) -> StringID {
    var list = PhoneValues.list(parameters, label: label, pool: pool)
    let before = list
    list.parameters.removeAll { $0.name.uppercased() == name }
    if let value, !value.isEmpty { list.append(name, [value]) }
    if list == before { return parameters }
    return list.isEmpty ? .absent : pool.intern(list.encoded)
  }
}
