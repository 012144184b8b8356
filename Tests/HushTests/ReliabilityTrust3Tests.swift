import Foundation
import GRDB
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
        var configuration = Configuration()
        configuration.readonly = true
        configuration.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        try await reader.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents")
        }
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
}
