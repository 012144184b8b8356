import Testing

@testable import HushEmbedding

@Suite struct HashingEmbedderTests {
    @Test func sharedWordsScoreHigherThanUnrelatedText() throws {
        let embedder = HashingEmbedder()
        let vectors = try embedder.embed(
            [
                "Quarterly budget review with the finance team",
                "Review the quarterly budget",
                "A walk in the forest at dawn",
            ], role: .passage
        ).map(\.vector)
        func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { $0 * $1 }.reduce(0, +) }
        #expect(dot(vectors[0], vectors[1]) > dot(vectors[0], vectors[2]) + 0.2)
        #expect(abs(dot(vectors[0], vectors[0]) - 1) < 1e-5)
        #expect(embedder.identity.pooling == .lexical)
    }

    @Test func isDeterministicAndHandlesEmptyText() throws {
        let embedder = HashingEmbedder(dimension: 64)
        #expect(try embedder.embed("same text", role: .passage) == embedder.embed("same text", role: .query))
        let empty = try embedder.embed("", role: .passage)
        #expect(empty.vector.allSatisfy { $0 == 0 })
        #expect(empty.tokenCount == 2)
    }
}
