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
        announce(StoreChange(kind: .reembedded, documentIDs: [], count: 0))
    }
}

extension StoreWriter {
    /// See ``HushStore/reembed(batchSize:progress:)``.
    func reembed(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        try requireWritable("re-embed", needsModel: false)
        if memory.read({ $0.gap }) == .modelNotLoaded { throw StoreError.modelNotLoaded(stored: embedder.identity) }
        try reembedNow(batchSize: batchSize, progress: progress)
    }

    /// Whether this re-embed must cut the documents again: the store's chunks were cut at other sizes than
    /// this writer's (the new model's own, or the ones the options ask for). A file with documents and no
    /// record was cut at ``ChunkSize/standard``.
    private func needsRechunk() throws -> Bool {
        let recorded = try database.recordedChunking().chunking ?? ChunkingConfiguration()
        let wanted = preparer.chunker.configuration
        return (recorded.targetTokens, recorded.overlapTokens, recorded.prefixTitle)
            != (wanted.targetTokens, wanted.overlapTokens, wanted.prefixTitle)
    }

    private func reembedNow(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        guard batchSize > 0 else { throw StoreError.invalidOption("reembed batchSize must be at least 1") }
        if try needsRechunk() {
            try rechunkNow(batchSize: batchSize, progress: progress)
            return
        }
        let current = embedder.identity
        let begun = try database.write { try $0.beginReembed(target: JSONCoding.encode(current)) }
        // Until every chunk has a staged vector of its current text.
        try stageInBatches(
            begun, progress: progress, next: { try database.unstagedChunks(after: $0, limit: batchSize) }
        ) { rows in
            guard let last = rows.last else { return 0 }
            try stage(rows, after: last.id)
            return last.id
        }

        // Every chunk has its new vector: swap them in, with the new identity, in one transaction.
        let swapped = try swapIn(current) { try $0.finishReembed(identity: current) }
        guard swapped else {
            // Another process changed chunks between the last check and the swap: stage those and swap again.
            try reembedNow(batchSize: batchSize, progress: progress)
            return
        }
        cache.removeAll()
    }

    /// Re-embeds by cutting every document again with this writer's chunking: per batch of documents, their
    /// new chunks and vectors go to a staging table; when every document has them, one transaction replaces
    /// all chunks, vectors and full-text rows and stamps the new identity. Resumable and never mixing two
    /// models' vectors, like the chunk-by-chunk re-embed; progress is counted in documents.
    private func rechunkNow(batchSize: Int, progress: (@Sendable (StoreProgress) -> Void)?) throws {
        let current = embedder.identity
        let begun = try database.write {
            try $0.beginReembed(target: JSONCoding.encode(current), rechunk: true)
        }
        // About `batchSize` chunks per batch, in documents of the size this store has on average.
        let counts = try database.counts()
        let documentsPerBatch = max(1, batchSize * max(1, counts.documents) / max(1, counts.chunks))
        // Until every document has staged chunks cut from its current text.
        try stageInBatches(
            begun, progress: progress,
            next: { try database.unstagedDocuments(after: $0, limit: documentsPerBatch) }
        ) { rows in
            guard let last = rows.last else { return 0 }
            let preparer = self.preparer
            let prepared = rows.map(\.stored.document).concurrentMap(threads: Self.preparationThreads) {
                preparer.prepare($0)
            }
            var texts: [(owner: String, text: String)] = []
            for (row, document) in zip(rows, prepared) {
                texts += document.chunks.map { (row.stored.document.id, $0.text) }
            }
            let vectors = try embedPassages(texts)
            var staged: [StagedDocument] = []
            var offset = 0
            for (row, document) in zip(rows, prepared) {
                let chunks = document.chunks.map {
                    StagedDocument.Chunk(
                        ordinal: $0.ordinal, text: $0.text, start: $0.range.lowerBound, end: $0.range.upperBound,
                        tokens: $0.tokenCount, truncated: $0.truncated, passageStart: $0.passageStart,
                        field: $0.field)
                }
                staged.append(
                    StagedDocument(
                        rowid: row.rowid, textHash: row.textHash, chunks: chunks,
                        vectors: Array(vectors[offset..<(offset + chunks.count)])))
                offset += chunks.count
            }
            try database.write { try $0.stageRechunk(staged, after: last.rowid) }
            return last.rowid
        }

        // Every document has its new chunks: swap them in, with the new identity, in one transaction.
        let cleaner = options.cleaner
        let signature = preparationSignature
        let chunking = preparer.chunker.configuration
        let swapped = try swapIn(current) { transaction -> Bool in
            guard let staged = try transaction.stagedDocuments(dimension: current.dimension) else { return false }
            try transaction.deleteAllChunks()
            var allocator = VectorMatrix.RowAllocator()
            for document in staged {
                guard let stored = document.stored else { continue }
                let item = PendingDocument(
                    document: stored.document, existingRowid: document.rowid,
                    createdAt: stored.document.createdAt?.timeIntervalSince1970 ?? 0, language: stored.language,
                    textHash: document.textHash, contentHash: stored.contentHash,
                    chunks: document.chunks.map { chunk in
                        TextChunk(
                            ordinal: chunk.ordinal, text: chunk.text, range: chunk.start..<chunk.end,
                            tokenCount: chunk.tokens, truncated: chunk.truncated,
                            passageStart: chunk.passageStart
                                ?? Self.passageStart(of: chunk, in: stored.document, cleaner: cleaner),
                            field: chunk.field)
                    }, vectors: document.vectors)
                let extras = KeywordText.extras(stored.document, cleaner: cleaner)
                _ = try transaction.write(item, allocateRow: { allocator.allocate() }) { text, ordinal in
                    KeywordText.row(chunk: text, extras: ordinal == 0 ? extras : "")
                }
            }
            // The text hashes stay (made with the old preparation, which `endReembed` keeps, they still
            // name the stored texts); the new preparation and chunking are what upserts use from now on.
            try transaction.endReembed(identity: current)
            try transaction.recordPreparation(signature, chunking: chunking)
            return true
        }
        guard swapped else {
            // Another process changed documents between the last check and the swap: stage those, swap again.
            try rechunkNow(batchSize: batchSize, progress: progress)
            return
        }
        cache.removeAll()
    }

