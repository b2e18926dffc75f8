// Building a StringColumn: encoding values (and changing the encoding when
// one does not fit), appending cells and columns, and the operations that
// make a new column from a whole one (gather).
extension StringColumn {
  // MARK: Building

  /// The value to store for `id` in the current encoding, after changing
  /// the encoding when `id` does not fit it.
  mutating func encode(_ id: StringID) -> UInt32 {
    if !isCoded {
      if Self.bytesNeeded(id.rawValue) > width { reencode(coded: false, width: Self.bytesNeeded(id.rawValue)) }
      return id.rawValue
    }
    if id.isAbsent { return 0 }
    if codes.isEmpty && dictionary.count > 1 { rebuildCodes() }
    if let c = codes.find(id.rawValue) { return c }
    let code = dictionary.count
    if code > Self.maxCodes {
      // Too many values to code: plain, wide enough for every id so far.
      var maxID = id.rawValue
      for d in dictionary { maxID = Swift.max(maxID, d.rawValue) }
      reencode(coded: false, width: Swift.max(1, Self.bytesNeeded(maxID)))
      return id.rawValue
    }
    dictionary.append(id)
    codes.insert(id.rawValue, code: UInt32(code))
    if Self.bytesNeeded(UInt32(code)) > width { reencode(coded: true, width: Self.bytesNeeded(UInt32(code))) }
    return UInt32(code)
  }

  /// Frees the id -> code index kept for appends (rebuilt from the
  /// dictionary by the next append that needs it): for a column that is
  /// done growing, such as a finished read's.
  package mutating func dropAppendIndex() {
    codes = CodeTable()
  }

  /// Fills ``codes`` from the dictionary (first code of a value wins).
  private mutating func rebuildCodes() {
    for (c, d) in dictionary.enumerated().dropFirst() where codes.find(d.rawValue) == nil {
      codes.insert(d.rawValue, code: UInt32(c))
    }
  }

  /// Rewrites every cell in a new encoding (`coded` true keeps the
  /// dictionary and only widens; false turns codes into ids), in the form
  /// the rule in "Encodings" picks for the new width.
  mutating func reencode(coded: Bool, width newWidth: Int) {
    rebuild(
      coded: coded, width: newWidth,
      sparse: Self.prefersSparse(count: count, present: presentCount, width: newWidth, isSparse: isSparse))
  }

  /// Turns sparse or dense when the rule in "Encodings" says so (a
  /// rebuild point).
  mutating func adjustForm() {
    let sparse = Self.prefersSparse(count: count, present: presentCount, width: width, isSparse: isSparse)
    if sparse != isSparse { rebuild(coded: isCoded, width: width, sparse: sparse) }
  }

  /// Rows the storage has room for without growing.
  private var rowCapacity: Int {
    if let presence { return presence.words.capacity / Presence.stride * 64 }
    return width > 0 ? bytes.capacity / width : count
  }

