import Testing

@testable import OhanaIO

/// The writers' byte buffer against an array fed the same appends.
@Suite struct ByteBufferTests {
  @Test func appendsMatchAnArray() {
    let buffer = ByteBuffer(capacity: 1)  // grows many times
    var array: [UInt8] = []
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<5000 {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0:
        let b = UInt8.random(in: 0...255, using: &rng)
        buffer.append(b)
        array.append(b)
      case 1:
        // Every short length (the word-copy paths) and some long ones.
        let n = Int.random(in: 0...40, using: &rng)
        let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes.withUnsafeBytes { buffer.append(bytes: $0) }
        array += bytes
      case 2:
        buffer.append("TEL;TYPE=")
        array += Array("TEL;TYPE=".utf8)
      default:
        let n = Int.random(in: 0...(array.count + 3), using: &rng)
        buffer.truncate(to: n)
        if n < array.count { array.removeSubrange(n...) }
      }
      #expect(buffer.count == array.count)
    }
    #expect(Array(buffer.bytes) == array)
  }

  /// The escaping helpers write the same bytes into either output.
  @Test func escapingIntoEitherOutput() {
    let value = Array("a,b;c\\d\r\ne\nf é".utf8)
    var array: [UInt8] = []
    var buffer = ByteBuffer()
    VCardEscaping.escapeText(value, commas: true, into: &array)
    VCardEscaping.escapeText(value, commas: true, into: &buffer)
    VCardEscaping.writeParameterValue(Array("x\"y:^z".utf8), into: &array)
    VCardEscaping.writeParameterValue(Array("x\"y:^z".utf8), into: &buffer)
    #expect(Array(buffer.bytes) == array)
    #expect(String(decoding: array, as: UTF8.self) == #"a\,b\;c\\d\ne\nf é"x^'y:^^z""#)
  }
}
