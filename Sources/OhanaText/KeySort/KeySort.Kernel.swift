import OhanaCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension KeySort {
  /// The one place that touches sort-key memory through pointers: a stable
  /// MSD radix sort of key indices by key bytes.
  ///
  /// ### Method
  /// Each item is `(prefix, index)`: the next 8 key bytes from `depth`,
  /// big-endian in a `UInt64`, and the key's index. A task `(lo, hi, bytePos,
  /// depth)` is a range of items that agree on the key bytes before
  /// `depth + bytePos`. A pass counts byte `bytePos` of the prefix (256
  /// buckets), skips it if every item has the same byte, otherwise scatters
  /// stably into scratch and copies back, and pushes one task per bucket.
  /// After 8 bytes the prefixes are reloaded 8 bytes further. Ranges of at
  /// most 16 items are insertion-sorted with a full compare from `depth`.
  /// Bucket 0 holds keys that ended (the zero terminator): they are equal,
  /// and stay in input order. Everything is stable, so ties keep index order.
  ///
  /// For large inputs the first passes run on the calling thread until the
  /// tasks are small, then workers take tasks (largest first) from a shared
  /// counter; tasks cover disjoint item ranges, so workers never write to
  /// the same memory.
  ///
  /// - Complexity: O(total distinguishing key bytes + n), no comparisons
  ///   except inside ranges of ≤ 16 items.
  final class Kernel: @unchecked Sendable {
    // @unchecked Sendable: workers only write items/scratch inside the
    // disjoint ranges of the tasks they took; keys and offsets are read-only.

    struct Item {
      var prefix: UInt64
      var index: UInt32
    }

    struct Task {
      var lo: Int
      var hi: Int
      var bytePos: Int
      var depth: Int
    }

    static let insertionThreshold = 16
    static let parallelThreshold = 32_768

    private let keys: UnsafePointer<UInt8>
    private let offsets: UnsafePointer<Int>
    private let items: UnsafeMutablePointer<Item>
    private let scratch: UnsafeMutablePointer<Item>
    let count: Int

    /// Sorts the keys of `storage` and returns key indices in ascending order.
    static func sortedIndices(_ storage: ByteStrings, parallel: Bool) -> [UInt32] {
      let n = storage.count
      if n == 0 { return [] }
      precondition(n < Int(UInt32.max), "KeySort: too many keys")
      return storage.bytes.withUnsafeBufferPointer { keyBytes in
        storage.offsets.withUnsafeBufferPointer { offsets in
          guard let keyBase = keyBytes.baseAddress, let offsetBase = offsets.baseAddress else {
            // Only empty keys (no bytes at all): all equal, input order.
            return (0..<n).map { UInt32($0) }
          }
          let items = UnsafeMutablePointer<Item>.allocate(capacity: n)
          let scratch = UnsafeMutablePointer<Item>.allocate(capacity: n)
          defer {
            items.deallocate()
            scratch.deallocate()
          }
          let kernel = Kernel(
            keys: keyBase, offsets: offsetBase, items: items, scratch: scratch, count: n)
          kernel.sort(parallel: parallel)
          return [UInt32](unsafeUninitializedCapacity: n) { out, initialized in
            for i in 0..<n { out[i] = items[i].index }
            initialized = n
          }
        }
      }
    }

    /// Dense ranks of keys, given their sorted order: equal keys share a rank.
    static func ranks(_ storage: ByteStrings, order: [UInt32]) -> (ranks: [UInt32], distinct: Int) {
      let n = order.count
      precondition(n == storage.count, "KeySort: order does not match keys")
      if n == 0 { return ([], 0) }
      var distinct = 1
      let ranks = [UInt32](unsafeUninitializedCapacity: n) { out, initialized in
        storage.bytes.withUnsafeBufferPointer { keyBytes in
          storage.offsets.withUnsafeBufferPointer { offsets in
            var rank: UInt32 = 0
            var previous = Int(order[0])
            out[previous] = 0
            for j in 1..<n {
              let current = Int(order[j])
              let a = offsets[previous]..<offsets[previous + 1]
              let b = offsets[current]..<offsets[current + 1]
              if !equalBytes(keyBytes, a, b) { rank += 1 }
              out[current] = rank
              previous = current
            }
            distinct = Int(rank) + 1
          }
        }
        initialized = n
      }
      return (ranks, distinct)
    }

    @inline(__always)
    private static func equalBytes(
      _ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>
    ) -> Bool {
      guard a.count == b.count else { return false }
      guard let base = bytes.baseAddress, !a.isEmpty else { return true }
      return memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
    }

    private init(
      keys: UnsafePointer<UInt8>, offsets: UnsafePointer<Int>,
      items: UnsafeMutablePointer<Item>, scratch: UnsafeMutablePointer<Item>, count: Int
    ) {
      self.keys = keys
      self.offsets = offsets
      self.items = items
      self.scratch = scratch
      self.count = count
    }

    private func sort(parallel: Bool) {
      for i in 0..<count {
        (items + i).initialize(to: Item(prefix: loadPrefix(i, depth: 0), index: UInt32(i)))
      }
      (scratch).initialize(repeating: Item(prefix: 0, index: 0), count: count)
      let workers = parallel ? Workers.count : 1
      var tasks = [Task(lo: 0, hi: count, bytePos: 0, depth: 0)]
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { counts in
        guard let counts = counts.baseAddress else { return }
        if workers > 1 && count >= Kernel.parallelThreshold {
          // Split on this thread until every task is small enough to balance.
          let target = max(Kernel.parallelThreshold / 4, count / (workers * 8))
          var ready: [Task] = []
          while let t = tasks.popLast() {
            if t.hi - t.lo <= target {
              ready.append(t)
            } else {
              pass(t, counts: counts) { tasks.append($0) }
            }
          }
          ready.sort { $0.hi - $0.lo > $1.hi - $1.lo }
          runInParallel(ready, workers: workers)
        } else {
          while let t = tasks.popLast() { pass(t, counts: counts) { tasks.append($0) } }
        }
      }
    }

    private func runInParallel(_ ready: [Task], workers: Int) {
      let next = Atomic<Int>(0)
      Parallel.forEach(min(workers, ready.count), workers: workers) { _ in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { counts in
          guard let counts = counts.baseAddress else { return }
          var stack: [Task] = []
          while true {
            let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
            if k >= ready.count { break }
            stack.append(ready[k])
            while let t = stack.popLast() { pass(t, counts: counts) { stack.append($0) } }
          }
        }
      }
    }

    /// Processes one task until it splits (pushing the parts) or is sorted.
    @inline(__always)
    private func pass(_ task: Task, counts: UnsafeMutablePointer<Int>, push: (Task) -> Void) {
      var t = task
      while true {
        let n = t.hi - t.lo
        if n < 2 { return }
        if n <= Kernel.insertionThreshold {
          insertionSort(t.lo, t.hi, depth: t.depth)
          return
        }
        if t.bytePos == 8 {
          // All items share these 8 bytes; a zero among them is the terminator.
          if hasZeroByte(items[t.lo].prefix) { return }
          t.depth += 8
          t.bytePos = 0
          for i in t.lo..<t.hi { items[i].prefix = loadPrefix(Int(items[i].index), depth: t.depth) }
          continue
        }
        // Skip the bytes every item shares in one sequential pass (names
        // often share long prefixes), instead of one histogram per byte.
        let firstPrefix = items[t.lo].prefix
        var diff: UInt64 = 0
        for i in (t.lo + 1)..<t.hi { diff |= items[i].prefix ^ firstPrefix }
        let common = diff == 0 ? 8 : diff.leadingZeroBitCount / 8
        if common > t.bytePos {
          for p in t.bytePos..<common where (firstPrefix &>> UInt64(56 - 8 * p)) & 0xFF == 0 {
            return  // every key ended inside the shared bytes: all equal
          }
          t.bytePos = common
          if common == 8 { continue }
        }
        let shift = UInt64(56 - 8 * t.bytePos)
        counts.update(repeating: 0, count: 256)
        for i in t.lo..<t.hi { counts[Int(truncatingIfNeeded: items[i].prefix &>> shift) & 0xFF] += 1 }
        let first = Int(truncatingIfNeeded: items[t.lo].prefix &>> shift) & 0xFF
        if counts[first] == n {
          if first == 0 { return }  // every key ended here: all equal
          t.bytePos += 1
          continue
        }
        var sum = t.lo
        for b in 0..<256 {
          let c = counts[b]
          counts[b] = sum
          sum += c
        }
        for i in t.lo..<t.hi {
          let b = Int(truncatingIfNeeded: items[i].prefix &>> shift) & 0xFF
          scratch[counts[b]] = items[i]
          counts[b] += 1
        }
        (items + t.lo).update(from: scratch + t.lo, count: n)
        // counts[b] is now the end of bucket b. Bucket 0 holds ended keys: equal, done.
        var start = counts[0]
        for b in 1..<256 {
          let end = counts[b]
          if end - start >= 2 {
            push(Task(lo: start, hi: end, bytePos: t.bytePos + 1, depth: t.depth))
          }
          start = end
        }
        return
      }
    }

    private func insertionSort(_ lo: Int, _ hi: Int, depth: Int) {
      var i = lo + 1
      while i < hi {
        let x = items[i]
        var j = i
        while j > lo && less(x, items[j - 1], depth: depth) {
          items[j] = items[j - 1]
          j -= 1
        }
        items[j] = x
        i += 1
      }
    }

    /// Strict key order of two items whose keys agree before `depth`.
    @inline(__always)
    private func less(_ a: Item, _ b: Item, depth: Int) -> Bool {
      if a.prefix != b.prefix { return a.prefix < b.prefix }
      if hasZeroByte(a.prefix) { return false }
      // Both keys continue past depth + 8 (no terminator seen yet).
      let ia = Int(a.index)
      let ib = Int(b.index)
      let sa = offsets[ia] + depth + 8
      let sb = offsets[ib] + depth + 8
      let la = max(0, offsets[ia + 1] - sa)
      let lb = max(0, offsets[ib + 1] - sb)
      let common = min(la, lb)
      if common > 0 {
        let r = memcmp(keys + sa, keys + sb, common)
        if r != 0 { return r < 0 }
      }
      return la < lb
    }

    /// The 8 key bytes of key `i` from `depth`, big-endian, zero-padded.
    @inline(__always)
    private func loadPrefix(_ i: Int, depth: Int) -> UInt64 {
      let start = offsets[i] + depth
      let remaining = offsets[i + 1] - start
      if remaining >= 8 {
        // Safe: start + 8 <= offsets[i + 1] <= keys' byte count.
        return UInt64(bigEndian: UnsafeRawPointer(keys + start).loadUnaligned(as: UInt64.self))
      }
      var value: UInt64 = 0
      var k = 0
      while k < remaining {
        value |= UInt64(keys[start + k]) &<< UInt64(56 - 8 * k)
        k += 1
      }
      return value
    }

    @inline(__always)
    private func hasZeroByte(_ x: UInt64) -> Bool {
      (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }
  }
}
