import Testing
import _OhanaTestSupport

@testable import OhanaIO

/// `QuotedPrintable.decode` agrees with a plain byte loop (the decoder as
/// first written) on random input full of escapes, soft breaks and broken
/// escapes: the same result and the same bytes appended, also on failure.
@Suite struct QuotedPrintableTests {
  /// The reference: one byte at a time.
  private static func reference(_ input: [UInt8], into output: inout [UInt8]) -> Bool {
    func hex(_ b: UInt8) -> UInt8? {
      switch b {
      case 0x30...0x39: return b - 0x30
      case 0x41...0x46: return b - 0x41 + 10
      case 0x61...0x66: return b - 0x61 + 10
      default: return nil
      }
    }
    var i = 0
    while i < input.count {
      let b = input[i]
      i += 1
      if b != 0x3D {
        output.append(b)
        continue
      }
      if i == input.count { return true }
      let h1 = input[i]
      if h1 == 0x0D || h1 == 0x0A {
        i += 1
        if h1 == 0x0D && i < input.count && input[i] == 0x0A { i += 1 }
        continue
      }
      i += 1
      guard i < input.count, let v1 = hex(h1), let v2 = hex(input[i]) else { return false }
      i += 1
      output.append(v1 << 4 | v2)
    }
    return true
  }

  private static func samples() -> [[UInt8]] {
    // "=" often, hex digits of both cases, bytes next to the hex ranges,
    // CR, LF, high bytes.
    let alphabet: [UInt8] = Array("===0123456789abcdefABCDEFgG/:@`xyz \r\n".utf8) + [0xC3, 0xA9, 0x00, 0xFF]
    var out: [[UInt8]] = ["", "=", "==", "=4", "=41", "=4=", "=\r", "=\n", "=\r\n", "=\r=\n", "a=", "=zz", "=4g",
                          "=C3=A9=E2=82=AC", "plain text longer than a word, no escapes at all", "=3D=3d=3D",
                          "abcdefgh=41bcdefgh=", "abcdefg=41", "abcdefgh=4", "=\r\nabc=\nd"].map { Array($0.utf8) }
    var rng = SeededRandom(seed: 0x9E37_79B9)
    for length in 0..<48 {
      for _ in 0..<60 {
        var s: [UInt8] = []
        for _ in 0..<length {
          let state = rng.next()
          let r = Int(truncatingIfNeeded: state >> 33)
          if r % 4 == 0 {
            // A well-formed escape.
            s += Array("=\(String(r >> 2 & 0xFF, radix: 16, uppercase: r & 0x400 == 0))".utf8)
          } else {
            s.append(r % 3 == 0 ? alphabet[(r >> 3) % alphabet.count] : UInt8(0x61 + (r >> 3) % 26))
          }
        }
        out.append(s)
      }
    }
    return out
  }

  @Test func decodeMatchesByteLoop() {
    var checked = 0
    for s in Self.samples() {
      for prefill in [[], [UInt8(0x7A), 0x7B]] {
        var expected = prefill
        let expectedOK = Self.reference(s, into: &expected)
        // Contiguous (arrays, buffers: the readers' case) and not.
        var fromArray = prefill
        let okArray = QuotedPrintable.decode(s, into: &fromArray)
        var fromBuffer = prefill
        let okBuffer = s.withUnsafeBufferPointer { QuotedPrintable.decode($0, into: &fromBuffer) }
        var fromLazy = prefill
        let okLazy = QuotedPrintable.decode(s.lazy.map { $0 }, into: &fromLazy)
        checked += 1
        if okArray != expectedOK || fromArray != expected || okBuffer != expectedOK || fromBuffer != expected
          || okLazy != expectedOK || fromLazy != expected
        {
          Issue.record("\(s): expected \(expectedOK) \(expected), got \(okArray) \(fromArray) / \(okBuffer) \(fromBuffer) / \(okLazy) \(fromLazy)")
        }
      }
    }
    #expect(checked > 5_000)
  }

  @Test func shortAndBrokenEscapesMatchByteLoop() {
    for bad in ["=", "=4", "=G1", "=1G", "a=4", "=4\r", "=\u{0}0", "abcdefgh=x"] {
      var out: [UInt8] = []
      let ok = QuotedPrintable.decode(Array(bad.utf8), into: &out)
      var expected: [UInt8] = []
      #expect(ok == Self.reference(Array(bad.utf8), into: &expected), "\(bad)")
      #expect(out == expected, "\(bad)")
    }
    var out: [UInt8] = []
    #expect(!QuotedPrintable.decode(Array("abc=4".utf8), into: &out))
    #expect(QuotedPrintable.decode(Array("abc=".utf8), into: &out))
  }
}
