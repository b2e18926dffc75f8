// Base64 (RFC 4648) over bytes. Decoding skips whitespace and accepts missing
// padding, because vCard 2.1 writers fold base64 data freely.

enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let decodeTable: [UInt8] = {
    var t = [UInt8](repeating: 0xFF, count: 256)
    for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
    t[Int(UInt8(ascii: "-"))] = 62  // URL-safe variants, seen in the wild
    t[Int(UInt8(ascii: "_"))] = 63
    return t
  }()

  /// Decodes `input`, appending to `output`. Returns false on a byte outside
  /// the alphabet or data after padding.
  static func decode<C: Collection>(_ input: C, into output: inout [UInt8]) -> Bool
  where C.Element == UInt8 {
    output.reserveCapacity(output.count + input.count / 4 * 3 + 3)
    var acc: UInt32 = 0
    var n = 0
    var sawPad = false
    for b in input {
      if b == ASCII.space || b == ASCII.tab || b == ASCII.cr || b == ASCII.lf { continue }
      if b == ASCII.equals { sawPad = true; continue }
      if sawPad { return false }
      let v = decodeTable[Int(b)]
      if v == 0xFF { return false }
      acc = (acc << 6) | UInt32(v)
      n += 1
      if n == 4 {
        output.append(UInt8(truncatingIfNeeded: acc >> 16))
        output.append(UInt8(truncatingIfNeeded: acc >> 8))
        output.append(UInt8(truncatingIfNeeded: acc))
        acc = 0
        n = 0
      }
    }
    switch n {
    case 0: return true
    case 2:
      output.append(UInt8(truncatingIfNeeded: acc >> 4))
      return true
    case 3:
      output.append(UInt8(truncatingIfNeeded: acc >> 10))
      output.append(UInt8(truncatingIfNeeded: acc >> 2))
      return true
    default:
      // A single dangling sextet cannot form a byte: some writers truncate
      // photo data this way; drop it rather than lose the card.
      return true
    }
  }

  /// Encodes `input` with padding, appending to `output`.
  static func encode<C: Collection>(_ input: C, into output: inout [UInt8]) where C.Element == UInt8 {
    output.reserveCapacity(output.count + (input.count + 2) / 3 * 4)
    var acc: UInt32 = 0
    var n = 0
    for b in input {
      acc = (acc << 8) | UInt32(b)
      n += 1
      if n == 3 {
        output.append(alphabet[Int((acc >> 18) & 63)])
        output.append(alphabet[Int((acc >> 12) & 63)])
        output.append(alphabet[Int((acc >> 6) & 63)])
        output.append(alphabet[Int(acc & 63)])
        acc = 0
        n = 0
      }
    }
    if n == 1 {
      output.append(alphabet[Int((acc >> 2) & 63)])
      output.append(alphabet[Int((acc << 4) & 63)])
      output.append(ASCII.equals)
      output.append(ASCII.equals)
    } else if n == 2 {
      output.append(alphabet[Int((acc >> 10) & 63)])
      output.append(alphabet[Int((acc >> 4) & 63)])
      output.append(alphabet[Int((acc << 2) & 63)])
      output.append(ASCII.equals)
    }
  }
}
