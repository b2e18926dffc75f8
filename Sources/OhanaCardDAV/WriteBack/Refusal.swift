import Foundation

/// What a server said when it refused a write, for the report: the
/// status and, from the answer's body, the CardDAV or WebDAV precondition
/// it names (`<C:valid-address-data/>`, `<C:no-uid-conflict>` of RFC 6352
/// §6.3.2.1, `<D:max-resource-size/>`...) with any text the server put
/// beside it, else the body's text (markup taken out, 300 characters at
/// most). Never a guess: a size limit only when the status is 413 or the
/// body names one.
struct Refusal: CustomStringConvertible {
  var status: Int
  /// The precondition elements the body names (local names), in order.
  var preconditions: [String]
  /// The body's text without markup, spaces folded (possibly empty).
  var text: String

  init(status: Int, body: Data) {
    self.status = status
    let s = String(decoding: body.prefix(64 << 10), as: UTF8.self)
    preconditions = Self.preconditions(s)
    text = Self.plainText(s)
  }

  /// The local names of the elements inside a DAV `error` element.
  static func preconditions(_ xml: String) -> [String] {
    guard let open = xml.range(of: #"<([A-Za-z0-9_-]+:)?error[\s>]"#, options: .regularExpression) else { return [] }
    var names: [String] = []
    var rest = xml[open.upperBound...]
    while let tag = rest.range(of: #"<([A-Za-z0-9_-]+:)?([A-Za-z0-9_-]+)[\s/>]"#, options: .regularExpression) {
      var name = String(rest[tag]).dropFirst().dropLast()
      if let colon = name.firstIndex(of: ":") { name = name[name.index(after: colon)...] }
      rest = rest[tag.upperBound...]
      if name == "error" || name.isEmpty { continue }
      if !names.contains(String(name)) { names.append(String(name)) }
      if names.count >= 8 { break }
    }
    return names
  }

  static func plainText(_ s: String) -> String {
    var out = ""
    var inTag = false
    for c in s {
      if c == "<" {
        inTag = true
        out.append(" ")
      } else if c == ">" {
        inTag = false
      } else if !inTag {
        out.append(c)
      }
    }
    let words = out.split(whereSeparator: { $0.isWhitespace })
    let joined = words.joined(separator: " ")
    return joined.count > 300 ? String(joined.prefix(300)) + "…" : joined
  }

  /// Whether the server refused for the card's size.
  var isSizeLimit: Bool {
    if status == 413 { return true }
    if preconditions.contains("max-resource-size") { return true }
    let t = text.lowercased()
    return t.contains("too large") || t.contains("too big") || t.contains("size limit") || t.contains("max-resource-size")
  }

  var description: String {
    var s = "HTTP \(status)"
    if !preconditions.isEmpty { s += ", precondition " + preconditions.joined(separator: ", ") }
    if !text.isEmpty { s += ": \"\(text)\"" }
    return s
  }
}
