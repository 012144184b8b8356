import Foundation
import GRDB
import HushTestSupport
import HushToolSupport
import Testing

@testable import Hush

/// The keyword arm's ranking: `hush_bm25` (``KeywordRankFunction``) against FTS5's own bm25, to the bit, on the
/// samples; its remembered row lengths across writes; and the prefix indexes of new files (schema 6).
@Suite struct KeywordRankTests {
    /// Queries of every shape the keyword arm sends: single and several words, common and rare, prefixes being
    /// typed, a phrase, a CJK bigram.
    static let expressions = [
        "\"budget\"", "\"the\" OR \"garden\" OR \"tomatoes\"", "\"sleep\" OR \"insomnia\" OR \"night\"",
        "\"meeting\" OR \"notes\" OR \"review\" OR \"team\"", "\"pr\"*", "\"s\"*", "\"deadline\" OR \"rel\"*",
        "\"budget review\"", "\"project\" AND \"plan\"", "\"a\" OR \"to\" OR \"and\"",
    ]

    static func samplesStore(_ path: String) async throws -> HushStore {
        var documents: [Document] = []
        _ = try DocumentReader().read([Repository.samples]) { documents += $0 }
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(documents)
        return store
    }

    /// Every matching row's `hush_bm25` equals FTS5's `rank` exactly, and `rows` returns them in FTS5's order
    /// (equal scores by rowid), each with its document.
    @Test func theRankFunctionIsFTS5sBM25ToTheBit() async throws {
        let folder = try TemporaryDirectory()
        let store = try await Self.samplesStore(folder.path("samples.hush"))
        try store.database.readKeywordIndex { reader in
            var compared = 0
            for expression in Self.expressions {
                let fts5 = try Row.fetchAll(
                    reader.db, sql: "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank",
                    arguments: [expression]
                ).map { (rowid: $0[0] as Int64, rank: $0[1] as Double) }
                // Twice: the second pass reads the lengths remembered by the first.
                for _ in 0..<2 {
                    let ours = try Row.fetchAll(
                        reader.db,
                        sql: "SELECT rowid, hush_bm25(chunks_fts, 1) FROM chunks_fts WHERE chunks_fts MATCH ?",
                        arguments: [expression])
                    let byRowid = Dictionary(uniqueKeysWithValues: ours.map { ($0[0] as Int64, $0[1] as Double) })
                    #expect(byRowid.count == fts5.count, "\(expression)")
                    for row in fts5 {
                        #expect(byRowid[row.rowid]?.bitPattern == row.rank.bitPattern, "\(expression) row \(row.rowid)")
                    }
                }
                let expected = fts5.sorted { ($0.rank, $0.rowid) < ($1.rank, $1.rowid) }
                let read = try reader.rows(expression, limit: nil)
                #expect(read.complete)
                #expect(read.rows.map(\.chunkID) == expected.map(\.rowid), "\(expression)")
                #expect(read.rows.map(\.score) == expected.map { Float(-$0.rank) })
                #expect(read.rows.allSatisfy { $0.documentRowid != nil })
                // The best five are the first five of the whole list.
                let five = try reader.rows(expression, limit: 5)
                #expect(five.rows == Array(read.rows.prefix(5)))
                #expect(five.complete == (expected.count <= 5))
                compared += fts5.count
            }
            #expect(compared >= 100)
        }
    }

