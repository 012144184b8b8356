import Foundation
import GRDB
import HushTestSupport
import Testing

@testable import Hush

/// The Python-built fixture (scripts/fixtures/make-python-kb.sh) and sentence-transformers' own top-5.
enum PythonFixture {
    static var file: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Fixtures/python-kb", withExtension: "sqlite"))
        }
    }

    struct Expected: Decodable {
        struct Query: Decodable {
            var query: String
            var top5: [String]
            var scores: [Double]
        }
        var documents: Int
        var queries: [Query]
    }

    static var expected: Expected {
        get throws {
            let url = try #require(Bundle.module.url(forResource: "Fixtures/python-kb-expected", withExtension: "json"))
            return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url))
        }
    }
}

@Suite("Import: Python-built knowledge bases without re-embedding")
struct ImportTests {
    @Test("semantic top-5 after import equals sentence-transformers' top-5 for every fixture query", .needsModel)
    func parityWithSentenceTransformers() async throws {
        let embedder = try TestModels.miniLMEmbedder()
        let directory = try TemporaryDirectory()
        let store = try await HushStore.open(path: directory.path("kb.hush"), embedder: embedder)
        let summary = try await PythonKnowledgeBase(path: try PythonFixture.file.path).import(into: store)
        let expected = try PythonFixture.expected
        #expect(summary.added == expected.documents)
        #expect(summary.chunksEmbedded == 0)
        #expect(try await store.stats().embedder == embedder.identity)
        #expect(expected.queries.count == 8)
        for query in expected.queries {
            let results = try await store.search(query.query, mode: .semantic, limit: 5, boosts: .none)
            #expect(results.hits.map(\.id) == query.top5, "\(query.query)")
            for (hit, score) in zip(results.hits, query.scores) {
                #expect(abs(Double(hit.score) - score) < 1e-3, "\(query.query): \(hit.id)")
            }
        }
    }

    @Test("rows become single-chunk documents with their vector, title and metadata; re-import skips them")
    func rowsAndMetadata() async throws {
        let directory = try TemporaryDirectory()
        // The fixture's vectors are 384-d, as are the hashing embedder's: enough to check the mapping.
        let store = try await HushStore.open(path: directory.path("kb.hush"), embedder: HashingEmbedder())
        let source = try PythonKnowledgeBase(path: try PythonFixture.file.path)
        let first = try await source.import(into: store, sourceType: "faq")
        #expect(first.added == 60 && first.chunksEmbedded == 0)
        let again = try await source.import(into: store, sourceType: "faq")
        #expect(again.unchanged == 60 && again.added == 0 && again.updated == 0)

        let stored = try #require(try await store.document(id: "7"))
        #expect(stored.document.title == "Shin pain")
        #expect(stored.document.category == "fitness")
        #expect(stored.document.tags == ["running", "injury"])
        #expect(stored.document.metadata == ["source": "fixture"])
        #expect(stored.document.sourceType == "faq")
        #expect(stored.chunkCount == 1)

        // The stored vector is the Python file's blob, bit for bit (it was already unit length).
        let blob = try await DatabaseQueue(path: try PythonFixture.file.path).read { db in
            try Data.fetchOne(db, sql: "SELECT embedding FROM documents WHERE id = 7")
        }
        let original = try #require(blob.flatMap(VectorBlob.decode))
        let imported = try #require(try await store.vectors(forDocument: "7").first)
        #expect(zip(original, imported).allSatisfy { abs($0 - $1) < 1e-6 })

        // Keyword search sees the title prefixed to the content.
        let hits = try await store.search("shin", mode: .keyword, limit: 1)
        #expect(hits.hits.first?.id == "7")
        #expect(hits.hits.first?.text.hasPrefix("Shin pain\n\nSore shins") == true)
    }

    @Test("a vector dimension other than the embedder's is refused before anything is written")
    func dimensionMismatch() async throws {
        let directory = try TemporaryDirectory()
        let store = try await HushStore.open(path: directory.path("kb.hush"), embedder: HashingEmbedder(dimension: 256))
        let source = try PythonKnowledgeBase(path: try PythonFixture.file.path)
        await #expect(throws: BuildError.importDimension(path: try PythonFixture.file.path, found: 384, expected: 256))
        {
            try await source.import(into: store)
        }
        #expect(try await store.stats().documents == 0)
    }

    @Test("ids keep their own text: text ids are not read as the integer 0, integer and real ids are written plainly")
    func idsKeepTheirText() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("text-ids.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            // An untyped id column (as pandas' to_sql writes it) keeps each value's own storage class.
            try db.execute(sql: "CREATE TABLE documents (id, title TEXT, content TEXT, metadata TEXT, embedding BLOB)")
            let vector = x2(1, 0)
            try db.execute(
                sql: "INSERT INTO documents VALUES ('d0', 'A', 'one', NULL, ?), ('d1', 'B', 'two', NULL, ?), "
                    + "(7, 'C', 'three', NULL, ?), (2.0, 'D', 'four', NULL, ?)",
                arguments: [vector, vector, vector, vector])
        }
        try queue.close()
        let ids = try PythonKnowledgeBase(path: path).records(dimension: 2).map(\.document.id)
        #expect(Set(ids) == ["d0", "d1", "7", "2"])
    }

    /// Two float32 values as a little-endian BLOB.
    private func x2(_ a: Float, _ b: Float) -> Data {
        var data = Data()
        for value in [a, b] { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    @Test("files in another layout are refused with the reason")
    func layoutErrors() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE documents (id INTEGER PRIMARY KEY, body TEXT, embedding BLOB)")
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, content TEXT, embedding BLOB)")
            try db.execute(sql: "INSERT INTO notes VALUES (1, 'hello', x'0000803f00')")
        }
        try queue.close()
        #expect(throws: BuildError.importLayout(path: path, reason: "table documents has no column content")) {
            try PythonKnowledgeBase(path: path).records(dimension: 384)
        }
        #expect(throws: BuildError.importLayout(path: path, reason: "no table posts")) {
            try PythonKnowledgeBase(path: path, table: "posts").records(dimension: 384)
        }
        #expect(
            throws: BuildError.importLayout(path: path, reason: "row 1: embedding is not a BLOB of float32 values")
        ) {
            try PythonKnowledgeBase(path: path, table: "notes").records(dimension: 384)
        }
        #expect(throws: BuildError.self) { try PythonKnowledgeBase(path: directory.path("missing.sqlite")) }
    }

    @Test("precomputed upsert checks counts and vectors")
    func precomputedValidation() async throws {
        let store = try await HushStore.inMemory(embedder: HashingEmbedder(dimension: 4))
        let document = Document(id: "a", title: "Tea", body: "Green tea after lunch.")
        await #expect(throws: StoreError.self) { try await store.upsert([document], precomputed: []) }
        await #expect(throws: StoreError.invalidVector(documentID: "a", reason: "component 1 is nan")) {
            try await store.upsert([document], precomputed: [[1, .nan, 0, 0]])
        }
        let summary = try await store.upsert([document], precomputed: [[3, 4, 0, 0]])
        #expect(summary.added == 1)
        let vector = try #require(try await store.vectors(forDocument: "a").first)
        #expect(vector == [0.6, 0.8, 0, 0])  // normalised like the embedder's own vectors
    }
}
