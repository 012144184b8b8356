import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// An app opens a store without the CLI's knowledge, reads its metrics and warms it up ([scores] #17, "An API
/// an app can use on its own").
@Suite struct StoreOpenAndMetricsTests {
    /// A model Hush cannot find by name: a hashing embedder that says it pools by mean.
    struct CustomModel: Embedder {
        let base = HashingEmbedder(dimension: 64)
        var identity: EmbedderIdentity {
            EmbedderIdentity(
                model: "custom-notes-model", weightsSHA256: "abc123", dimension: 64, pooling: .mean,
                normalized: true)
        }
        var maxTokens: Int { base.maxTokens }
        func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] { try base.embed(texts, role: role) }
        func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
    }

    @Test(.needsModel) func openFindsTheEmbedderTheStoreWasMadeWith() async throws {
        let folder = try TemporaryDirectory()
        let lexicalPath = folder.path("lexical.hush")
        do {
            let store = try await HushStore.open(path: lexicalPath, embedder: HashingEmbedder(dimension: 128))
            try await store.upsert(Corpus.documents)
        }
        let lexical = try await HushStore.open(path: lexicalPath, readOnly: true)
        #expect(lexical.semanticAvailable)
        #expect(lexical.identity == HashingEmbedder(dimension: 128).identity)
        #expect(try await lexical.search("budget travel costs", mode: .semantic).hits.first?.id == "budget-review")

        let miniLMPath = folder.path("minilm.hush")
        do {
            let store = try await HushStore.open(path: miniLMPath, embedder: TestModels.miniLMEmbedder())
            try await store.upsert(Corpus.documents)
        }
        let miniLM = try await HushStore.open(path: miniLMPath, readOnly: true)
        #expect(miniLM.semanticAvailable)
        #expect(miniLM.identity.model == "all-MiniLM-L6-v2")
    }

    @Test func aModelHushCannotFindOpensForKeywordsOrFailsClearly() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("custom.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: CustomModel())
            try await store.upsert(Corpus.documents)
        }
        let store = try await HushStore.open(path: path, model: nil, readOnly: true)
        #expect(!store.semanticAvailable)
        let keyword = try await store.search("budget", mode: SearchMode.keyword)
        #expect(keyword.hits.first?.id == "budget-review")
        do {
            _ = try await HushStore.open(path: path, model: nil)
            Issue.record("expected modelUnavailable")
        } catch StoreError.modelUnavailable(let errorPath, let model, let reason) {
            #expect(errorPath == path && model == "custom-notes-model")
            #expect(reason.contains("open(path:embedder:)"))
        }
    }

    @Test func metricsCountSearchesAndTheQueryCache() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        #expect(store.metrics.searches.count == 0 && store.metrics.queryCache.hitRate == 0)
        _ = try await store.search("travel budget")
        _ = try await store.search("travel budget")
        _ = try await store.search("sourdough", mode: .keyword)
        let metrics = store.metrics
        #expect(metrics.searches.count == 3)
        #expect(metrics.searches.embedded == 1)
        #expect(metrics.queryCache.hits == 1 && metrics.queryCache.misses == 1 && metrics.queryCache.entries == 1)
        #expect(metrics.queryCache.hitRate == 0.5)
        #expect(metrics.searches.totalMs > 0 && metrics.searches.maxTotalMs <= metrics.searches.totalMs)
        #expect(metrics.searches.meanEmbedMs > 0)
    }

    /// warmUp loads the model and touches the index without searching: nothing is counted or cached.
    @Test func warmUpIsNotASearch() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let took = try await store.warmUp()
        #expect(took > .zero)
        #expect(store.metrics.searches.count == 0)
        #expect(store.metrics.queryCache.entries == 0 && store.metrics.queryCache.misses == 0)
        let empty = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await empty.warmUp()
    }

    @Test func withoutItsModelAStoreCanBeReadKeywordSearchedAndDeleted() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nomodel.hush")
        let made = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await made.upsert(Corpus.documents)

        let store = try await HushStore.open(path: path, embedder: nil)
        #expect(!store.semanticAvailable)
        #expect(try await store.document(id: "sourdough")?.document.title != nil)
        let stats = try await store.stats()
        #expect(stats.documents == Corpus.documents.count && !stats.modelLoaded)
        #expect(try await store.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        await #expect(throws: StoreError.modelNotLoaded(stored: HashingEmbedder().identity)) {
            _ = try await store.search("sourdough", mode: .semantic, limit: 1)
        }
        await #expect(throws: StoreError.modelNotLoaded(stored: HashingEmbedder().identity)) {
            try await store.upsert([Document(id: "new", body: "Needs the model.")])
        }
        #expect(try await store.delete(ids: ["sourdough"]) == 1)
        #expect(try await store.prune(maxDocuments: 3) == Corpus.documents.count - 4)
        _ = try await store.compact()

        // With the model again, the graph and vectors follow the deletions.
        let back = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await back.stats().documents == 3)
        #expect(try await back.search("bread", mode: .semantic, limit: 10).hits.count <= 3)
    }
}

/// Changing only a document's dates or tags is an update that embeds nothing, and the summary says so.
@Suite struct UpsertMetadataOnlyTests {
    @Test func anUpdatedAtChangeIsCountedAsMetadataOnly() async throws {
        let store = try await HushStore.inMemory(embedder: InstrumentedEmbedder())
        var note = Document(id: "n1", title: "Groceries", body: "Milk, eggs and bread.", createdAt: date("2026-01-02"))
        let first = try await store.upsert([note])
        #expect(first.added == 1 && first.metadataOnly == 0)
        note.updatedAt = date("2026-01-05")
        let second = try await store.upsert([note])
        #expect(second.updated == 1 && second.metadataOnly == 1 && second.chunksEmbedded == 0)
        note.body = "Milk, eggs, bread and coffee."
        let third = try await store.upsert([note])
        #expect(third.updated == 1 && third.metadataOnly == 0 && third.chunksEmbedded == 1)
    }
}
