import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// A store file from elsewhere (downloaded, shipped, kept for years on a phone whose storage fails) is not
/// trusted: a damaged record of the model that made its vectors is reported, never taken over by another model.
@Suite struct ReliabilityStoreFileTests {
    static let entries = [
        Document(id: "sleep", title: "Trouble sleeping", body: "I lie awake at night and cannot fall asleep."),
        Document(id: "ex", title: "Texting an old flame", body: "Should I reach out to someone from my past?"),
        Document(id: "budget", title: "Money", body: "Saving for a trip to Lisbon next spring."),
    ]

    static func meta(_ path: String) throws -> [String: String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM meta").map {
                    (($0[0] as String), ($0[1] as String?) ?? "")
                })
        }
    }

    /// Each way the identity can be damaged: the store opens for reading, keyword search and deleting; what
    /// compares or writes vectors throws ``StoreError/identityUnreadable(path:reason:)``; nothing stamps a model
    /// over the vectors (before, any write stamped multilingual-e5-small and the exact text no longer found
    /// its own document).
    @Test(arguments: [
        "UPDATE meta SET value = 'abc' WHERE key = 'embedder_dimension'",
        "DELETE FROM meta WHERE key LIKE 'embedder%'",
        "DELETE FROM meta WHERE key = 'embedder_weights_sha256'",
        "UPDATE meta SET value = '100000000' WHERE key = 'embedder_dimension'",
        "UPDATE meta SET value = '2147483647' WHERE key = 'embedder_dimension'",
        "UPDATE meta SET value = '9223372036854775807' WHERE key = 'embedder_dimension'",
        "UPDATE meta SET value = '385' WHERE key = 'embedder_dimension'",
        "UPDATE meta SET value = 'sum' WHERE key = 'embedder_pooling'",
    ])
    func aStoreWhoseIdentityIsDamagedIsReadAndSearchedByKeywordOnly(damage: String) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(Self.entries)
            try await store.close()
        }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: damage) }
        try queue.close()
        let damaged = try Self.meta(path).filter { $0.key.hasPrefix("embedder") }

        for open in [
            { try await HushStore.open(path: path) },
            { try await HushStore.open(path: path, readOnly: true) },
            { try await HushStore.open(path: path, embedder: HashingEmbedder()) },
        ] as [() async throws -> HushStore] {
            let store = try await open()
            #expect(!store.semanticAvailable)
            #expect(try await store.stats().documents == 3)
            #expect(try await store.document(id: "sleep")?.document.title == "Trouble sleeping")
            let found = try await store.search("asleep", mode: .keyword, limit: 3)
            #expect(found.hits.map(\.id) == ["sleep"])
            await #expect(throws: StoreError.self) { _ = try await store.search("asleep", mode: .semantic, limit: 3) }
            do {
                _ = try await store.search("asleep", mode: .semantic, limit: 3)
            } catch StoreError.identityUnreadable(let where_, let reason) {
                #expect(where_.hasSuffix("journal.hush") && !reason.isEmpty)
            }
            if !store.readOnly {
                await #expect(throws: StoreError.self) {
                    try await store.upsert([Document(id: "new", body: "A new entry about the garden.")])
                }
                #expect(try await store.delete(ids: ["no-such-entry"]) == 0)
            }
            try await store.close()
        }
        // Nothing stamped an identity over the vectors.
        #expect(try Self.meta(path).filter { $0.key.hasPrefix("embedder") } == damaged)
        // And the person's data can still be deleted.
        let store = try await HushStore.open(path: path)
        #expect(try await store.delete(ids: ["ex"]) == 1)
        #expect(try await store.search("reach out", mode: .keyword, limit: 3).hits.isEmpty)
        try await store.close()
    }
}

/// A command's counts are taken inside the transaction that did the work: `hush delete` beside a `hush index`
/// of the same ids said "deleted 20 of 20 documents; not found: " all 20 (the not-found list was read first).
@Suite struct ReliabilityDeletionReportTests {
    @Test func deletedAndNotFoundAddUpWhileAnotherStoreWritesTheSameIDs() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("feed.hush")
        let writer = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let deleter = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let ids = (0..<40).map { "post-\($0)" }
        for round in 0..<5 {
            let posts = ids.map { Document(id: $0, body: "Post \($0) of round \(round) about the harbour at dawn.") }
            async let written: UpsertSummary = writer.upsert(posts)
            let asked = ids + ["never-there", ids[0]]
            let summary = try await deleter.deleteDocuments(ids: asked)
            _ = try await written
            #expect(summary.deleted + summary.notFound.count == ids.count + 1, "round \(round): \(summary)")
            #expect(summary.notFound.contains("never-there"))
            #expect(Set(summary.notFound).count == summary.notFound.count)
        }
        let last = try await deleter.deleteDocuments(ids: ["post-1", "post-1", "gone"])
        #expect(last.deleted + last.notFound.count == 2)
        try await writer.close()
        try await deleter.close()
    }
}

/// A vector blob damaged into finite garbage (not of unit length) is left out as one of NaNs is: `related` from
/// its document returned one hit at cosine -0.165, and its scores polluted every search.
@Suite struct ReliabilityDamagedVectorTests {
    @Test func aVectorOfFiniteGarbageIsLeftOut() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(ReliabilityStoreFileTests.entries)
            try await store.close()
        }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            let dimension = HashingEmbedder().identity.dimension
            let garbage = Data([Float](repeating: 3.5, count: dimension).withUnsafeBytes { Array($0) })
            try db.execute(
                sql: """
                    UPDATE vectors SET vector = ? WHERE chunk_id IN
                    (SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.external_id = 'ex')
                    """, arguments: [garbage])
        }
        try queue.close()
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        await #expect(throws: RankingError.noVectors(id: "ex")) { _ = try await store.related(to: "ex", limit: 3) }
        let related = try await store.related(to: "sleep", limit: 3)
        #expect(!related.contains { $0.id == "ex" } && related.allSatisfy { ($0.score ?? 0) > -1 })
        let semantic = try await store.search("reach out to someone from my past", mode: .semantic, limit: 3)
        #expect(!semantic.hits.contains { $0.id == "ex" })
        #expect(try await store.search("reach out", mode: .keyword, limit: 3).hits.first?.id == "ex")
        try await store.close()
    }
}
