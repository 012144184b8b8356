import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// Moving a store to another model (`reembed`): resuming an interrupted run, the old vectors searchable until
/// the swap, and writes beside a re-embed (from this store or another) ending in the new model's space.
@Suite struct StoreReembedTests {
    /// The vector widths in the file at `path`, in bytes, with how many rows have each.
    static func vectorWidths(_ path: String) throws -> [Int: Int] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var widths: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT length(vector), COUNT(*) FROM vectors GROUP BY 1") {
                widths[row[0]] = row[1]
            }
            return widths
        }
    }

    @Test func reembedResumesAfterAnInterruptedRun() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("reembed.hush")
        let old = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 384))
        let many = (0..<40).map { Document(id: "doc-\($0)", body: "Note number \($0) about topic \($0 % 7).") }
        try await old.upsert(many + Corpus.documents)
        let chunks = try await old.stats().chunks

        let newEmbedder = InstrumentedEmbedder(dimension: 128)
        let options = StoreOptions(allowEmbedderMismatch: true, embeddingBatchSize: 8)
        let first = try await HushStore.open(path: path, embedder: newEmbedder, options: options)
        struct Killed: Error {}
        first.setTestHooks(.init(afterReembedBatch: { batch in if batch == 2 { throw Killed() } }))
        await #expect(throws: Killed.self) { try await first.reembed(batchSize: 10) }
        #expect(newEmbedder.embedded == 20)
        // Still stamped with the old identity until the run finishes, and the old vectors are all still there:
        // a document's exact text finds it with the old model (it did not when new vectors overwrote old ones).
        let oldAgain = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 384))
        for document in many.prefix(4) {
            let hits = try await oldAgain.search(document.body, mode: .semantic, limit: 1).hits
            #expect(hits.first?.id == document.id)
        }
        let pending = try #require(try await oldAgain.stats().unfinishedReembed)
        #expect(pending.target == newEmbedder.identity)
        #expect(pending.completed == 20 && pending.total == chunks)
        // The new model opens, but searching with it before the re-embed finishes says to resume.
        let waiting = try await HushStore.open(path: path, embedder: newEmbedder)
        await #expect(throws: StoreError.reembedUnfinished(target: newEmbedder.identity, completed: 20, total: chunks))
        {
            _ = try await waiting.search("sourdough", mode: .semantic, limit: 1)
        }
        await #expect(throws: StoreError.self) { try await waiting.upsert([Document(id: "x", body: "More text.")]) }

        let resumed = try await HushStore.open(path: path, embedder: newEmbedder, options: options)
        let progress = ProgressLog()
        try await resumed.reembed(batchSize: 10) { progress.append($0) }
        #expect(newEmbedder.embedded == chunks)  // 20 before the kill + the rest, nothing twice
        #expect(progress.entries.first?.completed == 20)
        #expect(progress.entries.last == StoreProgress(completed: chunks, total: chunks))

        let stats = try await resumed.stats()
        #expect(stats.embedder == newEmbedder.identity)
        #expect(stats.vectorBytes == chunks * 128 * 4)
        #expect(
            try await resumed.search("sourdough rye flour", mode: .semantic, limit: 1).hits.first?.id == "sourdough")
        // And it opens without the option now.
        _ = try await HushStore.open(path: path, embedder: newEmbedder)
        let blobs = try await resumed.vectors(forDocument: "sourdough")
        #expect(!blobs.isEmpty && blobs.allSatisfy { $0.count == 128 })
    }

    @Test func anUnfinishedReembedShowsInStatsAndKeepsTheOldVectorsSearchable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("half.hush")
        let old = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 256))
        let documents = (0..<50).map { Document(id: "n\($0)", body: "Entry \($0): thoughts about item \($0 * 7).") }
        try await old.upsert(documents)
        let target = InstrumentedEmbedder(dimension: 384)
        let converting = try await HushStore.open(
            path: path, embedder: target, options: StoreOptions(allowEmbedderMismatch: true))
        struct Killed: Error {}
        converting.setTestHooks(.init(afterReembedBatch: { batch in if batch == 3 { throw Killed() } }))
        await #expect(throws: Killed.self) { try await converting.reembed(batchSize: 10) }

        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 256))
        let stats = try await reopened.stats()
        #expect(stats.embedder == HashingEmbedder(dimension: 256).identity)
        #expect(stats.unfinishedReembed?.completed == 30)
        #expect(stats.unfinishedReembed?.total == 50)
        #expect(stats.vectors == 50)
        for document in documents {
            let top = try await reopened.search(document.body, mode: .semantic, limit: 1).hits.first
            #expect(top?.id == document.id)
        }
    }

    @Test func writesDuringAnUnfinishedReembedAreEmbeddedBeforeTheSwap() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("moving.hush")
        let oldModel = HashingEmbedder(dimension: 256)
        let old = try await HushStore.open(path: path, embedder: oldModel)
        var documents = (0..<30).map { Document(id: "n\($0)", body: "Entry \($0) about subject \($0 * 11).") }
        try await old.upsert(documents)
        let target = InstrumentedEmbedder(dimension: 128)
        let options = StoreOptions(allowEmbedderMismatch: true)
        let converting = try await HushStore.open(path: path, embedder: target, options: options)
        struct Killed: Error {}
        converting.setTestHooks(.init(afterReembedBatch: { batch in if batch == 1 { throw Killed() } }))
        await #expect(throws: Killed.self) { try await converting.reembed(batchSize: 10) }

        // The old model keeps writing: a staged document changes, one is deleted, one is added.
        documents[2].body = "Entry 2 rewritten: a completely different subject now."
        try await old.upsert([documents[2], Document(id: "late", body: "A late entry written mid re-embed.")])
        try await old.delete(ids: ["n5"])

        let resumed = try await HushStore.open(path: path, embedder: target, options: options)
        try await resumed.reembed(batchSize: 10)
        #expect(try await resumed.stats().documents == 30)
        for document in documents where document.id != "n5" {
            #expect(try await resumed.search(document.body, mode: .semantic, limit: 1).hits.first?.id == document.id)
        }
        let late = try await resumed.search("A late entry written mid re-embed.", mode: .semantic, limit: 1)
        #expect(late.hits.first?.id == "late")
        #expect(try await resumed.stats().unfinishedReembed == nil)
    }

    @Test func aWriterWithTheOldModelIsRefusedOnceAnotherFinishedAReembed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("mixed.hush")
        let old = HashingEmbedder(dimension: 256)
        let first = try await HushStore.open(path: path, embedder: old)
        try await first.upsert(Corpus.documents)
        try await first.close()
        // `hush index` opened the store (old model) before `hush reembed` finished in another process.
        let indexer = try await HushStore.open(path: path, embedder: old)
        let converter = try await HushStore.open(
            path: path, embedder: HashingEmbedder(dimension: 384), options: StoreOptions(allowEmbedderMismatch: true))
        try await converter.reembed()
        let late = Document(id: "late", body: "A late entry about the lighthouse keeper's logbook.")
        await #expect {
            try await indexer.upsert([late])
        } throws: { error in
            guard case StoreError.reembeddedMeanwhile(let stored, let current) = error else { return false }
            return stored.dimension == 384 && current.dimension == 256
        }
        await #expect(throws: StoreError.self) { try await indexer.delete(ids: [Corpus.documents[0].id]) }
        try await indexer.close()
        try await converter.close()
        // Nothing of the old model's space was written after the swap.
        #expect(try Self.vectorWidths(path).keys.sorted() == [384 * 4])
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 384))
        #expect(try await reopened.document(id: "late") == nil)
        #expect(try await reopened.stats().documents == Corpus.documents.count)
        // Run again with the store's model, it goes in.
        try await reopened.upsert([late])
        let hits = try await reopened.search("lighthouse keeper's logbook", mode: .semantic, limit: 1)
        #expect(hits.hits.first?.id == "late")
    }

    @Test func writesLandingDuringAReembedEndInTheNewModelsSpace() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("during.hush")
        let old = HashingEmbedder(dimension: 256)
        let first = try await HushStore.open(path: path, embedder: old)
        try await first.upsert((0..<40).map { Document(id: "n\($0)", body: "Entry \($0) about item \($0 * 7).") })
        try await first.close()
        let indexer = try await HushStore.open(path: path, embedder: old)
        let converter = try await HushStore.open(
            path: path, embedder: HashingEmbedder(dimension: 384), options: StoreOptions(allowEmbedderMismatch: true))
        let late = (0..<5).map { Document(id: "late-\($0)", body: "Lighthouse logbook page \($0): storms and gulls.") }
        // Between two of the re-embed's batches, the other writer (old model) adds documents.
        converter.setTestHooks(
            .init(afterReembedBatch: { batch in
                guard batch == 1 else { return }
                let done = DispatchSemaphore(value: 0)
                Task {
                    _ = try? await indexer.upsert(late)
                    done.signal()
                }
                done.wait()
            }))
        try await converter.reembed(batchSize: 10)
        try await converter.close()
        try await indexer.close()
        #expect(try Self.vectorWidths(path).keys.sorted() == [384 * 4])
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(dimension: 384))
        #expect(try await reopened.stats().documents == 45)
        for document in late {
            let hits = try await reopened.search(document.body, mode: .semantic, limit: 1)
            #expect(hits.hits.first?.id == document.id)
        }
    }
}
