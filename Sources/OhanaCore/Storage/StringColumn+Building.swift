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

  /// Fills ``codes`` from the dictionary (first code of a value wins).
  private mutating func rebuildCodes() {
    for (c, d) in dictionary.enumerated().dropFirst() where codes.find(d.rawValue) == nil {
      codes.insert(d.rawValue, code: UInt32(c))
    }
  }

  /// Rewrites every cell in a new encoding (`coded` true keeps the
  /// dictionary and only widens; false turns codes into ids).
  mutating func reencode(coded: Bool, width newWidth: Int) {
    var new = StringColumn()
    new.isCoded = coded
    new.width = newWidth
    new.dictionary = coded ? dictionary : []
    new.codes = coded ? codes : CodeTable()
    new.bytes.reserveCapacity(Swift.max(bytes.capacity / Swift.max(width, 1), count) * newWidth)
    for i in 0..<count {
      let s = stored(i)
      new.store(isCoded && !coded ? dictionary[Int(s)].rawValue : s)
    }
    self = new
  }

  /// Appends a stored value (which fits ``width``).
  @inline(__always)
  mutating func store(_ v: UInt32) {
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
    count += 1
  }

  mutating func storeRepeated(_ v: UInt32, _ n: Int) {
    guard n > 0 else { return }
    if width > 0 {
      bytes.reserveCapacity(bytes.count + n * width)
      for _ in 0..<n { store(v) }
    } else {
      count += n
    }
  }

  /// Appends `id`.
  public mutating func append(_ id: StringID) {
    store(encode(id))
  }

  /// Appends every id of `ids`.
  public mutating func append<S: Sequence>(contentsOf ids: S) where S.Element == StringID {
    for id in ids { append(id) }
  }

  /// Appends every cell of `other`, each id `i` replaced by `map(i)`:
  /// when `other` is coded, each of its values is mapped and encoded once,
  /// not once a cell.
  package mutating func append(contentsOf other: StringColumn, mappedBy map: (StringID) -> StringID) {
    let n = other.count
    guard n > 0 else { return }
    if other.isCoded {
      var translated: [UInt32] = []
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
      let values = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
      defer { values.deallocate() }
      other.copyStored(into: values)
      translated.withUnsafeBufferPointer { t in
        for k in 0..<n { values[k] = t[Int(values[k])] }
      }
      appendStored(UnsafeBufferPointer(start: values, count: n))
    } else if !isCoded {
      let values = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
      defer { values.deallocate() }
      other.copyStored(into: values)
      var maxID: UInt32 = 0
      for k in 0..<n {
        values[k] = map(StringID(rawValue: values[k])).rawValue
        maxID = Swift.max(maxID, values[k])
      }
      if Self.bytesNeeded(maxID) > width { reencode(coded: false, width: Self.bytesNeeded(maxID)) }
      appendStored(UnsafeBufferPointer(start: values, count: n))
    } else {
      for i in 0..<n { store(encode(map(StringID(rawValue: other.stored(i))))) }
    }
  }

  /// Writes the stored value (code or id) of every cell to `out`, which
  /// has room for ``count`` values.
  func copyStored(into out: UnsafeMutablePointer<UInt32>) {
    copyStored(0..<count, into: out)
  }

  /// Writes the stored value (code or id, see
  /// ``UnsafeReader/stored(_:)``) of cells `range` to `out`, which has room
  /// for `range.count` values: one loop per cell width, for passes that
  /// read many cells of one column. - Precondition: `range` is within the
  /// column.
  package func copyStored(_ range: Range<Int>, into out: UnsafeMutablePointer<UInt32>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "StringColumn.copyStored: range out of bounds")
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

  /// Appends stored values, each of which fits ``width``.
  mutating func appendStored(_ values: UnsafeBufferPointer<UInt32>) {
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
    count += n
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
  package init(
    count n: Int, ids: UnsafePointer<UInt32>, stride: Int = 1, idLimit: Int, scratch: inout [UInt32]
  ) {
    self.init()
    if scratch.count < idLimit { scratch.append(contentsOf: repeatElement(0, count: idLimit - scratch.count)) }
    var dictionary: [StringID] = [.absent]
    var maxID: UInt32 = 0
    let values = UnsafeMutablePointer<UInt32>.allocate(capacity: Swift.max(n, 1))
    defer { values.deallocate() }
    scratch.withUnsafeMutableBufferPointer { map in
      for k in 0..<n {
        let v = ids[k &* stride]
        values[k] = v
        maxID = Swift.max(maxID, v)
        if v != 0 && Int(v) < map.count && map[Int(v)] == 0 && dictionary.count <= Self.maxCodes {
          map[Int(v)] = UInt32(dictionary.count)
          dictionary.append(StringID(rawValue: v))
        }
      }
      let plainWidth = Swift.max(1, Self.bytesNeeded(maxID))
      let codedWidth = Self.bytesNeeded(UInt32(dictionary.count - 1))
      if dictionary.count <= Self.maxCodes && codedWidth <= plainWidth && Int(maxID) < map.count {
        self.dictionary = dictionary
        width = codedWidth
        for k in 0..<n { values[k] = map[Int(values[k])] }
      } else {
        isCoded = false
        self.dictionary = []
        width = plainWidth
      }
      for d in dictionary { map[d.index] = 0 }
    }
    appendStored(UnsafeBufferPointer(start: values, count: n))
  }

  /// Appends every cell of `other` (same pool).
  public mutating func append(contentsOf other: StringColumn) {
    append(contentsOf: other, mappedBy: { $0 })
  }

  /// Reserves room for `n` cells in the current encoding.
  public mutating func reserveCapacity(_ n: Int) {
    bytes.reserveCapacity(n * width)
  }

  /// Drops the cells from `n` on (nothing when `n >= count`). The
  /// dictionary keeps its values.
  public mutating func truncate(to n: Int) {
    guard n >= 0 && n < count else { return }
    bytes.removeSubrange((n * width)...)
    count = n
  }

  // MARK: Whole-column operations

  /// Cells `rows[0], rows[1], ...` as a new column in the same encoding
  /// (sharing the dictionary). Rows must be valid indices.
  public func gathering(_ rows: [UInt32]) -> StringColumn {
    var out = self
    out.count = rows.count
    let w = width
    out.bytes = bytes.withUnsafeBytes { src in
      rows.withUnsafeBufferPointer { r in
        [UInt8](unsafeUninitializedCapacity: r.count * w) { dst, initialized in
          #if OHANA_INTERNAL_CHECKS
          for row in r { precondition(Int(row) < count, "gather: row out of range") }
          #endif
          guard let s = src.baseAddress, let d = UnsafeMutableRawPointer(dst.baseAddress), w > 0 else {
            initialized = 0
            return
          }
          switch w {
          case 1:
            for k in 0..<r.count { d.storeBytes(of: s.load(fromByteOffset: Int(r[k]), as: UInt8.self), toByteOffset: k, as: UInt8.self) }
          case 2:
            for k in 0..<r.count {
              d.storeBytes(of: s.loadUnaligned(fromByteOffset: 2 * Int(r[k]), as: UInt16.self), toByteOffset: 2 * k, as: UInt16.self)
            }
          case 4:
            for k in 0..<r.count {
              d.storeBytes(of: s.loadUnaligned(fromByteOffset: 4 * Int(r[k]), as: UInt32.self), toByteOffset: 4 * k, as: UInt32.self)
            }
          default:
            for k in 0..<r.count { (d + w * k).copyMemory(from: s + w * Int(r[k]), byteCount: w) }
          }
          initialized = r.count * w
        }
      }
    }
    return out
  }
}
