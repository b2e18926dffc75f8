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
    // Every visible row in order (no array of all rows for a plain frame).
    let rows: [UInt32]? = frame.selection == nil && frame.order == nil ? nil : frame.rows
    let visible = rows?.count ?? t.rowCount
    let capacity = t.fields.count
    var fieldRows: [UInt32] = []
    // One pass over the visible rows' fields, without a branch per field:
    // each field is written at the next output position, which advances
    // only when the kind matches (at most one write per field visited, so
    // `fields.count` bounds the output).
    let sourceRows = [UInt32](unsafeUninitializedCapacity: capacity) { src, srcCount in
      fieldRows = [UInt32](unsafeUninitializedCapacity: capacity) { fr, frCount in
        var k = 0
        t.fieldOffsets.withUnsafeBufferPointer { off in
          t.fields.kind.withUnsafeBufferPointer { kinds in
            for j in 0..<visible {
              let r = rows.map { Int($0[j]) } ?? j
              var i = Int(off[r])
              let e = Int(off[r + 1])
              while i < e {
                src[k] = UInt32(truncatingIfNeeded: r)
                fr[k] = UInt32(truncatingIfNeeded: i)
                k += kinds[i] == kind ? 1 : 0
                i += 1
              }
            }
          }
        }
        frCount = k
      }
      srcCount = fieldRows.count
    }
    let count = sourceRows.count
    // Gather contacts (with their addresses and extras, not their fields),
    // then put in one field each.
    var out = t.gathering(rows: sourceRows, includeFields: false)
    let offsets = [UInt32](unsafeUninitializedCapacity: count + 1) { o, n in
      for i in 0...count { o.initializeElement(at: i, to: UInt32(truncatingIfNeeded: i)) }
      n = count + 1
    }
    out.replaceFields(
      with: t.fields.gathering(fieldRows), offsets: offsets,
      kinds: [UInt8](repeating: UInt8(1) << (kind.rawValue & 7), count: count))
    let source = [Int64](unsafeUninitializedCapacity: count) { c, n in
      for i in 0..<count { c.initializeElement(at: i, to: Int64(sourceRows[i])) }
      n = count
    }
    out.setColumn(Self.sourceRowColumn, .int(source, valid: Bitmap(count: count, allSet: true)))
    return Frame(table: out)
  }
}
