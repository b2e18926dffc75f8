import Testing

@testable import OhanaDedupe

@Suite struct JaroWinklerTests {
  @Test func knownValues() {
    #expect(abs(JaroWinkler.similarity("MARTHA", "MARHTA") - 0.961) < 0.001)
    #expect(abs(JaroWinkler.similarity("DWAYNE", "DUANE") - 0.84) < 0.001)
    #expect(abs(JaroWinkler.similarity("DIXON", "DICKSONX") - 0.813) < 0.001)
  }

  @Test func jaroValues() {
    func jaro(_ a: String, _ b: String) -> Double {
      var a = a, b = b
      return a.withUTF8 { pa in b.withUTF8 { pb in JaroWinkler.jaro(UnsafeRawBufferPointer(pa), UnsafeRawBufferPointer(pb)) } }
    }
    #expect(abs(jaro("MARTHA", "MARHTA") - 0.944) < 0.001)
    #expect(abs(jaro("DWAYNE", "DUANE") - 0.822) < 0.001)
  }

  @Test func edges() {
    #expect(JaroWinkler.similarity("", "") == 1)
    #expect(JaroWinkler.similarity("abc", "") == 0)
    #expect(JaroWinkler.similarity("abc", "xyz") == 0)
    #expect(JaroWinkler.similarity("same", "same") == 1)
    #expect(JaroWinkler.similarity("a", "a") == 1)
    // Symmetric.
    #expect(JaroWinkler.similarity("johnathan", "jonathan") == JaroWinkler.similarity("jonathan", "johnathan"))
  }

  @Test func longStringsAreBoundedNotCrashing() {
    let a = String(repeating: "ab", count: 200), b = String(repeating: "ba", count: 150)
    let s = JaroWinkler.similarity(a, b)
    #expect(s >= 0 && s <= 1)
  }
}
