import OhanaCore

/// How a composite combines its children's selections.
public enum CompositeOperation: String, Sendable {
  /// Rows every child keeps.
  case and
  /// Rows any child keeps.
  case or
  /// Rows kept by an odd number of children (for two: exactly one).
  case xor
}

/// Runs each child on the same input frame and combines the rows they keep
/// with AND / OR / XOR, a word at a time (Ohana's OHComposite*PostProcessor).
/// Composites nest.
///
/// Decisions: the output keeps the input's table and order, so children are
/// filters; a child that builds a new table (split, merge) is an error, and
/// children's orders and derived columns are not carried out (run sorts and
/// enrichers outside the composite).
public struct CompositeProcessor: PostProcessor {
  public let operation: CompositeOperation
  public let children: [any PostProcessor]
  public let role: StageRole

  public init(_ operation: CompositeOperation, _ children: [any PostProcessor], role: StageRole = .core) {
    self.operation = operation
    self.children = children
    self.role = role
  }

  public var name: String { "\(operation.rawValue)(" + children.map(\.name).joined(separator: ",") + ")" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    let base = frame.selectionBitmap
    guard !children.isEmpty else { return frame }
    var combined: Bitmap?
    for child in children {
      let out = try child.process(frame, context: context)
      guard out.table.rowsIdentity == frame.table.rowsIdentity else {
        throw ProcessorError(stage: name, message: "child '\(child.name)' changed the rows; composites combine filters only")
      }
      let kept = out.selectionBitmap.intersection(base)
      if let c = combined {
        switch operation {
        case .and: combined = c.intersection(kept)
        case .or: combined = c.union(kept)
        case .xor: combined = c.symmetricDifference(kept)
        }
      } else {
        combined = kept
      }
    }
    var f = frame
    f.selection = combined
    return f
  }
}

/// Keeps rows every child keeps.
public func CompositeAnd(_ children: [any PostProcessor]) -> CompositeProcessor { CompositeProcessor(.and, children) }
/// Keeps rows any child keeps.
public func CompositeOr(_ children: [any PostProcessor]) -> CompositeProcessor { CompositeProcessor(.or, children) }
/// Keeps rows an odd number of children keep.
public func CompositeXor(_ children: [any PostProcessor]) -> CompositeProcessor { CompositeProcessor(.xor, children) }
