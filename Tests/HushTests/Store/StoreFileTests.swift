import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// One store file shared with other connections: read-only opens that never write, readers beside a writer,
/// busy writers, compaction beside others, and the write-ahead log folded into the file on close and release.
@Suite struct StoreFileTests {
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

    @Test func aReadOnlyOpenNeverWritesTheFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("kb.sqlite")
        let output = URL(fileURLWithPath: path)
        _ = try await KnowledgeBaseBuilder(
            inputs: [
                Repository.samples
            ],
            output: output, configuration: .init(lexical: true), embedder: HashingEmbedder()
        ).build()
        let before = try SHA256.hexDigest(ofFileAt: path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()

        let store = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(store.readOnly)
        #expect(try await store.search("money worries", limit: 3).hits.isEmpty == false)
        #expect(try await store.stats().documents == 27)
        #expect(try await store.document(id: "samples/notes/garden.md")?.document.title == "Vegetable garden plan")
        await #expect(throws: StoreError.self) { try await store.delete(ids: ["anything"]) }
        await #expect(throws: StoreError.self) { try await store.upsert([Document(id: "new", body: "New text.")]) }
        await #expect(throws: StoreError.self) { _ = try await store.compact() }

        #expect(try SHA256.hexDigest(ofFileAt: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == listing)
    }

    @Test func readersDoNotWaitForAWriterAndAWriterReportsBusy() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("locked.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(Corpus.documents)

        // Another connection holds the write lock.
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the transaction stays open across accesses, on purpose
        let other = try DatabaseQueue(path: path, configuration: holding)
        try await other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('lock', '1')")
        }
        let started = Date()
        let reader = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await reader.search("sourdough", mode: .keyword, limit: 1).hits.first?.id == "sourdough")
        #expect(Date().timeIntervalSince(started) < 2)

        let writer = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: StoreOptions(busyTimeout: 0.3))
        await #expect(throws: StoreError.busy(path: path)) { try await writer.delete(ids: ["sourdough"]) }
        #expect(!StoreError.busy(path: path).description.contains("delete the file"))
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(try await writer.delete(ids: ["sourdough"]) == 1)
    }

    @Test func concurrentCompactionsWaitInsteadOfFailing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("compact.hush")
        let first = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await first.upsert(Corpus.documents)
        let second = try await HushStore.open(path: path, embedder: HashingEmbedder())
        for round in 0..<15 {
            async let a = first.compact()
            async let b = second.compact()
            async let c: UpsertSummary = second.upsert([Document(id: "r\(round)", body: "Round \(round) note.")])
            _ = try await (a, b, c)
        }
        #expect(try await first.stats().documents == Corpus.documents.count + 15)
    }

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
