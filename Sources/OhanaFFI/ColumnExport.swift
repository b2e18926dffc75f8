import OhanaCore

/// Builders of exported Arrow columns from the store's columns. Each copies
/// cells into engine-owned ``ArrowBuffer``s (ids become 32-bit dictionary
/// indices, absent cells nulls); strings stay in the shared
/// ``PoolDictionary``.
enum ColumnExport {
  /// An interned string column as `dictionary<int32, utf8>`: index = id - 1,
  /// null where absent, the pool as the dictionary.
  static func strings(
    _ name: String, count: Int, dictionary: PoolDictionary, id: (Int) -> StringID
  ) -> ArrowNode {
    let valid = ArrowBuffer.bitmap(count: count)
    var nulls = 0
    let indices = ArrowBuffer.filled(Int32.self, count: count) { out in
      for i in 0..<count {
        let v = id(i).rawValue
        if v == 0 {
          out[i] = 0
          nulls += 1
        } else {
          // Safe: ids are below pool.count, which fits Int32 (checked by the caller).
          out[i] = Int32(truncatingIfNeeded: v &- 1)
          valid.setBit(i)
        }
      }
    }
    return ArrowNode(
      format: "i", name: name, length: count, nullCount: nulls,
      buffers: [nulls == 0 ? nil : valid, indices], dictionary: dictionary.node)
  }

  /// A ``StringColumn`` as a dictionary column (see above).
  static func strings(_ name: String, _ column: StringColumn, dictionary: PoolDictionary) -> ArrowNode {
    column.withUnsafeReader { r in
      strings(name, count: r.count, dictionary: dictionary) { r[$0] }
    }
  }

  /// Unsigned 32-bit integers (`uint32`), no nulls.
  static func uint32(_ name: String, _ values: [UInt32]) -> ArrowNode {
    let b = values.withUnsafeBytes { ArrowBuffer.copy($0) }
    return ArrowNode(format: "I", name: name, nullable: false, length: values.count, buffers: [nil, b])
  }

  /// 32-bit integers (`int32`) from unsigned ones below 2^31 (row numbers,
  /// offsets), no nulls.
  static func int32(_ name: String, _ values: [UInt32]) -> ArrowNode {
    let b = ArrowBuffer.filled(Int32.self, count: values.count) { out in
      for i in values.indices { out[i] = Int32(truncatingIfNeeded: values[i]) }
    }
    return ArrowNode(format: "i", name: name, nullable: false, length: values.count, buffers: [nil, b])
  }

  /// 32-bit integers (`int32`), no nulls.
  static func int32(_ name: String, _ values: [Int32]) -> ArrowNode {
    let b = values.withUnsafeBytes { ArrowBuffer.copy($0) }
    return ArrowNode(format: "i", name: name, nullable: false, length: values.count, buffers: [nil, b])
  }

  /// A validity ``Bitmap`` as an Arrow bitmap (same bit order: row i is bit
  /// i % 64 of word i / 64, little-endian words), and its null count.
  static func bitmap(_ bits: Bitmap) -> (ArrowBuffer, nulls: Int) {
    let words = bits.words
    let b = ArrowBuffer.filled(UInt64.self, count: words.count) { out in
      for i in words.indices { out[i] = words[i].littleEndian }
    }
    return (b, bits.count - bits.popCount)
  }

  /// A derived column: strings as dictionary columns, integers as `int64`,
  /// booleans as `bool`, with nulls where the column has no value.
  static func derived(_ name: String, _ column: DerivedColumn, dictionary: PoolDictionary) -> ArrowNode {
    switch column {
    case .string(let ids):
      return ids.withUnsafeBufferPointer { p in strings(name, count: p.count, dictionary: dictionary) { p[$0] } }
    case .int(let values, let valid):
      let data = values.withUnsafeBytes { ArrowBuffer.copy($0) }
      let (v, nulls) = bitmap(valid)
      return ArrowNode(format: "l", name: name, length: values.count, nullCount: nulls, buffers: [nulls == 0 ? nil : v, data])
    case .bool(let bits, let valid):
      let (data, _) = bitmap(bits)
      let (v, nulls) = bitmap(valid)
      return ArrowNode(format: "b", name: name, length: valid.count, nullCount: nulls, buffers: [nulls == 0 ? nil : v, data])
    }
  }

