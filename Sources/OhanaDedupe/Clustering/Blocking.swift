import OhanaCore

/// Candidate pairs from shared blocking keys.
///
/// Every contact emits one entry per key (phone keys, e-mail keys, the name
/// key, postcode+street keys, and the typo-tolerant rules' keys of
/// ``BlockingRules.swift``), packed as `hash bits | row bits` into one
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

  /// `bound`: the typo-tolerant rules (``BlockingRules.swift``) skip a
  /// pair that cannot reach the threshold whatever else it shares: both
  /// sides have phones (a shared one would have paired them already, so
  /// for these rules they share none) or both have e-mails, and the model
  /// says that alone keeps the weight below the threshold. ``ScoreBound/none``
  /// (EM, explanations) skips nothing.
  static func candidatePairs(
    keys: ContactKeys, configuration: DedupeConfiguration, bound: ScoreBound = .none,
    statistics: inout DedupeResult.Statistics, involving start: Int = 0, columns: ColumnKeys? = nil
  ) -> [UInt64] {
    let n = keys.count
    if n < 2 { return [] }
    let rowBits = UInt64(max(1, Int.bitWidth - (n - 1).leadingZeroBitCount))
    let rowMask: UInt64 = (1 << rowBits) - 1
    let threads = configuration.threads
    // Entries, in parallel over ranges of rows.
    let rules = configuration.blockingRules
    // The lowest key bit marks the rules' blocks (see `bound` above).
    let ruleFlag = rowMask + 1
    let skip = RuleSkip(keys: keys, bound: bound)
    PhaseTrace.mark("block.skip")
    let entryParts = Parallel.map(count: n, threads: threads, minimumChunk: 32768) { rows -> [UInt64] in
      var out: [UInt64] = []
      out.reserveCapacity(rows.count * (rules.isEmpty ? 5 : 10))
      if !rules.isEmpty {
        keys.folds.withStorage { arena, ends in
          for r in rows {
            forEachRuleKey(keys, r, rules: rules, arena: arena, ends: ends) { key, kind in
              out.append((blockKey(key, kind) & ~rowMask) | ruleFlag | UInt64(r))
            }
          }
        }
      }
      if let columns {
        for r in rows {
          for key in columns.of(r) { out.append((blockKey(key, .otherColumns) & ~rowMask) | ruleFlag | UInt64(r)) }
        }
      }
      for r in rows {
        forEachBasicKey(keys, r, configuration: configuration) { key, kind in
          out.append((blockKey(key, kind) & ~rowMask & ~ruleFlag) | UInt64(r))
        }
      }
      return out
    }
    PhaseTrace.mark("block.entries")
    statistics.blockingKeys = entryParts.reduce(0) { $0 + $1.count }
    // Sorted into runs that never cut a block: the sort frees each part
    // once moved, and the pairs free each run once paired, so the parts,
    // the sorted entries and the pairs are never all held at once.
    let entries = RadixSort.runs(consume entryParts, threads: threads, cutMask: ~rowMask)
    PhaseTrace.mark("block.entriesSorted")

    var pairParts = blockPairs(
      entries, keys: keys, keyMask: ~rowMask, ruleFlag: ruleFlag, skip: skip, cap: max(2, configuration.maxBlockSize),
      threads: threads, involving: start)
    PhaseTrace.mark("block.pairs")
    var pairLists: [[UInt64]] = []
    for c in pairParts.indices {
      let chunk = pairParts[c]
      pairParts[c] = []
      for p in chunk {
        pairLists.append(p.pairs)
        statistics.largestBlock = max(statistics.largestBlock, p.largestBlock)
        statistics.cappedBlocks += p.cappedBlocks
        statistics.rowsInCappedBlocks += p.rowsInCappedBlocks
      }
    }
    pairParts = []
    if rules.contains(.sortedNames) {
      pairLists += sortedNamePairs(keys, rowBits: rowBits, skip: skip, threads: threads, involving: start)
    }
    PhaseTrace.mark("block.sortedNames")
    // Pairs are `low row << 32 | high row`; sorted into runs, then each
    // run made unique and laid in place (and released).
    let pairs = RadixSort.runs(consume pairLists, threads: threads)
    PhaseTrace.mark("block.pairsSorted")
    return pairs.uniqued(threads: threads)
  }
}

extension Blocking {
  /// The hash that names a block: the key and its kind. (The entity store
  /// keeps these, so a change here must raise ``StoreKeys/version``.)
  @inline(__always)
  static func blockKey(_ key: UInt64, _ kind: BlockingKey) -> UInt64 { Hash64.mix(key ^ (UInt64(kind.rawValue) << 56)) }

  /// Calls `body(key, kind)` for each phone, e-mail, name and address key
  /// of row `r` that `configuration` blocks on.
  @inline(__always)
  static func forEachBasicKey(
    _ keys: ContactKeys, _ r: Int, configuration: DedupeConfiguration, _ body: (UInt64, BlockingKey) -> Void
  ) {
    if configuration.blockOnPhones {
      // On the suffix: numbers of other calling codes meet, and the scorer
      // tells them apart (``KeyFunctions/samePhone(_:_:)``).
      var last: UInt64 = 0
      for i in keys.phones(of: r) {
        let suffix = KeyFunctions.phoneSuffix(keys.phones[i])
        if suffix != last { body(suffix, .phone) }
        last = suffix
      }
    }
    if configuration.blockOnEmails { for i in keys.emails(of: r) { body(keys.emails[i], .email) } }
    if configuration.blockOnNames && keys.nameKey[r] != 0 { body(keys.nameKey[r], .name) }
    if configuration.blockOnAddresses {
      var last: UInt64 = 0
      for i in keys.addresses(of: r) where keys.addresses[i] != 0 && keys.addresses[i] != last {
        last = keys.addresses[i]
        body(last, .address)
      }
    }
  }
}

