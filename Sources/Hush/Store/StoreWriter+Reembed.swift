import Foundation

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
        try await queues.write { [writer] in try writer.reembed(batchSize: batchSize, progress: progress) }
    }
}

extension StoreWriter {
    /// See ``HushStore/reembed(batchSize:progress:)``.
    func reembed(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        try requireWritable("re-embed", needsModel: false)
        if index.read({ $0.gap }) == .modelNotLoaded { throw StoreError.modelNotLoaded(stored: embedder.identity) }
        try reembedNow(batchSize: batchSize, progress: progress)
    }

    private func reembedNow(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        guard batchSize > 0 else { throw StoreError.invalidOption("reembed batchSize must be at least 1") }
        let current = embedder.identity
        let target = JSONCoding.encode(current)
        let hook = testHooks.value.afterReembedBatch
        let begun = try database.write { try $0.beginReembed(target: target) }
        var after = begun.after
        let resumed = begun.progress
        var completed = resumed?.completed ?? 0
        let total = resumed?.total ?? 0
        progress?(StoreProgress(completed: completed, total: total))

        // Batches in chunk order from where the last run stopped; then, once, from the start again for chunks
        // written or replaced behind it meanwhile (another process may write while this one embeds), until
        // every chunk has a staged vector of its current text.
        var batchNumber = 0
        while true {
            var rows = try database.unstagedChunks(after: after, limit: batchSize)
            if rows.isEmpty, after > 0 {
                after = 0
                rows = try database.unstagedChunks(after: 0, limit: batchSize)
            }
            guard let last = rows.last else { break }
            try stage(rows, after: last.id)
            after = last.id
            completed = min(total, completed + rows.count)
            batchNumber += 1
            progress?(StoreProgress(completed: completed, total: total))
            try hook?(batchNumber)
        }

        // Every chunk has its new vector: swap them in, with the new identity, in one transaction.
        let policy = options.indexPolicy
        let database = database
        let swapped = try index.write { state -> Bool in
            let finished = try database.write { try $0.finishReembed(identity: current) }
            guard finished else { return false }
            // The graph was built on the old vectors: the reload builds a new one.
            try state.adopt(current, from: database, policy: policy)
            try state.saveImage(to: database)
            return true
        }
        guard swapped else {
            // Another process changed chunks between the last check and the swap: stage those and swap again.
            try reembedNow(batchSize: batchSize, progress: progress)
            return
        }
        cache.removeAll()
    }

    /// Embeds `rows` with the current embedder and writes their vectors (with the text they were made from)
    /// to the staging table, recording `after` as the last chunk finished in order, in one transaction.
    private func stage(
        _ rows: [(id: Int64, text: String, document: String)], after: Int64
    ) throws {
        let vectors = try embedPassages(rows.map { ($0.document, $0.text) })
        try database.write { transaction in
            try transaction.stageReembed(rows.map { ($0.id, $0.text) }, vectors: vectors, after: after)
        }
    }
}