    /// Stages a re-embed's work in batches in key order: from where the last run stopped (`begun`), then, once,
    /// from the start again for what was written or replaced behind it meanwhile (another process may write
    /// while this one embeds), until `next(after)` finds nothing. `stage` handles one batch and returns its
    /// last key; progress is reported and the test hook called after every batch.
    private func stageInBatches<Item>(
        _ begun: (after: Int64, progress: UnfinishedReembed?), progress: (@Sendable (StoreProgress) -> Void)?,
        next: (_ after: Int64) throws -> [Item], stage: ([Item]) throws -> Int64
    ) throws {
        let hook = testHooks.value.afterReembedBatch
        var after = begun.after
        var completed = begun.progress?.completed ?? 0
        let total = begun.progress?.total ?? 0
        progress?(StoreProgress(completed: completed, total: total))
        var batchNumber = 0
        while true {
            try CancellationFlag.checkCurrent()
            try requireRunning()
            var items = try next(after)
            if items.isEmpty, after > 0 {
                after = 0
                items = try next(0)
            }
            guard !items.isEmpty else { break }
            after = try stage(items)
            completed = min(total, completed + items.count)
            batchNumber += 1
            progress?(StoreProgress(completed: completed, total: total))
            try hook?(batchNumber)
        }
    }

    /// Runs `finish` in one transaction under the index's write lock; when it swapped the new vectors in, memory
    /// is reloaded for `identity` (the graph was built on the old vectors: the reload builds a new one) and its
    /// image saved. Returns `finish`'s answer: false when another process wrote meanwhile and nothing changed.
    private func swapIn(_ identity: EmbedderIdentity, _ finish: (StoreTransaction) throws -> Bool) throws -> Bool {
        let policy = options.indexPolicy
        let database = database
        return try memory.write { state -> Bool in
            guard try database.write("re-embed", { try finish($0) }) else { return false }
            try state.adopt(identity, from: database, policy: policy)
            try state.saveImage(to: database)
            return true
        }
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

    /// The passage start of a chunk staged by a re-embed that began before schema version 4 (which did not
    /// record it), found the way a search finds that of a chunk stored then
    /// (`TextChunk.passageRange(text:range:cleanedBody:)`).
    static func passageStart(of chunk: StagedDocument.Chunk, in document: Document, cleaner: TextCleaner) -> Int {
        guard chunk.ordinal == 0, chunk.start < chunk.end else { return 0 }
        return TextChunk.passageRange(
            text: chunk.text, range: chunk.start..<chunk.end, body: document.body, quoted: document.quoted,
            cleaner: cleaner
        ).lowerBound
    }
}
