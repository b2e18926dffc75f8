import Dispatch
import Synchronization
import Testing

@testable import OhanaPhone

/// The engine is a value over immutable shared tables: many threads may
/// parse and format at once and get what one thread gets.
@Suite struct PhoneConcurrencyTests {
  @Test func parallelResultsMatchSequential() throws {
    let bytes = try #require(readFile(PhoneFixtureTests.fixturePath))
    var rows: [([UInt8], RegionCode)] = []
    for line in bytes.split(separator: 0x0A).prefix(4000) {
      let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count >= 2 else { continue }
      rows.append((Array(fields[0]), RegionCode(utf8: fields[1]) ?? .unknown))
    }
    let input = rows
    let engine = PhoneNumberEngine()
    @Sendable func run(_ range: Range<Int>) -> [UInt8] {
      var out: [UInt8] = []
      for i in range {
        engine.appendResultColumns(utf8: input[i].0, defaultRegion: input[i].1, to: &out)
        out.append(0x0A)
      }
      return out
    }
    let sequential = run(0..<input.count)
    let chunks = 8
    let size = (input.count + chunks - 1) / chunks
    let parts = Mutex<[[UInt8]]>(Array(repeating: [], count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { c in
      let lo = Swift.min(input.count, c * size)
      let hi = Swift.min(input.count, lo + size)
      let out = run(lo..<hi)
      parts.withLock { $0[c] = out }
    }
    let parallel = parts.withLock { $0 }.flatMap { $0 }
    #expect(parallel == sequential)
  }
}
