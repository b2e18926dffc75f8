import Testing

@Test func placeholder_OhanaCLITests() { #expect(Bool(true)) }
