import Foundation
import GRDB

extension HushStore {
    /// Re-embeds every stored chunk with the current embedder, then stamps its identity into the file.
    ///
    /// Work is done in batches of `batchSize` chunks, one transaction each, and the last finished chunk is
    /// recorded in `meta` with the batch: if the process dies, calling `reembed` again with the same
    /// embedder resumes after it. Open a store made with another model with
    /// `StoreOptions(allowEmbedderMismatch: true)` to call this; semantic search and upserts work again when
    /// it returns.
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: path, embedder: newModel,
    ///                                      options: StoreOptions(allowEmbedderMismatch: true))
    /// try await store.reembed { print("\($0.completed)/\($0.total) chunks") }
    /// ```
    ///
    /// - Complexity: dominated by embedding every chunk once; O(chunks) SQLite work.
    public func reembed(batchSize: Int = 256, progress: (@Sendable (StoreProgress) -> Void)? = nil) async throws {
        try reembedNow(batchSize: batchSize, progress: progress)
    }

    private func reembedNow(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        guard batchSize > 0 else { throw StoreError.invalidOption("reembed batchSize must be at least 1") }
        let current = embedder.identity
        let target = JSONCoding.encode(current)
        let hook = testHooks.afterReembedBatch
        var after: Int64
        var completed: Int
        let total: Int
        do {
            (after, completed, total) = try writer.write { db -> (Int64, Int, Int) in
                var after: Int64 = 0
                if try StoreSchema.meta(db, StoreSchema.Key.reembedTarget) == target {
                    after = try StoreSchema.meta(db, StoreSchema.Key.reembedAfterChunk).flatMap { Int64($0) } ?? 0
                } else {
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedTarget, target)
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, "0")
                }
                let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? 0
                let done =
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks WHERE id <= ?", arguments: [after]) ?? 0
                return (after, done, total)
            }
        } catch {
            throw StoreError.database(String(describing: error))
        }
        progress?(StoreProgress(completed: completed, total: total))

        var batchNumber = 0
        while true {
            let rows: [(id: Int64, text: String, document: String)]
            do {
                rows = try writer.read { db in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT c.id, c.text, d.external_id FROM chunks c JOIN documents d ON d.id = c.document_id
                            WHERE c.id > ? ORDER BY c.id LIMIT ?
                            """, arguments: [after, batchSize]
                    ).map { ($0[0], $0[1], $0[2]) }
                }
            } catch {
                throw StoreError.database(String(describing: error))
            }
            guard let last = rows.last else { break }

            var vectors: [[Float]] = []
            var start = 0
            while start < rows.count {
                let slice = rows[start..<min(start + options.embeddingBatchSize, rows.count)]
                let embeddings: [Embedding]
                do {
                    embeddings = try embedder.embed(slice.map(\.text))
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
                    if let problem = VectorBlob.problem(embedding.vector, dimension: current.dimension) {
                        throw StoreError.invalidVector(documentID: row.document, reason: problem)
                    }
                    vectors.append(embedding.vector)
                }
                start += slice.count
            }

            do {
                try writer.write { db in
                    let upsert = try db.cachedStatement(
                        sql: """
                            INSERT INTO vectors (chunk_id, vector) VALUES (?, ?)
                            ON CONFLICT(chunk_id) DO UPDATE SET vector = excluded.vector
                            """)
                    for (row, vector) in zip(rows, vectors) {
                        try upsert.execute(arguments: [row.id, VectorBlob.encode(vector)])
                    }
                    try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, String(last.id))
                }
            } catch {
                throw StoreError.database(String(describing: error))
            }
            after = last.id
            completed += rows.count
            batchNumber += 1
            progress?(StoreProgress(completed: completed, total: total))
            try hook?(batchNumber)
        }

        do {
            try writer.write { db in
                try StoreSchema.stamp(db, identity: current)
                try StoreSchema.setMeta(db, StoreSchema.Key.reembedTarget, nil)
                try StoreSchema.setMeta(db, StoreSchema.Key.reembedAfterChunk, nil)
                // The graph was built on the old vectors: the reload below builds a new one.
                try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges; DELETE FROM hnsw_meta;")
            }
            index.write { state in
                state.storedIdentity = current
                state.semanticReady = true
            }
            try Self.hydrate(index: index, from: writer, policy: options.indexPolicy)
        } catch {
            throw StoreError.database(String(describing: error))
        }
        cache.removeAll()
    }
}