    /// Read token by token (a search as you type), an `OR` expression gives the same rows, scores to the bit and
    /// order as read whole, for words common and rare, prefixes, phrases and CJK bigrams; the tokens read are
    /// kept for the next search, and forgotten when a write changes the file.
    @Test func tokensReadApartAddUpToTheWholeExpressionToTheBit() async throws {
        let folder = try TemporaryDirectory()
        let store = try await Self.samplesStore(folder.path("samples.hush"))
        let queries = [
            "the garden tomatoes", "sleep insomnia night", "meeting notes review team", "deadline", "budget review",
            "a to and of the", "失眠 睡不好 sleep", "東京 大学", "project plan for the quarterly budget",
        ]
        var expressions = queries.compactMap { FTSQuery.expression(for: $0)?.orTokens }
        expressions += [["\"pr\"*", "\"s\"*"], ["\"deadline\"", "\"rel\"*", "\"budget review\""], ["\"zzzz\""]]
        func read(_ tokens: [String], limit: Int?, documents: Int? = nil) throws -> (whole: Bool, same: Bool) {
            try store.database.readKeywordIndex { reader in
                let whole = try reader.rows(tokens.joined(separator: " OR "), limit: limit, documents: documents)
                let apart = try reader.rows(orOf: tokens, limit: limit, documents: documents)
                let same =
                    whole.complete == apart.complete && whole.rows.map(\.chunkID) == apart.rows.map(\.chunkID)
                    && whole.rows.map(\.score.bitPattern) == apart.rows.map(\.score.bitPattern)
                    && whole.rows.map(\.documentRowid) == apart.rows.map(\.documentRowid)
                return (whole.complete, same)
            }
        }
        var compared = 0
        for tokens in expressions {
            for (limit, documents) in [(nil, nil), (5, nil), (40, 3)] as [(Int?, Int?)] {
                #expect(
                    try read(tokens, limit: limit, documents: documents).same, "\(tokens) \(String(describing: limit))")
            }
            compared += try store.database.readKeywordIndex {
                try $0.rows(tokens.joined(separator: " OR "), limit: nil)
            }
            .rows.count
        }
        #expect(compared >= 100)
        // The scores themselves, not only their Float rounding: each row's sum against hush_bm25 of the whole.
        try store.database.readKeywordIndex { reader in
            let tokens = try #require(FTSQuery.expression(for: "garden tomatoes beans sleep")?.orTokens)
            let commit = try MemoryImageTable.commitCounter(reader.db)
            let whole = try Row.fetchAll(
                reader.db, sql: "SELECT rowid, hush_bm25(chunks_fts, ?) FROM chunks_fts WHERE chunks_fts MATCH ?",
                arguments: [commit, tokens.joined(separator: " OR ")])
            var sums: [Int64: Double] = [:]
            for token in tokens {
                let rows = try Row.fetchAll(
                    reader.db, sql: "SELECT rowid, hush_bm25(chunks_fts, ?) FROM chunks_fts WHERE chunks_fts MATCH ?",
                    arguments: [commit, token])
                for row in rows { sums[row[0], default: 0] += -(row[1] as Double) }
            }
            #expect(whole.count == sums.count && whole.count > 3)
            for row in whole { #expect((-(row[1] as Double)).bitPattern == sums[row[0]]?.bitPattern) }
        }

        // Kept: the next read of the same tokens finds them; a write forgets them.
        let tokens = try #require(FTSQuery.expression(for: "garden tomatoes")?.orTokens)
        #expect(store.database.tokenTerms.withLock { $0.tokens[tokens[0]] != nil })
        let before = try store.database.readKeywordIndex { try $0.rows(orOf: tokens, limit: nil) }.rows
        try await store.upsert([Document(id: "new-garden", body: "A garden of tomatoes, tomatoes and more tomatoes.")])
        let after = try store.database.readKeywordIndex { try $0.rows(orOf: tokens, limit: nil) }.rows
        #expect(after.count == before.count + 1)
        #expect(try read(tokens, limit: nil).same)
        #expect(
            try await store.search("garden tomat", mode: .keyword.whileTyping, limit: 1).hits.first?.id == "new-garden")
    }

    /// The heap keeps exactly the best rows, in order, whatever the capacity: 2,000 scores with many ties (a
    /// tenth of the values), against a plain sort by score then rowid.
    @Test func theHeapKeepsTheBestRowsInOrder() {
        var random = SplitMix(seed: 11)
        let rows = (0..<2000).map {
            (rowid: Int64($0) * 7 % 2003, score: Double(Int.random(in: 0..<200, using: &random)) / 10)
        }
        let sorted = rows.sorted { $0.score > $1.score || ($0.score == $1.score && $0.rowid < $1.rowid) }
        for capacity in [0, 1, 7, 200, 1999, 2000, 5000, nil] as [Int?] {
            var best = RankedRows(capacity: capacity)
            for row in rows { best.offer(rowid: row.rowid, score: row.score) }
            let expected = sorted.prefix(capacity ?? sorted.count)
            #expect(best.bestFirst().map(\.rowid) == expected.map(\.rowid), "capacity \(String(describing: capacity))")
        }
    }

    /// A deleted chunk's rowid taken by a chunk of another length: the length remembered for the old one is
    /// forgotten with the commit, and the new row scores as FTS5 scores it.
    @Test func aReusedRowidIsScoredWithItsNewLength() async throws {
        let folder = try TemporaryDirectory()
        let store = try await HushStore.open(path: folder.path("reuse.hush"), embedder: HashingEmbedder())
        try await store.upsert([
            Document(id: "short", body: "Garden tomatoes."),
            Document(
                id: "long",
                body: "The garden in late summer: tomatoes, beans, courgettes and herbs, watered every evening "
                    + "before the heat, weeded on Sundays, and picked the moment they ripen."),
        ])
        func scores() throws -> (ours: [Int64: Double], fts5: [Int64: Double]) {
            try store.database.readKeywordIndex { reader in
                let commit = try MemoryImageTable.commitCounter(reader.db)
                let ours = try Row.fetchAll(
                    reader.db, sql: "SELECT rowid, hush_bm25(chunks_fts, ?) FROM chunks_fts WHERE chunks_fts MATCH ?",
                    arguments: [commit, "\"garden\""])
                let fts5 = try Row.fetchAll(
                    reader.db, sql: "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ?",
                    arguments: ["\"garden\""])
                return (
                    Dictionary(uniqueKeysWithValues: ours.map { ($0[0], $0[1]) }),
                    Dictionary(uniqueKeysWithValues: fts5.map { ($0[0], $0[1]) })
                )
            }
        }
        let before = try scores()
        #expect(before.ours == before.fts5 && before.ours.count == 2)
        let longRowid = try #require(before.ours.keys.max())
        _ = try await store.delete(ids: ["long"])
        try await store.upsert([Document(id: "other", body: "Garden.")])
        let after = try scores()
        #expect(after.ours.keys.contains(longRowid), "the highest rowid is taken again")
        #expect(after.ours == after.fts5)
        #expect(after.ours[longRowid] != before.ours[longRowid])
    }

    /// Replaces the file's keyword index with one of an earlier definition (`options`: the FTS5 options after
    /// the column), holding the same rows, as earlier versions of Hush made it.
    static func replaceKeywordIndex(_ db: Database, with options: String) throws {
        try db.execute(
            sql: """
                DROP TRIGGER chunks_fts_delete;
                CREATE VIRTUAL TABLE old_fts USING fts5(text, \(options));
                INSERT INTO old_fts(rowid, text) SELECT rowid, text FROM chunks_fts;
                DROP TABLE chunks_fts;
                ALTER TABLE old_fts RENAME TO chunks_fts;
                CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
                    DELETE FROM chunks_fts WHERE rowid = old.id;
                END;
                """)
    }

    /// A new file's keyword index keeps prefix indexes and counts marks as letters; a file from before version 6
    /// that holds chunks is read as it is when opened read-only (it still finds words by their beginning), and
    /// gets the current index, filled from its chunks, at its first writable open.
    @Test func newFilesIndexPrefixesAndOlderFilesGetTheCurrentIndex() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.hush")
        func ftsDefinition() throws -> String {
            try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'") ?? ""
            }
        }
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(Corpus.documents)
            try await store.close()
        }
        #expect(try ftsDefinition().contains("prefix = '1 2 3'"))
        #expect(try ftsDefinition().contains("M*"))

        // The file as Hush wrote it before version 6: the index without prefixes.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try Self.replaceKeywordIndex(db, with: "tokenize = 'porter unicode61 remove_diacritics 2'")
            try db.execute(
                sql: """
                    ALTER TABLE chunks DROP COLUMN field;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v6', 'v7');
                    UPDATE meta SET value = '5' WHERE key = 'schema_version';
                    """)
        }
        try queue.close()
        let shipped = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(
            try await shipped.search("budg", mode: SearchMode.keyword.whileTyping, limit: 3).hits.first?.id
                == "budget-review")
        try await shipped.close()
        #expect(try !ftsDefinition().contains("prefix"))

        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(
            try await reopened.search("budg", mode: SearchMode.keyword.whileTyping, limit: 3).hits.first?.id
                == "budget-review")
        try await reopened.close()
        #expect(try ftsDefinition().contains("prefix = '1 2 3'"))
        #expect(try ftsDefinition().contains("M*"))
        let version = try await DatabaseQueue(path: path).read { db in try StoreSchema.recordedVersion(db) }
        #expect(version == StoreSchema.version)
    }

    /// A file whose keyword index cut words at their vowel signs (made before the tokenizer counted marks as
    /// letters) is indexed again from its chunks at its first writable open: every row as the write path makes
    /// it now, the first with the document's tags, and Hindi and Thai words found whole.
    @Test func anIndexThatCutWordsAtVowelSignsIsMadeAgain() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("feed.hush")
        let documents =
            SearchKeywordTests.feed + [
                Document(id: "tagged", body: "Chiang Mai night market haul", tags: ["ตลาดนัด"]),
                Document(id: "emoji", body: "Morning ☕️ with friends ❤️ 1️⃣"),
            ]
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(documents)
            try await store.close()
        }
        let queue = try DatabaseQueue(path: path)
        let rowsBefore = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid, text FROM chunks_fts ORDER BY rowid").map {
                [String(describing: $0[0] as Int64), $0[1] as String]
            }
        }
        // The index as earlier versions made it: the old tokenizer, the same rows.
        try await queue.write { db in
            try Self.replaceKeywordIndex(
                db, with: "tokenize = 'porter unicode61 remove_diacritics 2', prefix = '1 2 3'")
        }
        try queue.close()
        let old = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await old.search("खाना", mode: .keyword).hits.map(\.id).sorted() == ["hi-blood", "hi-food"])
        try await old.close()

        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await store.search("खाना", mode: .keyword).hits.map(\.id) == ["hi-food"])
        #expect(try await store.search("ตลาดนัด", mode: .keyword).hits.map(\.id).sorted() == ["tagged", "th-market"])
        try await store.close()
        let rowsAfter = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT rowid, text FROM chunks_fts ORDER BY rowid").map {
                [String(describing: $0[0] as Int64), $0[1] as String]
            }
        }
        #expect(rowsAfter == rowsBefore)
        // No word of marks alone (an emoji's variation selector, U+FE0F, is left out with the optional marks).
        let terms = try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, chunks_fts, row)")
            return try String.fetchAll(db, sql: "SELECT term FROM temp.vocabulary")
        }
        #expect(terms.contains("ร้า") && terms.contains("खाना") && terms.contains("friend"))
        #expect(terms.allSatisfy { term in !term.unicodeScalars.allSatisfy(KeywordText.isMark) })
    }
}
