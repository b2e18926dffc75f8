import OhanaCore

/// Borrowed view of a string pool's storage for the writers, valid only
/// inside `ContactTable.withPoolBytes`. Looking up an id is two loads, with
/// no reference counting per value (which `StringPool.withBytes` costs when
/// called for every cell).
struct PoolBytes {
  let arena: UnsafeRawBufferPointer
  let ends: StringPool.Ends

  /// The bytes of `id`; empty for absent or out-of-range ids.
  @inline(__always)
  func callAsFunction(_ id: StringID) -> UnsafeRawBufferPointer {
    let i = id.index
    guard i > 0 && i < ends.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    let start = ends[i - 1]
    let end = ends[i]
    guard start >= 0 && start <= end && end <= arena.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(rebasing: arena[start..<end])
  }
}

extension ContactTable {
  /// Calls `body` with a ``PoolBytes`` over this table's pool.
  func withPoolBytes<R>(_ body: (PoolBytes) throws -> R) rethrows -> R {
    try pool.withStorage { arena, ends in try body(PoolBytes(arena: arena, ends: ends)) }
  }
}

/// `body(bytes(id))`, in the shape of `StringPool.withBytes`.
@inline(__always)
func withPoolBytes<R>(_ bytes: PoolBytes, _ id: StringID, _ body: (UnsafeRawBufferPointer) -> R) -> R {
  body(bytes(id))
}
