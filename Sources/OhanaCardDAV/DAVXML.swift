import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An element of a WebDAV response, matched by namespace URI and local
/// name (servers choose any prefix: `d:`, `ns0:`, none).
public struct DAVElement: Sendable {
  public var namespace: String
  public var name: String
  public var text: String
  public var children: [DAVElement]

  public static let dav = "DAV:"
  public static let carddav = "urn:ietf:params:xml:ns:carddav"

  /// The first child `namespace:name`.
  public func child(_ namespace: String, _ name: String) -> DAVElement? {
    children.first { $0.namespace == namespace && $0.name == name }
  }

  public func children(_ namespace: String, _ name: String) -> [DAVElement] {
    children.filter { $0.namespace == namespace && $0.name == name }
  }

  /// The first descendant `namespace:name` (depth first).
  public func find(_ namespace: String, _ name: String) -> DAVElement? {
    for c in children {
      if c.namespace == namespace && c.name == name { return c }
      if let d = c.find(namespace, name) { return d }
    }
    return nil
  }

  /// Parses an XML document (namespace-aware); nil when it is not XML.
  public static func parse(_ data: Data) -> DAVElement? {
    let builder = Builder()
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = builder
    guard parser.parse(), let root = builder.root else { return nil }
    return root
  }

  private final class Builder: NSObject, XMLParserDelegate {
    var stack: [DAVElement] = []
    var root: DAVElement?

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
      attributes attributeDict: [String: String] = [:]
    ) {
      stack.append(DAVElement(namespace: namespaceURI ?? "", name: elementName, text: "", children: []))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
      if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
      guard let done = stack.popLast() else { return }
      if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
    }
  }
}

/// One `DAV:response` of a multistatus: its href, its status (for the
/// whole resource) and the properties found (status 200).
public struct DAVResponse: Sendable {
  public var href: String
  public var status: Int?
  public var properties: [DAVElement]

  public func property(_ namespace: String, _ name: String) -> DAVElement? {
    properties.first { $0.namespace == namespace && $0.name == name }
  }

  /// The responses of a `DAV:multistatus` document, and its sync token.
  public static func multistatus(_ root: DAVElement) -> (responses: [DAVResponse], syncToken: String?) {
    var out: [DAVResponse] = []
    for r in root.children(DAVElement.dav, "response") {
      guard let hrefElement = r.child(DAVElement.dav, "href") else { continue }
      let href = trimmedXML(hrefElement.text)
      let status = r.child(DAVElement.dav, "status").flatMap { statusCode($0.text) }
      var props: [DAVElement] = []
      for ps in r.children(DAVElement.dav, "propstat") {
        let code = ps.child(DAVElement.dav, "status").flatMap { statusCode($0.text) } ?? 200
        guard (200..<300).contains(code), let prop = ps.child(DAVElement.dav, "prop") else { continue }
        props.append(contentsOf: prop.children)
      }
      out.append(DAVResponse(href: href, status: status, properties: props))
    }
    let token = root.child(DAVElement.dav, "sync-token").map { trimmedXML($0.text) }
    return (out, token)
  }

  /// `HTTP/1.1 404 Not Found` → 404.
  static func statusCode(_ line: String) -> Int? {
    let parts = line.split(separator: " ")
    return parts.count >= 2 ? Int(parts[1]) : nil
  }
}

/// `s` without the XML white space (space, tab, CR, LF) around it; `s`
/// itself, uncopied, when there is none (the usual case: an href or ETag
/// as the server wrote it).
func trimmedXML(_ s: String) -> String {
  let u = s.utf8
  func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
  guard let first = u.first, let last = u.last, blank(first) || blank(last) else { return s }
  var start = u.startIndex
  var end = u.endIndex
  while start < end && blank(u[start]) { start = u.index(after: start) }
  while end > start && blank(u[u.index(before: end)]) { end = u.index(before: end) }
  return String(s[start..<end])
}
