import Foundation
import GRDB
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

    // MARK: Which model a file opens with (StoreModelResolver, for open(path:model:) and `hush` alike)

    /// A store made with a model folder Hush knows neither by name nor by weights opens with that folder when
    /// it is given; without it, a read or a write that embeds nothing (`hush delete`, `prune`, `compact`)
    /// opens without a model, and an open that embeds is refused: Hush never guesses another model for it.
    @Test func aModelFolderHushDoesNotKnowIsUsedOnlyWhenGiven() async throws {
        let folder = try TemporaryDirectory()
        let model = try TinyModelFolder.write(in: folder.url, name: "notes-model")
        let path = folder.path("notes.hush")
        do {
            let store = try await HushStore.open(path: path, model: .path(model.path))
            #expect(store.identity.model == "notes-model")
            #expect(!StoreModelResolver.findsModel(of: store.identity))
            try await store.upsert(Corpus.documents)
        }
        let given = try await HushStore.open(path: path, model: .path(model.path), readOnly: true)
        #expect(given.semanticAvailable)
        #expect(try await !given.search("budget", mode: .semantic).hits.isEmpty)

        let reader = try await HushStore.open(path: path, readOnly: true)
        #expect(!reader.semanticAvailable)
        #expect(try await reader.search("budget", mode: .keyword).hits.first?.id == "budget-review")

        let maintenance = StoreModelResolver(request: .stored, needsModel: false)
        let keeper = try HushStore.open(path: path, readOnly: false, options: .init()) { stored in
            try maintenance.embedder(for: stored, path: path)
        }
        #expect(!keeper.semanticAvailable)
        #expect(try await keeper.delete(ids: ["budget-review"]) == 1)

        let indexing = StoreModelResolver(request: .stored, needsModel: true)
        #expect(throws: StoreError.self) {
            _ = try HushStore.open(path: path, readOnly: false, options: .init()) { stored in
                try indexing.embedder(for: stored, path: path)
            }
        }
        do {
            _ = try indexing.embedder(for: keeper.identity, path: path)
            Issue.record("expected modelUnavailable")
        } catch StoreError.modelUnavailable(let errorPath, let name, _) {
            #expect(errorPath == path && name == "notes-model")
        }
    }

    /// A model asked for must load, whatever the open: a folder that is not there is an error even for a
    /// read-only open of a file whose own model is missing too, never a silent open without a model.
    @Test func aModelAskedForThatCannotLoadIsAnError() async throws {
        let folder = try TemporaryDirectory()
        let model = try TinyModelFolder.write(in: folder.url, name: "notes-model")
        let path = folder.path("notes.hush")
        do {
            let store = try await HushStore.open(path: path, model: .path(model.path))
            try await store.upsert(Corpus.documents)
        }
        let missing = folder.path("no-such-model")
        do {
            _ = try await HushStore.open(path: path, model: .path(missing), readOnly: true)
            Issue.record("expected modelNotFound")
        } catch EmbeddingError.modelNotFound(let notFound) {
            #expect(notFound == missing)
        }
        let resolver = StoreModelResolver(request: .model(.path(missing)), needsModel: false)
        #expect(throws: EmbeddingError.modelNotFound(path: missing)) {
            try resolver.embedder(for: nil, path: path)
        }
    }

    /// The lexical fallback, found in the file or asked for (`--lexical`), opens with the file's dimension;
    /// asked for on a file of another model it is another vector space, refused by name; and a lexical identity
    /// without a positive dimension is a damaged file, reported, not a crash.
    @Test func theLexicalFallbackOpensWithTheFilesDimension() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lexical.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 128))
            try await store.upsert(Corpus.documents)
        }
        for request in [StoreModelResolver.Request.lexical, .stored] {
            let resolver = StoreModelResolver(request: request, needsModel: true)
            let store = try HushStore.open(path: path, readOnly: true, options: .init()) { stored in
                try resolver.embedder(for: stored, path: path)
            }
            #expect(store.identity == HashingEmbedder(dimension: 128).identity, "\(request)")
            #expect(try await store.search("budget travel costs", mode: .semantic).hits.first?.id == "budget-review")
        }
        // A new file asked for the lexical fallback gets its standard dimension.
        let fresh = try StoreModelResolver(request: .lexical, needsModel: true).embedder(for: nil, path: "new.hush")
        #expect(fresh?.identity == HashingEmbedder().identity)

        let customPath = folder.path("custom.hush")
        do {
            let store = try await HushStore.open(path: customPath, embedder: CustomModel())
            try await store.upsert(Corpus.documents)
        }
        let lexical = StoreModelResolver(request: .lexical, needsModel: false)
        do {
            _ = try HushStore.open(path: customPath, readOnly: true, options: .init()) { stored in
                try lexical.embedder(for: stored, path: customPath)
            }
            Issue.record("expected embedderMismatch")
        } catch StoreError.embedderMismatch(let stored, let current) {
            #expect(stored.model == "custom-notes-model" && current.pooling == .lexical)
        }

        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = '0' WHERE key = 'embedder_dimension'")
        }
        try queue.close()
        // A dimension of 0 is a damaged identity: the file is read and searched by keyword, never by a model.
        let damaged = try await HushStore.open(path: path, readOnly: true)
        #expect(!damaged.semanticAvailable)
        do {
            _ = try await damaged.search("notes", mode: .semantic, limit: 3)
            Issue.record("expected identityUnreadable")
        } catch StoreError.identityUnreadable(let errorPath, let reason) {
            #expect(errorPath.hasSuffix((path as NSString).lastPathComponent) && reason.contains("embedder_dimension"))
        }
    }

    /// A model folder given by path that holds a model Hush knows (MiniLM's weights under another folder name)
    /// stamps the file with that name; the file then opens without the folder, with MiniLM, found by its
    /// weights.
    @Test(.needsModel) func aKnownModelGivenByPathIsFoundAgainByItsWeights() async throws {
        let folder = try TemporaryDirectory()
        let copy = folder.url.appendingPathComponent("my-minilm")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: TestModels.miniLMDirectory.path) {
            try FileManager.default.createSymbolicLink(
                at: copy.appendingPathComponent(name),
                withDestinationURL: TestModels.miniLMDirectory.appendingPathComponent(name))
        }
        let path = folder.path("copy.hush")
        do {
            let store = try await HushStore.open(path: path, model: .path(copy.path), threads: 2)
            #expect(store.identity.model == "my-minilm")
            try await store.upsert(Corpus.documents)
        }
        let reopened = try await HushStore.open(path: path, threads: 2)
        #expect(reopened.semanticAvailable)
        #expect(StoreModelResolver.findsModel(of: reopened.identity))
        let hits = try await reopened.search("travel budget", mode: .semantic).hits.prefix(3).map(\.id)
        #expect(hits.contains("budget-review"), "\(hits)")
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
