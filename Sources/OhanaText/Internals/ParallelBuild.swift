import OhanaCore

/// One worker's output: a local arena with offsets from 0.
struct ByteChunk: Sendable {
  var bytes: [UInt8] = []
  var offsets: [Int] = [0]

  /// Appends one output string (the bytes `body` appended to `bytes`).
  @inline(__always)
  mutating func close() { offsets.append(bytes.count) }
}

extension ByteStrings {
  /// Builds one output string per input index `0..<count`, in parallel.
  ///
  /// The indices are split into chunks; `fill(range, &chunk)` appends the
  /// outputs for `range` to `chunk` (calling `chunk.close()` after each one)
  /// and runs on one worker thread per chunk, so it can hold one cloned ICU
  /// object for the whole chunk. The chunk arenas are joined in order.
  ///
  /// - Complexity: O(output bytes) for the join, plus the work of `fill`
  ///   divided over the cores.
  static func build(
    count: Int, parallel: Bool, fill: @Sendable (Range<Int>, inout ByteChunk) -> Void
  ) -> ByteStrings {
    if count == 0 { return ByteStrings() }
    let workers = parallel ? Workers.count : 1
    // Chunks are small enough to balance, large enough to amortize a clone checkout.
    let chunkSize = Swift.max(512, Swift.min(16_384, count / Swift.max(1, workers * 8)))
    let chunkCount = (count + chunkSize - 1) / chunkSize
    if workers == 1 || chunkCount == 1 {
      var chunk = ByteChunk()
      chunk.offsets.reserveCapacity(count + 1)
      fill(0..<count, &chunk)
      precondition(chunk.offsets.count == count + 1, "one output per input")
      return ByteStrings(bytes: chunk.bytes, offsets: chunk.offsets)
    }
    let chunks = Parallel.map(chunkCount, workers: workers) { c -> ByteChunk? in
      let lower = c * chunkSize
      let range = lower..<Swift.min(count, lower + chunkSize)
      var chunk = ByteChunk()
      chunk.offsets.reserveCapacity(range.count + 1)
      fill(range, &chunk)
      precondition(chunk.offsets.count == range.count + 1, "one output per input")
      return chunk
    }
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
    return ByteStrings(bytes: bytes, offsets: offsets)
  }
}
