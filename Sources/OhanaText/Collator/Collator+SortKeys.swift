import Dispatch
import Synchronization

extension Collator {
  /// The sort keys of many strings, made in parallel on all cores.
  ///
  /// The strings are split into chunks; each worker takes one clone of the
  /// collator for its chunk (ICU collators are not shared across threads)
  /// and writes keys into its own arena; the arenas are then joined in order.
  /// Pass distinct strings (interned values): equal strings get equal keys,
  /// so making them twice is wasted work.
  ///
  /// - Parameters:
  ///   - strings: UTF-8 strings; key `i` belongs to `strings[i]`.
  ///   - parallel: false runs on the calling thread only.
  /// - Complexity: O(total bytes), divided by the number of cores.
  public func sortKeys(for strings: ByteStrings, parallel: Bool = true) -> SortKeys {
    sortKeys(count: strings.count, utf8: strings.bytes, parallel: parallel) { strings.range($0) }
  }

  /// The sort keys of the strings `strings[indices[i]]` (e.g. only the ids a
  /// name column uses out of a whole string pool); key `i` belongs to `indices[i]`.
  public func sortKeys(for strings: ByteStrings, selecting indices: [Int], parallel: Bool = true)
    -> SortKeys
  {
    sortKeys(count: indices.count, utf8: strings.bytes, parallel: parallel) {
      strings.range(indices[$0])
    }
  }

  /// The sort keys of strings stored in any byte arena: key `i` is made from
  /// `utf8[range(i)]` for `i` in `0..<count`. Use this when the strings live
  /// in another store (a string pool) and copying them out would cost.
  ///
  /// - Precondition: every range lies within `utf8`.
  public func sortKeys(
    count: Int, utf8: [UInt8], parallel: Bool = true,
    range: @Sendable (Int) -> Range<Int>
  ) -> SortKeys {
    if count == 0 { return SortKeys(storage: ByteStrings()) }
    let workers = parallel ? max(1, activeProcessorCount()) : 1
    // Chunks are small enough to balance, large enough to amortize a clone checkout.
    let chunkSize = max(512, min(16_384, count / max(1, workers * 8)))
    let chunkCount = (count + chunkSize - 1) / chunkSize
    if workers == 1 || chunkCount == 1 {
      let chunk = makeKeyChunk(utf8: utf8, range: range, indices: 0..<count)
      return SortKeys(storage: ByteStrings(bytes: chunk.bytes, offsets: chunk.offsets))
    }
    let results = Mutex<[KeyChunk?]>(Array(repeating: nil, count: chunkCount))
    DispatchQueue.concurrentPerform(iterations: chunkCount) { c in
      let lower = c * chunkSize
      let chunk = makeKeyChunk(utf8: utf8, range: range, indices: lower..<min(count, lower + chunkSize))
      results.withLock { $0[c] = chunk }
    }
    let chunks = results.withLock { list in
      let taken = list
      list = []
      return taken
    }
    // Join the chunk arenas in order.
    var totalBytes = 0
    for chunk in chunks { totalBytes += chunk?.bytes.count ?? 0 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(totalBytes)
    var offsets: [Int] = []
    offsets.reserveCapacity(count + 1)
    offsets.append(0)
    for chunk in chunks {
      guard let chunk else { continue }
      let base = bytes.count
      bytes.append(contentsOf: chunk.bytes)
      for o in chunk.offsets.dropFirst() { offsets.append(base + o) }
    }
    return SortKeys(storage: ByteStrings(bytes: bytes, offsets: offsets))
  }

  private func makeKeyChunk(
    utf8: [UInt8], range: (Int) -> Range<Int>, indices: Range<Int>
  ) -> KeyChunk {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(indices.count * 48)
    var offsets: [Int] = []
    offsets.reserveCapacity(indices.count + 1)
    offsets.append(0)
    utf8.withUnsafeBufferPointer { all in
      pool.withInstance { handle in
        var writer = SortKeyWriter()
        for i in indices {
          let r = range(i)
          precondition(r.lowerBound >= 0 && r.upperBound <= all.count, "string range out of bounds")
          _ = writer.append(UnsafeBufferPointer(rebasing: all[r]), collator: handle, to: &bytes)
          offsets.append(bytes.count)
        }
      }
    }
    return KeyChunk(bytes: bytes, offsets: offsets)
  }
}

/// One worker's keys: a local arena with offsets from 0.
private struct KeyChunk: Sendable {
  var bytes: [UInt8]
  var offsets: [Int]
}
