import Foundation
import GRDB

/// A document ready to be written: its row values and, when its text changed, its chunks and vectors.
struct PendingDocument {
    var document: Document
    var existingRowid: Int64?
    var createdAt: Double
    var language: String
    var textHash: String
    var contentHash: String
    /// `nil` for a metadata-only update (chunks and vectors stay).
    var chunks: [TextChunk]?
    var vectors: [[Float]] = []
    /// The stored text hash this document's text was matched to when it differs from `textHash` (made with
    /// a preparation a re-embed kept, see ``StoreSchema/Key/reembeddedPreparations``).
    var keptTextHash: String?
}

/// A document removed from the file: its row id and its chunks' ids (their vector rows are freed in memory).
struct RemovedDocument {
    var rowid: Int64
    var chunks: [Int64]
}

/// A document a prune deletes: its row id and creation time (as stored).
struct PruneVictim: Sendable {
    var rowid: Int64
    var createdAt: Double
}

/// A document cut and embedded again by a re-chunking `reembed`, waiting in the staging table.
struct StagedDocument {
    /// One new chunk, as staged (JSON).
    struct Chunk: Codable {
        var ordinal: Int
        var text: String
        var start: Int
        var end: Int
        var tokens: Int
        var truncated: Bool
        /// `nil` in a chunk staged before schema version 4.
        var passageStart: Int?
        /// The label of the field the chunk holds (`nil` for a body chunk, and in a chunk staged before
        /// schema version 7).
        var field: String?
    }

    var rowid: Int64
    /// The document's text hash when it was cut: the chunks count only while it is still the stored one.
    var textHash: String
    var chunks: [Chunk]
    var vectors: [[Float]]
    /// The document as stored (read back for the swap).
    var stored: StoredDocument?
}

/// What writing one document did: its row id, the chunks it replaced, and its new chunks with their rows.
struct WrittenDocument {
    var rowid: Int64
    var removedChunks: [Int64]
    var newChunks: [(chunkID: Int64, row: Int32)]
}

extension StoreTransaction {
    // MARK: - Documents

