import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

@Suite struct BERTEmbedderTests {
    /// Text in, vector out, against sentence-transformers: the acceptance test of the native embedder.
    @Test(.needsModel) func textToVectorMatchesSentenceTransformers() throws {
        let cases = try ParityCase.load()
        #expect(cases.count >= 300)
        let categories = Set(cases.map(\.category))
        for needed in ["edge", "word", "sentence", "long", "cjk", "accents", "emoji", "code", "url"] {
            #expect(categories.contains(needed), "the fixture lacks \(needed) texts")
        }
        let embedder = try BERTEmbedder(modelDirectory: TestModels.miniLMDirectory, threads: 2)
        let embeddings = try embedder.embed(cases.map(\.text), role: .passage)
        for (reference, embedding) in zip(cases, embeddings) {
            let c = cosine(embedding.vector, reference.vector)
            let d = maxAbsDifference(embedding.vector, reference.vector)
            #expect(c >= 0.99999, "cosine \(c) for \(reference.category): \(reference.text.prefix(60))")
            #expect(d <= 2e-4, "max abs difference \(d) for \(reference.category): \(reference.text.prefix(60))")
            #expect(embedding.truncated == reference.truncated, "truncation flag for \(reference.text.prefix(60))")
            #expect(embedding.tokenCount == reference.ids.count)
        }
        #expect(cases.contains { $0.truncated }, "the fixture must have texts over the 256-token window")
    }

    @Test(.needsModel) func identityNamesTheModelAndItsWeights() throws {
        let embedder = try BERTEmbedder(modelDirectory: TestModels.miniLMDirectory)
        #expect(embedder.identity.model == "all-MiniLM-L6-v2")
        #expect(embedder.identity.weightsSHA256 == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db")
        #expect(embedder.identity.dimension == 384)
        #expect(embedder.identity.pooling == .mean)
        #expect(embedder.maxTokens == 256)
    }

    @Test(.needsModel) func meaningBeatsWords() throws {
        let embedder = try BERTEmbedder(modelDirectory: TestModels.miniLMDirectory)
        let v = try embedder.embed(
            [
                "should I text my ex?", "reaching out to someone from the past",
                "how to cook rice in a pressure cooker",
            ], role: .passage
        ).map(\.vector)
        let related = cosine(v[0], v[1])
        let unrelated = cosine(v[0], v[2])
        #expect(related > unrelated + 0.1, "related \(related) vs unrelated \(unrelated)")
    }

    @Test func missingModelIsATypedErrorWordedForAnApp() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/hush-model")
        #expect(throws: EmbeddingError.modelNotFound(path: "/nonexistent/hush-model")) {
            try BERTEmbedder(modelDirectory: missing)
        }
        // What an app can do, not a command line's advice (the CLI adds its own: CLITests).
        let message = EmbeddingError.modelNotFound(path: "/x").description
        #expect(message.contains("app's bundle") && !message.contains("scripts/") && !message.contains("HUSH_"))
    }
}
