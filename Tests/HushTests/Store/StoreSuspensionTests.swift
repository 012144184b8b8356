import Foundation
import GRDB
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// An app moving to the background suspends its stores (``HushStore/suspend()`` or the notifications): a write in
/// progress pauses between batches holding no lock, so another process takes the write lock at once; reads go on;
/// after resume the write finishes with every committed batch kept, nothing redone.
@Suite(.serialized) struct StoreSuspensionTests {
    static func entries(_ range: Range<Int>) -> [Document] {
        range.map { Document(id: "e-\($0)", body: "Evening walk number \($0) along the river, then tea.") }
    }

    /// Waits (a few seconds at most) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(2)) }
        #expect(condition())
    }

    @Test func aSuspensionDuringAWriteReleasesTheFileAndResumeFinishesIt() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let store = try await HushStore.open(
            path: path, embedder: HashingEmbedder(), options: StoreOptions(batchSize: 20))
        try await store.upsert(ReliabilityStoreFileTests.entries)
        // The app is told to go to the background while the second batch (e-20 ... e-39) is being written (the
        // notification names this store: without an object it would suspend the other tests' stores too).
        store.testHooks.withLock { hooks in
            hooks.afterDocumentWritten = { [weak store] id in
                if id == "e-25" { NotificationCenter.default.post(name: HushStore.suspendNotification, object: store) }
            }
        }
        let writing = Task { try await store.upsert(Self.entries(0..<100)) }
        try await Self.eventually { store.isSuspended }
        await store.suspend()  // returns once the write has paused

        // Another process takes the write lock at once, and sees the two batches committed.
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let other = try DatabaseQueue(path: path, configuration: configuration)
        let committed = try await other.write { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM documents") }
        #expect(committed == 43)
        try other.close()
        // Reads go on.
        #expect(try await store.search("awake at night", limit: 1).hits.first?.id == "sleep")
        #expect(try await store.document(id: "e-39") != nil)

        store.testHooks.withLock { $0.afterDocumentWritten = nil }
        NotificationCenter.default.post(name: HushStore.resumeNotification, object: store)
        let summary = try await writing.value
        #expect(summary.added == 100 && summary.updated == 0 && summary.unchanged == 0)
        #expect(try await store.stats().documents == 103)
        try await store.close()
    }

    @Test func aWriteWaitsWhileSuspendedAndItsCancelEndsTheWait() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        await store.suspend()
        #expect(store.isSuspended)
        let waiting = Task { try await store.upsert(Self.entries(0..<3)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await store.stats().documents == 0)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        store.resume()
        #expect(!store.isSuspended)
        #expect(try await store.upsert(Self.entries(0..<3)).added == 3)
    }
}
