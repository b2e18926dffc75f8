/// Worker-local scratch for making sort keys: a UTF-16 buffer and a key
/// buffer, reused across strings so that a key costs no allocation.
struct SortKeyWriter {
  private var utf16: [UInt16] = []
  private var key: [UInt8] = []

  /// Appends the sort key of `utf8` to `out`; returns the key length.
  /// The corresponding C functions are `u_strFromUTF8WithSub` and `ucol_getSortKey`.
  mutating func append(
    _ utf8: UnsafeBufferPointer<UInt8>, collator: ICUHandle, to out: inout [UInt8]
  ) -> Int {
    // UTF-16 never needs more code units than UTF-8 has bytes.
    if utf16.count < utf8.count { utf16 = [UInt16](repeating: 0, count: max(utf8.count, 64)) }
    if key.isEmpty { key = [UInt8](repeating: 0, count: 512) }
    var units = utf16
    utf16 = []
    defer { utf16 = units }
    return units.withUnsafeMutableBufferPointer { u16 in
      let n = icu_utf16(fromUTF8: utf8, into: u16)
      let source = UnsafeBufferPointer(rebasing: u16[0..<n])
      var length = key.withUnsafeMutableBufferPointer { icu_sortKey(collator, utf16: source, into: $0) }
      if length > key.count {
        key = [UInt8](repeating: 0, count: length * 2)
        length = key.withUnsafeMutableBufferPointer { icu_sortKey(collator, utf16: source, into: $0) }
      }
      guard length > 0 else {
        // ucol_getSortKey returns 0 only on an internal error (out of memory):
        // keep the arena well-formed with an empty key, which sorts first.
        out.append(0)
        return 1
      }
      out.append(contentsOf: key[0..<length])
      return length
    }
  }
}
