import Testing

@Test func placeholder_OhanaTests() { #expect(Bool(true)) }
