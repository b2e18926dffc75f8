import Testing

@Test func placeholder_OhanaProcessorsTests() { #expect(Bool(true)) }
