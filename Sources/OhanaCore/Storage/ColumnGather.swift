
/// Column passes shared by the row-changing operations (gather, split):
/// gathering one column through a row list, and running independent column
/// jobs on all cores.
package enum ColumnOps {
  /// `column[rows[0]], column[rows[1]], ...` as a new array: one pass over
  /// borrowed buffers into uninitialized storage (no per-element closure,
  /// no zero fill). Rows must be valid indices of `column` (they come from
  /// the table's own offsets and selections; checked in debug builds).
  package static func gather<T: BitwiseCopyable>(_ column: [T], _ rows: [UInt32]) -> [T] {
    column.withUnsafeBufferPointer { c in
      rows.withUnsafeBufferPointer { r in
        [T](unsafeUninitializedCapacity: r.count) { out, initialized in
          #if OHANA_INTERNAL_CHECKS
          for row in r { precondition(Int(row) < c.count, "gather: row out of range") }
          #endif
          guard let src = c.baseAddress, let dst = out.baseAddress else {
            initialized = 0
            return
          }
          for k in 0..<r.count { (dst + k).initialize(to: src[Int(r[k])]) }
          initialized = r.count
        }
      }
    }
  }

  /// For a CSR child table with `offsets`, the child rows owned by `rows` in
  /// that order and the new offsets (`rows.count + 1` of them).
  package static func childRows(_ offsets: [UInt32], _ rows: [UInt32]) -> (offsets: [UInt32], rows: [UInt32]) {
    offsets.withUnsafeBufferPointer { off in
      rows.withUnsafeBufferPointer { r in
        let newOffsets = [UInt32](unsafeUninitializedCapacity: r.count + 1) { o, initialized in
          var total: UInt32 = 0
          o.initializeElement(at: 0, to: 0)
          for k in 0..<r.count {
            let row = Int(r[k])
            total &+= off[row + 1] &- off[row]
            o.initializeElement(at: k + 1, to: total)
          }
          initialized = r.count + 1
        }
        let total = Int(newOffsets[r.count])
        let childRows = [UInt32](unsafeUninitializedCapacity: total) { c, initialized in
          var k = 0
          for j in 0..<r.count {
            let row = Int(r[j])
            var i = off[row]
            let e = off[row + 1]
            while i < e {
              c.initializeElement(at: k, to: i)
              k += 1
              i += 1
            }
          }
          initialized = k
        }
        return (newOffsets, childRows)
      }
    }
  }

  /// Runs `jobs` (independent, each writing only its own result) on the
  /// worker pool, or in order when there is one job.
  package static func run(_ jobs: [@Sendable () -> Void]) {
    Parallel.forEach(jobs.count) { jobs[$0]() }
  }
}
