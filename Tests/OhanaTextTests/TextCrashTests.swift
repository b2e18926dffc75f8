import OhanaText
import Testing

/// Programmer errors trap (STYLE example 7); bad input never does.
@Suite struct TextCrashTests {
  @Test func byteStringsRejectBadOffsets() async {
    await #expect(processExitsWith: .failure) {
      _ = ByteStrings(bytes: [1, 2, 3], offsets: [0, 2, 1, 3])
    }
  }

  @Test func sortKeysRejectUnterminatedKeys() async {
    await #expect(processExitsWith: .failure) {
      _ = SortKeys(validating: ByteStrings(bytes: [5, 6], offsets: [0, 2]))
    }
  }

  @Test func rowOrderRejectsUnknownKeyIDs() async {
    await #expect(processExitsWith: .failure) {
      _ = KeySort.rowOrder(keyOfRow: [3], ranks: KeyRanks(ranks: [0], distinctCount: 1))
    }
  }

  @Test func bulkKeysRejectRangesOutsideTheArena() async {
    await #expect(processExitsWith: .failure) {
      let collator = try Collator(locale: "en")
      _ = collator.sortKeys(count: 1, utf8: [0x41], parallel: false) { _ in 0..<5 }
    }
  }
}