extension Blocking {
  /// The pairs of sorted `entries`, in parallel over its runs (which
  /// never cut a block), one piece of work a run, taken in order by
  /// whichever worker is free; each run is released once paired.
  static func blockPairs(
    _ entries: SortedRuns, keys: ContactKeys, keyMask: UInt64, ruleFlag: UInt64, skip: RuleSkip, cap: Int, threads: Int,
    involving start: Int = 0
  ) -> [[BlockPairs]] {
    Parallel.map(entries.runCount, workers: threads) { r in
      let pairs = entries.withRun(r) { run in
        BlockPairs(run, 0..<run.count, keys: keys, keyMask: keyMask, ruleFlag: ruleFlag, skip: skip, cap: cap, involving: start)
      }
      entries.release(r)
      return [pairs]
    }
  }
}

/// The candidate pairs of a range of sorted blocking entries that starts
/// and ends at block boundaries (see ``Blocking``), with their statistics;
/// only pairs whose higher row is at least `involving` (the new rows of an
/// entity store's batch, which follow the stored ones: pairs of stored
/// rows alone are never made).
struct BlockPairs: Sendable {
  var pairs: [UInt64] = []
  var largestBlock = 0
  var cappedBlocks = 0
  var rowsInCappedBlocks = 0

  init(
    _ entries: UnsafeBufferPointer<UInt64>, _ range: Range<Int>, keys: ContactKeys, keyMask: UInt64, ruleFlag: UInt64, skip: RuleSkip, cap: Int,
    involving: Int = 0
  ) {
    let rowMask = ~keyMask
    let low = UInt64(involving)
    pairs.reserveCapacity(range.count * 2)
    var start = range.lowerBound
    var scratch: [(UInt64, UInt64)] = []
    while start < range.upperBound {
      let k = entries[start] & keyMask
      var end = start + 1
      while end < range.upperBound && entries[end] & keyMask == k { end += 1 }
      let size = end - start
      largestBlock = max(largestBlock, size)
      if size > cap {
        cappedBlocks += 1
        rowsInCappedBlocks += size
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
          while j < scratch.count && j <= i + Blocking.neighbours && scratch[j].0 == scratch[i].0 {
            let a = scratch[i].1, b = scratch[j].1
            if a != b && max(a, b) >= low { pairs.append(min(a, b) << 32 | max(a, b)) }
            j += 1
          }
          i += 1
        }
      } else if size > 1 && entries[end - 1] & rowMask < low {
        // No row of the block is at or past `involving` (rows are sorted).
      } else if size > 1 && k & ruleFlag != 0 && skip.active {
        for i in start..<(end - 1) {
          let a = entries[i] & rowMask
          for j in (i + 1)..<end {
            let b = entries[j] & rowMask
            if a != b && b >= low && !skip.skips(Int(a), Int(b)) { pairs.append(a << 32 | b) }
          }
        }
      } else if size > 1 {
        for i in start..<(end - 1) {
          let a = entries[i] & rowMask
          for j in (i + 1)..<end {
            let b = entries[j] & rowMask
            if a != b && b >= low { pairs.append(a << 32 | b) }
          }
        }
      }
      start = end
    }
  }
}

/// Which pairs the typo-tolerant rules leave out (see
/// ``Blocking/candidatePairs(keys:configuration:bound:statistics:)``):
/// a class per row (has phones: 1, has e-mails: 2) and, per pair of
/// classes, whether the model's bound rules the pair out.
struct RuleSkip: Sendable {
  private var classes: [UInt8] = []
  private var table: [Bool] = [Bool](repeating: false, count: 16)
  /// False when nothing is skipped (no bound).
  private(set) var active = false

  init(keys: ContactKeys, bound: ScoreBound) {
    table = Self.classTable(bound)
    active = table.contains(true)
    if active {
      classes = keys.records.map { r in (r.sketch.phoneCount > 0 ? 1 : 0) | (r.sketch.emailCount > 0 ? 2 : 0) }
    }
  }

  @inline(__always)
  func skips(_ a: Int, _ b: Int) -> Bool { active && table[Int(classes[a]) * 4 + Int(classes[b])] }

  /// Per pair of classes (`a * 4 + b`): whether the bound rules it out.
  static func classTable(_ bound: ScoreBound) -> [Bool] {
    var table = [Bool](repeating: false, count: 16)
    for ca in 0..<4 {
      for cb in 0..<4 {
        // Both with e-mails: none shared, or only a mailbox (the bound's
        // level 2 counts both).
        let p = ca & 1 != 0 && cb & 1 != 0 ? 2 : 0
        let e = ca & 2 != 0 && cb & 2 != 0 ? 2 : 0
        table[ca * 4 + cb] = (p != 0 || e != 0) && bound.cannotReach(phone: p, email: e)
      }
    }
    return table
  }
}
