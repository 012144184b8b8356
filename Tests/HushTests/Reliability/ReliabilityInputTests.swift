import Foundation
import GRDB
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// A store holding `Corpus.documents`, and the check that all of it is still there and searchable.
private func journalStore(_ directory: TemporaryDirectory, name: String = "journal.hush") async throws -> HushStore {
    let store = try await HushStore.open(path: directory.path(name), embedder: HashingEmbedder())
    try await store.upsert(Corpus.documents)
    return store
}

private func expectJournalIntact(_ store: HushStore, extra: Int = 0, _ context: String = "") async throws {
    #expect(try await store.stats().documents == Corpus.documents.count + extra, "\(context)")
    let semantic = try await store.search("sore knee long run", mode: .semantic, limit: 1)
    #expect(semantic.hits.first?.id == "marathon", "\(context)")
    let keyword = try await store.search("sourdough rye flour", mode: .keyword, limit: 1)
    #expect(keyword.hits.first?.id == "sourdough", "\(context)")
    try await expectConsistent(store)
}

/// Bad input of every kind: each gives a clear error or a reported skip, and nothing stored is lost.
@Suite struct ReliabilityInputTests {
    @Test func badFilesAndRecordsAreReportedAndTheRestIsIndexed() async throws {
        let directory = try TemporaryDirectory()
        let store = try await journalStore(directory)
        let input = try TemporaryDirectory()
        // "Café noir" in Latin-1.
        try input.write("latin1.txt", Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x6E, 0x6F, 0x69, 0x72]))
        try input.write("image.md", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]))
        try input.write("empty.txt", Data())
        try input.write("blank.md", "   \n\n\t\n")
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let jsonl = [
            #"{"id": "good-1", "text": "Walked by the river after work and felt calmer."}"#,
            #"{"id": "broken", "text": "no closing brace""#,
            #"{"id": "deep", "text": "x", "metadata": "# + deep + "}",
            "[1, 2, 3]",
            #"{"id": "no-text", "title": "  ", "tags": ["a title of spaces"]}"#,
            #"{"id": "good-2", "text": "Called my sister; we laughed about the old apartment."}"#,
        ].joined(separator: "\n")
        var bytes = Data((jsonl + "\n").utf8)
        bytes.append(contentsOf: Array(#"{"id": "bad-utf8", "text": "caf"#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8))
        bytes.append(
            contentsOf: Array(#"{"id": "good-3", "text": "Slept eight hours for the first time in weeks."}"#.utf8))
        try input.write("entries.jsonl", bytes)
        try input.write(
            "ragged.csv",
            """
            id,title,text,tags
            c-1,Morning,"Coffee on the balcony, then an early start.",routine
            c-2,Short row,only three
            c-3,Long row,"Too many, fields",a,b,c
            c-4,Evening,"Read two chapters before bed, phone in the other room.",sleep

            """)
        try input.write("open-quote.csv", "id,text\nq-1,\"this quote never closes\nq-2,next\n")

        var documents: [Document] = []
        let skipped = try DocumentReader().read([input.url]) { documents.append(contentsOf: $0) }
        let summary = try await store.upsert(documents)

        func reason(_ file: String, line: Int? = nil) -> String? {
            skipped.first { $0.path.hasSuffix("/" + file) && $0.line == line }?.reason
        }
        #expect(reason("latin1.txt") == "not valid UTF-8 text")
        #expect(reason("image.md") == "binary file (contains NUL bytes)")
        #expect(reason("empty.txt") == "empty file")
        #expect(reason("blank.md") == "empty file")
        #expect(reason("entries.jsonl", line: 2) == "malformed JSON")
        #expect(reason("entries.jsonl", line: 3) == "JSON nested deeper than 32 levels")
        #expect(reason("entries.jsonl", line: 4) == "not a JSON object")
        #expect(reason("entries.jsonl", line: 5) == "record has no text or title")
        #expect(reason("entries.jsonl", line: 7) == "not valid UTF-8")
        #expect(reason("ragged.csv", line: 3) == "row has 3 fields, the header has 4")
        #expect(reason("ragged.csv", line: 4) == "row has 6 fields, the header has 4")
        #expect(skipped.contains { $0.path.hasSuffix("open-quote.csv") })
        #expect(
            Set(documents.map(\.id)).isSuperset(of: ["good-1", "good-2", "good-3", "c-1", "c-4"]),
            "\(documents.map(\.id))")
        #expect(summary.errors.isEmpty, "\(summary.errors)")
        try await expectJournalIntact(store, extra: documents.count)
        #expect(try await store.search("river after work calmer", mode: .keyword, limit: 1).hits.first?.id == "good-1")
    }

    /// Every vector problem a broken embedder can have: the batch is refused with a typed error, the file
    /// keeps everything it had, and reopening it finds the same.
    @Test(arguments: [
        InstrumentedEmbedder.Poison.throwing, .nan, .infinity, .wrongDimension,
    ])
    func badEmbedderVectorsAreRefusedAndTheFileKeepsItsState(poison: InstrumentedEmbedder.Poison) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("poisoned.hush")
        let good = try await HushStore.open(path: path, embedder: InstrumentedEmbedder())
        try await good.upsert(Corpus.documents)
        let bad = try await HushStore.open(path: path, embedder: InstrumentedEmbedder(poison: poison))
        let batch = [
            Document(id: "fine", body: "A calm evening with tea and a book."),
            Document(id: "poisoned", body: "POISON in the middle of an otherwise ordinary entry."),
        ]
        await #expect(throws: StoreError.self) { try await bad.upsert(batch) }
        do {
            try await bad.upsert(batch)
        } catch let error as StoreError {
            switch (poison, error) {
            case (.throwing, .embeddingFailed(let id, _)): #expect(id == "fine" || id == "poisoned")
            case (.nan, .invalidVector(let id, let reason)), (.infinity, .invalidVector(let id, let reason)):
                #expect(id == "poisoned" && (reason.contains("nan") || reason.contains("inf")), "\(reason)")
            case (.wrongDimension, .invalidVector(let id, let reason)):
                #expect(id == "poisoned" && reason.contains("dimension 383, expected 384"), "\(reason)")
            default: Issue.record("unexpected \(error) for \(poison)")
            }
        }
        try await expectJournalIntact(bad)
        #expect(try await bad.document(id: "fine") == nil)
        let reopened = try await HushStore.open(path: path, embedder: InstrumentedEmbedder())
        try await expectJournalIntact(reopened)
    }

    /// Garbage written into the vectors table behind Hush's back (wrong lengths, text, NaN): the file
    /// opens, the damaged rows are left out of the in-memory index, and everything else is found.
    @Test func corruptedVectorBlobsAreSkippedOnOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("garbage.hush")
        do {
            let store = try await journalStore(directory, name: "garbage.hush")
            _ = store
        }
        let queue = try DatabaseQueue(path: path)
        let victims = try await queue.write { db -> [String] in
            let ids = ["garden", "vacation", "hiring-sync", "launch-post"]
            let chunk = { (id: String) -> Int64 in
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
                        WHERE d.external_id = ? ORDER BY c.ordinal LIMIT 1
                        """, arguments: [id]) ?? -1
            }
            try db.execute(
                sql: "UPDATE vectors SET vector = X'DEADBEEF01' WHERE chunk_id = ?", arguments: [try chunk(ids[0])])
            try db.execute(
                sql: "UPDATE vectors SET vector = 'not a vector at all' WHERE chunk_id = ?",
                arguments: [try chunk(ids[1])])
            try db.execute(
                sql: "UPDATE vectors SET vector = zeroblob(4) WHERE chunk_id = ?", arguments: [try chunk(ids[2])])
            // 384 NaNs: the right length, unusable values.
            let nan = Data(repeating: 0xFF, count: 384 * 4)
            try db.execute(
                sql: "UPDATE vectors SET vector = ? WHERE chunk_id = ?", arguments: [nan, try chunk(ids[3])])
            return ids
        }
        try queue.close()
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let stats = try await store.stats()
        #expect(stats.vectors == Corpus.documents.count)
        // The damaged rows are left out of memory (rows stay stable for the graph, so they are holes).
        let live = store.memory.read { $0.matrix.liveRows }
        #expect(live == Corpus.documents.count - victims.count)
        let semantic = try await store.search("sore knee long run", mode: .semantic, limit: 10)
        #expect(semantic.hits.first?.id == "marathon")
        #expect(semantic.hits.allSatisfy { $0.score.isFinite && !victims.contains($0.id) }, "\(semantic.hits)")
        // The damaged documents are still found by their words.
        let keyword = try await store.search("tomatoes basil compost", mode: .keyword, limit: 3)
        #expect(keyword.hits.first?.id == "garden")
        let hybrid = try await store.search("offline search on the device", mode: .hybrid, limit: 10)
        #expect(hybrid.hits.contains { $0.id == "launch-post" })
        #expect(hybrid.hits.allSatisfy { $0.score.isFinite })
        // Re-indexing the damaged documents repairs them.
        try await store.upsert(
            Corpus.documents.filter { victims.contains($0.id) }.map {
                var document = $0
                document.body += " (repaired)"
                return document
            })
        #expect(try await store.stats().vectorBytes == Corpus.documents.count * 384 * 4)
    }

    @Test func garbageTruncatedAndNewerFilesAreRefusedClearly() async throws {
        let directory = try TemporaryDirectory()
        // Garbage.
        var random = SplitMix(seed: 99)
        let garbage = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) })
        try garbage.write(to: directory.url.appendingPathComponent("garbage.hush"))
        await #expect {
            _ = try await HushStore.open(path: directory.path("garbage.hush"), embedder: HashingEmbedder())
        } throws: { error in
            guard case .notAStore(_, let reason) = error as? StoreError else { return false }
            return reason.contains("not a database")
        }
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("garbage.hush")) == garbage)

        // A real store cut short at several lengths: a typed error or a consistent smaller store, never a crash.
        let source = directory.path("whole.hush")
        do {
            let store = try await journalStore(directory, name: "whole.hush")
            try await store.upsert(
                (0..<300).map {
                    Document(id: "note-\($0)", body: "Evening note \($0): tea, a short walk and an early night.")
                })
            _ = try await store.compact()
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: source))
        var outcomes: [String] = []
        for fraction in [0.0, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99] {
            let name = "cut-\(fraction).hush"
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: directory.url.appendingPathComponent(name))
            do {
                let store = try await HushStore.open(path: directory.path(name), embedder: HashingEmbedder())
                _ = try await store.search("tea walk", limit: 3)
                outcomes.append("\(fraction): opened, \(try await store.stats().documents) documents")
            } catch let error as StoreError {
                outcomes.append("\(fraction): \(error)")
                #expect(error.description.contains("not a usable Hush store") || error.description.contains("database"))
            }
        }
        #expect(outcomes.count == 8)
        #expect(outcomes.dropFirst(2).contains { !$0.contains("opened") }, "\(outcomes)")

        // A newer schema version.
        let newer = directory.path("newer.hush")
        do { _ = try await journalStore(directory, name: "newer.hush") }
        let queue = try DatabaseQueue(path: newer)
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE meta SET value = ? WHERE key = 'schema_version'", arguments: [StoreSchema.version + 1])
        }
        try queue.close()
        await #expect(
            throws: StoreError.schemaTooNew(path: newer, found: StoreSchema.version + 1, supported: StoreSchema.version)
        ) {
            _ = try await HushStore.open(path: newer, embedder: HashingEmbedder())
        }
    }

    /// Full-text syntax, SQL and control characters as queries, filters and ids: answers or empty results,
    /// never an error or a change to the file.
    @Test func hostileQueriesAndIdsAreJustText() async throws {
        let directory = try TemporaryDirectory()
        let store = try await journalStore(directory)
        let hostile = [
            "\"", "\"\"", "'", "''; DROP TABLE documents; --", "*", "NEAR(", "a NEAR/2 b", "NOT", "AND OR NOT",
            "(", ")", "{", "}", "^start", "col:value", "text:knee", "chunks_fts MATCH 'x'", "x' OR '1'='1",
            "%", "_", "\\", "\u{0}", "\u{0}knee", "knee\u{0}", "-", "+", "knee*", "\"knee", "knee\"",
            "\u{FEFF}", "\u{202E}evil", "😀", String(repeating: "(", count: 5_000),
            String(repeating: "knee ", count: 2_000), "", "   ", "1=1", "rowid = 1", "); DELETE FROM chunks; (",
        ]
        for query in hostile {
            for mode in [SearchMode.semantic, .keyword, .hybrid, .reciprocalRankFusion()] {
                let results = try await store.search(query, mode: mode, limit: 5)
                #expect(results.hits.allSatisfy { $0.score.isFinite }, "\(query.prefix(20)) \(mode)")
            }
            var filter = SearchFilter()
            filter.tagsAny = [query]
            filter.metadata = [query: query]
            let filtered = try await store.search("knee", mode: .hybrid, filter: filter, limit: 5)
            #expect(filtered.hits.isEmpty || query == "knee")
            #expect(try await store.document(id: query) == nil)
            #expect(try await store.delete(ids: [query]) == 0)
        }
        #expect(try await store.search("knee*", mode: .keyword, limit: 1).hits.first?.id == "marathon")
        // The same strings as ids are stored and found as themselves.
        let injected = hostile.filter { !$0.isEmpty }.prefix(12).enumerated().map { offset, id in
            Document(id: id, body: "Hostile id number \(offset) stored as plain text.")
        }
        let summary = try await store.upsert(Array(injected))
        #expect(summary.added == injected.count, "\(summary.errors)")
        for document in injected {
            #expect(try await store.document(id: document.id)?.document.body == document.body)
        }
        #expect(try await store.delete(ids: injected.map(\.id)) == injected.count)
        try await expectJournalIntact(store)
    }
}
