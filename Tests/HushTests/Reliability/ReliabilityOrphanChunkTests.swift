import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// Chunks pointing at a missing document (a file edited by another program: SQLite's foreign keys bind only
/// Hush's own connections). Before, the document that lost them said "has no vectors (empty text)", upserting it
/// again said "unchanged" and left it without chunks, and `compact` kept the orphans for good.
@Suite struct ReliabilityOrphanChunkTests {
    static func count(_ path: String, _ sql: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    @Test func aDocumentThatLostItsChunksIsEmbeddedAgainAndCompactRemovesTheOrphans() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let entries = ReliabilityStoreFileTests.entries
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(entries)
            try await store.close()
        }
        let queue = try DatabaseQueue(path: path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql: """
                    UPDATE chunks SET document_id = 999999
                    WHERE document_id = (SELECT id FROM documents WHERE external_id = 'budget')
                    """)
        }
        try queue.close()
        let orphans = "SELECT count(*) FROM chunks WHERE document_id NOT IN (SELECT id FROM documents)"
        #expect(try Self.count(path, orphans) > 0)

        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        do {
            _ = try await store.related(to: "budget")
            Issue.record("related from a document without chunks gave results")
        } catch let error as RankingError {
            #expect(error == .noVectors(id: "budget"))
            #expect(error.description.contains("chunks were lost"))
        }
        // Upserted again, it is prepared and embedded again, not found unchanged.
        let summary = try await store.upsert(entries.filter { $0.id == "budget" })
        #expect(summary.updated == 1 && summary.unchanged == 0 && summary.chunksEmbedded > 0)
        let hits = try await store.search("saving for a trip to Lisbon", mode: .semantic, limit: 1).hits
        #expect(hits.first?.id == "budget")
        #expect(try await store.related(to: "budget", limit: 2).count == 2)
        // The orphans stay out of every answer, and compact removes them with their vectors and keyword rows.
        _ = try await store.compact()
        #expect(try await store.search("Lisbon", mode: .keyword, limit: 5).hits.map(\.id) == ["budget"])
        try await store.close()
        #expect(try Self.count(path, orphans) == 0)
        #expect(try Self.count(path, "SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)") == 0)
        #expect(try Self.count(path, "SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)") == 0)
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await reopened.stats().chunks == 3)
        #expect(try await reopened.search("awake at night", mode: .hybrid, limit: 1).hits.first?.id == "sleep")
        try await reopened.close()
    }
}
