import Foundation
import GRDB
import HushEmbedding
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// A write whose commit succeeded is not failed by the tidying after it: with the file unable to grow (as on a
/// full disk), a deletion is committed, says that purging the deleted words from the keyword index is pending,
/// and the next write finishes it. Before, `delete` threw "SQLite error 13: database or disk is full" although
/// the documents were gone, and `stats` blamed "a file of more than 25,000 chunks".
@Suite struct ReliabilityPendingCleanupTests {
    /// Caps the store's file at its current size plus `margin` pages: SQLite then answers any growth past it
    /// with SQLITE_FULL, the error of a full disk.
    static func cap(_ store: HushStore, margin: Int?) throws {
        try store.database.writer.writeWithoutTransaction { db in
            guard let margin else {
                try db.execute(sql: "PRAGMA max_page_count = 1073741823")
                return
            }
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + margin)")
        }
    }

    @Test func aDeletionCommittedBeforeAFullDiskSaysWhatIsPendingAndTheNextWriteFinishesIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("journal.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        var random = SplitMix(seed: 7)
        let words = ["morning", "river", "letter", "garden", "window", "bread", "quiet", "music", "doctor", "rain"]
        let entries = (0..<400).map { number in
            Document(
                id: "entry-\(number)",
                body: (0..<120).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
                    .joined(separator: " ") + " marker\(number).")
        }
        try await store.upsert(entries)
        _ = try await store.compact()  // no free pages left for the purge to reuse
        // The smallest room the deletion itself needs (a deletion that does not fit commits nothing and throws),
        // far less than the purge, which writes the keyword index again.
        var deleted: DeletionSummary?
        for margin in [4, 8, 16, 32, 64] where deleted == nil {
            try Self.cap(store, margin: margin)
            do {
                deleted = try await store.deleteDocuments(ids: ["entry-3", "entry-4"])
            } catch let error as StoreError {
                #expect(error.description.contains("disk is full"), "\(error)")
                #expect(try await store.stats().documents == 400)
            }
        }
        let summary = try #require(deleted)
        #expect(summary.deleted == 2 && summary.notFound.isEmpty)
        let pending = try #require(summary.pendingCleanup, "the purge should not fit")
        #expect(pending.contains("keyword index") && pending.contains("disk is full"), "\(pending)")
        #expect(store.pendingCleanup == pending)
        let stats = try await store.stats()
        #expect(stats.deletedWordsRemain && stats.pendingCleanup == pending && stats.documents == 398)
        #expect(try await store.document(id: "entry-3") == nil)
        #expect(try await store.search("marker3", mode: .keyword, limit: 5).hits.isEmpty)
        #expect(try await store.search("marker5", mode: .keyword, limit: 5).hits.first?.id == "entry-5")

        try Self.cap(store, margin: nil)
        try await store.upsert([Document(id: "later", body: "a quiet garden after the rain")])
        #expect(store.pendingCleanup == nil)
        let after = try await store.stats()
        #expect(!after.deletedWordsRemain && after.pendingCleanup == nil && after.documents == 399)
        try await store.close()
    }
}
