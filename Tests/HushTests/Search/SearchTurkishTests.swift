import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// Turkish and Azerbaijani write i/İ and ı/I as two letters. SQLite folds İ and I to i and leaves ı alone, so
/// before, "diyarbakır" (as a person types it) missed "DİYARBAKIR" (as a headline writes it). The keyword index
/// and its queries now write the dotless ı as i, and an older file's rows are written again at a writable open.
@Suite struct SearchTurkishTests {
    static let entries = [
        Document(id: "headline", body: "DİYARBAKIR'DA YAĞMUR: SURLAR ISLANDI"),
        Document(id: "note", body: "Diyarbakır surları boyunca uzun bir yürüyüş."),
        Document(id: "other", body: "Isparta'da gül hasadı başladı."),
    ]

    @Test func theDotlessIFindsEveryCaseOfTheWord() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        try await store.upsert(Self.entries)
        for query in ["diyarbakır", "DİYARBAKIR", "Diyarbakir", "DIYARBAKIR"] {
            let hits = try await store.search(query, mode: .keyword, limit: 5).hits
            #expect(Set(hits.map(\.id)) == ["headline", "note"], "\(query)")
        }
        #expect(try await store.search("ısparta", mode: .keyword, limit: 5).hits.map(\.id) == ["other"])
        #expect(try await store.search("ıslandı", mode: .keyword, limit: 5).hits.map(\.id) == ["headline"])
        let note = try #require(
            try await store.search("diyarbakir", mode: .keyword, limit: 5).hits.first { $0.id == "note" })
        let units = Array(note.text.utf16)
        let marked = note.highlights.map { String(decoding: units[$0], as: UTF16.self) }
        #expect(marked == ["Diyarbakır"])
    }

    @Test func anOlderFilesRowsAreWrittenAgainAtAWritableOpen() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("news.hush")
        do {
            let store = try await HushStore.open(path: path, embedder: HashingEmbedder())
            try await store.upsert(Self.entries)
            try await store.close()
        }
        // As an older Hush wrote it: the row holds the ı, and the file does not say its rows are current.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            let rowid = try Int64.fetchOne(
                db,
                sql: "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.external_id = 'note'")
            try db.execute(
                sql: "UPDATE chunks_fts SET text = ? WHERE rowid = ?",
                arguments: ["Diyarbakır surları boyunca uzun bir yürüyüş.", rowid])
            try db.execute(sql: "DELETE FROM meta WHERE key = 'keyword_text'")
        }
        try queue.close()
        let reader = try await HushStore.open(path: path, embedder: HashingEmbedder(), readOnly: true)
        #expect(try await reader.search("diyarbakir", mode: .keyword, limit: 5).hits.map(\.id) == ["headline"])
        try await reader.close()
        let writer = try await HushStore.open(path: path, embedder: HashingEmbedder())
        let found = try await writer.search("diyarbakır", mode: .keyword, limit: 5).hits.map(\.id)
        #expect(Set(found) == ["headline", "note"])
        try await writer.close()
    }
}
