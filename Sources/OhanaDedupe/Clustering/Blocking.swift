/// Candidate pairs from shared blocking keys.
///
/// Every contact emits one entry per key (phone keys, e-mail keys, the name
/// key, postcode+street keys), packed as `hash bits | row bits` into one
/// `UInt64`; a radix sort brings rows with the same key together, and each
/// block of at most `maxBlockSize` rows yields its pairs. Larger blocks are
/// not compared all against all: they are counted as capped, and within
/// them only rows that also share the name key and first phone are paired, each with its
/// next ``neighbours`` rows in that order (a sorted neighbourhood), so a
/// bulk of identical records or a switchboard shared by namesakes still
/// meets while no block grows quadratic. Pairs are packed
/// `low row << 32 | high row`, sorted and made unique, so a pair sharing
/// several keys is compared once.
///
/// - Complexity: O(keys + pairs); pairs ≤ keys × maxBlockSize / 2 plus
///   rows in capped blocks × neighbours.
enum Blocking {
  /// In a capped block, how many following rows with the same name key
  /// each row is paired with.
  static let neighbours = 4

  static func candidatePairs(
    keys: ContactKeys, configuration: DedupeConfiguration, statistics: inout DedupeResult.Statistics
  ) -> [UInt64] {
    let n = keys.count
    if n < 2 { return [] }
    let rowBits = UInt64(max(1, Int.bitWidth - (n - 1).leadingZeroBitCount))
    let rowMask: UInt64 = (1 << rowBits) - 1
    var entries: [UInt64] = []
    entries.reserveCapacity(keys.phones.count + keys.emails.count + keys.addresses.count + n)
    @inline(__always) func add(_ key: UInt64, _ kind: BlockingKey, _ row: Int) {
      let h = Hash64.mix(key ^ (UInt64(kind.rawValue) << 61))
      entries.append((h & ~rowMask) | UInt64(row))
    }
    for r in 0..<n {
      for i in keys.phones(of: r) { add(keys.phones[i], .phone, r) }
      for i in keys.emails(of: r) { add(keys.emails[i], .email, r) }
      if configuration.blockOnNames && keys.nameKey[r] != 0 { add(keys.nameKey[r], .name, r) }
      if configuration.blockOnAddresses {
        var last: UInt64 = 0
        for i in keys.addresses(of: r) where keys.addresses[i] != 0 && keys.addresses[i] != last {
          last = keys.addresses[i]
          add(last, .address, r)
        }
      }
    }
    statistics.blockingKeys = entries.count
    RadixSort.sort(&entries, split: 1 << 63, threads: configuration.threads)
    var pairs: [UInt64] = []
    pairs.reserveCapacity(entries.count * 2)
    let cap = max(2, configuration.maxBlockSize)
    var start = 0
    let keyMask = ~rowMask
    var scratch: [(UInt64, UInt64)] = []
    while start < entries.count {
      let k = entries[start] & keyMask
      var end = start + 1
      while end < entries.count && entries[end] & keyMask == k { end += 1 }
      let size = end - start
      statistics.largestBlock = max(statistics.largestBlock, size)
      if size > cap {
        statistics.cappedBlocks += 1
        statistics.rowsInCappedBlocks += size
        // Sorted neighbourhood inside the capped block, on the name key and
        // first phone together (namesakes with other phones stay apart).
        scratch.removeAll(keepingCapacity: true)
        for i in start..<end {
          let row = entries[i] & rowMask
          let nk = keys.nameKey[Int(row)]
          if nk != 0 { scratch.append((Hash64.combine(nk, UInt64(keys.records[Int(row)].sketch.p0)), row)) }
        }
        scratch.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var i = 0
        while i < scratch.count {
          var j = i + 1
          while j < scratch.count && j <= i + neighbours && scratch[j].0 == scratch[i].0 {
            let a = scratch[i].1, b = scratch[j].1
            if a != b { pairs.append(min(a, b) << 32 | max(a, b)) }
            j += 1
          }
          i += 1
        }
      } else if size > 1 {
        for i in start..<(end - 1) {
          let a = entries[i] & rowMask
          for j in (i + 1)..<end {
            let b = entries[j] & rowMask
            if a != b { pairs.append(a << 32 | b) }
          }
        }
      }
      start = end
    }
    // Pairs are `low row << 32 | high row`: split at the middle row.
    RadixSort.sort(&pairs, split: UInt64(n / 2) << 32, threads: configuration.threads)
    // Unique in place.
    if pairs.count > 1 {
      var w = 1
      for i in 1..<pairs.count where pairs[i] != pairs[w - 1] {
        pairs[w] = pairs[i]
        w += 1
      }
      pairs.removeSubrange(w...)
    }
    return pairs
  }
}
