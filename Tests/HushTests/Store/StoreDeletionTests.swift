import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// What a person deletes leaves the file: its text (SQLite overwrites deleted rows) and the words the keyword
/// index held for it, with their positions, from which the text could be read back in order (FTS5 keeps a
/// deleted row's entries in its older segments until they merge). The same for what an edit removes: an entry's
/// old wording, an old tag. Each check reads the file's bytes after the store is closed.
@Suite struct StoreDeletionTests {
    static let journal = [
        Document(
            id: "quit", body: "I am secretly planning to quit my job at Globex in March. Nobody knows yet.",
            tags: ["zanzibar"]),
        Document(id: "run", body: "Went running by the river, felt good."),
        Document(id: "tea", body: "Green tea with Ana after work; we talked about her garden.", tags: ["bonsai"]),
    ]

    /// How often `word` is in the file's bytes and its log's, in any case.
    static func occurrences(of word: String, in path: String) throws -> Int {
        var count = 0
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))).map { $0 | 0x20 }
            let needle = [UInt8](word.lowercased().utf8)
            guard bytes.count >= needle.count else { continue }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if bytes[start..<(start + needle.count)].elementsEqual(needle) { count += 1 }
            }
        }
        return count
    }

    /// The journal stored in a new file in `folder`, closed: its path.
    static func journalFile(in folder: TemporaryDirectory) async throws -> String {
        let path = folder.path("journal.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(journal)
        try await store.close()
        return path
    }

    @Test func aDeletedEntryLeavesNoWordInTheFile() async throws {
        let folder = try TemporaryDirectory()
        let path = try await Self.journalFile(in: folder)
        #expect(try Self.occurrences(of: "globex", in: path) > 0)

        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await reopened.delete(ids: ["quit"]) == 1)
        #expect(try await reopened.stats().deletedWordsRemain == false)
        #expect(try await reopened.search("river", mode: .keyword).hits.map(\.id) == ["run"])
        try await reopened.close()
        for word in ["globex", "secretly", "nobody", "zanzibar"] {
            #expect(try Self.occurrences(of: word, in: path) == 0, "\(word) is still in the file")
        }
        #expect(try Self.occurrences(of: "river", in: path) > 0)
    }

    /// An edit that takes a sentence out of an entry, and a change of its tags alone, leave no trace of the old.
    @Test func anEditLeavesNoTraceOfWhatItRemoved() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("journal.hush")
        let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
        try await store.upsert(Self.journal)
        var edited = Self.journal[0]
        edited.body = "Thinking about my job."
        #expect(try await store.upsert([edited]).updated == 1)
        var retagged = Self.journal[2]
        retagged.tags = ["friends"]
        #expect(try await store.upsert([retagged]).metadataOnly == 1)
        try await store.close()
        for word in ["globex", "secretly", "bonsai"] {
            #expect(try Self.occurrences(of: word, in: path) == 0, "\(word) is still in the file")
        }
        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await reopened.search("friends", mode: .keyword).hits.map(\.id) == ["tea"])
        #expect(try await reopened.search("job", mode: .keyword).hits.map(\.id) == ["quit"])
    }

    /// A store larger than a write purges at its end keeps the words, says so, and `compact` removes them; a
    /// write cut short before its purge has it done at the next writable open.
    @Test func wordsLeftByALargeStoreGoAtCompactOrTheNextOpen() async throws {
        let folder = try TemporaryDirectory()
        let path = try await Self.journalFile(in: folder)
        // The deletion's transaction alone, as a write stopped before its end, or of a store too large to purge.
        let writing = try StoreDatabase.open(path: path, readOnly: false, busyTimeout: 5)
        _ = try writing.write { try $0.deleteDocuments(ids: ["quit"]) }
        try writing.close()
        #expect(try Self.occurrences(of: "globex", in: path) > 0)
        #expect(try Self.occurrences(of: "zanzibar", in: path) > 0)
        let readOnly = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await readOnly.stats().deletedWordsRemain)
        try await readOnly.close()

        let database = try StoreDatabase.open(path: path, readOnly: false, busyTimeout: 5)
        #expect(try database.purgeDeletedWords(upTo: 1))
        try database.close()
        #expect(try Self.occurrences(of: "globex", in: path) > 0)

        let reopened = try await HushStore.open(path: path, embedder: HashingEmbedder())
        #expect(try await reopened.stats().deletedWordsRemain == false)
        try await reopened.close()
        // The words, and the saved image that named the document (its tag).
        #expect(try Self.occurrences(of: "globex", in: path) == 0)
        #expect(try Self.occurrences(of: "zanzibar", in: path) == 0)

        // Compact removes what a file from before the purge existed kept (no marker).
        let older = try DatabaseQueue(path: path)
        try await older.write { db in
            try db.execute(sql: "INSERT INTO chunks_fts(rowid, text) VALUES (999, 'kilimanjaro')")
            try db.execute(sql: "DELETE FROM chunks_fts WHERE rowid = 999")
        }
        try older.close()
        #expect(try Self.occurrences(of: "kilimanjaro", in: path) > 0)
        let compacting = try await HushStore.open(path: path, embedder: HashingEmbedder())
        _ = try await compacting.compact()
        try await compacting.close()
        #expect(try Self.occurrences(of: "kilimanjaro", in: path) == 0)
    }
}
