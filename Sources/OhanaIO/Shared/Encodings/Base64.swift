// Base64 (RFC 4648) over bytes. Decoding skips whitespace and accepts missing
// padding, because vCard 2.1 writers fold base64 data freely.

package enum Base64 {
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
    if let done = input.withContiguousStorageIfAvailable({ decode(bytes: $0, into: &output) }) { return done }
    return Array(input).withUnsafeBufferPointer { decode(bytes: $0, into: &output) }
  }

  /// ``decode(_:into:)`` over contiguous bytes: four alphabet characters at
  /// a time while there are no line breaks or padding among them, one at a
  /// time otherwise; the output is written through a pointer into room made
  /// for the longest result and trimmed after.
  private static func decode(bytes input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: input.count / 4 * 3 + 3))
    var ok = true
    var end = start
    decodeTable.withUnsafeBufferPointer { table in
      output.withUnsafeMutableBufferPointer { out in
        var o = start
        var acc: UInt32 = 0
        var n = 0
        var sawPad = false
        var i = 0
        let count = input.count
        while i < count {
          if n == 0, i + 4 <= count {
            let a = table[Int(input[i])], b = table[Int(input[i + 1])]
            let c = table[Int(input[i + 2])], d = table[Int(input[i + 3])]
            // Alphabet values are below 64; everything else is 0xFF.
            if a | b | c | d < 64, !sawPad {
              let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
              out[o] = UInt8(truncatingIfNeeded: v >> 16)
              out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
              out[o + 2] = UInt8(truncatingIfNeeded: v)
              o += 3
              i += 4
              continue
            }
          }
          let byte = input[i]
          i += 1
          if byte == ASCII.space || byte == ASCII.tab || byte == ASCII.cr || byte == ASCII.lf { continue }
          if byte == ASCII.equals {
            sawPad = true
            continue
          }
          let v = table[Int(byte)]
          if sawPad || v == 0xFF {
            ok = false
            break
          }
          acc = (acc << 6) | UInt32(v)
          n += 1
          if n == 4 {
            out[o] = UInt8(truncatingIfNeeded: acc >> 16)
            out[o + 1] = UInt8(truncatingIfNeeded: acc >> 8)
            out[o + 2] = UInt8(truncatingIfNeeded: acc)
            o += 3
            acc = 0
            n = 0
          }
        }
        guard ok else { return }
        switch n {
        case 2:
          out[o] = UInt8(truncatingIfNeeded: acc >> 4)
          o += 1
        case 3:
          out[o] = UInt8(truncatingIfNeeded: acc >> 10)
          out[o + 1] = UInt8(truncatingIfNeeded: acc >> 2)
          o += 2
        default:
          // 0: complete. 1: a single dangling sextet cannot form a byte:
          // some writers truncate photo data this way; drop it rather than
          // lose the card.
          break
        }
        end = o
      }
    }
    output.removeLast(output.count - (ok ? end : start))
    return ok
  }

  /// Encodes `input` with padding, appending to `output`.
  package static func encode<C: Collection>(_ input: C, into output: inout [UInt8]) where C.Element == UInt8 {
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
