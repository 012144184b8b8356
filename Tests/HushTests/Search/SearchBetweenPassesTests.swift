import Foundation
import Testing

@testable import Hush

/// A search reads the keyword index between two holds of the index's read lock; a write that lands in between
/// must never mix the file's state before it with memory's state after it.
@Suite struct SearchBetweenPassesTests {
    func store() async throws -> HushStore {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "kept", body: "Sleep comes late when the evening runs long."),
            Document(id: "gone", body: "Sleep apnea and snoring keep the whole house awake."),
        ])
        return store
    }

    @Test func aWriteBetweenThePassesIsNotMixedIntoTheHits() async throws {
        let store = try await store()
        let calls = Locked(0)
        store.setTestHooks(
            .init(afterKeywordRead: {
                calls.value += 1
                guard calls.value == 1 else { return }
                // The newest document goes, and its rowid, slot and chunk id go to one that never says "sleep".
                _ = try store.writer.delete(ids: ["gone"])
                _ = try store.writer.upsert([
                    Document(id: "pasta", body: "Boil the pasta in salted water for nine minutes.")
                ])
            }))
        let keyword = try await store.search("sleep", mode: .keyword, limit: 10)
        #expect(keyword.hits.map(\.id) == ["kept"])
        #expect(calls.value == 1, "the first run saw the write land; the second held the lock (no window, no hook)")

        // Hybrid: "pasta" may come from the semantic arm, never with the keyword score of the chunk it replaced.
        calls.value = 0
        let hybrid = try await store.search("sleep", mode: .hybrid, limit: 10, explain: true)
        #expect(hybrid.hits.first?.id == "kept")
        #expect(!hybrid.hits.map(\.id).contains("gone"))
        #expect(hybrid.hits.first { $0.id == "pasta" }.map { $0.explanation?.keywordRank == nil } ?? true)
        #expect(calls.value == 1)
    }

    @Test func aSearchFinishesWhileWritesKeepLanding() async throws {
        let store = try await store()
        let calls = Locked(0)
        store.setTestHooks(
            .init(afterKeywordRead: {
                calls.value += 1
                _ = try store.writer.delete(ids: ["no such document"])  // a write: the index's generation moves
            }))
        let results = try await store.search("sleep", mode: .keyword, limit: 10)
        #expect(Set(results.hits.map(\.id)) == ["kept", "gone"])
        // One run out of the lock, then one holding it across the passes (no hook: nothing can land).
        #expect(calls.value == 1)
        // A semantic search reads no SQL: one hold of the lock, no window for a write.
        _ = try await store.search("sleep", mode: .semantic, limit: 10)
        #expect(calls.value == 1)
    }
}
