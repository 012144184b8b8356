import Foundation
import GRDB
import GRDBSQLite

/// What the file holds of a document before a write: enough to tell unchanged, metadata-only and changed
/// documents apart.
struct StoredVersion {
    var rowid: Int64
    var textHash: String
    var contentHash: String
    var createdAt: Double

    /// The stored versions of the documents with these ids (absent ids are left out), as `db` sees them.
    ///
    /// A document without chunks has blank hashes: every stored document has at least one (an empty text is
    /// refused), so one without lost them (a damaged file) and must be prepared and embedded again, not found
    /// unchanged.
    static func fetch(_ db: Database, ids: [String]) throws -> [String: StoredVersion] {
        var result: [String: StoredVersion] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT d.external_id, d.id,
                    CASE WHEN EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id) THEN d.text_hash ELSE '' END,
                    CASE WHEN EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id) THEN d.content_hash ELSE '' END,
                    d.created_at
                FROM documents d WHERE d.external_id IN (SELECT value FROM json_each(?))
                """, arguments: [JSONCoding.encode(ids)])
        while let row = try rows.next() {
            result[row[0]] = StoredVersion(rowid: row[1], textHash: row[2], contentHash: row[3], createdAt: row[4])
        }
        return result
    }
}

/// A chunk as a search hit shows it: its text and offsets, with its document's title, body and quote (to
/// place the passage in the text).
struct ChunkRow {
    var title: String?
    var text: String
    var ordinal: Int
    var range: Range<Int>
    /// Where the passage starts in `text`; `nil` for a chunk written before schema version 4.
    var passageStart: Int?
    /// The document's body and quote, read only for a first chunk without `passageStart` (whose passage is
    /// found by comparison with the cleaned body) and for a chunk whose text holds a placeholder of cleaning
    /// (`[link]`, `@user`: shown as the person wrote it); `nil` otherwise.
    var body: String?
    var quoted: String?
    /// The document's labelled fields (JSON), read only for a chunk whose text holds a placeholder.
    var fields: String?
    /// The label of the field the chunk holds; `nil` for a body chunk and a chunk written before schema
    /// version 7.
    var field: String?
    /// Whether the chunk's record has labelled fields (and so chunks of them, since schema version 7).
    var recordHasFields = false
}

/// One labelled field's chunk of a record (``StoreDatabase/fieldChunks(documents:)``).
struct FieldChunk {
    var id: Int64
    /// The field's label as the record gives it ("Location").
    var field: String
    /// The field's line, `Label: value`, without the record's heading.
    var line: String
}

/// A stored document's attributes as the file gives them to memory: what the in-memory index keeps to filter
/// and to boost without SQL.
struct DocumentRecord: Sendable, Equatable {
    var rowid: Int64
    var externalID: String
    var language: String
    var sourceType: String?
    var tags: [String]
    var category: String?
    /// Seconds since 1970.
    var createdAt: Double
    var metadata: [String: String]
}

/// One vector row read from the file while loading: its chunk, document, row and f32 bytes (valid only
/// during the call).
struct LoadedVectorRow {
    var chunkID: Int64
    var documentID: Int64
    var row: Int64?
    var bytes: Data
}

extension StoreDatabase {
    // MARK: - Loading into memory

    /// Reads every document's attributes, then (with `withVectors`) the number of vectors, every vector in
    /// row order and the saved graph (read from its tables by `graph`), in one read transaction so they agree.
    /// A graph that cannot be read is reported as `graphProblem` (the caller rebuilds it) rather than thrown.
    ///
    /// Inside `transaction` (a write that found memory behind the file) it reads through that transaction.
    /// Either way it records the commit it read as the one memory reflects (``synced``).
    func loadContents<Graph>(
        documents: (DocumentRecord) -> Void, withVectors: Bool, vectorCount: (Int) -> Void,
        vectors: (LoadedVectorRow) -> Void, graph readGraph: (GraphTableReader) throws -> Graph?,
        in transaction: StoreTransaction? = nil
    ) throws -> (graph: Graph?, graphProblem: String?) {
        func body(_ db: Database) throws -> (graph: Graph?, graphProblem: String?) {
            synced.value = try MemoryImageTable.commitCounter(db)
            try Self.documentRecords(db, documents)
            guard withVectors else { return (nil, nil) }
            vectorCount(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? 0)
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT v.chunk_id, c.document_id, v.vector, v.row
                    FROM vectors v JOIN chunks c ON c.id = v.chunk_id
                    ORDER BY v.row
                    """)
            while let row = try cursor.next() {
                let chunkID: Int64 = row[0]
                let documentID: Int64 = row[1]
                let stored: Int64? = row[3]
                try row.withUnsafeData(atIndex: 2) { data in
                    guard let data else { return }
                    vectors(LoadedVectorRow(chunkID: chunkID, documentID: documentID, row: stored, bytes: data))
                }
            }
            do {
                return (try readGraph(GraphTableReader(db)), nil)
            } catch {
                return (nil, DatabaseMessage.text(error))
            }
        }
        guard let transaction else { return try read("load the index", body) }
        return try body(transaction.db)
    }

    /// Hands every document's record to `visit`, in rowid order: from the `documents_listing` covering index
    /// (schema 5) when the file has it, so that no page of titles and bodies is read; stepped on SQLite's
    /// statement directly (no row object per document).
    ///
    /// - Complexity: O(documents), one pass over the index (or the table).
    static let documentListingSQL = """
        SELECT id, external_id, language, source_type, tags, category, created_at, metadata
        FROM documents ORDER BY id
        """

    static func documentRecords(_ db: Database, _ visit: (DocumentRecord) -> Void) throws {
        let select = try db.cachedStatement(sql: documentListingSQL)
        let statement = select.sqliteStatement
        sqlite3_reset(statement)
        defer { sqlite3_reset(statement) }
        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                visit(
                    DocumentRecord(
                        rowid: sqlite3_column_int64(statement, 0), externalID: text(1) ?? "",
                        language: text(2) ?? "und", sourceType: text(3), tags: JSONCoding.decodeTags(text(4)),
                        category: text(5), createdAt: sqlite3_column_double(statement, 6),
                        metadata: JSONCoding.decodeMetadata(text(7))))
            case SQLITE_DONE:
                return
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
        }
    }

    // MARK: - Documents

    /// The ids of the documents a prune with these limits would delete now, oldest first (the same choice as
    /// the prune's own, `StoreTransaction.pruneVictims`).
    func pruneCandidates(createdBefore: Date?, keepingNewest: Int?) throws -> [String] {
        try read { db in
            let victims = try StoreTransaction(db: db).pruneVictims(
                createdBefore: createdBefore, keepingNewest: keepingNewest
            )
            .sorted { ($0.createdAt, $0.rowid) < ($1.createdAt, $1.rowid) }
            let statement = try db.cachedStatement(sql: "SELECT external_id FROM documents WHERE id = ?")
            return try victims.compactMap { try String.fetchOne(statement, arguments: [$0.rowid]) }
        }
    }

    /// The stored document with this id, or `nil`.
    func document(id: String) throws -> StoredDocument? {
        try documents(ids: [id]).first
    }

    /// The stored documents with these ids, in the order given (unknown ids left out), in one read transaction.
    func documents(ids: [String]) throws -> [StoredDocument] {
        guard !ids.isEmpty else { return [] }
        return try read { db -> [StoredDocument] in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT d.external_id, d.title, d.body, d.quoted, d.fields, d.source_type, d.language,
                           d.tags, d.category, d.metadata, d.created_at, d.updated_at, d.content_hash,
                           (SELECT COUNT(*) FROM chunks c WHERE c.document_id = d.id)
                    FROM documents d WHERE d.external_id = ?
                    """)
            // Each spelling of `DocumentID.lookups` in turn: NFC first.
            return try ids.compactMap { id in
                for spelling in DocumentID.lookups(id) {
                    if let row = try Row.fetchOne(statement, arguments: [spelling]) { return Self.storedDocument(row) }
                }
                return nil
            }
        }
    }

    /// A stored document from the columns external id, title, body, quoted, fields, source type, language,
    /// tags, category, metadata, created, updated, content hash and chunk count, in that order.
    static func storedDocument(_ row: Row) -> StoredDocument {
        let language: String = row[6]
        let document = Document(
            id: row[0], title: row[1], body: row[2], quoted: row[3], fields: JSONCoding.decodeFields(row[4]),
            sourceType: row[5], language: language, tags: JSONCoding.decodeTags(row[7]), category: row[8],
            metadata: JSONCoding.decodeMetadata(row[9]),
            createdAt: Date(timeIntervalSince1970: row[10]),
            updatedAt: (row[11] as Double?).map { Date(timeIntervalSince1970: $0) })
        return StoredDocument(document: document, language: language, chunkCount: row[13], contentHash: row[12])
    }

    /// The stored chunk vectors of a document, in chunk order (empty when it is unknown).
    func vectors(forDocument id: String) throws -> [[Float]] {
        try read { db in
            try Data.fetchAll(
                db,
                sql: """
                    SELECT v.vector FROM vectors v
                    JOIN chunks c ON c.id = v.chunk_id
                    JOIN documents d ON d.id = c.document_id
                    WHERE d.id = (
                        SELECT id FROM documents WHERE external_id IN (SELECT value FROM json_each(?))
                        ORDER BY external_id = ? DESC LIMIT 1)
                    ORDER BY c.ordinal
                    """, arguments: [JSONCoding.encode(DocumentID.lookups(id)), DocumentID.normalized(id)]
            ).compactMap(VectorBlob.decode)
        }
    }

    /// Lends the stored vectors of `chunkIDs` to `visit` (the position in `chunkIDs`, the raw little-endian f32
    /// bytes, valid during the call): what a store whose vectors stay in the file rescores with. A chunk
    /// without a vector is skipped. One indexed read per chunk, in ascending id order (neighbouring pages are
    /// read together), in one read transaction, stepped on SQLite's statement directly (no row or cursor
    /// objects per chunk), with no copy beyond SQLite's own.
    ///
    /// The file is not memory-mapped for these reads: mapped, a search at 100,000 rows took 2.4 ms instead of
    /// 2.7, but every page fault also mapped the neighbouring cached pages, and after 800 searches the
    /// process's resident set held 413 MB of the file instead of 132 MB.
    ///
    /// - Complexity: O(chunks × log n).
    func withVectors(chunkIDs: [Int64], _ visit: (Int, UnsafeRawBufferPointer) -> Void) throws {
        guard !chunkIDs.isEmpty else { return }
        try read("read vectors") { db in
            let select = try db.cachedStatement(sql: "SELECT vector FROM vectors WHERE chunk_id = ?")
            let statement = select.sqliteStatement
            defer { sqlite3_reset(statement) }
            for position in chunkIDs.indices.sorted(by: { chunkIDs[$0] < chunkIDs[$1] }) {
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, 1, chunkIDs[position])
                switch sqlite3_step(statement) {
                case SQLITE_ROW:
                    guard let bytes = sqlite3_column_blob(statement, 0) else { continue }
                    visit(
                        position, UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, 0))))
                case SQLITE_DONE:
                    continue
                case let code:
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code),
                        message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
            }
        }
    }

    /// Every stored vector with its chunk id, in chunk order (the raw little-endian f32 bytes, valid during the
    /// call): what a store that held no vectors reads before its first write changes the graph.
    ///
    /// - Complexity: O(chunks × dimension), one pass over the table.
    func allVectors(_ visit: (Int64, UnsafeRawBufferPointer) -> Void) throws {
        try read("read vectors") { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT chunk_id, vector FROM vectors")
            while let row = try rows.next() {
                let chunkID: Int64 = row[0]
                try row.withUnsafeData(atIndex: 1) { data in
                    data?.withUnsafeBytes { visit(chunkID, $0) }
                }
            }
        }
    }

    /// Title, body, quote and fields of stored documents, by id.
    func documentTexts(ids: [String]) throws -> [String: Document] {
        try keyedRows(
            sql: """
                SELECT external_id, title, body, quoted, fields FROM documents
                WHERE external_id IN (SELECT value FROM json_each(?))
                """, ids: ids
        ) { row in
            let id: String = row[0]
            return (
                id,
                Document(id: id, title: row[1], body: row[2], quoted: row[3], fields: JSONCoding.decodeFields(row[4]))
            )
        }
    }

    /// The titles of documents by row id (documents without a title are left out).
    func titles(rowids: [Int64]) throws -> [Int64: String] {
        guard !rowids.isEmpty else { return [:] }
        return try keyedRows(
            sql: "SELECT id, title FROM documents WHERE id IN (SELECT value FROM json_each(?))", ids: rowids
        ) { row in
            (row[1] as String?).map { (row[0] as Int64, $0) }
        }
    }

    /// The stored versions of the documents with these ids (absent ids are left out).
    func storedVersions(ids: [String]) throws -> [String: StoredVersion] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in try StoredVersion.fetch(db, ids: ids) }
    }

    /// The chunking recorded in the file (``StoreSchema/Key/chunking``) and whether it holds any document.
    func recordedChunking() throws -> (chunking: ChunkingConfiguration?, hasDocuments: Bool) {
        try read { db in
            (
                JSONCoding.decodeChunking(try StoreSchema.meta(db, StoreSchema.Key.chunking)),
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM documents)") ?? false
            )
        }
    }

    /// The earlier preparation signatures whose chunks were re-embedded (see
    /// ``StoreSchema/Key/reembeddedPreparations``); empty when there are none.
    func reembeddedPreparations() throws -> [String] {
        try read { db in try Self.reembeddedPreparations(db) }
    }

    static func reembeddedPreparations(_ db: Database) throws -> [String] {
        guard let text = try StoreSchema.meta(db, StoreSchema.Key.reembeddedPreparations),
            let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        else { return [] }
        return list
    }

    /// The language stored for a document.
    func language(rowid: Int64) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT language FROM documents WHERE id = ?", arguments: [rowid])
        }
    }

    /// Every document's id, in no particular order.
    func externalIDs() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT external_id FROM documents") }
    }

    // MARK: - Counts

    /// Rows of the documents, chunks and vectors tables.
    func counts() throws -> (documents: Int, chunks: Int, vectors: Int) {
        try read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? 0
            )
        }
    }

    /// Documents per stored language code (`und` where none was given or guessed).
    func documentsPerLanguage() throws -> [String: Int] {
        try read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT language, COUNT(*) FROM documents GROUP BY language") {
                let language: String? = row[0]
                counts[language ?? "und", default: 0] += row[1] as Int
            }
            return counts
        }
    }

    /// Bytes of the graph tables' pages, or 0 when this SQLite has no `dbstat` table.
    func graphFileBytes() -> Int64 {
        (try? read { db in
            try Int64.fetchOne(
                db,
                sql: "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE 'hnsw_%' OR name LIKE "
                    + "'sqlite_autoindex_hnsw_%'")
        }) ?? 0
    }

    /// sha256 over the stored content (see ``StoreFile/contentDigest(_:)``).
    func contentDigest() throws -> String {
        try read { db in try StoreFile.contentDigest(db) }
    }

    // MARK: - Re-embedding

    /// The unfinished re-embed recorded in the file, if any.
    func unfinishedReembed() throws -> UnfinishedReembed? {
        try read { db in try Self.unfinishedReembed(db) }
    }

    /// The unfinished re-embed recorded in the file, if any: its target, the chunks whose staged vector was
    /// made from their current text, and all chunks.
    static func unfinishedReembed(_ db: Database) throws -> UnfinishedReembed? {
        guard let text = try StoreSchema.meta(db, StoreSchema.Key.reembedTarget),
            let data = text.data(using: .utf8),
            let target = try? JSONDecoder().decode(EmbedderIdentity.self, from: data)
        else { return nil }
        if try db.tableExists(StoreSchema.rechunkTable) {
            // Re-chunking: counted in documents.
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0
            let completed =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM \(StoreSchema.rechunkTable) r
                        JOIN documents d ON d.id = r.document_id AND d.text_hash = r.text_hash
                        """) ?? 0
            return UnfinishedReembed(target: target, completed: completed, total: total)
        }
        let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? 0
        var completed = 0
        if try db.tableExists(StoreSchema.reembedTable) {
            completed =
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) FROM \(StoreSchema.reembedTable) r JOIN chunks c ON c.id = r.chunk_id AND r.text = c.text"
                ) ?? 0
        }
        return UnfinishedReembed(target: target, completed: completed, total: total)
    }

    /// Up to `limit` documents after row `after`, in row order, that have no staged chunks cut from their
    /// current text (a re-chunking `reembed`), each with its row and text hash.
    func unstagedDocuments(after: Int64, limit: Int) throws -> [(
        rowid: Int64, textHash: String, stored: StoredDocument
    )] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.external_id, d.title, d.body, d.quoted, d.fields, d.source_type, d.language,
                           d.tags, d.category, d.metadata, d.created_at, d.updated_at, d.content_hash, 0,
                           d.id, d.text_hash
                    FROM documents d LEFT JOIN \(StoreSchema.rechunkTable) r
                    ON r.document_id = d.id AND r.text_hash = d.text_hash
                    WHERE d.id > ? AND r.document_id IS NULL ORDER BY d.id LIMIT ?
                    """, arguments: [after, limit]
            ).map { row in (row[14], row[15], Self.storedDocument(row)) }
        }
    }

    /// Up to `limit` chunks after chunk id `after`, in id order, that have no staged vector made from their
    /// current text.
    func unstagedChunks(after: Int64, limit: Int) throws -> [(id: Int64, text: String, document: String)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.text, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id
                    LEFT JOIN \(StoreSchema.reembedTable) r ON r.chunk_id = c.id AND r.text = c.text
                    WHERE c.id > ? AND r.chunk_id IS NULL ORDER BY c.id LIMIT ?
                    """, arguments: [after, limit]
            ).map { ($0[0], $0[1], $0[2]) }
        }
    }

    // MARK: - Keyword search

    /// Runs `body` in one read transaction of the keyword index, so that every read it makes sees the same
    /// commit (a search pages through the matches and scores the semantic arm's chunks in one snapshot).
    ///
    /// - Throws: ``StoreError/keywordIndexMissing(path:)`` when the file lacks a table of the index.
    func readKeywordIndex<T>(_ body: (KeywordIndexReader) throws -> T) throws -> T {
        try read("search") { db in
            guard try StoreSchema.keywordIndexIsPresent(db) else {
                throw StoreError.keywordIndexMissing(path: path ?? ":memory:")
            }
            return try body(KeywordIndexReader(db: db, commonTokens: commonTokens, tokenTerms: tokenTerms))
        }
    }

    /// Whether the file lacks a table of the keyword index (see ``StoreError/keywordIndexMissing(path:)``).
    func keywordIndexIsMissing() throws -> Bool {
        try read("read the file") { try !StoreSchema.keywordIndexIsPresent($0) }
    }

    /// The chunks of labelled fields of these documents (by row id), each document's in order: their ids, labels
    /// and lines (`Label: value`, without the record's heading before it). Empty for a file written before schema
    /// version 7.
    func fieldChunks(documents: [Int64]) throws -> [Int64: [FieldChunk]] {
        guard !documents.isEmpty else { return [:] }
        return try read("search") { db in
            guard try db.columns(in: "chunks").contains(where: { $0.name == "field" }) else { return [:] }
            var result: [Int64: [FieldChunk]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT document_id, id, field, text, passage_start FROM chunks
                    WHERE field IS NOT NULL AND document_id IN (SELECT value FROM json_each(?))
                    ORDER BY document_id, ordinal
                    """, arguments: [JSONCoding.encode(documents)])
            while let row = try rows.next() {
                let text: String = row[3]
                let units = text.utf16
                // The line starts where the passage does; a start the text cannot hold leaves the whole text.
                let start = (row[4] as Int?).flatMap { $0 >= 0 && $0 < units.count ? $0 : nil } ?? 0
                let line = String(decoding: units.dropFirst(start), as: UTF16.self)
                result[row[0], default: []].append(FieldChunk(id: row[1], field: row[2], line: line))
            }
            return result
        }
    }

    /// The chunks with these ids, with their documents' title, body and quote.
    func chunks(ids: [Int64]) throws -> [Int64: ChunkRow] {
        guard !ids.isEmpty else { return [:] }
        return try keyedRows(
            "search",
            sql: { db in
                // A file opened read-only at schema version 2 or 3 has no `passage_start`, one before version 7
                // no `field` (GRDB caches the columns). The body is read only where the passage must be found by comparison.
                let columns = Set(try db.columns(in: "chunks").map(\.name))
                let start = columns.contains("passage_start") ? "c.passage_start" : "NULL"
                let field = columns.contains("field") ? "c.field" : "NULL"
                // Records have chunks of their own fields since version 7.
                let hasFields = columns.contains("field") ? "d.fields <> '[]'" : "0"
                let legacy = "\(start) IS NULL AND c.ordinal = 0"
                let placeholder = "instr(c.text, '[link]') > 0 OR instr(c.text, '@user') > 0"
                let document = "\(legacy) OR \(placeholder)"
                return """
                    SELECT c.id, d.title, c.text, c.ordinal, c.range_start, c.range_end,
                        CASE WHEN \(document) THEN d.body END, CASE WHEN \(document) THEN d.quoted END, \(start),
                        CASE WHEN \(placeholder) THEN d.fields END, \(field), \(hasFields)
                    FROM chunks c JOIN documents d ON d.id = c.document_id
                    WHERE c.id IN (SELECT value FROM json_each(?))
                    """
            }, ids: ids
        ) { row in
            let start: Int = row[4]
            let end: Int = row[5]
            return (
                row[0] as Int64,
                ChunkRow(
                    title: row[1], text: row[2], ordinal: row[3], range: start..<max(start, end), passageStart: row[8],
                    body: row[6], quoted: row[7], fields: row[9], field: row[10], recordHasFields: row[11])
            )
        }
    }

    /// The rows `sql` selects for `ids` (bound, as one JSON array, to its one `?`), keyed: `entry` gives a
    /// row's key and value, or `nil` to leave the row out. One read transaction.
    private func keyedRows<ID: Encodable, Key: Hashable, Value>(
        _ operation: String = "read", sql: String, ids: [ID], _ entry: (Row) -> (Key, Value)?
    ) throws -> [Key: Value] {
        try keyedRows(operation, sql: { _ in sql }, ids: ids, entry)
    }

    /// ``keyedRows(_:sql:ids:_:)`` with a statement that depends on the file's schema, made in the same read
    /// transaction.
    private func keyedRows<ID: Encodable, Key: Hashable, Value>(
        _ operation: String = "read", sql: (Database) throws -> String, ids: [ID], _ entry: (Row) -> (Key, Value)?
    ) throws -> [Key: Value] {
        try read(operation) { db in
            var result: [Key: Value] = [:]
            let rows = try Row.fetchCursor(db, sql: try sql(db), arguments: [JSONCoding.encode(ids)])
            while let row = try rows.next() {
                if let (key, value) = entry(row) { result[key] = value }
            }
            return result
        }
    }
}
