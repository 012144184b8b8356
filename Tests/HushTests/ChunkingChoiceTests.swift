import Foundation
import HushEmbedding
import Testing

@testable import Hush

/// Chunk sizes follow the model, a store remembers how it was cut, and chunks come out of even size
/// ([e5-quality] #35).
@Suite struct ChunkingChoiceTests {
    /// A model with multilingual-e5's window and chunk preference, on the hashing embedder's vectors.
    struct WideModel: Embedder {
        let base = HashingEmbedder(dimension: 64, maxTokens: 512)
        var identity: EmbedderIdentity {
            EmbedderIdentity(
                model: "wide-test-model", weightsSHA256: "wide", dimension: 64, pooling: .mean, normalized: true)
        }
        var maxTokens: Int { 512 }
        var preferredChunkSize: ChunkSize { .multilingualE5 }
        func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] { try base.embed(texts, role: role) }
        func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
    }

    /// `count` sentences of about 12 words each (14 tokens with the specials for the word counter).
    static func prose(sentences count: Int) -> String {
        let words = [
            "the", "harbour", "lights", "came", "on", "while", "the", "ferry", "waited", "for", "late", "walkers",
        ]
        return (0..<count).map { index in
            let rotated = Array(words[(index % words.count)...] + words[..<(index % words.count)])
            return rotated.joined(separator: " ").capitalized(with: nil) + " number \(index)."
        }.joined(separator: " ")
    }

    @Test func chunksOfOneTextAreEvenNotALongOneAndAShortTail() {
        // 30 sentences of 14 words: 420 tokens. Greedy packing at 256 would give 252 + 168 (with overlap);
        // at 128, three full chunks and a short fourth. Even packing keeps the count and evens the sizes.
        let text = Self.prose(sentences: 30)
        for (target, expectedCount) in [(256, 2), (128, 4)] {
            let chunker = Chunker(
                configuration: .init(maxTokens: 512, targetTokens: target, overlapTokens: 0, prefixTitle: false),
                tokenCounter: wordTokens)
            let chunks = chunker.chunk(title: nil, text: text)
            let sizes = chunks.map(\.tokenCount)
            #expect(chunks.count == expectedCount, "target \(target): \(sizes)")
            let smallest = sizes.min() ?? 0
            let largest = sizes.max() ?? 0
            #expect(largest <= target)
            // No short tail: the smallest at least three quarters of the largest (greedy packing: 168 of 254
            // at 256, and 44 of 128 at 128).
            #expect(smallest * 4 >= largest * 3, "target \(target): \(sizes)")
            // Nothing lost: the chunks cover the text in order.
            #expect(chunks.first?.range.lowerBound == 0)
            #expect(chunks.last?.range.upperBound == text.utf16.count)
        }
    }

    @Test func aTextThatFillsItsChunksIsCutAsBefore() {
        // 18 sentences of 14 tokens: 252 content tokens, one full chunk of 254 at target 256 and nothing
        // left over, so nothing to even out.
        let text = Self.prose(sentences: 18)
        let chunker = Chunker(
            configuration: .init(maxTokens: 512, targetTokens: 256, overlapTokens: 0, prefixTitle: false),
            tokenCounter: wordTokens)
        #expect(chunker.chunk(title: nil, text: text).count == 1)
    }

    @Test func aNewStoreChunksWithTheModelsSizeAndRemembersIt() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("wide.hush")
        let long = Document(id: "long", title: "Harbour", body: Self.prose(sentences: 60))
        do {
            let store = try await HushStore.open(path: path, embedder: WideModel())
            #expect(store.chunking == ChunkingConfiguration(maxTokens: 512, targetTokens: 256, overlapTokens: 32))
            try await store.upsert([long])
            #expect(try await store.stats().chunks == 4)
            try await store.close()
        }
        // Reopened with another size: documents are re-cut on their next upsert, and the file records it.
        do {
            let store = try await HushStore.open(
                path: path, embedder: WideModel(), options: StoreOptions(chunkTokens: 100))
            #expect(store.chunking.targetTokens == 100)
            #expect(store.chunking.overlapTokens == 32)
            let summary = try await store.upsert([long])
            #expect(summary.updated == 1)
            #expect(try await store.stats().chunks > 8)
            try await store.close()
        }
        // Reopened without options: the size it was last cut with, so an unchanged document stays unchanged.
        let store = try await HushStore.open(path: path, embedder: WideModel())
        #expect(store.chunking.targetTokens == 100)
        #expect(try await store.upsert([long]).unchanged == 1)
        #expect(try await store.stats().chunking.targetTokens == 100)
    }

    @Test func aStoreMadeBeforeChunkSizesWereRecordedKeepsTheOldSize() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("old.hush")
        let long = Document(id: "long", title: "Harbour", body: Self.prose(sentences: 60))
        do {
            let store = try await HushStore.open(
                path: path, embedder: WideModel(),
                options: StoreOptions(chunking: ChunkingConfiguration(maxTokens: 512)))
            try await store.upsert([long])
            // What a file written before this change looks like: no record of its chunking.
            try store.database.write { try StoreSchema.setMeta($0.db, StoreSchema.Key.chunking, nil) }
            try await store.close()
        }
        let store = try await HushStore.open(path: path, embedder: WideModel())
        #expect(store.chunking == ChunkingConfiguration(maxTokens: 512))
        #expect(try await store.upsert([long]).unchanged == 1)
    }

    @Test func badChunkSizesAreRefusedWithWhatToFix() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("bad.hush")
        await #expect(throws: StoreError.invalidOption("chunkTokens must be at least 8 (got 4)")) {
            _ = try await HushStore.open(path: path, embedder: WideModel(), options: StoreOptions(chunkTokens: 4))
        }
        do {
            _ = try await HushStore.open(
                path: path, embedder: WideModel(), options: StoreOptions(chunkTokens: 64, chunkOverlapTokens: 64))
            Issue.record("an overlap as large as the target was accepted")
        } catch StoreError.invalidOption(let reason) {
            #expect(reason.contains("0…63"))
        }
    }

    @Test func buildConfigurationTakesTheModelsSizeForWhatItLeavesOut() throws {
        let wide = WideModel()
        #expect(
            try BuildConfiguration().chunkingConfiguration(for: wide)
                == ChunkingConfiguration(maxTokens: 512, targetTokens: 256, overlapTokens: 32))
        #expect(
            try BuildConfiguration(chunking: .init(targetTokens: 96)).chunkingConfiguration(for: wide)
                == ChunkingConfiguration(maxTokens: 512, targetTokens: 96, overlapTokens: 32))
        #expect(
            try BuildConfiguration(chunking: .init(targetTokens: 20)).chunkingConfiguration(for: wide).overlapTokens
                == 19)
        #expect(
            try BuildConfiguration().chunkingConfiguration(for: HashingEmbedder())
                == ChunkingConfiguration(maxTokens: 256, targetTokens: 128, overlapTokens: 24))
        #expect(throws: BuildError.self) {
            try BuildConfiguration(chunking: .init(overlapTokens: 300)).chunkingConfiguration(for: wide)
        }
    }
}
