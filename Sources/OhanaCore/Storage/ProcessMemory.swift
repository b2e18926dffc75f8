import COhanaCore

/// A process-wide memory setting for batch programs (the `ohana` tool and
/// the benchmarks call it first thing; a library never changes it for the
/// program that links it).
///
/// glibc serves a block of 128 KiB or more from its own mapping, returned to
/// the system when freed, but raises that threshold to the size of each
/// such block freed. A reader frees blocks of up to a few MiB per input
/// chunk (the chunk, its partial table, the merge's scratch), so soon every
/// block below that size comes from the heaps of the reading threads, whose
/// freed space stays resident and adds to the peak. Fixing the threshold
/// keeps blocks of `threshold` bytes or more out of the heaps, at the price
/// of mapping and touching them afresh (more system time).
public enum ProcessMemory {
  /// The threshold the `ohana` tool uses: 1 MiB.
  public static let batchThreshold = 1 << 20

  /// Fixes the C library's mmap threshold at `threshold` bytes; false where
  /// there is no such setting (not glibc).
  @discardableResult
  public static func fixMmapThreshold(_ threshold: Int = batchThreshold) -> Bool {
    ohana_set_mmap_threshold(Int32(clamping: threshold)) == 1
  }
}
