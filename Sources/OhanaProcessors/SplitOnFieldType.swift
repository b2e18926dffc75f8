import OhanaCore

/// One output contact per field of a kind (Ohana's
/// OHSplitOnFieldTypePostProcessor): a contact with three phone numbers
/// becomes three contacts with one phone each, as a phone picker lists them.
///
/// Each output contact keeps the source contact's attributes, photo,
/// addresses, extra properties, derived columns and tags, and exactly one
/// field: the one it was split on (fields of other kinds are dropped, as in
/// Ohana). Contacts with no field of the kind produce nothing. The output is
/// a new table in the frame's order; the source row of each output contact
/// is the derived column `split.sourceRow`.
///
/// - Complexity: O(visible rows + their fields).
public struct SplitOnFieldType: PostProcessor {
  public static let sourceRowColumn = "split.sourceRow"
  public let kind: FieldKind
  public init(_ kind: FieldKind) { self.kind = kind }
  public var name: String { "split-\(kind.name)" }

  public func process(_ frame: Frame, context: ProcessingContext) throws -> Frame {
    let t = frame.table
    var sourceRows: [UInt32] = []
    var fieldRows: [UInt32] = []
    sourceRows.reserveCapacity(frame.count)
    fieldRows.reserveCapacity(frame.count)
    let bit = UInt8(1) << (kind.rawValue & 7)
    t.fieldOffsets.withUnsafeBufferPointer { off in
      t.fields.kind.withUnsafeBufferPointer { kinds in
        t.fieldKinds.withUnsafeBufferPointer { summary in
        for r in frame.rows where summary[Int(r)] & bit != 0 {
          var i = Int(off[Int(r)])
          let e = Int(off[Int(r) + 1])
          while i < e {
            if kinds[i] == kind {
              sourceRows.append(r)
              fieldRows.append(UInt32(truncatingIfNeeded: i))
            }
            i += 1
          }
        }
        }
      }
    }
    // Gather contacts (with their addresses and extras, not their fields),
    // then put one field each.
    var out = t.gathering(rows: sourceRows, includeFields: false)
    out.replaceFields(with: t.fields.gathering(fieldRows), offsets: (0...UInt32(truncatingIfNeeded: fieldRows.count)).map { $0 })
    out.setColumn(Self.sourceRowColumn, .int(sourceRows.map { Int64($0) }, valid: Bitmap(count: sourceRows.count, allSet: true)))
    return Frame(table: out)
  }
}
