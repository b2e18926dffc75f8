/// The parameters of one vCard property as an ordered list, and their text
/// form in the store.
///
/// The store keeps one interned text per property, in vCard syntax without
/// the leading `;`: `TYPE=cell,voice;PREF=1`. A value is written in double
/// quotes when it holds `,` `;` or `:`; `"`, newline and `^` inside a value
/// use RFC 6868 caret encoding (`^'`, `^n`, `^^`). A parameter without `=`
/// (vCard 2.1's bare `CELL`) has no values and keeps its spelling.
public struct ParameterList: Hashable, Sendable, Codable {
  public struct Parameter: Hashable, Sendable, Codable {
    public var name: String
    public var values: [String]
    public init(name: String, values: [String]) { self.name = name; self.values = values }
  }

  public var parameters: [Parameter]

  public init(_ parameters: [Parameter] = []) { self.parameters = parameters }

  public var isEmpty: Bool { parameters.isEmpty }

  /// The values of every parameter named `name` (any case), in order.
  public func values(_ name: String) -> [String] {
    let n = name.uppercased()
    return parameters.filter { $0.name.uppercased() == n }.flatMap(\.values)
  }

  public mutating func append(_ name: String, _ values: [String]) {
    parameters.append(Parameter(name: name, values: values))
  }

  /// The text form (see the type's documentation).
  public var encoded: String {
    var out = ""
    for (i, p) in parameters.enumerated() {
      if i > 0 { out.append(";") }
      out.append(p.name)
      if p.values.isEmpty { continue }
      out.append("=")
      for (j, v) in p.values.enumerated() {
        if j > 0 { out.append(",") }
        out.append(Self.encodeValue(v))
      }
    }
    return out
  }

  static func encodeValue(_ v: String) -> String {
    var body = ""
    var needsQuotes = false
    for ch in v.unicodeScalars {
      switch ch {
      case "^": body.append("^^")
      case "\"": body.append("^'")
      case "\n": body.append("^n")
      case "\r": continue
      case ",", ";", ":": needsQuotes = true; body.unicodeScalars.append(ch)
      default: body.unicodeScalars.append(ch)
      }
    }
    return needsQuotes ? "\"" + body + "\"" : body
  }

  /// Parses the text form. Never fails: a stray quote runs to the end.
  public init(encoded text: String) {
    var params: [Parameter] = []
    var name = ""
    var values: [String] = []
    var value = ""
    var inName = true
    var inQuotes = false
    var sawEquals = false
    var caret = false
    func flushValue() { values.append(value); value = "" }
    func flushParam() {
      if inName { if !name.isEmpty { params.append(Parameter(name: name, values: [])) } }
      else { flushValue(); params.append(Parameter(name: name, values: values)) }
      name = ""; values = []; value = ""; inName = true; sawEquals = false
    }
    for ch in text.unicodeScalars {
      if inName {
        switch ch {
        case "=": inName = false; sawEquals = true
        case ";": flushParam()
        default: name.unicodeScalars.append(ch)
        }
        continue
      }
      if caret {
        caret = false
        switch ch {
        case "n", "N": value.append("\n")
        case "'": value.append("\"")
        case "^": value.append("^")
        default: value.append("^"); value.unicodeScalars.append(ch)
        }
        continue
      }
      switch ch {
      case "^": caret = true
      case "\"": inQuotes.toggle()
      case "," where !inQuotes: flushValue()
      case ";" where !inQuotes: flushParam()
      default: value.unicodeScalars.append(ch)
      }
    }
    if caret { value.append("^") }
    if !name.isEmpty || sawEquals { flushParam() }
    parameters = params
  }
}
