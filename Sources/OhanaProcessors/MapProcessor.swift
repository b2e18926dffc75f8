import OhanaCore

/// A custom stage (the seed's `full_name` example): a transform per row or
/// per column.
///
/// - `.rows`: the closure edits each visible contact as a value; the output
///   is a new table of the visible rows, in order. Simple and general; costs
///   a materialization per row.
/// - `.columns`: the closure gets the frame (table + selection + order) to
///   change in place, e.g. adding a derived column; as fast as the closure.
///
/// Custom stages are optional by default: if one throws, it is switched off
/// and reported, and the run goes on.
public struct MapProcessor: PostProcessor {
  public enum Body: Sendable {
    case rows(@Sendable (inout Contact) throws -> Void)
    case columns(@Sendable (inout Frame, ProcessingContext) throws -> Void)
  }
  public let name: String
  public let role: StageRole
  public let body: Body

  public init(name: String, role: StageRole = .optional, body: Body) {
    self.name = name; self.role = role; self.body = body
  }

  /// A per-row transform.
  public static func rows(_ name: String, role: StageRole = .optional, _ transform: @escaping @Sendable (inout Contact) throws -> Void) -> MapProcessor {
    MapProcessor(name: name, role: role, body: .rows(transform))
  }

  /// A per-column transform.
  public static func columns(_ name: String, role: StageRole = .optional, _ transform: @escaping @Sendable (inout Frame, ProcessingContext) throws -> Void) -> MapProcessor {
    MapProcessor(name: name, role: role, body: .columns(transform))
  }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    switch body {
    case .rows(let transform):
      var contacts = frame.contacts
      for i in contacts.indices { try transform(&contacts[i]) }
      return Frame(table: ContactTable(contacts: contacts))
    case .columns(let transform):
      var f = frame
      try transform(&f, context)
      return f
    }
  }
}
