/// A minimal PNG encoder for small avatar pictures: 8-bit RGB, one
/// uncompressed ("stored") deflate block. Enough to make real, valid
/// photos of a few hundred bytes without any dependency.
public enum TinyPNG {
  /// A `size`×`size` avatar: a background colour and a centred disc.
  public static func avatar(
    size: Int = 16, background: (UInt8, UInt8, UInt8), foreground: (UInt8, UInt8, UInt8)
  ) -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity(size * (size * 3 + 1))
    let c = Double(size - 1) / 2
    let r2 = Double(size) * Double(size) / 9
    for y in 0..<size {
      raw.append(0)  // filter: none
      for x in 0..<size {
        let dx = Double(x) - c
        let dy = Double(y) - c * 0.8
        let inDisc = dx * dx + dy * dy <= r2
        let body = y > size * 3 / 4 && abs(dx) < Double(size) / 3
        let p = inDisc || body ? foreground : background
        raw.append(p.0)
        raw.append(p.1)
        raw.append(p.2)
      }
    }
    return encode(width: size, height: size, rgbScanlines: raw)
  }

  static func encode(width: Int, height: Int, rgbScanlines raw: [UInt8]) -> [UInt8] {
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var ihdr: [UInt8] = []
    appendBE32(&ihdr, UInt32(width))
    appendBE32(&ihdr, UInt32(height))
    ihdr.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit, RGB, deflate, no filter, no interlace
    chunk(&png, "IHDR", ihdr)
    // zlib stream: header, stored blocks of at most 65535 bytes, Adler-32.
    var z: [UInt8] = [0x78, 0x01]
    var i = 0
    repeat {
      let n = min(65535, raw.count - i)
      let last: UInt8 = i + n == raw.count ? 1 : 0
      z.append(last)
      z.append(UInt8(n & 0xFF))
      z.append(UInt8(n >> 8))
      z.append(UInt8(~n & 0xFF))
      z.append(UInt8((~n >> 8) & 0xFF))
      z.append(contentsOf: raw[i..<(i + n)])
      i += n
    } while i < raw.count
    appendBE32(&z, adler32(raw))
    chunk(&png, "IDAT", z)
    chunk(&png, "IEND", [])
    return png
  }

  private static func appendBE32(_ a: inout [UInt8], _ v: UInt32) {
    a.append(UInt8(v >> 24))
    a.append(UInt8(v >> 16 & 0xFF))
    a.append(UInt8(v >> 8 & 0xFF))
    a.append(UInt8(v & 0xFF))
  }

  private static func chunk(_ png: inout [UInt8], _ type: String, _ data: [UInt8]) {
    appendBE32(&png, UInt32(data.count))
    let typed = Array(type.utf8) + data
    png.append(contentsOf: typed)
    appendBE32(&png, crc32(typed))
  }

  private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ data: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in data { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  static func adler32(_ data: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for x in data {
      a = (a + UInt32(x)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }
}
