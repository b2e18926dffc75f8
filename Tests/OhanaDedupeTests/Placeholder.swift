import Testing

@Test func placeholder_OhanaDedupeTests() { #expect(Bool(true)) }
