import Foundation
import OhanaDatasets
import OhanaStore
import Testing
import _OhanaTestSupport

/// `clusters.members` as the store writes and reads it, against
/// Foundation's JSON parser (an independent reader of the same text).
@Suite struct MembersTextTests {
  func parse(_ text: String, prefilled: [Int64] = []) -> [Int64]? {
    var out = prefilled
    let ok = Array(text.utf8).withUnsafeBytes { EntityStore.parseMembers($0, into: &out) }
    #expect(ok || out == prefilled, "a refused text leaves the output as it was: \(text)")
    return ok ? Array(out.dropFirst(prefilled.count)) : nil
  }

  @Test func writtenListsReadBackAsJSONSays() throws {
    var rng = SplitMix64(seed: 5, stream: 3, index: 0)
    for n in [0, 1, 2, 3, 17, 400] {
      var ids = (0..<n).map { _ in Int64(rng.next() % 1_000_000_000_000) + 1 }
      ids.sort()
      let text = String(decoding: EntityStore.membersText(ids), as: UTF8.self)
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
      let json = try #require(object as? [NSNumber], "\(text)")
      #expect(json.map { $0.int64Value } == ids, "Foundation reads what was written")
      #expect(parse(text, prefilled: [7]) == ids, "and so does the store")
    }
  }

  @Test func spacedTextIsReadAndBrokenTextRefused() {
    #expect(parse("[]") == [])
    #expect(parse(" [ 12 , 3 ,4] \n") == [12, 3, 4])
    #expect(parse("[5]") == [5])
    for bad in [
      "", " ", "[", "]", "[1", "1]", "[,]", "[1,]", "[,1]", "[1,,2]", "[1 2]", "[-1]", "[1.5]", "[\"1\"]", "[1]x",
      "[1][2]", "{}", "[9999999999999999999]", "null",
    ] {
      #expect(parse(bad, prefilled: [1, 2]) == nil, "\(bad) is refused")
    }
  }
}
