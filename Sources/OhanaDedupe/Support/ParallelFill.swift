import OhanaCore

/// Arrays built or changed in place on the workers, in pieces, each
/// element written by one worker. (Here, not in OhanaCore: generic code
/// called from another module is not specialized for its callers' types.)
enum ParallelFill {
  /// `[body(0), ..., body(count - 1)]`, written into uninitialized storage.
  static func filled<T: BitwiseCopyable>(_ count: Int, threads: Int = 0, _ body: (Int) -> T) -> [T] {
    [T](unsafeUninitializedCapacity: max(0, count)) { out, initialized in
      if let base = out.baseAddress {
        let pieces = Parallel.pieces(count, workers: threads, minimumPiece: 1 << 14)
        Parallel.forEach(pieces, workers: threads) { p in
          for i in Parallel.piece(p, of: pieces, count: count) { (base + i).initialize(to: body(i)) }
        }
      }
      initialized = max(0, count)
    }
  }

  /// Calls `body(i, &array[i])` for every element, in place.
  static func update<T>(_ array: inout [T], threads: Int = 0, _ body: (Int, inout T) -> Void) {
    let count = array.count
    array.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let pieces = Parallel.pieces(count, workers: threads, minimumPiece: 1 << 14)
      Parallel.forEach(pieces, workers: threads) { p in
        for i in Parallel.piece(p, of: pieces, count: count) { body(i, &base[i]) }
      }
    }
  }

  /// `sorted` (ascending) without repeats: each piece counts the values
  /// that differ from the one before, then copies them to their place.
  static func uniqued<T: Equatable & BitwiseCopyable>(_ sorted: [T], threads: Int = 0) -> [T] {
    let n = sorted.count
    let pieces = Parallel.pieces(n, workers: threads, minimumPiece: 1 << 16)
    @inline(__always) func isNew(_ i: Int) -> Bool { i == 0 || sorted[i] != sorted[i - 1] }
    let counts = Parallel.map(pieces, workers: threads) { p in
      Parallel.piece(p, of: pieces, count: n).reduce(0) { $0 + (isNew($1) ? 1 : 0) }
    }
    var starts = [Int](repeating: 0, count: pieces + 1)
    for p in 0..<pieces { starts[p + 1] = starts[p] + counts[p] }
    let total = starts[pieces]
    if total == n { return sorted }
    return [T](unsafeUninitializedCapacity: total) { out, initialized in
      if let base = out.baseAddress {
        Parallel.forEach(pieces, workers: threads) { p in
          var at = starts[p]
          for i in Parallel.piece(p, of: pieces, count: n) where isNew(i) {
            (base + at).initialize(to: sorted[i])
            at += 1
          }
        }
      }
      initialized = total
    }
  }

  /// Where each of `parts` starts once they are laid end to end, and (last)
  /// their total length.
  private static func placesOf<T>(_ parts: [[T]]) -> [Int] {
    var starts = [Int](repeating: 0, count: parts.count + 1)
    for i in parts.indices { starts[i + 1] = starts[i] + parts[i].count }
    return starts
  }

  /// `parts` laid end to end: each part copied into place (one bulk copy)
  /// by one worker.
  static func laid<T: BitwiseCopyable>(_ parts: consuming [[T]], threads: Int = 0) -> [T] {
    let starts = placesOf(parts), total = starts[starts.count - 1]
    // Each part is freed once copied: the parts and the whole are never
    // all held at once.
    let list = OwnedParts(consume parts)
    return [T](unsafeUninitializedCapacity: total) { out, initialized in
      if let base = out.baseAddress {
        Parallel.forEach(list.count, workers: threads) { i in
          list.part(i).withUnsafeBufferPointer { src in
            if let s = src.baseAddress { (base + starts[i]).initialize(from: s, count: src.count) }
          }
          list.release(i)
        }
      }
      initialized = total
    }
  }

  /// `parts` laid end to end, `fix(i, &element)` called on each element
  /// (`i`: its place in the result) as it is copied: each part by one
  /// worker.
  static func laid<T>(_ parts: consuming [[T]], threads: Int = 0, fix: (Int, inout T) -> Void) -> [T] {
    let starts = placesOf(parts), total = starts[starts.count - 1]
    let list = OwnedParts(consume parts)
    return [T](unsafeUninitializedCapacity: total) { out, initialized in
      if let base = out.baseAddress {
        Parallel.forEach(list.count, workers: threads) { i in
          var at = starts[i]
          for var element in list.part(i) {
            fix(at, &element)
            (base + at).initialize(to: element)
            at += 1
          }
          list.release(i)
        }
      }
      initialized = total
    }
  }

  /// CSR offsets from per-part list ends: `0`, then each part's ends
  /// (relative to its own list, whose length is `lengths[i]`) moved past
  /// the lists before it.
  static func offsets(ends: consuming [[UInt32]], lengths: [Int], threads: Int = 0) -> [UInt32] {
    let list = ends
    var starts = [Int](repeating: 1, count: list.count + 1)
    var bases = [UInt32](repeating: 0, count: list.count)
    for i in list.indices {
      starts[i + 1] = starts[i] + list[i].count
      if i + 1 < list.count { bases[i + 1] = bases[i] &+ UInt32(truncatingIfNeeded: lengths[i]) }
    }
    let total = starts[list.count]
    return [UInt32](unsafeUninitializedCapacity: total) { out, initialized in
      if let base = out.baseAddress {
        base.initialize(to: 0)
        Parallel.forEach(list.count, workers: threads) { i in
          var at = base + starts[i]
          for e in list[i] {
            at.initialize(to: bases[i] &+ e)
            at += 1
          }
        }
      }
      initialized = total
    }
  }
}
