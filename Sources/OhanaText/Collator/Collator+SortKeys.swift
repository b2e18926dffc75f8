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
    let pool = self.pool
    let storage = ByteStrings.build(count: count, parallel: parallel) { indices, chunk in
      chunk.bytes.reserveCapacity(indices.count * 48)
      utf8.withUnsafeBufferPointer { all in
        pool.withInstance { handle in
          var writer = SortKeyWriter()
          for i in indices {
            let r = range(i)
            precondition(r.lowerBound >= 0 && r.upperBound <= all.count, "string range out of bounds")
            _ = writer.append(UnsafeBufferPointer(rebasing: all[r]), collator: handle, to: &chunk.bytes)
            chunk.close()
          }
        }
      }
    }
    return SortKeys(storage: storage)
  }
}
