import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// The model loaded on first need: opening, reading and keyword search never load it; the first call that embeds
/// does, once; `releaseModel()` gives it back and the next call loads it again.
@Suite struct StoreModelLoadingTests {
    /// A lazy lexical "model" counting how often it was read, whose loads take `delay` (a model's load time).
    static func lazy(identity: EmbedderIdentity = HashingEmbedder().identity, delay: Double = 0) -> LazyEmbedder {
        LazyEmbedder(
            identity: HashingEmbedder().identity, maxTokens: HashingEmbedder().maxTokens, languageScope: .monolingual,
            preferredChunkSize: .standard, source: "lexical"
        ) {
            Thread.sleep(forTimeInterval: delay)
            return HashingEmbedder(dimension: identity.dimension)
        }
    }

    @Test func concurrentFirstCallsLoadOnce() async throws {
        let model = Self.lazy(delay: 0.05)
        #expect(!model.isLoaded)
        #expect(model.identity == HashingEmbedder().identity)  // known without loading
        try await withThrowingTaskGroup(of: [Float].self) { group in
            for n in 0..<8 { group.addTask { try model.embed("note \(n)", role: .passage).vector } }
            for try await vector in group { #expect(vector.count == 384) }
        }
        #expect(model.isLoaded && model.loadCount == 1)
        model.release()
        #expect(!model.isLoaded)
        #expect(try model.embed("again", role: .query).vector == HashingEmbedder().embed("again", role: .query).vector)
        #expect(model.loadCount == 2)
    }

    @Test func aModelThatLoadsWithAnotherIdentityIsRefused() throws {
        let model = Self.lazy(identity: HashingEmbedder(dimension: 128).identity)
        #expect(throws: EmbeddingError.self) { try model.embed("note", role: .passage) }
        #expect(!model.isLoaded)
        do {
            _ = try model.load()
        } catch let error as EmbeddingError {
            #expect(
                String(describing: error).contains("HushStore.reembed") && !String(describing: error).contains("hush "))
        }
    }

    @Test func openingReadingAndKeywordSearchLeaveTheModelUnloaded() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.hush")
        let writer = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await writer.upsert(Corpus.documents)
        try await writer.close()

        let model = Self.lazy()
        let store = try await HushStore.open(path: path, embedder: model)
        #expect(try await store.document(id: Corpus.documents[0].id) != nil)
        #expect(!(try await store.search("budget", mode: .keyword).hits.isEmpty))
        var stats = try await store.stats()
        #expect(stats.modelLoaded && !stats.modelInMemory && !store.modelInMemory)
        #expect(stats.vectorBytes == 0, "the vectors wait in the file too")
        // A delete reads the vectors (it takes the document's out of the index), not the model.
        _ = try await store.delete(ids: [Corpus.documents[1].id])
        #expect(try await store.stats().vectorBytes > 0)
        #expect(model.loadCount == 0 && !store.modelInMemory)

        let hybrid = try await store.search("travel budget", mode: .hybrid).hits
        #expect(!hybrid.isEmpty)
        stats = try await store.stats()
        #expect(stats.modelInMemory && model.loadCount == 1 && stats.vectorBytes > 0)

