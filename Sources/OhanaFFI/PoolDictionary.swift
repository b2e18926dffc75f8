import OhanaCore

/// A table's ``StringPool`` as one Arrow `utf8` array, the dictionary that
/// every exported string column of the table shares:
///
/// ```
///  pool ids     0(absent) 1        2        3 ...
///  dictionary             0        1        2 ...      index = id - 1
///  offsets      [ 0 | end(1) | end(2) | end(3) ... ]   = the pool's ends, as they are
///  data         the pool's arena (every distinct string once)
/// ```
/// A cell with id `i > 0` is dictionary index `i - 1`; an absent cell is
/// null. The pool's ends start at 0 and never decrease, which is what Arrow
/// asks of offsets. Built once per export (one copy of the arena and the
/// ends, never one per row). Above 2^31 - 1 bytes of distinct strings the
/// 32-bit offsets of `utf8` cannot reach, so the dictionary is
/// `large_utf8` (64-bit offsets).
struct PoolDictionary: Sendable {
  let node: ArrowNode

  /// A dictionary built before (shared).
  init(node: ArrowNode) { self.node = node }

  init(_ pool: StringPool) {
    let n = pool.count - 1  // strings 1 ..< count
    node = pool.withStorage { arena, ends in
      let data = ArrowBuffer.copy(arena)
      if arena.count <= Int(Int32.max) {
        let offsets = ArrowBuffer.filled(Int32.self, count: n + 1) { o in
          for i in 0...n { o[i] = Int32(truncatingIfNeeded: ends[i]) }
        }
        return ArrowNode(format: "u", nullable: false, length: n, buffers: [nil, offsets, data])
      }
      let offsets = ArrowBuffer.filled(Int64.self, count: n + 1) { o in
        for i in 0...n { o[i] = Int64(ends[i]) }
      }
      return ArrowNode(format: "U", nullable: false, length: n, buffers: [nil, offsets, data])
    }
  }
}
