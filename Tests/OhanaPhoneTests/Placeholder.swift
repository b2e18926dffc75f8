import Testing

@Test func placeholder_OhanaPhoneTests() { #expect(Bool(true)) }
