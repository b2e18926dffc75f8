import Testing

@Test func placeholder_OhanaCoreTests() { #expect(Bool(true)) }