  /// Rewrites every cell in the given encoding and form, with room for as
  /// many rows as the column had.
  mutating func rebuild(coded: Bool, width newWidth: Int, sparse: Bool) {
    var new = StringColumn()
    new.isCoded = coded
    new.width = newWidth
    new.dictionary = coded ? dictionary : []
    new.codes = coded ? codes : CodeTable()
    let rows = Swift.max(rowCapacity, count)
    let toIDs = isCoded && !coded
    // In runs of a few thousand values, through a buffer.
    let run = 4096
    let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: run)
    defer { buffer.deallocate() }
    let base = buffer.baseAddress.unsafelyUnwrapped  // Safe: 4096 values.
    func translate(_ n: Int) {
      guard toIDs else { return }
      dictionary.withUnsafeBufferPointer { d in
        for k in 0..<n { buffer[k] = d[Int(buffer[k])].rawValue }
      }
    }
    let sameRows = sparse && isSparse
    if sameRows {
      // Same rows present: only the cells change.
      new.presence = presence
      new.count = count
      new.presentCount = presentCount
      let cells = bytes.capacity / Swift.max(width, 1)
      new.bytes.reserveCapacity(Swift.max(cells, presentCount) * newWidth)
    } else {
      if sparse { new.presence = Presence() }
      new.reserveCells(rows: rows, present: count > 0 ? rows * presentCount / count : 0)
    }
    let total = sameRows ? presentCount : count
    var start = 0
    while start < total {
      let n = Swift.min(run, total - start)
      if sameRows {
        copyCells(start..<(start + n), into: base)
        translate(n)
        new.appendCells(UnsafeBufferPointer(rebasing: buffer[0..<n]))
      } else {
        copyStored(start..<(start + n), into: base)
        translate(n)
        new.appendStored(UnsafeMutableBufferPointer(rebasing: buffer[0..<n]))
      }
      start += n
    }
    self = new
  }

  /// Reserves room for `rows` rows, `present` of them set, in the current
  /// encoding and form.
  mutating func reserveCells(rows: Int, present: Int) {
    if isSparse {
      presence?.words.reserveCapacity(Presence.blocks(rows) * Presence.stride)
      bytes.reserveCapacity(present * width)
    } else {
      bytes.reserveCapacity(rows * width)
    }
  }

  /// Appends a row whose stored value is `v` (which fits ``width``), in
  /// the current form.
  @inline(__always)
  mutating func store(_ v: UInt32) {
    if isSparse {
      presence?.append(row: count, present: v != 0, before: presentCount)
      if v != 0 { storeCell(v) }
    } else {
      storeCell(v)
    }
    if v != 0 { presentCount += 1 }
    count += 1
  }

  /// Appends a stored cell (which fits ``width``), no row.
  @inline(__always)
  mutating func storeCell(_ v: UInt32) {
    switch width {
    case 0: break
    case 1: bytes.append(UInt8(truncatingIfNeeded: v))
    case 2:
      bytes.append(UInt8(truncatingIfNeeded: v))
      bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    case 3:
      bytes.append(UInt8(truncatingIfNeeded: v))
      bytes.append(UInt8(truncatingIfNeeded: v >> 8))
      bytes.append(UInt8(truncatingIfNeeded: v >> 16))
    default:
      bytes.append(UInt8(truncatingIfNeeded: v))
      bytes.append(UInt8(truncatingIfNeeded: v >> 8))
      bytes.append(UInt8(truncatingIfNeeded: v >> 16))
      bytes.append(UInt8(truncatingIfNeeded: v >> 24))
    }
  }

  /// Appends `n` dense rows of stored value `v`.
  mutating func storeRepeated(_ v: UInt32, _ n: Int) {
    guard n > 0 else { return }
    if width > 0 {
      bytes.reserveCapacity(bytes.count + n * width)
      for _ in 0..<n { storeCell(v) }
    }
    count += n
    if v != 0 { presentCount += n }
  }

  /// Appends `id`.
  ///
  /// - Complexity: amortized O(1); every 64th append checks the form.
  public mutating func append(_ id: StringID) {
    store(encode(id))
    if count & 63 == 0 { adjustForm() }
  }

  /// Appends every id of `ids`.
  public mutating func append<S: Sequence>(contentsOf ids: S) where S.Element == StringID {
    for id in ids { append(id) }
  }

  /// Appends every cell of `other`, each id `i` replaced by `map(i)`:
  /// when `other` is coded, each of its values is mapped and encoded once,
  /// not once a cell. A sparse `other` maps only its present cells and
  /// appends its presence masks shifted into place (no loop over rows)
  /// when this column is sparse (or empty) too.
  ///
  /// - Complexity: O(cells of `other` + distinct values of `other`).
  package mutating func append(contentsOf other: StringColumn, mappedBy map: (StringID) -> StringID) {
    let n = other.count
    guard n > 0 else { return }
    defer { adjustForm() }
    var translated: [UInt32] = []
    let mapsAbsent: Bool
    if other.isCoded {
      var before = (isCoded, width)
      repeat {
        // Encoding every value first can change this column's encoding
        // (and so the earlier values' stored form): repeat until it holds.
        before = (isCoded, width)
        if isCoded {
          translated = other.dictionary.map { encode(map($0)) }
        } else {
          translated = other.dictionary.map { map($0).rawValue }
          let maxID = translated.max() ?? 0
          if Self.bytesNeeded(maxID) > width { reencode(coded: false, width: Self.bytesNeeded(maxID)) }
        }
      } while before != (isCoded, width)
      mapsAbsent = translated[0] != 0
    } else {
      mapsAbsent = map(.absent).isPresent
    }
    // Only the present cells of a sparse column (absent maps to absent).
    let cellsOnly = other.isSparse && !mapsAbsent
    let k = cellsOnly ? other.presentCount : n
    let values = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Swift.max(k, 1))
    defer { values.deallocate() }
    let base = values.baseAddress.unsafelyUnwrapped  // Safe: at least one value.
    if cellsOnly { other.copyCells(0..<k, into: base) } else { other.copyStored(0..<n, into: base) }
    if other.isCoded {
      translated.withUnsafeBufferPointer { t in
        for j in 0..<k { values[j] = t[Int(values[j])] }
      }
    } else {
      for j in 0..<k { values[j] = map(StringID(rawValue: values[j])).rawValue }
      if isCoded {
        // Ids to codes; a column that turns plain on the way keeps the ids.
        let codes = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Swift.max(k, 1))
        defer { codes.deallocate() }
        for j in 0..<k {
          codes[j] = encode(StringID(rawValue: values[j]))
          if !isCoded { break }
        }
        if isCoded { _ = values.update(fromContentsOf: codes[0..<k]) }
      }
      if !isCoded {
        var maxID: UInt32 = 0
        for j in 0..<k { maxID = Swift.max(maxID, values[j]) }
        if Self.bytesNeeded(maxID) > width { reencode(coded: false, width: Self.bytesNeeded(maxID)) }
      }
    }
    let cells = UnsafeMutableBufferPointer(rebasing: values[0..<k])
    guard cellsOnly, let presence = other.presence else {
      appendStored(cells)
      return
    }
    var mapsToAbsent = false
    for j in 0..<k where cells[j] == 0 { mapsToAbsent = true }
    if mapsToAbsent || !(isSparse || count == 0) {
      // Rows one by one: a dense column, or a value mapped to absent.
      let rows = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: n)
      defer { rows.deallocate() }
      Self.spread(cells, over: presence, into: rows)
      appendStored(rows)
    } else {
      if !isSparse { self.presence = Presence() }
      self.presence?.append(presence, rows: n, at: count)
      appendCells(UnsafeBufferPointer(cells))
      presentCount += k
      count += n
    }
  }

  /// Writes the stored value of each of the rows of `presence` (as many
  /// as `rows` has room for) to `rows`: the next of `cells` where the
  /// row's bit is set, else 0.
  static func spread(
    _ cells: UnsafeMutableBufferPointer<UInt32>, over presence: Presence, into rows: UnsafeMutableBufferPointer<UInt32>
  ) {
    rows.update(repeating: 0)
    var k = 0
    presence.words.withUnsafeBufferPointer { w in
      for b in 0..<(w.count / Presence.stride) {
        var m = Presence.mask(w, b)
        while m != 0 && k < cells.count {
          let r = b &* 64 &+ m.trailingZeroBitCount
          if r < rows.count { rows[r] = cells[k] }
          k &+= 1
          m &= m &- 1
        }
      }
    }
  }

  /// Writes the stored value (code or id) of every row to `out`, which
  /// has room for ``count`` values.
  func copyStored(into out: UnsafeMutablePointer<UInt32>) {
    copyStored(0..<count, into: out)
  }

  /// Writes the stored value (code or id, 0 when absent, see
  /// ``UnsafeReader/stored(_:)``) of rows `range` to `out`, which has room
  /// for `range.count` values: one loop per cell width (a sparse column
  /// zero-fills and then visits its set bits), for passes that read many
  /// cells of one column. - Precondition: `range` is within the column.
  package func copyStored(_ range: Range<Int>, into out: UnsafeMutablePointer<UInt32>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "StringColumn.copyStored: range out of bounds")
    guard let presence else {
      copyCells(range, into: out)
      return
    }
    let lo = range.lowerBound, hi = range.upperBound
    out.initialize(repeating: 0, count: hi - lo)
    guard lo < hi else { return }
    var k = presence.rank(lo)
    let w = width
    bytes.withUnsafeBytes { b in
      presence.words.withUnsafeBufferPointer { words in
        guard let p = b.baseAddress else { return }
        for block in (lo >> 6)...((hi - 1) >> 6) {
          let start = block &* 64
          var m = Presence.mask(words, block)
          if start < lo { m &= ~0 &<< UInt64(lo - start) }
          if hi - start < 64 { m &= (1 &<< UInt64(hi - start)) &- 1 }
          while m != 0 {
            out[start &+ m.trailingZeroBitCount &- lo] = Self.load(p, k, width: w)
            k &+= 1
            m &= m &- 1
          }
        }
      }
    }
  }

  /// Stored cell `k` at `width` bytes a cell from `p`.
  @inline(__always)
  static func load(_ p: UnsafeRawPointer, _ k: Int, width: Int) -> UInt32 {
    switch width {
    case 0: return 0
    case 1: return UInt32(p.load(fromByteOffset: k, as: UInt8.self))
    case 2: return UInt32(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* k, as: UInt16.self)))
    case 3:
      let q = p + 3 &* k
      return UInt32(UInt16(littleEndian: q.loadUnaligned(as: UInt16.self))) | UInt32(q.load(fromByteOffset: 2, as: UInt8.self)) << 16
    default: return UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* k, as: UInt32.self))
    }
  }

  /// Writes stored cells `range` (rows when dense, present rows when
  /// sparse) to `out`, which has room for `range.count` values.
  func copyCells(_ range: Range<Int>, into out: UnsafeMutablePointer<UInt32>) {
    let n = range.count
    bytes.withUnsafeBytes { b in
      guard let p0 = b.baseAddress, width > 0 else {
        out.initialize(repeating: 0, count: n)
        return
      }
      let p = p0 + range.lowerBound &* width
      switch width {
      case 1: for k in 0..<n { out[k] = UInt32(p.load(fromByteOffset: k, as: UInt8.self)) }
      case 2: for k in 0..<n { out[k] = UInt32(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* k, as: UInt16.self))) }
      case 3:
        for k in 0..<n {
          let q = p + 3 &* k
          out[k] = UInt32(UInt16(littleEndian: q.loadUnaligned(as: UInt16.self)))
            | UInt32(q.load(fromByteOffset: 2, as: UInt8.self)) << 16
        }
      default: for k in 0..<n { out[k] = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* k, as: UInt32.self)) }
      }
    }
  }

  /// Appends rows whose stored values are `values` (each fits ``width``),
  /// in the current form. May overwrite `values`.
  mutating func appendStored(_ values: UnsafeMutableBufferPointer<UInt32>) {
    let n = values.count
    guard n > 0 else { return }
    if isSparse {
      // The rows' own masks, shifted into place; the set values moved to
      // the front are the cells.
      let (rows, set) = Presence.compacting(values)
      presence?.append(rows, rows: n, at: count)
      appendCells(UnsafeBufferPointer(rebasing: values[0..<set]))
      presentCount += set
    } else {
      appendCells(UnsafeBufferPointer(values))
      var set = 0
      for v in values { set &+= v != 0 ? 1 : 0 }
      presentCount += set
    }
    count += n
  }

  /// Appends stored cells, each of which fits ``width`` (no rows).
  mutating func appendCells(_ values: UnsafeBufferPointer<UInt32>) {
    let n = values.count
    guard n > 0 else { return }
    let w = width
    if w > 0 && bytes.isEmpty && bytes.capacity < n * w {
      // A new column: no zero fill before the stores.
      bytes = [UInt8](unsafeUninitializedCapacity: n * w) { b, initialized in
        initialized = 0
        guard let d = UnsafeMutableRawPointer(b.baseAddress) else { return }
        Self.write(values, width: w, to: d)
        initialized = n * w
      }
    } else if w > 0 {
      let start = bytes.count
      bytes.append(contentsOf: repeatElement(0, count: n * w))
      bytes.withUnsafeMutableBytes { b in
        guard let base = b.baseAddress else { return }
        Self.write(values, width: w, to: base + start)
      }
    }
  }

  /// Writes `values` at `width` bytes each to `d`.
  private static func write(_ values: UnsafeBufferPointer<UInt32>, width: Int, to d: UnsafeMutableRawPointer) {
    let n = values.count
    switch width {
    case 1: for k in 0..<n { d.storeBytes(of: UInt8(truncatingIfNeeded: values[k]), toByteOffset: k, as: UInt8.self) }
    case 2:
      for k in 0..<n {
        d.storeBytes(of: UInt16(truncatingIfNeeded: values[k]).littleEndian, toByteOffset: 2 &* k, as: UInt16.self)
      }
    case 3:
      for k in 0..<n {
        let v = values[k]
        d.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: 3 &* k, as: UInt16.self)
        d.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: 3 &* k &+ 2, as: UInt8.self)
      }
    default: for k in 0..<n { d.storeBytes(of: values[k].littleEndian, toByteOffset: 4 &* k, as: UInt32.self) }
    }
  }

  /// A column of the `count` ids `ids[0], ids[stride], ids[2 * stride], ...`,
  /// every one below `idLimit`, encoded through `scratch`: a map from id to
  /// code with room for `idLimit` entries, all zero before and after (no
  /// hashing; for a chunk's provisional ids, which are dense). A tie in
  /// size goes to coding, so that a merge maps each distinct value once.
  /// Sparse or dense by the rule in "Encodings".
  package init(
    count n: Int, ids: UnsafePointer<UInt32>, stride: Int = 1, idLimit: Int, scratch: inout [UInt32]
  ) {
    self.init()
    if scratch.count < idLimit { scratch.append(contentsOf: repeatElement(0, count: idLimit - scratch.count)) }
    var dictionary: [StringID] = [.absent]
    var maxID: UInt32 = 0
    var present = 0
    let values = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Swift.max(n, 1))
    defer { values.deallocate() }
    scratch.withUnsafeMutableBufferPointer { map in
      for k in 0..<n {
        let v = ids[k &* stride]
        values[k] = v
        maxID = Swift.max(maxID, v)
        present &+= v != 0 ? 1 : 0
        if v != 0 && Int(v) < map.count && map[Int(v)] == 0 && dictionary.count <= Self.maxCodes {
          map[Int(v)] = UInt32(dictionary.count)
          dictionary.append(StringID(rawValue: v))
        }
      }
      let plainWidth = Swift.max(1, Self.bytesNeeded(maxID))
      let codedWidth = Self.bytesNeeded(UInt32(dictionary.count - 1))
      let coded = dictionary.count <= Self.maxCodes && codedWidth <= plainWidth && Int(maxID) < map.count
      width = coded ? codedWidth : plainWidth
      // Sparse: the present ids moved to the front, the only ones coded.
      var cells = n
      if Self.prefersSparse(count: n, present: present, width: width, isSparse: false) {
        let (rows, set) = Presence.compacting(UnsafeMutableBufferPointer(rebasing: values[0..<n]))
        presence = rows
        cells = set
      }
      if coded {
        self.dictionary = dictionary
        for k in 0..<cells { values[k] = map[Int(values[k])] }
      } else {
        isCoded = false
        self.dictionary = []
      }
      for d in dictionary { map[d.index] = 0 }
      appendCells(UnsafeBufferPointer(rebasing: values[0..<cells]))
    }
    count = n
    presentCount = present
  }

  /// Appends every cell of `other` (same pool).
  public mutating func append(contentsOf other: StringColumn) {
    append(contentsOf: other, mappedBy: { $0 })
  }

  /// Reserves room for `n` cells in the current encoding: for a sparse
  /// column, the blocks of `n` rows and the cells of its share of present
  /// rows so far, an eighth more.
  public mutating func reserveCapacity(_ n: Int) {
    if isSparse {
      let cells = count > 0 ? Int((Double(n) * Double(presentCount) / Double(count) * 1.125).rounded(.up)) : 0
      reserveCells(rows: n, present: Swift.min(cells, n))
    } else {
      bytes.reserveCapacity(n * width)
    }
  }

  /// Drops the cells from `n` on (nothing when `n >= count`). The
  /// dictionary keeps its values, the column its form.
  public mutating func truncate(to n: Int) {
    guard n >= 0 && n < count else { return }
    if isSparse {
      let keep = presence?.rank(n) ?? 0
      bytes.removeSubrange((keep * width)...)
      presence?.truncate(rows: n)
      presentCount = keep
    } else {
      var removed = 0
      for i in n..<count where cell(i) != 0 { removed += 1 }
      bytes.removeSubrange((n * width)...)
      presentCount -= removed
    }
    count = n
  }

  // MARK: Whole-column operations

  /// Cells `rows[0], rows[1], ...` as a new column in the same encoding
  /// (sharing the dictionary), sparse or dense by the rule in "Encodings".
  /// Rows must be valid indices.
  ///
  /// - Complexity: O(`rows.count`).
  public func gathering(_ rows: [UInt32]) -> StringColumn {
    #if OHANA_INTERNAL_CHECKS
    for row in rows { precondition(Int(row) < count, "gather: row out of range") }
    #endif
    guard isSparse else {
      var out = gatheringDense(rows)
      if Self.prefersSparse(count: out.count, present: out.presentCount, width: width, isSparse: false) {
        out.rebuild(coded: isCoded, width: width, sparse: true)
      }
      return out
    }
    // Sparse: one pass that builds each 64 rows' mask in a register and
    // copies their present cells to a buffer; then the cells, exactly
    // sized (turned dense instead when the rows picked are mostly present).
    var out = StringColumn()
    out.isCoded = isCoded
    out.width = width
    out.dictionary = dictionary
    out.codes = codes
    out.count = rows.count
    let w = width
    let n = rows.count
    var set = 0
    var words: [UInt32] = []
    let cells = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(1, n * w), alignment: 4)
    defer { cells.deallocate() }
    presence?.words.withUnsafeBufferPointer { source in
      bytes.withUnsafeBytes { src in
        rows.withUnsafeBufferPointer { r in
          words = [UInt32](unsafeUninitializedCapacity: Presence.blocks(n) * Presence.stride) { pw, made in
            var start = 0
            var b = 0
            while start < n {
              let end = Swift.min(start &+ 64, n)
              let rank = set
              var m: UInt64 = 0
              for k in start..<end {
                let (present, cell) = Presence.lookup(source, Int(r[k]))
                if present, let s = src.baseAddress {
                  Self.store(Self.load(s, cell, width: w), to: cells, set, width: w)
                  set &+= 1
                  m |= 1 &<< UInt64(k &- start)
                }
              }
              pw[b &* Presence.stride] = UInt32(truncatingIfNeeded: m)
              pw[b &* Presence.stride &+ 1] = UInt32(truncatingIfNeeded: m >> 32)
              pw[b &* Presence.stride &+ 2] = UInt32(truncatingIfNeeded: rank)
              start = end
              b &+= 1
            }
            made = b &* Presence.stride
          }
        }
      }
    }
    out.bytes = [UInt8](unsafeUninitializedCapacity: set * w) { b, initialized in
      if let d = b.baseAddress, set * w > 0 { UnsafeMutableRawPointer(d).copyMemory(from: cells, byteCount: set * w) }
      initialized = set * w
    }
    var p = Presence()
    p.words = words
    out.presence = p
    out.presentCount = set
    if !Self.prefersSparse(count: n, present: set, width: w, isSparse: false) {
      out.rebuild(coded: isCoded, width: w, sparse: false)
    }
    return out
  }

  /// Writes stored cell `v` as cell `k` at `width` bytes a cell to `d`.
  @inline(__always)
  static func store(_ v: UInt32, to d: UnsafeMutableRawPointer, _ k: Int, width: Int) {
    switch width {
    case 0: break
    case 1: d.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: k, as: UInt8.self)
    case 2: d.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: 2 &* k, as: UInt16.self)
    case 3:
      d.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: 3 &* k, as: UInt16.self)
      d.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: 3 &* k &+ 2, as: UInt8.self)
    default: d.storeBytes(of: v.littleEndian, toByteOffset: 4 &* k, as: UInt32.self)
    }
  }

  /// Cells `rows[0], rows[1], ...` of a dense column as a dense column.
  private func gatheringDense(_ rows: [UInt32]) -> StringColumn {
    var out = self
    out.count = rows.count
    let w = width
    var set = 0
    out.bytes = bytes.withUnsafeBytes { src in
      rows.withUnsafeBufferPointer { r in
        [UInt8](unsafeUninitializedCapacity: r.count * w) { dst, initialized in
          guard let s = src.baseAddress, let d = UnsafeMutableRawPointer(dst.baseAddress), w > 0 else {
            initialized = 0
            return
          }
          switch w {
          case 1:
            for k in 0..<r.count {
              let v = s.load(fromByteOffset: Int(r[k]), as: UInt8.self)
              set &+= v != 0 ? 1 : 0
              d.storeBytes(of: v, toByteOffset: k, as: UInt8.self)
            }
          case 2:
            for k in 0..<r.count {
              let v = s.loadUnaligned(fromByteOffset: 2 * Int(r[k]), as: UInt16.self)
              set &+= v != 0 ? 1 : 0
              d.storeBytes(of: v, toByteOffset: 2 * k, as: UInt16.self)
            }
          case 4:
            for k in 0..<r.count {
              let v = s.loadUnaligned(fromByteOffset: 4 * Int(r[k]), as: UInt32.self)
              set &+= v != 0 ? 1 : 0
              d.storeBytes(of: v, toByteOffset: 4 * k, as: UInt32.self)
            }
          default:  // 3 bytes: a 2-byte and a 1-byte load and store
            for k in 0..<r.count {
              let q = s + 3 &* Int(r[k])
              let low = q.loadUnaligned(as: UInt16.self), high = q.load(fromByteOffset: 2, as: UInt8.self)
              set &+= low | UInt16(high) != 0 ? 1 : 0
              d.storeBytes(of: low, toByteOffset: 3 &* k, as: UInt16.self)
              d.storeBytes(of: high, toByteOffset: 3 &* k &+ 2, as: UInt8.self)
            }
          }
          initialized = r.count * w
        }
      }
    }
    out.presentCount = set
    return out
  }
}
