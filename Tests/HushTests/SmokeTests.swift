import Testing
@testable import Hush

@Suite struct HushSmokeTests {
    @Test func lexicalFallbackIsAvailable() {
        #expect(HashingEmbedder().dimension == 384)
    }
}
