import Foundation
import GRDB

extension HushStore {
    /// Re-embeds every stored chunk with the current embedder, then swaps the new vectors in and stamps its
    /// identity into the file, in one transaction.
    ///
    /// The new vectors are written in batches of `batchSize` chunks to a staging table, one transaction each,
    /// never over the old ones: until the last batch is done the file keeps its old identity and searches
    /// with its old vectors only, so an interrupted re-embed never mixes two models' vectors. Calling
    /// `reembed` again with the same embedder resumes where it stopped; `stats()` shows the progress. Open a
    /// store made with another model with `StoreOptions(allowEmbedderMismatch: true)` to call this; semantic
    /// search and upserts with the new model work when it returns.
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: path, embedder: newModel,
    ///                                      options: StoreOptions(allowEmbedderMismatch: true))
    /// try await store.reembed { print("\($0.completed)/\($0.total) chunks") }
    /// ```
    ///
    /// - Complexity: dominated by embedding every chunk once; O(chunks) SQLite work.
    public func reembed(batchSize: Int = 256, progress: (@Sendable (StoreProgress) -> Void)? = nil) async throws {
        try requireWritable("re-embed", needsModel: false)
        if index.read({ $0.gap }) == .modelNotLoaded { throw StoreError.modelNotLoaded(stored: embedder.identity) }
        try reembedNow(batchSize: batchSize, progress: progress)
    }

    private func reembedNow(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        guard batchSize > 0 else { throw StoreError.invalidOption("reembed batchSize must be at least 1") }
        let current = embedder.identity
        let target = JSONCoding.encode(current)
        let staging = StoreSchema.reembedTable
        let hook = testHooks.afterReembedBatch
        var after: Int64
        let resumed: UnfinishedReembed?
        do {
            (after, resumed) = try writer.write { db -> (Int64, UnfinishedReembed?) in
                var after: Int64 = 0
                if try StoreSchema.meta(db, StoreSchema.Key.reembedTarget) == target, try db.tableExists(staging) {
                    after = try StoreSchema.meta(db, StoreSchema.Key.reembedAfterChunk).flatMap { Int64($0) } ?? 0
                } else {
                    // A new run (or one to another model): start from an empty staging table.
                    try db.execute(sql: "DROP TABLE IF EXISTS \(staging)")
                    // The chunk's text is kept with its vector: a staged vector counts only for the very
                    // text it was made from, so a chunk replaced meanwhile (even under a reused id) is
                    // embedded again rather than given another text's vector.
                    try db.execute(
                        sql:
                            "CREATE TABLE \(staging) (chunk_id INTEGER PRIMARY KEY, text TEXT NOT NULL, vector BLOB NOT NULL)"
                    )
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedTarget, target)
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, "0")
                }
                return (after, try UnfinishedReembed.read(db))
            }
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
        var completed = resumed?.completed ?? 0
        let total = resumed?.total ?? 0
        progress?(StoreProgress(completed: completed, total: total))

        // Batches in chunk order from where the last run stopped; then, once, from the start again for chunks
        // written or replaced behind it meanwhile (another process may write while this one embeds), until
        // every chunk has a staged vector of its current text.
        var batchNumber = 0
        while true {
            var rows = try unstagedChunks(after: after, limit: batchSize)
            if rows.isEmpty, after > 0 {
                after = 0
                rows = try unstagedChunks(after: 0, limit: batchSize)
            }
            guard let last = rows.last else { break }
            try stage(rows, identity: current, after: last.id)
            after = last.id
            completed = min(total, completed + rows.count)
            batchNumber += 1
            progress?(StoreProgress(completed: completed, total: total))
            try hook?(batchNumber)
        }

