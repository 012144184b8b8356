import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

@Suite struct StoreTests {
    @Test func roundTripThroughTheFileGivesTheSameResults() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.hush")
        let embedder = HashingEmbedder()
        let first = try await HushStore.open(path: path, embedder: embedder)
        let summary = try await first.upsert(Corpus.documents)
        #expect(summary.added == Corpus.documents.count)
        #expect(summary.errors.isEmpty)
        let before = try await first.search("sore knee after the long run", limit: 3)
        #expect(before.hits.first?.id == "marathon")

        let reopened = try await HushStore.open(path: path, embedder: embedder)
        let after = try await reopened.search("sore knee after the long run", limit: 3)
        #expect(after.hits.map(\.id) == before.hits.map(\.id))
        #expect(after.hits.map(\.score) == before.hits.map(\.score))
        let stats = try await reopened.stats()
        #expect(stats.documents == Corpus.documents.count)
        #expect(stats.chunks == stats.vectors)
        #expect(stats.vectorBytes == stats.vectors * 384 * 4)
        #expect(stats.fileSizeBytes > 0)
        #expect(stats.embedder == embedder.identity)

        let stored = try #require(try await reopened.document(id: "budget-review"))
        #expect(stored.document.title == "Quarterly budget review")
        #expect(stored.document.tags == ["finance", "budget"])
        #expect(stored.document.metadata == ["team": "ops", "room": "B2"])
        #expect(stored.document.createdAt == date("2024-03-04"))
        #expect(stored.language == "en")
        #expect(stored.chunkCount >= 1)
        #expect(try await reopened.document(id: "missing") == nil)
    }

    /// Opening reads each document's attributes from the `documents_listing` covering index (schema 5), never
    /// the pages of titles and bodies, and a reopened store filters on what it read from there.
    @Test func openingReadsDocumentsFromTheListingIndex() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(Corpus.documents)
            try await store.close()
        }
        let plan = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + StoreDatabase.documentListingSQL).map {
                $0["detail"] as String
            }
        }
        #expect(plan == ["SCAN documents USING COVERING INDEX documents_listing"])

        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        let filtered = try await reopened.search(
            "budget", mode: .keyword, filter: SearchFilter(tagsAny: ["finance"], metadata: ["room": "B2"]), limit: 5)
        #expect(filtered.hits.map(\.id) == ["budget-review"])
        let stored = try #require(try await reopened.document(id: "budget-review"))
        #expect(stored.document.metadata == ["team": "ops", "room": "B2"])
    }

    @Test func unchangedDocumentsAreSkippedWithoutReembedding() async throws {
        let embedder = InstrumentedEmbedder()
        let store = try await HushStore.inMemory(embedder: embedder)
        try await store.upsert(Corpus.documents)
        let embeddedOnce = embedder.embedded
        #expect(embeddedOnce >= Corpus.documents.count)

        let again = try await store.upsert(Corpus.documents)
        #expect(again.unchanged == Corpus.documents.count)
        #expect(again.added == 0 && again.updated == 0)
        #expect(embedder.embedded == embeddedOnce)
    }

    @Test func metadataOnlyChangesUpdateWithoutReembedding() async throws {
        let embedder = InstrumentedEmbedder()
        let store = try await HushStore.inMemory(embedder: embedder)
        try await store.upsert(Corpus.documents)
        let embeddedOnce = embedder.embedded
        var garden = try #require(Corpus.documents.first { $0.id == "garden" })
        garden.tags = ["garden", "outdoors"]
        let summary = try await store.upsert([garden])
        #expect(summary.updated == 1 && summary.chunksEmbedded == 0)
        #expect(embedder.embedded == embeddedOnce)
        let hits = try await store.search("compost", filter: SearchFilter(tagsAny: ["outdoors"])).hits
        #expect(hits.map(\.id) == ["garden"])
    }

    @Test func changedTextReplacesChunksVectorsAndFullTextRows() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        var garden = try #require(Corpus.documents.first { $0.id == "garden" })
        garden.body = "Prune the apple trees in late winter and mulch the strawberries with straw."
        let summary = try await store.upsert([garden])
        #expect(summary.updated == 1 && summary.added == 0 && summary.chunksEmbedded >= 1)

        #expect(try await store.search("irrigation hose leak", mode: .keyword).hits.isEmpty)
        #expect(try await store.search("strawberries mulch", mode: .keyword).hits.map(\.id) == ["garden"])
        let semantic = try await store.search("prune apple trees", mode: .semantic, limit: 1)
        #expect(semantic.hits.first?.id == "garden")
        #expect(semantic.hits.first?.text.contains("apple trees") == true)
        try await expectConsistent(store)
    }

    @Test func deleteRemovesEverything() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let removed = try await store.delete(ids: ["sourdough", "marathon", "not-there"])
        #expect(removed == 2)
        #expect(try await store.document(id: "sourdough") == nil)
        let hits = try await store.search("rye flour starter bread", limit: 10).hits
        #expect(!hits.contains { $0.id == "sourdough" })
        let stats = try await store.stats()
        #expect(stats.documents == Corpus.documents.count - 2)
        try await expectConsistent(store)
        #expect(try await store.delete(ids: []) == 0)
    }

    @Test func rejectsEmptyAndDuplicateIdsPerDocument() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let summary = try await store.upsert([
            Document(id: "", body: "no id"),
            Document(id: "twice", body: "first version"),
            Document(id: "twice", body: "second version"),
            Document(id: "blank", body: "   \n  "),
        ])
        #expect(summary.added == 1)
        #expect(summary.errors.map(\.id).sorted() == ["", "blank", "twice"])
        #expect(try await store.document(id: "twice")?.document.body == "second version")
    }

    @Test func sqlInjectionStringsAreJustIds() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let nasty = [
            "'; DROP TABLE documents; --", "\" OR 1=1 --", "x'); DELETE FROM chunks; --", "Robert'); DROP TABLE--",
            "%_\\", "日本語のID",
        ]
        let summary = try await store.upsert(nasty.map { Document(id: $0, body: "A note with the id \($0).") })
        #expect(summary.added == nasty.count)
        for id in nasty { #expect(try await store.document(id: id)?.document.id == id) }
        #expect(try await store.delete(ids: [nasty[0]]) == 1)
        #expect(try await store.stats().documents == nasty.count - 1)
    }

    @Test func embedderMismatchIsATypedError() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("m.hush")
        _ = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 384))
        let other = HashingEmbedder(dimension: 128)
        await #expect(throws: StoreError.embedderMismatch(stored: HashingEmbedder().identity, current: other.identity))
        {
            _ = try await HushStore.open(path: path, embedder: other)
        }
        // Allowed for reembed, but semantic search and upserts are refused until then.
        let store = try await HushStore.open(
            path: path, embedder: other, options: StoreOptions(allowEmbedderMismatch: true))
        // One condition, one error: the search meets the same mismatch the open reported.
        await #expect(throws: StoreError.embedderMismatch(stored: HashingEmbedder().identity, current: other.identity))
        {
            _ = try await store.search("anything", mode: .semantic)
        }
        await #expect(throws: StoreError.self) { try await store.upsert([Document(id: "a", body: "text")]) }
    }

    @Test func identityIsTheWeightsNotTheFolderName() async throws {
        struct Named: Embedder {
            let name: String
            let base = HashingEmbedder()
            var identity: EmbedderIdentity {
                EmbedderIdentity(
                    model: name, weightsSHA256: String(repeating: "ab", count: 32), dimension: base.dimension,
                    pooling: .mean, normalized: true)
            }
            var maxTokens: Int { base.maxTokens }
            func embed(_ texts: [String], role: EmbeddingRole) throws -> [Embedding] {
                try base.embed(texts, role: role)
            }
            func tokenCount(_ text: String) -> Int { base.tokenCount(text) }
        }
        #expect(Named(name: "all-MiniLM-L6-v2").identity == Named(name: "copy-of-model").identity)
        #expect(Set([Named(name: "a").identity, Named(name: "b").identity]).count == 1)
        #expect(HashingEmbedder(dimension: 64).identity != HashingEmbedder(dimension: 128).identity)

        let directory = try TemporaryDirectory()
        let path = directory.path("copied.hush")
        let store = try await HushStore.open(path: path, embedder: Named(name: "all-MiniLM-L6-v2"))
        try await store.upsert(Corpus.documents)
        let moved = try await HushStore.open(path: path, embedder: Named(name: "models-copy"))
        #expect(try await moved.search("sourdough rye", mode: .semantic, limit: 1).hits.first?.id == "sourdough")
        // Nothing is re-embedded: the same weights under another folder name change no text hash.
        #expect(try await moved.upsert(Corpus.documents).unchanged == Corpus.documents.count)
    }

    @Test func newerSchemaAndForeignFilesAreRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("future.hush")
        _ = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        }
        try queue.close()
        await #expect(throws: StoreError.schemaTooNew(path: path, found: 99, supported: StoreSchema.version)) {
            _ = try await HushStore.open(path: path, embedder: HashingEmbedder())
        }

        let junk = directory.path("junk.hush")
        try Data("this is not a database, just some text that is long enough".utf8).write(
            to: URL(fileURLWithPath: junk))
        await #expect {
            _ = try await HushStore.open(path: junk, embedder: HashingEmbedder())
        } throws: { error in
            if case StoreError.notAStore = error { return true }
            return false
        }
    }

    @Test func databaseErrorsNeverCarryTheirStatement() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t (x UNIQUE); INSERT INTO t VALUES (1)") }
        do {
            try await queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            Issue.record("the duplicate was accepted")
        } catch {
            #expect(String(describing: error).contains("INSERT INTO t"))  // GRDB's own description has it
            let text = String(describing: StoreError.wrapping(error, path: "x.hush"))
            #expect(text.contains("UNIQUE constraint failed: t.x"), "\(text)")
            #expect(!text.contains("INSERT") && !text.contains("while executing"), "\(text)")
        }
    }

    @Test(arguments: [InstrumentedEmbedder.Poison.nan, .infinity, .wrongDimension])
    func invalidVectorsAreRefusedAndNothingIsWritten(poison: InstrumentedEmbedder.Poison) async throws {
        let store = try await HushStore.inMemory(embedder: InstrumentedEmbedder(poison: poison))
        try await store.upsert([Document(id: "good", body: "A perfectly ordinary note about lunch.")])
        await #expect {
            try await store.upsert([
                Document(id: "fine", body: "Another ordinary note."),
                Document(id: "bad", body: "This one is POISON for the model."),
            ])
        } throws: { error in
            guard case StoreError.invalidVector(let id, _) = error else { return false }
            return id == "bad"
        }
        #expect(try await store.document(id: "fine") == nil)
        #expect(try await store.document(id: "bad") == nil)
        #expect(try await store.stats().documents == 1)
        try await expectConsistent(store)
    }

    @Test func embedderFailureLeavesPreviousBatchesAndState() async throws {
        let store = try await HushStore.inMemory(
            embedder: InstrumentedEmbedder(poison: .throwing), options: StoreOptions(batchSize: 2))
        try await store.upsert(Array(Corpus.documents.prefix(3)))
        var changed = Corpus.documents[0]
        changed.body = "Rewritten body that must not replace the stored one."
        let batch = [
            Document(id: "n1", body: "First new note."), Document(id: "n2", body: "Second new note."),
            changed, Document(id: "n3", body: "Third note, POISON."),
        ]
        await #expect {
            try await store.upsert(batch)
        } throws: { error in
            guard case StoreError.embeddingFailed(let id, _) = error else { return false }
            return id == "n3" || id == changed.id
        }
        // The first batch (n1, n2) committed; the failing one (changed, n3) did not.
        #expect(try await store.document(id: "n1") != nil)
        #expect(try await store.document(id: "n3") == nil)
        #expect(try await store.document(id: changed.id)?.document.body == Corpus.documents[0].body)
        try await expectConsistent(store)
    }

    @Test func throwInsideTheTransactionRollsBackTheWholeBatch() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        let before = try await store.search("disk space outage", limit: 5)
        struct Injected: Error {}
        store.setTestHooks(.init(afterDocumentWritten: { id in if id == "z-third" { throw Injected() } }))
        var replaced = try #require(Corpus.documents.first { $0.id == "incident" })
        replaced.body = "Completely different text about knitting a scarf."
        await #expect(throws: Injected.self) {
            try await store.upsert([
                replaced, Document(id: "z-second", body: "New note."), Document(id: "z-third", body: "Another."),
            ])
        }
        #expect(try await store.document(id: "z-second") == nil)
        #expect(try await store.document(id: "incident")?.document.body == Corpus.documents[9].body)
        let after = try await store.search("disk space outage", limit: 5)
        #expect(after.hits.map(\.id) == before.hits.map(\.id))
        #expect(after.hits.map(\.text) == before.hits.map(\.text))
        try await expectConsistent(store)
    }

    @Test func hushCosineSQLFunction() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let a = VectorBlob.encode([1, 0, 0])
        let b = VectorBlob.encode([1, 1, 0])
        let c = VectorBlob.encode([1, 1])
        let odd = Data([1, 2, 3])
        let zero = VectorBlob.encode([0, 0, 0])
        let row = try store.database.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT hush_cosine(?, ?), hush_cosine(?, ?), hush_cosine(?, ?), hush_cosine(NULL, ?), "
                    + "hush_cosine(?, ?), hush_cosine('text', 'text'), hush_cosine(?, ?), hush_cosine(?, ?)",
                arguments: [a, b, a, a, a, c, a, odd, odd, a, zero, b, b])
        }
        let values = try #require(row)
        let ab = try #require(values[0] as Double?)
        #expect(abs(ab - 1 / 2.0.squareRoot()) < 1e-6)
        #expect(abs(try #require(values[1] as Double?) - 1) < 1e-6)
        #expect(values[2] as Double? == nil)  // mismatched lengths
        #expect(values[3] as Double? == nil)  // NULL
        #expect(values[4] as Double? == nil)  // not a multiple of 4 bytes
        #expect(values[5] as Double? == nil)  // not blobs
        #expect(values[6] as Double? == nil)  // zero norm
        #expect(abs(try #require(values[7] as Double?) - 1) < 1e-6)

        // On stored vectors: a document's chunk with itself is 1.
        try await store.upsert([Document(id: "d", body: "Cosine of a stored vector with itself.")])
        let selfCosine = try store.database.read { db in
            try Double.fetchOne(db, sql: "SELECT hush_cosine(vector, vector) FROM vectors LIMIT 1")
        }
        #expect(abs(try #require(selfCosine) - 1) < 1e-5)
    }
}
