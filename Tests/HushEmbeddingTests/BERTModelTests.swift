import Foundation
import Testing

@testable import HushEmbedding

@Suite struct BERTModelTests {
    /// The encoder alone, fed the reference token ids: every vector matches sentence-transformers.
    @Test func encoderMatchesSentenceTransformersOnReferenceIDs() throws {
        let cases = try ParityCase.load()
        #expect(cases.count >= 300)
        let model = try BERTModel(modelDirectory: TestModel.directory, threads: 2)
        let vectors = model.embed(tokenIDs: cases.map(\.ids))
        var worstCosine = 1.0
        var worstDifference: Float = 0
        for (reference, vector) in zip(cases, vectors) {
            let c = cosine(vector, reference.vector)
            let d = maxAbsDifference(vector, reference.vector)
            worstCosine = min(worstCosine, c)
            worstDifference = max(worstDifference, d)
            #expect(c >= 0.99999, "cosine \(c) for \(reference.category): \(reference.text.prefix(60))")
            #expect(d <= 2e-4, "max abs difference \(d) for \(reference.category): \(reference.text.prefix(60))")
        }
        print(
            "encoder parity: \(cases.count) texts, worst cosine \(worstCosine), worst max abs diff \(worstDifference)")
    }

    @Test func resultsDoNotDependOnBatchingOrThreads() throws {
        let cases = try ParityCase.load().prefix(40).map(\.ids)
        let one = try BERTModel(modelDirectory: TestModel.directory, threads: 1, batchTokens: 256)
        let two = try BERTModel(modelDirectory: TestModel.directory, threads: 2, batchTokens: 4096)
        for (a, b) in zip(one.embed(tokenIDs: Array(cases)), two.embed(tokenIDs: Array(cases))) {
            #expect(maxAbsDifference(a, b) < 1e-5)
        }
    }

    @Test func readsTheArchitectureAndPoolingOfTheModelFolder() throws {
        let model = try BERTModel(modelDirectory: TestModel.directory)
        #expect(model.configuration.hiddenSize == 384)
        #expect(model.configuration.numHiddenLayers == 6)
        #expect(model.configuration.numAttentionHeads == 12)
        #expect(model.pooling == .mean)
        #expect(model.maxSequenceLength == 256)
    }
}