        // Every chunk has its new vector: swap them in, with the new identity, in one transaction.
        struct ChangedMeanwhile: Error {}
        do {
            try index.write { state in
                try writer.write { db in
                    let valid =
                        "SELECT r.chunk_id, r.vector FROM \(staging) r JOIN chunks c ON c.id = r.chunk_id AND r.text = c.text"
                    let unstaged =
                        try Int.fetchOne(
                            db,
                            sql: "SELECT COUNT(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM (\(valid)))") ?? 0
                    guard unstaged == 0 else { throw ChangedMeanwhile() }
                    try db.execute(
                        sql: """
                            CREATE TEMP TABLE hush_reembed_valid AS \(valid);
                            UPDATE vectors SET vector = (SELECT v.vector FROM hush_reembed_valid v WHERE v.chunk_id = vectors.chunk_id)
                            WHERE chunk_id IN (SELECT chunk_id FROM hush_reembed_valid);
                            INSERT INTO vectors (chunk_id, vector)
                            SELECT chunk_id, vector FROM hush_reembed_valid WHERE chunk_id NOT IN (SELECT chunk_id FROM vectors);
                            DROP TABLE hush_reembed_valid;
                            DROP TABLE \(staging);
                            """)
                    try StoreSchema.stamp(db, identity: current)
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedTarget, nil)
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, nil)
                    // The graph was built on the old vectors: the reload below builds a new one.
                    try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges; DELETE FROM hnsw_meta;")
                }
                state.storedIdentity = current
                state.gap = nil
                try Self.load(&state, from: writer, policy: options.indexPolicy)
            }
        } catch is ChangedMeanwhile {
            // Another process changed chunks between the last check and the swap: stage those and swap again.
            try reembedNow(batchSize: batchSize, progress: progress)
            return
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
        cache.removeAll()
    }

    /// Up to `limit` chunks after chunk id `after`, in id order, that have no staged vector made from their
    /// current text.
    private func unstagedChunks(after: Int64, limit: Int) throws -> [(id: Int64, text: String, document: String)] {
        do {
            return try writer.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.id, c.text, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id
                        LEFT JOIN \(StoreSchema.reembedTable) r ON r.chunk_id = c.id AND r.text = c.text
                        WHERE c.id > ? AND r.chunk_id IS NULL ORDER BY c.id LIMIT ?
                        """, arguments: [after, limit]
                ).map { ($0[0], $0[1], $0[2]) }
            }
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
    }

    /// Embeds `rows` with the current embedder and writes their vectors (with the text they were made from)
    /// to the staging table, recording `after` as the last chunk finished in order, in one transaction.
    private func stage(
        _ rows: [(id: Int64, text: String, document: String)], identity: EmbedderIdentity, after: Int64
    ) throws {
        let vectors = try embedChunks(rows, identity: identity)
        do {
            try writer.write { db in
                let insert = try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO \(StoreSchema.reembedTable) (chunk_id, text, vector) VALUES (?, ?, ?)")
                for (row, vector) in zip(rows, vectors) {
                    try insert.execute(arguments: [row.id, row.text, VectorBlob.encode(vector)])
                }
                try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, String(after))
            }
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
    }

    /// The current embedder's vectors for `rows`, in order, in embedding batches; every vector is checked.
    private func embedChunks(_ rows: [(id: Int64, text: String, document: String)], identity: EmbedderIdentity)
        throws -> [[Float]]
    {
        var vectors: [[Float]] = []
        vectors.reserveCapacity(rows.count)
        var start = 0
        while start < rows.count {
            let slice = rows[start..<min(start + options.embeddingBatchSize, rows.count)]
            let embeddings: [Embedding]
            do {
                embeddings = try embedder.embed(slice.map(\.text), role: .passage)
            } catch {
                throw StoreError.embeddingFailed(
                    documentID: slice.first?.document ?? "", reason: String(describing: error))
            }
            guard embeddings.count == slice.count else {
                throw StoreError.invalidVector(
                    documentID: slice.first?.document ?? "",
                    reason: "the embedder returned \(embeddings.count) vectors for \(slice.count) texts")
            }
            for (row, embedding) in zip(slice, embeddings) {
                if let problem = VectorBlob.problem(embedding.vector, dimension: identity.dimension) {
                    throw StoreError.invalidVector(documentID: row.document, reason: problem)
                }
                vectors.append(embedding.vector)
            }
            start += slice.count
        }
        return vectors
    }
}
