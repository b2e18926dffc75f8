import OhanaCore
import Testing

@testable import OhanaIO

@Suite struct DecisionsReaderTests {
  @Test func readsBothKindsAndReportsBadLinesWithTheirNumbers() {
    let text = """
      {"kind": "same", "uids": ["a", "b", "c"], "time": "2026-11-28T10:00:00Z", "note": "one person"}

      {"kind": "different", "uids": ["a"], "from": ["d", "e"], "extra": {"x": [1, 2]}}
      {"kind": "same", "uids": ["a"]}
      {"kind": "maybe", "uids": ["a", "b"]}
      not json
      {"kind": "different", "uids": ["a"], "from": ["a"]}
      {"kind": "different", "uids": ["a"]}
      {"uids": ["a", "b"]}
      {"kind": "same", "uids": ["x", 3]}
      {"kind": "same", "uids": ["x", "y"]} trailing
      {"kind": "same", "uids": ["\\u00e9", "y"], "note": null}
      """
    let (decisions, errors) = DedupeDecision.read(ndjson: Array(text.utf8))
    #expect(decisions.map(\.line) == [1, 3, 12])
    #expect(decisions[0] == DedupeDecision(kind: .same, uids: ["a", "b", "c"], time: "2026-11-28T10:00:00Z", note: "one person", line: 1))
    #expect(decisions[1].kind == .different && decisions[1].uids == ["a"] && decisions[1].from == ["d", "e"])
    #expect(decisions[2].uids == ["é", "y"] && decisions[2].note == nil)
    #expect(errors.map(\.line) == [4, 5, 6, 7, 8, 9, 10, 11])
    #expect(errors.allSatisfy { !$0.reason.isEmpty })
  }
}