    /// Writes one document's row and, when its text changed (`item.chunks` not `nil`), replaces its chunks,
    /// vectors and full-text rows; each new vector's row comes from `allocateRow`. `keywordRow(text, ordinal)` is the
    /// full-text row of a chunk. A metadata-only update rewrites the first chunk's full-text row (its tags and
    /// category are in it).
    func write(
        _ item: PendingDocument, allocateRow: () -> Int32,
        keywordRow: (_ text: String, _ ordinal: Int) -> String
    ) throws -> WrittenDocument {
        let document = item.document
        let values: [(any DatabaseValueConvertible)?] = [
            document.title, document.body, document.quoted, JSONCoding.encode(document.fields),
            document.sourceType, item.language, JSONCoding.encode(document.tags), document.category,
            JSONCoding.encode(document.metadata), item.createdAt, document.updatedAt?.timeIntervalSince1970,
            item.textHash, item.contentHash,
        ]
        let rowid: Int64
        if let existing = item.existingRowid {
            let update = try db.cachedStatement(
                sql: """
                    UPDATE documents SET title = ?, body = ?, quoted = ?, fields = ?, source_type = ?, language = ?,
                        tags = ?, category = ?, metadata = ?, created_at = ?, updated_at = ?, text_hash = ?,
                        content_hash = ?
                    WHERE id = ?
                    """)
            try update.execute(arguments: StatementArguments(values + [existing]))
            rowid = existing
        } else {
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO documents (title, body, quoted, fields, source_type, language, tags, category,
                        metadata, created_at, updated_at, text_hash, content_hash, external_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            try insert.execute(arguments: StatementArguments(values + [document.id]))
            rowid = db.lastInsertedRowID
        }
        guard let chunks = item.chunks else {
            if let first = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id, text, ordinal FROM chunks WHERE document_id = ? ORDER BY ordinal LIMIT 1"),
                arguments: [rowid])
            {
                let chunkID: Int64 = first[0]
                try KeywordIndexRows.update(db).execute(
                    arguments: [keywordRow(first[1], first[2]), chunkID])
                try markWordsRemoved()
            }
            return WrittenDocument(rowid: rowid, removedChunks: [], newChunks: [])
        }

        var removed: [Int64] = []
        if item.existingRowid != nil {
            removed = try Int64.fetchAll(
                try Self.chunkIDs(db), arguments: [rowid])
            // The trigger removes the FTS rows; the foreign key cascade removes the vectors.
            try db.cachedStatement(sql: "DELETE FROM chunks WHERE document_id = ?").execute(arguments: [rowid])
            try markWordsRemoved()
        }
        let insertChunk = try db.cachedStatement(
            sql: """
                INSERT INTO chunks (
                    document_id, ordinal, text, range_start, range_end, token_count, truncated, passage_start,
                    field)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let insertVector = try db.cachedStatement(sql: "INSERT INTO vectors (chunk_id, vector, row) VALUES (?, ?, ?)")
        let insertText = try KeywordIndexRows.insert(db)
        var added: [(chunkID: Int64, row: Int32)] = []
        for (chunk, vector) in zip(chunks, item.vectors) {
            try insertChunk.execute(arguments: [
                rowid, chunk.ordinal, chunk.text, chunk.range.lowerBound, chunk.range.upperBound, chunk.tokenCount,
                chunk.truncated, chunk.passageStart, chunk.field,
            ])
            let chunkID = db.lastInsertedRowID
            let row = allocateRow()
            try insertVector.execute(arguments: [chunkID, VectorBlob.encode(vector), row])
            try insertText.execute(arguments: [chunkID, keywordRow(chunk.text, chunk.ordinal)])
            added.append((chunkID, row))
        }
        return WrittenDocument(rowid: rowid, removedChunks: removed, newChunks: added)
    }

    /// Records `signature` as the preparation the stored text hashes are made with (see
    /// ``StoreSchema/Key/preparation``) and `chunking` as how the chunks are cut (``StoreSchema/Key/chunking``);
    /// a write only when they changed.
    func recordPreparation(_ signature: String, chunking: ChunkingConfiguration) throws {
        if try StoreSchema.meta(db, StoreSchema.Key.preparation) != signature {
            try StoreSchema.setMeta(db, StoreSchema.Key.preparation, signature)
        }
        let json = JSONCoding.encode(chunking)
        if try StoreSchema.meta(db, StoreSchema.Key.chunking) != json {
            try StoreSchema.setMeta(db, StoreSchema.Key.chunking, json)
        }
    }

    /// The embedder identity stamped in the file as this transaction sees it (`nil` before the first stamp).
    func storedIdentity() throws -> EmbedderIdentity? {
        try StoreSchema.storedIdentity(db)
    }

    /// The stored versions of the documents with these ids (absent ids are left out), as this transaction
    /// sees them: under the write lock, so no other process can change them before it commits.
    func storedVersions(ids: [String]) throws -> [String: StoredVersion] {
        try StoredVersion.fetch(db, ids: ids)
    }

    /// Deletes the documents with these ids (chunks, vectors and full-text rows go with them) and returns
    /// what existed.
    /// Deletes the documents with these ids; returns what it removed and the ids it found no document for, both
    /// read inside this transaction (so a report built from them cannot contradict itself when another writer
    /// is busy with the same ids).
    func deleteDocuments(ids: [String]) throws -> (removed: [RemovedDocument], notFound: [String]) {
        var removed: [RemovedDocument] = []
        var notFound: [String] = []
        let find = try db.cachedStatement(sql: "SELECT id FROM documents WHERE external_id = ?")
        let chunks = try Self.chunkIDs(db)
        let delete = try db.cachedStatement(sql: "DELETE FROM documents WHERE id = ?")
        var seen = Set<Int64>()
        for id in ids {
            var found = false
            for lookup in DocumentID.lookups(id) {
                guard let rowid = try Int64.fetchOne(find, arguments: [lookup]) else { continue }
                found = true
                guard seen.insert(rowid).inserted else { continue }
                let chunkIDs = try Int64.fetchAll(chunks, arguments: [rowid])
                try delete.execute(arguments: [rowid])
                removed.append(RemovedDocument(rowid: rowid, chunks: chunkIDs))
            }
            if !found { notFound.append(id) }
        }
        if !removed.isEmpty { try markWordsRemoved() }
        return (removed, notFound)
    }

    /// Records that the keyword index may hold words of rows this transaction removed or rewrote, so that they
    /// are purged after it (``StoreDatabase/purgeDeletedWords(upTo:)``), or at the next writable open if the
    /// process ends first.
    func markWordsRemoved() throws {
        try StoreSchema.setMeta(db, StoreSchema.Key.keywordPurge, "1")
    }

    /// The documents created before `createdBefore` and all but the newest `keepingNewest` (by creation time,
    /// then insertion order), by row id, each with its creation time.
    func pruneVictims(createdBefore: Date?, keepingNewest: Int?) throws -> [PruneVictim] {
        var victims: [Int64: Double] = [:]
        func add(_ sql: String, _ arguments: StatementArguments) throws {
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() { victims[row[0]] = row[1] }
        }
        if let createdBefore {
            try add(
                "SELECT id, created_at FROM documents WHERE created_at < ?", [createdBefore.timeIntervalSince1970])
        }
        if let keepingNewest {
            try add(
                "SELECT id, created_at FROM documents ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?",
                [keepingNewest])
        }
        return victims.map { PruneVictim(rowid: $0.key, createdAt: $0.value) }.sorted { $0.rowid < $1.rowid }
    }

    /// Deletes the documents `victims` names that are still as they were chosen (the same row id and creation
    /// time: another process may have deleted one since), and returns them.
    func deleteDocuments(_ victims: some Collection<PruneVictim>) throws -> [RemovedDocument] {
        let chunks = try Self.chunkIDs(db)
        let delete = try db.cachedStatement(sql: "DELETE FROM documents WHERE id = ? AND created_at = ?")
        var removed: [RemovedDocument] = []
        for victim in victims {
            let chunkIDs = try Int64.fetchAll(chunks, arguments: [victim.rowid])
            // The cascade removes chunks and vectors; the chunks trigger removes the full-text rows.
            try delete.execute(arguments: [victim.rowid, victim.createdAt])
            if db.changesCount > 0 { removed.append(RemovedDocument(rowid: victim.rowid, chunks: chunkIDs)) }
        }
        if !removed.isEmpty { try markWordsRemoved() }
        return removed
    }

    /// Records the matrix row of vectors that had none (files from before rows existed).
    func setVectorRows(_ placements: [(chunkID: Int64, row: Int32)]) throws {
        let setRow = try db.cachedStatement(sql: "UPDATE vectors SET row = ? WHERE chunk_id = ?")
        for placement in placements { try setRow.execute(arguments: [placement.row, placement.chunkID]) }
    }

    // MARK: - Re-embedding

    /// Starts a re-embed to `target` (a JSON identity), or resumes the one to the same target: returns the
    /// last chunk id already staged in order (0 for a new run) and the progress so far.
    func beginReembed(target: String, rechunk: Bool = false) throws -> (after: Int64, progress: UnfinishedReembed?) {
        let staging = rechunk ? StoreSchema.rechunkTable : StoreSchema.reembedTable
        let other = rechunk ? StoreSchema.reembedTable : StoreSchema.rechunkTable
        var after: Int64 = 0
        if try StoreSchema.meta(db, StoreSchema.Key.reembedTarget) == target, try db.tableExists(staging) {
            after = try StoreSchema.meta(db, StoreSchema.Key.reembedAfterChunk).flatMap { Int64($0) } ?? 0
        } else {
            // A new run (or one to another model, or cutting chunks otherwise): start from an empty table.
            try db.execute(sql: "DROP TABLE IF EXISTS \(staging); DROP TABLE IF EXISTS \(other)")
            if rechunk {
                // The document's text hash is kept with its new chunks: they count only for the very text they
                // were cut from, so a document replaced meanwhile is cut and embedded again.
                try db.execute(
                    sql: """
                        CREATE TABLE \(staging) (
                            document_id INTEGER PRIMARY KEY, text_hash TEXT NOT NULL, chunks TEXT NOT NULL,
                            vectors BLOB NOT NULL)
                        """)
            } else {
                // The chunk's text is kept with its vector: a staged vector counts only for the very text it
                // was made from, so a chunk replaced meanwhile (even under a reused id) is embedded again
                // rather than given another text's vector.
                try db.execute(
                    sql:
                        "CREATE TABLE \(staging) (chunk_id INTEGER PRIMARY KEY, text TEXT NOT NULL, vector BLOB NOT NULL)"
                )
            }
            try StoreSchema.setMeta(db, StoreSchema.Key.reembedTarget, target)
            try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, "0")
        }
        return (after, try StoreDatabase.unfinishedReembed(db))
    }

    /// Stages the new chunks and vectors of documents (each with the text hash it was cut from) and records
    /// `after` as the last document finished in order.
    func stageRechunk(_ documents: [StagedDocument], after: Int64) throws {
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO \(StoreSchema.rechunkTable) (document_id, text_hash, chunks, vectors)
                VALUES (?, ?, ?, ?)
                """)
        for document in documents {
            try insert.execute(arguments: [
                document.rowid, document.textHash, JSONCoding.encode(document.chunks),
                VectorBlob.encode(document.vectors.flatMap { $0 }),
            ])
        }
        try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, String(after))
    }

    /// The documents whose new chunks are staged for their current text, in row order; `nil` (nothing changed)
    /// when some document has none (another process wrote meanwhile).
    func stagedDocuments(dimension: Int) throws -> [StagedDocument]? {
        let table = StoreSchema.rechunkTable
        let missing =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM documents d LEFT JOIN \(table) r
                    ON r.document_id = d.id AND r.text_hash = d.text_hash WHERE r.document_id IS NULL
                    """) ?? 0
        guard missing == 0 else { return nil }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT d.external_id, d.title, d.body, d.quoted, d.fields, d.source_type, d.language,
                       d.tags, d.category, d.metadata, d.created_at, d.updated_at, d.content_hash, 0,
                       r.document_id, r.text_hash, r.chunks, r.vectors
                FROM \(table) r JOIN documents d ON d.id = r.document_id AND d.text_hash = r.text_hash
                ORDER BY r.document_id
                """
        ).map { row in
            let rowid: Int64 = row[14]
            let chunks = JSONCoding.decodeStagedChunks(row[16])
            var values: [Float] = []
            guard !chunks.isEmpty, VectorBlob.append(row[17], dimension: dimension * chunks.count, to: &values)
            else {
                throw StoreError.notAStore(path: "", reason: "a staged re-chunked document (row \(rowid)) is damaged")
            }
            let vectors = (0..<chunks.count).map { Array(values[($0 * dimension)..<(($0 + 1) * dimension)]) }
            return StagedDocument(
                rowid: rowid, textHash: row[15], chunks: chunks, vectors: vectors,
                stored: StoreDatabase.storedDocument(row))
        }
    }

    /// Deletes every chunk (their vectors and full-text rows go with them): the first step of swapping in the
    /// re-chunked documents.
    func deleteAllChunks() throws {
        try db.execute(sql: "DELETE FROM chunks")
        try markWordsRemoved()
    }

    /// Stages new vectors for `rows` (with the text they were made from) and records `after` as the last
    /// chunk finished in order.
    func stageReembed(_ rows: [(id: Int64, text: String)], vectors: [[Float]], after: Int64) throws {
        let insert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO \(StoreSchema.reembedTable) (chunk_id, text, vector) VALUES (?, ?, ?)")
        for (row, vector) in zip(rows, vectors) {
            try insert.execute(arguments: [row.id, row.text, VectorBlob.encode(vector)])
        }
        try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, String(after))
    }

    /// Swaps every staged vector in, stamps `identity`, ends the re-embed and empties the graph tables (the
    /// graph was built on the old vectors). Returns false, changing nothing, when some chunk has no staged
    /// vector of its current text (another process wrote meanwhile).
    func finishReembed(identity: EmbedderIdentity) throws -> Bool {
        let valid =
            "SELECT r.chunk_id, r.vector FROM \(StoreSchema.reembedTable) r JOIN chunks c ON c.id = r.chunk_id AND r.text = c.text"
        let unstaged =
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM (\(valid)))")
            ?? 0
        guard unstaged == 0 else { return false }
        try db.execute(
            sql: """
                CREATE TEMP TABLE hush_reembed_valid AS \(valid);
                UPDATE vectors SET vector = (SELECT v.vector FROM hush_reembed_valid v WHERE v.chunk_id = vectors.chunk_id)
                WHERE chunk_id IN (SELECT chunk_id FROM hush_reembed_valid);
                INSERT INTO vectors (chunk_id, vector)
                SELECT chunk_id, vector FROM hush_reembed_valid WHERE chunk_id NOT IN (SELECT chunk_id FROM vectors);
                DROP TABLE hush_reembed_valid;
                DROP TABLE \(StoreSchema.reembedTable);
                """)
        try endReembed(identity: identity)
        return true
    }

    /// Stamps `identity`, keeps the preparation the text hashes were made with (they still name the stored
    /// texts), ends the re-embed and empties the graph tables (the graph was built on the old vectors).
    func endReembed(identity: EmbedderIdentity) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(StoreSchema.rechunkTable)")
        try StoreSchema.stamp(db, identity: identity)
        // The chunks stay as they were made: their text hashes, made with the old preparation, still name
        // their text, so re-indexing the same files finds them unchanged instead of embedding them again.
        if let preparation = try StoreSchema.meta(db, StoreSchema.Key.preparation) {
            var kept = try StoreDatabase.reembeddedPreparations(db)
            if !kept.contains(preparation) { kept.append(preparation) }
            try StoreSchema.setMeta(
                db, StoreSchema.Key.reembeddedPreparations, JSONCoding.encode(Array(kept.suffix(8))))
        }
        try StoreSchema.setMeta(db, StoreSchema.Key.reembedTarget, nil)
        try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, nil)
        try clearGraph()
    }
}

extension StoreTransaction {
    /// The ids of a document's chunks: argument, the document's row id.
    fileprivate static func chunkIDs(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: "SELECT id FROM chunks WHERE document_id = ?")
    }
}
