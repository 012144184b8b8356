import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// A file whose keyword index is missing (dropped by hand, or a damaged copy) is still searched: hybrid search
/// answers by meaning alone and says so (`keywordIndexProblem`), keyword search and exclusions throw
/// ``StoreError/keywordIndexMissing(path:)`` with what to do, and a writable open builds the index again. Before,
/// keyword and hybrid search failed with "SQLite error 1: no such table: chunks_fts".
@Suite struct ReliabilityKeywordIndexTests {
    @Test(arguments: [
        "DROP TABLE chunks_fts",
        // Only a shadow table: the FTS5 table is there but cannot be read.
        "DROP TABLE chunks_fts_docsize",
    ])
    func aStoreWithoutItsKeywordIndexIsSearchedByMeaningUntilAWritableOpenRebuildsIt(damage: String) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(ReliabilityStoreFileTests.entries)
            try await store.close()
        }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: damage) }
        try queue.close()

        let reader = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        let problem = try #require(reader.keywordIndexProblem)
        #expect(problem.contains("keyword index") && problem.contains(path))
        #expect(try await reader.stats().keywordIndexProblem == problem)
        for mode in [SearchMode.hybrid, .calibrated, .reciprocalRankFusion(), .semantic] {
            let hits = try await reader.search("saving for a trip to Lisbon", mode: mode, limit: 2).hits
            #expect(hits.first?.id == "budget", "\(mode)")
        }
        var typing = SearchMode.hybrid
        typing.asYouType = true
        #expect(try await reader.search("trip to Lisb", mode: typing, limit: 1).hits.first?.id == "budget")
        await #expect(throws: StoreError.keywordIndexMissing(path: path)) {
            try await reader.search("Lisbon", mode: .keyword)
        }
        await #expect(throws: StoreError.keywordIndexMissing(path: path)) {
            try await reader.search("trip -Lisbon", mode: .hybrid)
        }
        #expect(try await reader.document(id: "sleep")?.document.title == "Trouble sleeping")
        try await reader.close()

        // A writable open builds the index again from the stored text, and the file keeps it.
        let writer = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(writer.keywordIndexProblem == nil)
        #expect(try await writer.search("Lisbon", mode: .keyword, limit: 1).hits.first?.id == "budget")
        try await writer.close()
        let again = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(again.keywordIndexProblem == nil)
        #expect(try await again.search("trip -Lisbon", mode: .keyword, limit: 3).hits.isEmpty)
        #expect(try await again.search("awake", mode: .keyword, limit: 1).hits.first?.id == "sleep")
        try await again.close()
    }
}
