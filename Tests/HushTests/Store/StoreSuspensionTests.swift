import Foundation
import HushEmbedding
import HushTestSupport
import Testing

@testable import Hush

/// An app moving to the background suspends its stores: writes are refused with a typed error, a long write
/// stops between batches keeping what it committed, reads and searches go on, and resume lets writes run again.
@Suite struct StoreSuspensionTests {
    static func entries(_ range: Range<Int>) -> [Document] {
        range.map { Document(id: "e-\($0)", body: "Evening walk number \($0) along the river, then tea.") }
    }

    @Test func aSuspendedStoreRefusesWritesAndKeepsReading() async throws {
        let folder = try TemporaryDirectory()
        let store = try await HushStore.open(path: folder.path("journal.hush"), embedder: HashingEmbedder())
        try await store.upsert(ReliabilityStoreFileTests.entries)
        await store.suspend()
        #expect(store.isSuspended)
        let path = folder.path("journal.hush")
        await #expect(throws: StoreError.suspended(path: path)) { try await store.upsert(Self.entries(0..<3)) }
        await #expect(throws: StoreError.suspended(path: path)) { try await store.deleteDocuments(ids: ["sleep"]) }
        await #expect(throws: StoreError.suspended(path: path)) { _ = try await store.compact() }
        #expect(try await store.search("awake at night", limit: 1).hits.first?.id == "sleep")
        #expect(try await store.stats().documents == 3)
        store.resume()
        #expect(!store.isSuspended)
        try await store.upsert(Self.entries(0..<3))
        #expect(try await store.stats().documents == 6)
        try await store.close()
    }

    @Test func aLongWriteStopsBetweenBatchesKeepingWhatItCommitted() async throws {
        let folder = try TemporaryDirectory()
        let store = try await HushStore.open(
            path: folder.path("journal.hush"), embedder: HashingEmbedder(), options: StoreOptions(batchSize: 20))
        // Suspended while the second batch (e-20 ... e-39) is being written: that batch commits, the third never
        // starts.
        let writer = store.writer
        store.testHooks.withLock { hooks in
            hooks.afterDocumentWritten = { id in if id == "e-25" { writer.suspension.value = true } }
        }
        await #expect(throws: StoreError.self) { try await store.upsert(Self.entries(0..<100)) }
        #expect(try await store.stats().documents == 40)
        #expect(try await store.document(id: "e-39") != nil)
        #expect(try await store.document(id: "e-40") == nil)
        store.testHooks.withLock { $0.afterDocumentWritten = nil }
        store.resume()
        let summary = try await store.upsert(Self.entries(0..<100))
        #expect(summary.added == 60 && summary.unchanged == 40)
        try await store.close()
    }
}
