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

  /// Plain `utf8` strings, one a row, null where `body` gives no bytes.
  /// `body` calls its argument with each row's bytes (for uids, which live
  /// partly outside the pool).
  static func plainStrings(
    _ name: String, count: Int, bytes: (Int, (UnsafeRawBufferPointer?) -> Void) -> Void
  ) -> ArrowNode {
    var total = 0
    for i in 0..<count { bytes(i) { if let b = $0 { total += b.count } } }
    let valid = ArrowBuffer.bitmap(count: count)
    let data = ArrowBuffer(byteCount: total)
    var nulls = 0
    var at = 0
    let offsets = ArrowBuffer.filled(Int32.self, count: count + 1) { o in
      o[0] = 0
      for i in 0..<count {
        bytes(i) { b in
          if let b, let src = b.baseAddress, b.count > 0, at + b.count <= total {
            (data.base + at).copyMemory(from: src, byteCount: b.count)
            at += b.count
            valid.setBit(i)
          } else if b != nil, b?.count == 0 {
            valid.setBit(i)
          } else {
            nulls += 1
          }
        }
        o[i + 1] = Int32(truncatingIfNeeded: at)
      }
    }
    return ArrowNode(
      format: "u", name: name, length: count, nullCount: nulls, buffers: [nulls == 0 ? nil : valid, offsets, data])
  }
}
