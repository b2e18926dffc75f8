import Testing
@testable import OhanaProcessors

@Suite struct FieldBitsTests {
  @Test func countAndAnyAgreeWithABitLoop() {
    var rng = SystemRandomNumberGenerator()
    for n in [0, 1, 63, 64, 65, 200, 1000] {
      let flags = (0..<n).map { _ in Bool.random(using: &rng) }
      let words = FieldBits.fields(n) { flags[$0] }
      words.withUnsafeBufferPointer { w in
        for _ in 0..<200 where n > 0 {
          let a = Int.random(in: 0...n, using: &rng), b = Int.random(in: 0...n, using: &rng)
          let (s, e) = (min(a, b), max(a, b))
          let expected = flags[s..<e].filter { $0 }.count
          #expect(FieldBits.count(w, s, e) == expected, "n \(n) range \(s)..<\(e)")
          #expect(FieldBits.any(w, s, e) == (expected > 0))
        }
        #expect(FieldBits.count(w, 0, n) == flags.filter { $0 }.count)
      }
    }
  }
}
