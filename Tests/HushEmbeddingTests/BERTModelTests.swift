import Foundation
import HushTestSupport
import Testing

@testable import HushEmbedding

@Suite struct BERTModelTests {
    /// The encoder alone, fed the reference token ids: every vector matches sentence-transformers.
    @Test(.needsModel) func encoderMatchesSentenceTransformersOnReferenceIDs() throws {
        let cases = try ParityCase.load()
        #expect(cases.count >= 300)
        let model = try BERTModel(modelDirectory: TestModels.miniLMDirectory, threads: 2)
        let vectors = try model.embed(tokenIDs: cases.map(\.ids))
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

    /// The binary16 weight panels (the AVX2 level's products) and the f32 matrices through BLAS (the other
    /// levels') give the same vectors within the rounding of the weights, for batches and single queries.
    @Test(.needsModel) func halfPanelsAndF32GiveTheSameVectors() throws {
        let cases = try ParityCase.load().prefix(40).map(\.ids)
        let panels = try BERTModel(
            modelDirectory: TestModels.miniLMDirectory, threads: 1, batchTokens: 512, halfPanels: true)
        let f32 = try BERTModel(
            modelDirectory: TestModels.miniLMDirectory, threads: 1, batchTokens: 512, halfPanels: false)
        var worst: Float = 1
        for (a, b) in zip(try panels.embed(tokenIDs: Array(cases)), try f32.embed(tokenIDs: Array(cases))) {
            worst = min(worst, zip(a, b).map(*).reduce(0, +))
            #expect(maxAbsDifference(a, b) < 5e-4)
        }
        for ids in cases.prefix(5) {
            let a = try panels.embed(tokenIDs: [ids])[0]
            let b = try f32.embed(tokenIDs: [ids])[0]
            worst = min(worst, zip(a, b).map(*).reduce(0, +))
        }
        #expect(worst > 0.99999, "worst cosine \(worst)")
    }

    /// Batches give every thread the same work: 32 passages of about 57 tokens (one write's embedding call) on
    /// two threads are two batches of about 912 tokens, not 1,024 and 800; every sequence is in exactly one
    /// batch and none is over the budget.
    @Test func batchesAreBalancedOverThreads() {
        let lengths = (0..<32).map { 50 + ($0 * 7) % 15 }
        let total = lengths.reduce(0, +)
        func check(_ plan: [[Int]], batchTokens: Int) -> [Int] {
            #expect(plan.flatMap { $0 }.sorted() == Array(lengths.indices))
            let sizes = plan.map { $0.reduce(0) { $0 + lengths[$1] } }
            #expect(sizes.allSatisfy { $0 <= batchTokens })
            return sizes
        }
        let two = check(BERTModel.plan(lengths: lengths, batchTokens: 1024, threads: 2), batchTokens: 1024)
        #expect(two.count == 2)
        #expect(abs(two[0] - two[1]) <= 64, "\(two) of \(total)")
        // Five budgets' worth on two threads: six batches, three each, within one sequence of each other.
        let long = (0..<80).map { 40 + ($0 * 13) % 60 }
        let sizes = BERTModel.plan(lengths: long, batchTokens: 1024, threads: 2).map {
            $0.reduce(0) { $0 + long[$1] }
        }
        #expect(sizes.count == 6 && sizes.allSatisfy { $0 <= 1024 })
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 100, "\(sizes)")
        // One thread: as few batches as the budget allows. Work within one budget on two threads: a batch each
        // (the team is left to queries); a single sequence: one batch.
        #expect(BERTModel.plan(lengths: lengths, batchTokens: 1024, threads: 1).count == 2)
        #expect(BERTModel.plan(lengths: [30, 20], batchTokens: 1024, threads: 2) == [[0], [1]])
        #expect(BERTModel.plan(lengths: [30, 20, 10], batchTokens: 1024, threads: 2) == [[0], [1, 2]])
        #expect(BERTModel.plan(lengths: [30], batchTokens: 1024, threads: 2) == [[0]])
        #expect(BERTModel.plan(lengths: [600, 500, 400, 300], batchTokens: 1024, threads: 2) == [[0, 3], [1, 2]])
        // Sequences of the whole budget each get a batch of their own.
        #expect(BERTModel.plan(lengths: [512, 512, 512], batchTokens: 512, threads: 2).count == 3)
        #expect(BERTModel.plan(lengths: [], batchTokens: 1024, threads: 2).isEmpty)
    }

