import Testing

@testable import OhanaCore

/// The shared trimming helpers against a plain statement of each: drop
/// the unwanted characters from the front, then from the back.
@Suite struct TrimmingTests {
  static func reference(_ s: String, _ unwanted: (Character) -> Bool) -> String {
    // On an array of characters: a String made of reversed characters
    // could join "\n" "\r" into one "\r\n".
    var c = Array(s)
    while let f = c.first, unwanted(f) { c.removeFirst() }
    while let l = c.last, unwanted(l) { c.removeLast() }
    return String(c)
  }

  @Test func bothAgreeWithTheReferenceOnRandomText() {
    let alphabet: [Character] = [" ", "\t", "\n", "\r", "\u{00A0}", "\u{2003}", "a", "é", "b", ",", "y"]
    var state: UInt64 = 36
    var checked = 0
    for _ in 0..<3000 {
      var s = ""
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      for k in 0..<Int(state >> 60) {
        s.append(alphabet[Int((state >> UInt64(4 * k % 56)) % UInt64(alphabet.count))])
      }
      #expect(s.trimmingBlanks == Self.reference(s) { $0 == " " || $0 == "\t" }, "\(s.debugDescription)")
      #expect(s.trimmingWhitespace == Self.reference(s) { $0.isWhitespace }, "\(s.debugDescription)")
      #expect(s[...].trimmingBlanks == s.trimmingBlanks)
      checked += 1
    }
    #expect(checked == 3000)
    #expect(" \t a b \t".trimmingBlanks == "a b")
    #expect("\u{00A0}a\n".trimmingBlanks == "\u{00A0}a\n")
    #expect("\u{00A0}a\n".trimmingWhitespace == "a")
  }
}