        store.releaseModel()
        #expect(!store.modelInMemory)
        #expect(try await store.stats().vectorBytes == 0)
        #expect(!(try await store.search("budget", mode: .keyword).hits.isEmpty))
        #expect(model.loadCount == 1)
        // The vectors read again give the same answer (the query's vector comes from the cache: no model).
        #expect(try await store.search("travel budget", mode: .hybrid).hits == hybrid)
        #expect(model.loadCount == 1 && !store.modelInMemory)
        store.releaseModel()
        // A write reads the vectors first, then loads the model; warmUp finds both there.
        try await store.upsert([Document(id: "new", body: "A note written after the release.")])
        #expect(model.loadCount == 2)
        #expect(try await store.stats().vectors == Corpus.documents.count)  // one deleted, one added
        try await store.warmUp()
        #expect(model.loadCount == 2 && store.modelInMemory)
        #expect(try await store.search("written after the release", mode: .semantic, limit: 1).hits.first?.id == "new")
        try await store.close()
    }

    @Test(.needsModel) func aStoreOpenedByModelNameReadsNoWeightsUntilItEmbeds() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let writer = try await HushStore.open(path: path, model: .miniLM)
        // A new file is stamped from the model's small files; its first write loads the weights.
        let loaded = try BERTEmbedder(threads: 1)
        #expect(!writer.modelInMemory && writer.identity == loaded.identity)
        try await writer.upsert(Corpus.documents)
        #expect(writer.modelInMemory)
        try await writer.close()

        let store = try await HushStore.open(path: path)
        #expect(!store.modelInMemory)
        #expect(!(try await store.search("budget", mode: .keyword).hits.isEmpty))
        #expect(!store.modelInMemory)
        let semantic = try await store.search("how much did the trip cost?", mode: .semantic).hits
        #expect(!semantic.isEmpty && store.modelInMemory)
        store.releaseModel()
        #expect(!store.modelInMemory)
        #expect(
            try await store.search("how much did the trip cost?", mode: .semantic).hits.map(\.id) == semantic.map(\.id))
        try await store.close()
    }

    /// A model folder given by path (the model an app ships in its bundle) opens lazily too, for a new file and
    /// an existing one; the identity stamped from its small files is the one the loaded model has; another
    /// folder for the same file is refused at open, before anything is embedded.
    @Test func aModelFolderGivenByPathLoadsOnFirstNeed() async throws {
        let folder = try TemporaryDirectory()
        let model = try TinyModelFolder.write(in: folder.url, name: "notes-model")
        let path = folder.path("notes.hush")
        let eager = try BERTEmbedder(modelDirectory: model)

        let writer = try await HushStore.open(path: path, model: .path(model.path))
        #expect(!writer.modelInMemory && writer.identity == eager.identity)
        #expect(try await writer.search("budget", mode: .keyword).hits.isEmpty)
        #expect(!writer.modelInMemory)
        try await writer.upsert(Corpus.documents)
        #expect(writer.modelInMemory)
        try await writer.close()

        let store = try await HushStore.open(path: path, model: .path(model.path))
        #expect(!store.modelInMemory)
        #expect(!(try await store.search("budget", mode: .keyword).hits.isEmpty))
        #expect(!store.modelInMemory)
        #expect(!(try await store.search("budget review", mode: .semantic).hits.isEmpty))
        #expect(store.modelInMemory)
        store.releaseModel()
        #expect(!store.modelInMemory)
        #expect(!(try await store.search("travel costs", mode: .semantic).hits.isEmpty))
        #expect(store.modelInMemory)
        try await store.close()

        // The same architecture with other weights makes other vectors: refused at open, by name.
        let other = try TinyModelFolder.write(
            in: folder.url.appendingPathComponent("other"), name: "notes-model", seed: 7)
        do {
            _ = try await HushStore.open(path: path, model: .path(other.path))
            Issue.record("expected embedderMismatch")
        } catch StoreError.embedderMismatch(let stored, let current) {
            #expect(stored == eager.identity && current.weightsSHA256 != stored.weightsSHA256)
        }
    }

    /// What a model's small files describe is what loading it gives, for both kinds of model file.
    @Test(.needsModel) func theDescriptionIsWhatTheLoadedModelIs() throws {
        for choice in [ModelChoice.miniLM, .e5Small, .path(E5Embedder.defaultModelFile.path)] {
            let description = try choice.describe()
            let model = try choice.load(threads: 1)
            #expect(description.identity == model.identity && description.identity.model == model.identity.model)
            #expect(description.maxTokens == model.maxTokens, "\(choice)")
            #expect(description.languageScope == model.languageScope, "\(choice)")
            #expect(description.preferredChunkSize == model.preferredChunkSize, "\(choice)")
        }
    }
}
