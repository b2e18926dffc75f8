import OhanaCore

/// Reverses the frame's order (Ohana's OHReverseOrderPostProcessor).
/// Descending sorts are a sort followed by this.
///
/// - Complexity: O(visible rows); no table change.
public struct ReverseOrder: PostProcessor {
  public var name: String { "reverse" }
  public init() {}
  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    var f = frame
    f.order = frame.rows.reversed()
    return f
  }
}
