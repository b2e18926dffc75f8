/// Id -> code for a coded ``StringColumn``: open addressing over 64-bit
/// slots `id << 32 | code`, 0 = empty (id 0, absent, is never stored), at
/// most half full.
struct CodeTable: Sendable {
  private var slots: [UInt64] = []
  private var used = 0

  var memoryFootprint: Int { slots.capacity * 8 }
  var isEmpty: Bool { used == 0 }

  @inline(__always)
  private func home(_ id: UInt32, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(id) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  @inline(__always)
  func find(_ id: UInt32) -> UInt32? {
    guard !slots.isEmpty else { return nil }
    return slots.withUnsafeBufferPointer { s in
      let mask = s.count - 1
      var i = home(id, mask)
      while true {
        let e = s[i]
        if e == 0 { return nil }
        if UInt32(truncatingIfNeeded: e >> 32) == id { return UInt32(truncatingIfNeeded: e) }
        i = (i + 1) & mask
      }
    }
  }

  /// Inserts `id` (not present, not 0) with `code`.
  mutating func insert(_ id: UInt32, code: UInt32) {
    if (used + 1) * 2 > slots.count { grow() }
    let mask = slots.count - 1
    var i = home(id, mask)
    while slots[i] != 0 { i = (i + 1) & mask }
    slots[i] = UInt64(id) << 32 | UInt64(code)
    used += 1
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: Swift.max(8, old.count * 2))
    let mask = slots.count - 1
    for e in old where e != 0 {
      var i = home(UInt32(truncatingIfNeeded: e >> 32), mask)
      while slots[i] != 0 { i = (i + 1) & mask }
      slots[i] = e
    }
  }
}
