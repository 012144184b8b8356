import Testing

@Suite struct CLISmokeTests {
    @Test func placeholder() { #expect(Bool(true)) }
}
