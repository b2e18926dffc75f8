import Testing

@Test func placeholder_OhanaTextTests() { #expect(Bool(true)) }
