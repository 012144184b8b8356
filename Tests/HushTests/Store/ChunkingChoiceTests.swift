import Foundation
import HushEmbedding
import HushTestSupport
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
            // The model's overlap in its proportion (32 of 256), not a third of every chunk repeated.
            #expect(store.chunking.overlapTokens == 13)
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
        // A target beyond what the model reads is refused, not cut down to the window unsaid.
        await #expect(
            throws: StoreError.invalidOption(
                "chunkTokens must be at most 512, the most tokens wide-test-model reads at once (got 600)")
        ) {
            _ = try await HushStore.open(path: path, embedder: WideModel(), options: StoreOptions(chunkTokens: 600))
        }
        // An overlap alone must lie below the store's target (the model's 256 here).
        await #expect(throws: StoreError.self) {
            _ = try await HushStore.open(
                path: path, embedder: WideModel(), options: StoreOptions(chunkOverlapTokens: 300))
        }
        // A whole configuration is checked too: chunks the model would cut short are refused.
        await #expect(
            throws: StoreError.invalidOption(
                "chunking.maxTokens must be at most 256, the most tokens hush-lexical-hashing-v1 reads at once "
                    + "(got 512)")
        ) {
            _ = try await HushStore.open(
                path: path, embedder: HashingEmbedder(),
                options: StoreOptions(chunking: ChunkingConfiguration(maxTokens: 512, targetTokens: 400)))
        }
        await #expect(throws: StoreError.self) {
            _ = try await HushStore.open(
                path: path, embedder: WideModel(),
                options: StoreOptions(chunking: ChunkingConfiguration(maxTokens: 512, targetTokens: 600)))
        }
        await #expect(throws: StoreError.self) {
            _ = try await HushStore.open(
                path: path, embedder: WideModel(),
                options: StoreOptions(chunking: ChunkingConfiguration(targetTokens: 64, overlapTokens: 64)))
        }
        // None of the refused opens left a file behind: the store was never made.
        for file in [path, path + "-wal", path + "-shm"] { #expect(!FileManager.default.fileExists(atPath: file)) }
    }

    @Test func aRefusedOptionLeavesAnExistingStoreAsItWas() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("kept.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: WideModel())
            try await store.upsert(Corpus.documents)
            try await store.close()
        }
        await #expect(throws: StoreError.self) {
            _ = try await HushStore.open(path: path, embedder: WideModel(), options: StoreOptions(chunkTokens: 4096))
        }
        let store = try await HushStore.open(path: path, embedder: WideModel())
        #expect(try await store.stats().documents == Corpus.documents.count)
        #expect(store.chunking == ChunkingConfiguration(maxTokens: 512, targetTokens: 256, overlapTokens: 32))
        #expect(try await store.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
    }

    @Test func aTargetAloneTakesTheModelsOverlapInProportion() throws {
        let wide = WideModel()  // 256 / 32
        let base = ChunkingConfiguration(for: wide)
        func overlap(_ target: Int) throws -> Int {
            try ChunkingConfiguration.resolving(
                base, model: wide.preferredChunkSize, modelName: "wide", targetTokens: target, overlapTokens: nil
            ).get().overlapTokens
        }
        #expect(try overlap(64) == 8)
        #expect(try overlap(16) == 2)
        #expect(try overlap(8) == 1)
        #expect(try overlap(256) == 32)
        // A larger target keeps the model's overlap (the sizes measured for e5 were 480 / 32 and 512 / 32).
        #expect(try overlap(480) == 32)
        // MiniLM's 24 of 128.
        let hashing = HashingEmbedder()
        let resolved = try ChunkingConfiguration.resolving(
            ChunkingConfiguration(for: hashing), model: hashing.preferredChunkSize, modelName: "hashing",
            targetTokens: 64, overlapTokens: nil
        ).get()
        #expect(resolved == ChunkingConfiguration(maxTokens: 256, targetTokens: 64, overlapTokens: 12))
        // An overlap given is kept as given.
        #expect(
            try ChunkingConfiguration.resolving(
                base, model: wide.preferredChunkSize, modelName: "wide", targetTokens: 64, overlapTokens: 0
            ).get().overlapTokens == 0)
    }

    @Test func buildConfigurationTakesTheModelsSizeForWhatItLeavesOut() throws {
        let wide = WideModel()
        #expect(
            try BuildConfiguration().chunkingConfiguration(for: wide)
                == ChunkingConfiguration(maxTokens: 512, targetTokens: 256, overlapTokens: 32))
        #expect(
            try BuildConfiguration(chunking: .init(targetTokens: 96)).chunkingConfiguration(for: wide)
                == ChunkingConfiguration(maxTokens: 512, targetTokens: 96, overlapTokens: 12))
        #expect(
            try BuildConfiguration(chunking: .init(targetTokens: 20)).chunkingConfiguration(for: wide).overlapTokens
                == 3)
        #expect(
            throws: BuildError.invalidConfiguration(
                path: "(arguments)",
                reason:
                    "chunking.targetTokens must be at most 256, the most tokens hush-lexical-hashing-v1 reads at once "
                    + "(got 480)")
        ) {
            try BuildConfiguration(chunking: .init(targetTokens: 480)).chunkingConfiguration(for: HashingEmbedder())
        }
        #expect(
            try BuildConfiguration().chunkingConfiguration(for: HashingEmbedder())
                == ChunkingConfiguration(maxTokens: 256, targetTokens: 128, overlapTokens: 24))
        #expect(throws: BuildError.self) {
            try BuildConfiguration(chunking: .init(overlapTokens: 300)).chunkingConfiguration(for: wide)
        }
    }

    @Test func reembeddingToAModelThatCutsOtherwiseReChunksEveryDocument() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("moving.hush")
        let documents =
            (0..<12).map { Document(id: "long-\($0)", title: "Harbour \($0)", body: Self.prose(sentences: 40 + $0)) }
            + Corpus.documents
        do {
            let old = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 64))
            try await old.upsert(documents)
            try await old.close()
        }
        let before = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 64), readOnly: true)
        let oldChunks = try await before.stats().chunks
        try await before.close()

        // Killed after its first batch: nothing is swapped, the store still answers with the old model.
        let converting = try await HushStore.open(
            path: path, embedder: WideModel(), options: StoreOptions(allowEmbedderMismatch: true))
        #expect(converting.chunking.targetTokens == 256)
        struct Killed: Error {}
        converting.setTestHooks(.init(afterReembedBatch: { batch in if batch == 1 { throw Killed() } }))
        await #expect(throws: Killed.self) { try await converting.reembed(batchSize: 8) }
        try await converting.close()
        do {
            let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 64))
            let stats = try await reopened.stats()
            #expect(stats.embedder == HashingEmbedder(dimension: 64).identity)
            #expect(stats.chunks == oldChunks)
            #expect(stats.unfinishedReembed?.total == documents.count)
            #expect((stats.unfinishedReembed?.completed ?? 0) > 0)
            #expect(
                try await reopened.search("cheaper venue", mode: .semantic, limit: 1).hits.first?.id == "budget-review")
            try await reopened.close()
        }

        // Resumed: every document is cut at the new model's size, searchable by keyword and meaning.
        let resumed = try await HushStore.open(
            path: path, embedder: WideModel(), options: StoreOptions(allowEmbedderMismatch: true))
        try await resumed.reembed(batchSize: 8)
        try await resumed.close()
        let store = try await HushStore.open(path: path, embedder: WideModel())
        let stats = try await store.stats()
        #expect(stats.embedder == WideModel().identity)
        #expect(stats.unfinishedReembed == nil)
        #expect(stats.documents == documents.count)
        #expect(stats.chunks == stats.vectors)
        #expect(stats.chunks < oldChunks)
        #expect(stats.chunking == ChunkingConfiguration(maxTokens: 512, targetTokens: 256, overlapTokens: 32))
        let cut = Chunker(configuration: store.chunking, tokenCounter: { WideModel().tokenCount($0) })
        for document in documents {
            let stored = try await store.document(id: document.id)
            #expect(stored?.document.body == document.body)
            #expect(stored?.chunkCount == cut.chunk(title: document.title, text: document.body).count)
        }
        #expect(try await store.search("cheaper venue", mode: .semantic, limit: 1).hits.first?.id == "budget-review")
        #expect(try await store.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        // The same documents again are unchanged: nothing is cut or embedded twice.
        let again = try await store.upsert(documents)
        #expect(again.unchanged == documents.count)
        #expect(again.chunksEmbedded == 0)
    }
}
