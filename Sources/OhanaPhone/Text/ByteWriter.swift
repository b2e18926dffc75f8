/// A small output buffer for one formatted value: bytes are stored inline
/// (no uniqueness or capacity checks per byte, unlike appending to an
/// array) and handed to the caller's array in one copy. Bytes past the
/// inline capacity spill into a heap array, so nothing is ever lost.
struct ByteWriter {
  static let capacity = 256
  private var storage = InlineArray<256, UInt8>(repeating: 0)
  private var count = 0
  private var spill: [UInt8] = []

  init() {}

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count < Self.capacity {
      storage[count] = byte
      count += 1
    } else {
      spill.append(byte)
    }
  }

  @inline(__always)
  mutating func append(_ digits: DigitString, _ range: Range<Int>) {
    for i in range { append(digits[i]) }
  }

  mutating func append(contentsOf bytes: some Sequence<UInt8>) {
    for b in bytes { append(b) }
  }

  /// Appends everything written so far to `out` and empties the writer.
  mutating func flush(into out: inout [UInt8]) {
    let n = count
    storage.span.withUnsafeBufferPointer { buffer in
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
    }
    if !spill.isEmpty {
      out.append(contentsOf: spill)
      spill.removeAll()
    }
    count = 0
  }
}