  /// The uids as plain `utf8` (one a contact, null where none): they
  /// hardly repeat, so a dictionary would only add indices. UUID uids
  /// (kept as 16 bytes in ``UUIDColumn``) are written as their text in
  /// the form they were read in, the others copied from the pool. Two
  /// passes: lengths into the offsets, then the bytes in place.
  /// - Throws: when the uids' text passes 2 GiB (32-bit offsets).
  static func uids(_ name: String, _ t: ContactTable) throws(FFIError) -> ArrowNode {
    let n = t.rowCount
    let uuids = t.uuids
    let column = t[.uid]
    let valid = ArrowBuffer.bitmap(count: n)
    var nulls = 0
    var total = 0
    let offsets = ArrowBuffer.filled(Int32.self, count: n + 1) { o in
      o[0] = 0
      column.withUnsafeReader { r in
        for row in 0..<n {
          let form = uuids.form(at: row)
          if form != .none {
            total += form.textLength
            valid.setBit(row)
          } else if r[row].isPresent {
            total += t.pool.length(of: r[row])
            valid.setBit(row)
          } else {
            nulls += 1
          }
          o[row + 1] = Int32(truncatingIfNeeded: total)
        }
      }
    }
    guard total <= Int(Int32.max) else { throw FFIError(.arrow, "the uids take more than 2 GiB of text") }
    let data = ArrowBuffer(byteCount: total)
    let o = offsets.base.assumingMemoryBound(to: Int32.self)
    t.pool.withStorage { arena, ends in
      column.withUnsafeReader { r in
        for row in 0..<n {
          let at = data.base + Int(o[row])
          let form = uuids.form(at: row)
          if form != .none, let (high, low) = uuids.value(at: row) {
            UUIDText.write(form, high, low, to: at)
          } else {
            let id = r[row]
            guard id.isPresent, id.index < ends.count else { continue }
            let lo = ends[id.index - 1], hi = ends[id.index]
            // Safe: pass 1 counted exactly these bytes for this row.
            if let src = arena.baseAddress, hi > lo { at.copyMemory(from: src + lo, byteCount: hi - lo) }
          }
        }
      }
    }
    return ArrowNode(format: "u", name: name, length: n, nullCount: nulls, buffers: [nulls == 0 ? nil : valid, offsets, data])
  }
}

/// The text of a UUID in one of ``UUIDColumn/Form``'s forms, written
/// straight into an export buffer (``UUIDColumn/withText(at:_:)`` gives
/// the same bytes one row at a time through a closure and a copy).
enum UUIDText {
  /// Writes ``UUIDColumn/Form/textLength`` bytes at `out`.
  static func write(_ form: UUIDColumn.Form, _ high: UInt64, _ low: UInt64, to out: UnsafeMutableRawPointer) {
    var o = 0
    let upper: Bool
    switch form {
    case .none: return
    case .lower: upper = false
    case .upper: upper = true
    case .urnLower, .urnUpper:
      upper = form == .urnUpper
      for c in (upper ? "URN:UUID:" : "urn:uuid:").utf8 {
        out.storeBytes(of: c, toByteOffset: o, as: UInt8.self)
        o += 1
      }
    }
    let letters: UInt8 = upper ? 0x41 - 10 : 0x61 - 10
    for nibble in 0..<32 {
      if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
        out.storeBytes(of: 0x2D, toByteOffset: o, as: UInt8.self)
        o += 1
      }
      let word = nibble < 16 ? high : low
      let v = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (nibble & 15))) & 0xF
      out.storeBytes(of: v < 10 ? 0x30 + v : letters + v, toByteOffset: o, as: UInt8.self)
      o += 1
    }
  }
}

extension ColumnExport {
  /// `float64` with a null where the value is NaN.
  static func float64(nullingNaN name: String, _ values: [Double]) -> ArrowNode {
    let valid = ArrowBuffer.bitmap(count: values.count)
    var nulls = 0
    let data = ArrowBuffer.filled(Double.self, count: values.count) { out in
      for i in values.indices {
        if values[i].isNaN {
          out[i] = 0
          nulls += 1
        } else {
          out[i] = values[i]
          valid.setBit(i)
        }
      }
    }
    return ArrowNode(format: "g", name: name, length: values.count, nullCount: nulls, buffers: [nulls == 0 ? nil : valid, data])
  }

  /// `int32` with a null where the value is negative.
  static func int32(nullingNegative name: String, _ values: [Int32]) -> ArrowNode {
    let valid = ArrowBuffer.bitmap(count: values.count)
    var nulls = 0
    let data = ArrowBuffer.filled(Int32.self, count: values.count) { out in
      for i in values.indices {
        out[i] = max(0, values[i])
        if values[i] < 0 { nulls += 1 } else { valid.setBit(i) }
      }
    }
    return ArrowNode(format: "i", name: name, length: values.count, nullCount: nulls, buffers: [nulls == 0 ? nil : valid, data])
  }
}