    @Test(.needsModel) func resultsDoNotDependOnBatchingOrThreads() throws {
        let cases = try ParityCase.load().prefix(40).map(\.ids)
        let one = try BERTModel(modelDirectory: TestModels.miniLMDirectory, threads: 1, batchTokens: 256)
        let two = try BERTModel(modelDirectory: TestModels.miniLMDirectory, threads: 2, batchTokens: 4096)
        for (a, b) in zip(try one.embed(tokenIDs: Array(cases)), try two.embed(tokenIDs: Array(cases))) {
            #expect(maxAbsDifference(a, b) < 1e-5)
        }
    }

    /// A lone query is split over a team of threads (products by output columns, attention by heads, layer
    /// norms by tokens), and several small batches run one after another on the team. BLAS may block a narrower
    /// product differently, so f32 vectors agree within rounding (the 4-bit path is bit-identical: see
    /// E5EmbedderTests), for an even and an odd team.
    @Test(.needsModel) func aTeamOfThreadsGivesTheSameVectors() throws {
        let parity = try ParityCase.load()
        let short = parity.filter { $0.category != "long" }.prefix(16).map(\.ids)
        let long = parity.filter { $0.category == "long" }.prefix(2).map(\.ids)
        #expect(long.count == 2 && long.allSatisfy { $0.count > 128 })
        let one = try BERTModel(modelDirectory: TestModels.miniLMDirectory, threads: 1, batchTokens: 256)
        for threads in [2, 3] {
            let team = try BERTModel(modelDirectory: TestModels.miniLMDirectory, threads: threads, batchTokens: 256)
            for ids in short {
                let difference = maxAbsDifference(try one.embed(tokenIDs: [ids])[0], try team.embed(tokenIDs: [ids])[0])
                #expect(difference <= 1e-6, "\(threads) threads, \(ids.count) tokens: \(difference)")
            }
            for (a, b) in zip(try one.embed(tokenIDs: long), try team.embed(tokenIDs: long)) {
                #expect(maxAbsDifference(a, b) <= 1e-6, "two batches on \(threads) threads")
            }
        }
    }

    @Test(.needsModel) func readsTheArchitectureAndPoolingOfTheModelFolder() throws {
        let model = try BERTModel(modelDirectory: TestModels.miniLMDirectory)
        #expect(model.configuration.hiddenSize == 384)
        #expect(model.configuration.numHiddenLayers == 6)
        #expect(model.configuration.numAttentionHeads == 12)
        #expect(model.pooling == .mean)
        #expect(model.maxSequenceLength == 256)
    }

    @Test func modelsRefuseThreadCountsOutOfRange() throws {
        let nowhere = URL(fileURLWithPath: "/nonexistent-hush-model")
        for threads in [0, -3, BERTModel.maximumThreads + 1, 100_000] {
            #expect {
                _ = try BERTEmbedder(modelDirectory: nowhere, threads: threads)
            } throws: { error in
                guard case EmbeddingError.invalidInput(let reason) = error else { return false }
                return reason.contains("threads must be between 1 and \(BERTModel.maximumThreads)")
            }
            #expect(throws: EmbeddingError.self) { _ = try E5Embedder(modelFile: nowhere, threads: threads) }
            #expect(throws: EmbeddingError.self) { _ = try ModelChoice.e5Small.load(threads: threads) }
        }
        #expect(try BERTModel.checkedThreads(nil) == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try BERTModel.checkedThreads(1) == 1)
    }
}
