import Testing

@Test func placeholder_OhanaIOTests() { #expect(Bool(true)) }
