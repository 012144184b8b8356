import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// The defects of the [reliability-3] issue, found by a hostile run of the program. Each test failed before
/// its fix.
@Suite("Reliability: nothing left behind, nothing mixed")
struct ReliabilityTrust3Tests {
    /// The file at `path` copied alone (no `-wal`, no `-shm`) into a new folder of `directory`.
    static func copyAlone(_ path: String, in directory: TemporaryDirectory) throws -> String {
        let folder = directory.url.appendingPathComponent("copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("alone.hush").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return copy
    }

    static func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    // MARK: 1. The write-ahead log is folded into the file on close and on release

    @Test func closeLeavesEveryChangeInTheMainFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("journal.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)
        try await store.upsert([Document(id: "private", body: "The key to the blue safe is under the mat.")])
        _ = try await store.delete(ids: ["private"])
        // A reader of the same file in this process must not keep the log alive either.
        _ = try await store.search("blue safe", mode: .keyword)
        try await store.close()
        #expect(Self.walBytes(path) == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        let copy = try Self.copyAlone(path, in: directory)
        let reopened = try await HushStore.open(path: copy, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await reopened.document(id: "private") == nil)
        #expect(try await reopened.stats().documents == Corpus.documents.count)
        // Closing twice is harmless; a closed store refuses work.
        try await store.close()
        await #expect(throws: (any Error).self) { try await store.upsert([Document(id: "x", body: "late")]) }
    }

    @Test func releasingAStoreWithoutClosingItFoldsTheLogToo() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("released.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(Corpus.documents)
            _ = try await store.delete(ids: [Corpus.documents[0].id])
        }
        #expect(Self.walBytes(path) == 0)
        let copy = try Self.copyAlone(path, in: directory)
        let reopened = try await HushStore.open(path: copy, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await reopened.stats().documents == Corpus.documents.count - 1)
    }

    @Test func aReaderHoldingAnOldSnapshotIsReportedNotSilent() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("held.hush")
        let store = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: StoreOptions(busyTimeout: 0.3))
        try await store.upsert(Corpus.documents)
        // Another connection (another process, as far as SQLite knows) reads inside an open transaction.
        let reader = try await readerHoldingASnapshot(of: path)
        _ = try await store.delete(ids: [Corpus.documents[0].id])
        await #expect {
            try await store.close()
        } throws: { error in
            guard case StoreError.checkpointBlocked(let blocked, let bytes) = error else { return false }
            return blocked == path && bytes > 0
        }
        try await reader.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        try reader.close()
        // Nothing was lost: the next writer folds it in.
        let next = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await next.stats().documents == Corpus.documents.count - 1)
        try await next.close()
        #expect(Self.walBytes(path) == 0)
    }

    // MARK: 5. Errors never show SQL

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

    // MARK: 2. Writes beside a re-embed end in the new model's space, or are refused

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

    // MARK: 7. Thread counts are bounded in the library

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

    // MARK: 6. compact beside a reader reports what it did

    @Test func compactBesideAReaderSucceedsAndSaysWhatStayedInTheLog() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("compact.hush")
        let store = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: StoreOptions(busyTimeout: 0.3))
        let documents = (0..<300).map {
            Document(
                id: "d\($0)", body: String(repeating: "Long entry \($0) about the garden and the budget. ", count: 20))
        }
        try await store.upsert(documents)
        _ = try await store.delete(ids: documents.prefix(250).map(\.id))
        let reader = try await readerHoldingASnapshot(of: path)
        let report = try await store.compact()
        #expect(report.walBytesLeft > 0)
        #expect(try await store.stats().documents == 50)
        try await reader.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        try reader.close()
        try await store.close()
        #expect(Self.walBytes(path) == 0)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(Int64(size) < report.bytesBefore, "\(size) vs \(report)")
    }

    // MARK: 8. One calendar

    @Test func recordDatesAreProlepticGregorianBothWays() async throws {
        for text in ["0001-01-01", "1500-01-01", "1582-10-10", "1970-01-01", "2024-02-29", "9999-12-31"] {
            let date = try #require(RecordDate.parse(text))
            #expect(RecordDate.format(date) == text + "T00:00:00Z")
            #expect(RecordDate.formatDay(date) == text)
        }
        #expect(RecordDate.parse("0000-01-01") == nil)
        #expect(RecordDate.parse("100000000000000000000") == nil)
        #expect(RecordDate.fromUnixSeconds(1e20) == nil && RecordDate.fromUnixSeconds(.nan) == nil)
        #expect(RecordDate.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let far = Document(
            id: "far", body: "From the far future.", createdAt: Date(timeIntervalSince1970: 3e11))
        let summary = try await store.upsert([far, Document(id: "near", body: "Today.")])
        #expect(summary.added == 1 && summary.errors.map(\.id) == ["far"])
        #expect(summary.errors.first?.reason.contains("0001-01-01 and 9999-12-31") == true)
    }
}

/// Another connection (another process, as far as SQLite knows) reading the store at `path` inside an open
/// transaction: its snapshot keeps a checkpoint from emptying the log until it is closed.
private func readerHoldingASnapshot(of path: String) async throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.allowsUnsafeTransactions = true
    let reader = try DatabaseQueue(path: path, configuration: configuration)
    try await reader.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN")
        _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents")
    }
    return reader
}
