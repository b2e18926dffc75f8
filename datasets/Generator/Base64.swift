/// Standard base64 (RFC 4648, with padding), written as bytes.
enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((data.count + 2) / 3 * 4)
    var i = 0
    while i + 2 < data.count {
      let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
      out.append(alphabet[Int(v >> 18 & 63)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(alphabet[Int(v >> 6 & 63)])
      out.append(alphabet[Int(v & 63)])
      i += 3
    }
    let rest = data.count - i
    if rest == 1 {
      let v = UInt32(data[i]) << 16
      out.append(alphabet[Int(v >> 18 & 63)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(contentsOf: "==".utf8)
    } else if rest == 2 {
      let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8
      out.append(alphabet[Int(v >> 18 & 63)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(alphabet[Int(v >> 6 & 63)])
      out.append(UInt8(ascii: "="))
    }
    return out
  }
}
