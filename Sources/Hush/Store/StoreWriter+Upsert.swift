import Foundation

extension Document {
    /// This document with its id in NFC (see ``DocumentID``).
    var withNormalizedID: Document {
        var copy = self
        copy.id = DocumentID.normalized(id)
        return copy
    }
}

extension HushStore {
    /// Adds new documents and replaces changed ones; unchanged documents are skipped without re-embedding.
    ///
    /// Documents are embedded outside any transaction, then written one transaction per batch of
    /// `options.batchSize`. A batch is all-or-nothing: if embedding or writing fails, the batches before it
    /// stay committed and nothing of the failing batch is written.
    ///
    /// Cancelling the calling task stops the call within a fraction of a model layer's work (it is checked
    /// before every batch, every embedding sub-batch and twice in every layer of the model) and throws
    /// `CancellationError`; the batches committed before stay, and calling `upsert` again with the same
    /// documents embeds only those not committed (the others are unchanged).
    ///
    /// ```swift
    /// let summary = try await store.upsert(notes) { progress in
    ///     print("\(progress.completed)/\(progress.total)")
    /// }
    /// ```
    ///
    /// - Throws: ``StoreError/embeddingFailed(documentID:reason:)``,
    ///   ``StoreError/invalidVector(documentID:reason:)``, ``StoreError/embedderMismatch(stored:current:)``
    ///   (the store must be re-embedded first), ``StoreError/database(_:)``.
    /// - Complexity: dominated by embedding the changed documents' chunks; O(chunks) SQLite work.
    @discardableResult
    public func upsert(_ documents: [Document], progress: (@Sendable (StoreProgress) -> Void)? = nil) async throws
        -> UpsertSummary
    {
        let summary = try await queues.write { [writer] in try writer.upsert(documents, progress: progress) }
        announceUpsert(documents, summary)
        return summary
    }

    /// Tells the ``changes`` streams of an upsert that changed something.
    func announceUpsert(_ documents: [Document], _ summary: UpsertSummary) {
        guard summary.added + summary.updated > 0 else { return }
        announce(StoreChange(kind: .upserted, documentIDs: documents.map(\.id), count: summary.added + summary.updated))
    }
}

extension StoreWriter {
    /// The preparation settings that shape chunks; part of the text hash, so that changing them re-embeds. The
    /// chunk sizes are left out when they are the ones every store used before models chose their own, so that
    /// the hashes of those stores stay valid.
    var preparationSignature: String {
        // The model by what decides its vectors (not its folder's name, see `EmbedderIdentity`).
        let identity = embedder.identity
        let model = identity.weightsSHA256 == "none" ? identity.model : "sha256:" + identity.weightsSHA256.prefix(16)
        var base = "prep-v3;max=\(embedder.maxTokens);\(model)"
        let cleaner = options.cleaner
        if cleaner != TextCleaner() { base += ";clean=\(cleaner.replaceURLs),\(cleaner.replaceMentions)" }
        let chunking = preparer.chunker.configuration
        guard chunking != ChunkingConfiguration(maxTokens: embedder.maxTokens) else { return base }
        return base
            + ";chunk=\(chunking.maxTokens),\(chunking.targetTokens),\(chunking.overlapTokens),\(chunking.prefixTitle)"
    }

    /// See ``HushStore/upsert(_:progress:)``.
    func upsert(_ documents: [Document], progress: (@Sendable (StoreProgress) -> Void)? = nil) throws
        -> UpsertSummary
    {
        try requireWritable("add or update documents", needsModel: true)
        let documents = documents.map(\.withNormalizedID)
        var summary = UpsertSummary()
        let accepted = Self.acceptedPositions(documents, summary: &summary).map { documents[$0] }
        try inBatches(accepted, progress: progress) {
            try writeBatch($0, graphSave: $1, summary: &summary)
        }
        settle()
        return summary
    }

    /// Runs `write` over `items` in batches of `size` (`options.batchSize` unless given; one transaction each),
    /// reporting progress after each: a failing batch stops the run, the batches before it stay committed. A
    /// cancelled call (``CancellationFlag/checkCurrent()``, before each batch and inside its embedding) stops the
    /// same way, throwing `CancellationError`.
    ///
    /// With a `prepare` (work that needs no lock and reads nothing from the file: an import's vectors checked
    /// and converted), each batch is first passed through it on another thread, the next batch while the one
    /// before it is written, so that the writer's one-thread steps (its SQL, the graph's save, the commit) leave
    /// the other core busy; without one, each batch is written as it is (an upsert's preparation needs the
    /// stored versions, read in its own batch). Each batch is told when to save the
    /// graph: `.whenDue` for all but the last (see ``GraphSave``); when a batch fails, what the batches before
    /// it changed in the graph is saved before the error is thrown.
    func inBatches<Item: Sendable, Prepared: Sendable>(
        _ items: [Item], size: Int? = nil, progress: (@Sendable (StoreProgress) -> Void)?,
        prepare: @escaping @Sendable (_ batch: [Item]) -> Prepared,
        _ write: (_ prepared: Prepared, _ graphSave: GraphSave) throws -> Void
    ) throws {
        try inBatches(items, size: size, progress: progress, start: { batch in FutureValue { prepare(batch) } }, write)
    }

    /// ``inBatches(_:size:progress:prepare:_:)`` without a prepare stage: each batch is written as it is.
    func inBatches<Item: Sendable>(
        _ items: [Item], size: Int? = nil, progress: (@Sendable (StoreProgress) -> Void)?,
        _ write: (_ batch: [Item], _ graphSave: GraphSave) throws -> Void
    ) throws {
        try inBatches(items, size: size, progress: progress, start: { FutureValue(ready: $0) }, write)
    }

    private func inBatches<Item: Sendable, Prepared: Sendable>(
        _ items: [Item], size: Int?, progress: (@Sendable (StoreProgress) -> Void)?,
        start: (_ batch: [Item]) -> FutureValue<Prepared>,
        _ write: (_ prepared: Prepared, _ graphSave: GraphSave) throws -> Void
    ) throws {
        let size = max(1, size ?? options.batchSize)
        let ranges = Swift.stride(from: 0, to: items.count, by: size).map { $0..<min($0 + size, items.count) }
        func started(_ index: Int) -> FutureValue<Prepared>? {
            index < ranges.count ? start(Array(items[ranges[index]])) : nil
        }
        var next = started(0)
        var index = 0
        do {
            while let current = next {
                let prepared = current.value()
                try CancellationFlag.checkCurrent()
                try requireRunning()
                next = started(index + 1)
                try write(prepared, index == ranges.count - 1 ? .now : .whenDue)
                progress?(StoreProgress(completed: ranges[index].upperBound, total: items.count))
                index += 1
            }
        } catch {
            _ = next?.value()
            // The batches committed so far keep their graph changes when this save works; when it fails too,
            // the error above is the one to report, and the next open inserts the nodes the saved graph lacks.
            try? saveGraphChanges()
            throw error
        }
    }

    /// The positions of the documents that can be stored, in order: ids must be non-empty, no value may hold
    /// a NUL, and of several documents with one id only the last is kept. The others are added to
    /// `summary.errors` with the reason.
    static func acceptedPositions(_ documents: [Document], summary: inout UpsertSummary) -> [Int] {
        var lastIndex: [String: Int] = [:]
        for (position, document) in documents.enumerated() { lastIndex[document.id] = position }
        var accepted: [Int] = []
        for (position, document) in documents.enumerated() {
            if document.id.isEmpty {
                summary.errors.append(.init(id: document.id, reason: "empty id: give every document a unique id"))
            } else if let field = document.fieldWithNUL {
                summary.errors.append(
                    .init(
                        id: document.id,
                        reason:
                            "its \(field) contains a NUL character (U+0000), which SQLite text cannot hold: remove it"
                    ))
            } else if let date = [document.createdAt, document.updatedAt].compactMap({ $0 }).first(where: {
                !RecordDate.accepts($0)
            }) {
                summary.errors.append(
                    .init(
                        id: document.id,
                        reason: "its date (\(RecordDate.format(date))) is outside the dates Hush keeps: give one "
                            + RecordDate.rangeText))
            } else if lastIndex[document.id] != position {
                summary.errors.append(
                    .init(id: document.id, reason: "duplicate id in this call: only its last occurrence was stored"))
            } else {
                accepted.append(position)
            }
        }
        return accepted
    }

    /// Writes one batch; when another process changed its documents between their classification and the
    /// transaction in a way the prepared rows cannot follow (a metadata-only update whose text changed
    /// meanwhile), classifies and prepares the batch again, up to three times.
    private func writeBatch(_ batch: [Document], graphSave: GraphSave, summary: inout UpsertSummary) throws {
        var attempts = 0
        while true {
            var attempt = UpsertSummary()
            do {
                try writeBatchOnce(batch, graphSave: graphSave, summary: &attempt)
            } catch is BatchOutdated {
                attempts += 1
                if attempts > 3 { throw StoreError.busy(path: database.displayPath) }
                continue
            }
            summary.added += attempt.added
            summary.updated += attempt.updated
            summary.metadataOnly += attempt.metadataOnly
            summary.unchanged += attempt.unchanged
            summary.chunksEmbedded += attempt.chunksEmbedded
            summary.errors += attempt.errors
            return
        }
    }

    /// Classifies, prepares, embeds, validates and writes one batch.
    private func writeBatchOnce(_ batch: [Document], graphSave: GraphSave, summary: inout UpsertSummary) throws {
        // 1. What is stored already, and the preparations a re-embed kept chunks of.
        let ids = batch.map(\.id)
        let existing = try database.storedVersions(ids: ids)
        let kept = try database.reembeddedPreparations()

        // 2. Classify and prepare (outside any transaction; cleaning, languages and chunks on two threads).
        let now = Date().timeIntervalSince1970
        var pending: [PendingDocument] = []
        var unprepared: [Int] = []  // positions in `pending` of the documents whose text changed
        for document in batch {
            let textHash = ContentHash.text(of: document, preparation: preparationSignature)
            let contentHash = ContentHash.content(of: document, textHash: textHash)
            let old = existing[document.id]
            if let old, old.contentHash == contentHash {
                summary.unchanged += 1
                continue
            }
            // Stored before a re-embed, with the preparation of the model before: the same text is the same
            // document (its chunks were re-embedded, not remade).
            var keptTextHash: String?
            if let old, old.textHash != textHash {
                for preparation in kept where ContentHash.text(of: document, preparation: preparation) == old.textHash {
                    keptTextHash = old.textHash
                    break
                }
            }
            if let old, let keptTextHash, ContentHash.content(of: document, textHash: keptTextHash) == old.contentHash {
                summary.unchanged += 1
                continue
            }
            let createdAt = document.createdAt?.timeIntervalSince1970 ?? old?.createdAt ?? now
            var item = PendingDocument(
                document: document, existingRowid: old?.rowid, createdAt: createdAt, language: "und",
                textHash: textHash, contentHash: contentHash, chunks: nil, keptTextHash: keptTextHash)
            if let old, old.textHash == textHash || old.textHash == keptTextHash {
                item.language = document.language ?? (try? database.language(rowid: old.rowid)) ?? "und"
            } else {
                unprepared.append(pending.count)
            }
            pending.append(item)
        }
        let preparer = self.preparer
        // Cut with the day the document will be stored under (its own, else the stored one, else today's): a
        // record's fields are headed by it, as a re-chunking reembed heads them.
        let dated = unprepared.map { position in
            var document = pending[position].document
            document.createdAt = Date(timeIntervalSince1970: pending[position].createdAt)
            return document
        }
        let prepared = dated.concurrentMap(threads: Self.preparationThreads) { preparer.prepare($0) }
        let languages = preparer.languages(
            guessed: prepared.map(\.language), shortTexts: prepared.map(\.shortText),
            storeLanguage: memory.read { $0.majorityLanguage })
        var empty = Set<Int>()
        for ((position, done), language) in zip(zip(unprepared, prepared), languages) {
            guard !done.chunks.isEmpty else {
                summary.errors.append(
                    .init(
                        id: pending[position].document.id,
                        reason: "nothing to index: the title and body are empty after cleaning"))
                empty.insert(position)
                continue
            }
            pending[position].language = pending[position].document.language ?? language
            pending[position].chunks = done.chunks
        }
        if !empty.isEmpty { pending = pending.indices.filter { !empty.contains($0) }.map { pending[$0] } }

        // 3. Embed every new chunk of the batch, in embedding batches, and validate every vector.
        try embed(&pending)

        // 4. One transaction; the in-memory index follows inside it (see `commit`).
        let committed = try commit(pending, graphSave: graphSave, preparation: preparationSignature)
        summary.added += committed.added
        summary.updated += committed.updated
        summary.metadataOnly += committed.metadataOnly
        summary.unchanged += committed.unchanged
        summary.chunksEmbedded += committed.chunks
    }

    /// What one batch's transaction did.
    struct Committed {
        var added = 0
        var updated = 0
        var metadataOnly = 0
        /// Documents another process stored with the same content between their classification and the
        /// transaction.
        var unchanged = 0
        var chunks = 0
    }

    /// A batch's prepared rows no longer fit what is stored (another process changed it): prepare it again.
    struct BatchOutdated: Error {}

    /// `pending` (with its keyword `extras`) adjusted to what is stored now (`stored`, read inside the write
    /// transaction): a document another process stored meanwhile is updated rather than inserted (or skipped
    /// when its content is now the same), one it deleted is inserted again. Throws ``BatchOutdated`` when a
    /// metadata-only update no longer has its text stored.
    static func reconcile(
        _ pending: [PendingDocument], extras: [String], with stored: [String: StoredVersion]
    ) throws -> (pending: [PendingDocument], extras: [String], unchanged: Int) {
        var kept: [PendingDocument] = []
        var keptExtras: [String] = []
        var unchanged = 0
        for (item, extra) in zip(pending, extras) {
            var item = item
            if let now = stored[item.document.id] {
                if now.contentHash == item.contentHash {
                    unchanged += 1
                    continue
                }
                if item.chunks == nil, now.textHash != item.textHash, now.textHash != item.keptTextHash {
                    throw BatchOutdated()
                }
                item.existingRowid = now.rowid
                item.createdAt = item.document.createdAt?.timeIntervalSince1970 ?? now.createdAt
            } else if item.existingRowid != nil {
                if item.chunks == nil { throw BatchOutdated() }
                item.existingRowid = nil
            }
            kept.append(item)
            keptExtras.append(extra)
        }
        return (kept, keptExtras, unchanged)
    }

    /// Writes prepared (and embedded) documents and updates the in-memory index in one transaction, under the
    /// index's write lock, saving the graph's changes as `graphSave` says; when the commit fails, memory is
    /// reloaded from the file (see ``writeThrough(_:apply:)``). `extras` are the documents' keyword
    /// extras when the caller worked them out already. Returns how many were added and updated and how many
    /// chunks were written.
    ///
    /// What is stored is read again inside the transaction (under the write lock), so documents another
    /// process wrote since `pending` was classified are updated, skipped or re-inserted as the file now needs
    /// (see ``reconcile(_:extras:with:)``), never inserted twice.
    /// `preparation` (an upsert's ``preparationSignature``) is recorded as what the text hashes were made with.
    func commit(
        _ pending: [PendingDocument], extras: [String]? = nil, graphSave: GraphSave = .now, preparation: String? = nil
    ) throws -> Committed {
        let hook = testHooks.value.afterDocumentWritten
        let policy = options.indexPolicy
        // What the keyword rows add to each first chunk, worked out before the lock and the transaction.
        let extras = extras ?? pending.map { KeywordText.extras($0.document, cleaner: options.cleaner) }
        return try writeThrough { state, transaction in
            if let preparation {
                try transaction.recordPreparation(preparation, chunking: preparer.chunker.configuration)
            }
            let stored = try transaction.storedVersions(ids: pending.map(\.document.id))
            let (current, currentExtras, unchanged) = try Self.reconcile(pending, extras: extras, with: stored)
            var written: [WrittenDocument] = []
            var allocator = state.rowAllocator
            for (item, extras) in zip(current, currentExtras) {
                written.append(
                    try transaction.write(item, allocateRow: { allocator.allocate() }) { text, ordinal in
                        KeywordText.row(chunk: text, extras: ordinal == 0 ? extras : "")
                    })
                try hook?(item.document.id)
            }
            return (current, unchanged, written, allocator)
        } apply: { state, result, transaction in
            // Memory follows inside the transaction, so the graph's changes commit with the vectors.
            let (pending, unchanged, written, allocator) = result
            let batch = zip(pending, written).map { item, written in
                let record = DocumentRecord(
                    rowid: written.rowid, externalID: item.document.id, language: item.language,
                    sourceType: item.document.sourceType, tags: item.document.tags, category: item.document.category,
                    createdAt: item.createdAt, metadata: item.document.metadata)
                return (record: record, written: written, vectors: item.vectors)
            }
            let graphWrite = try state.apply(batch, allocator: allocator, policy: policy, graphSave: graphSave)
            try state.save(graphWrite, in: transaction)
            let added = pending.filter { $0.existingRowid == nil }.count
            return Committed(
                added: added, updated: pending.count - added,
                metadataOnly: pending.filter { $0.existingRowid != nil && $0.chunks == nil }.count,
                unchanged: unchanged, chunks: written.reduce(0) { $0 + $1.newChunks.count })
        }
    }

    /// Fills `vectors` of every pending document that has chunks; throws before anything is written.
    private func embed(_ pending: inout [PendingDocument]) throws {
        var texts: [(owner: String, text: String)] = []
        var positions: [Int] = []
        for (position, item) in pending.enumerated() {
            for chunk in item.chunks ?? [] {
                texts.append((item.document.id, chunk.text))
                positions.append(position)
            }
        }
        for (position, vector) in zip(positions, try embedPassages(texts)) { pending[position].vectors.append(vector) }
    }

    /// The embedder's passage vectors for `texts`, in order, in batches of `options.embeddingBatchSize`, each
    /// checked (dimension, finite values). An error names the document (`owner`) at fault.
    func embedPassages(_ texts: [(owner: String, text: String)]) throws -> [[Float]] {
        let dimension = embedder.identity.dimension
        var vectors: [[Float]] = []
        vectors.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            try CancellationFlag.checkCurrent()
            let slice = texts[start..<min(start + options.embeddingBatchSize, texts.count)]
            let firstOwner = slice.first?.owner ?? ""
            let embeddings: [Embedding]
            do {
                embeddings = try embedder.embed(slice.map(\.text), role: .passage)
            } catch let cancelled as CancellationError {
                throw cancelled
            } catch {
                throw StoreError.embeddingFailed(documentID: firstOwner, reason: String(describing: error))
            }
            guard embeddings.count == slice.count else {
                throw StoreError.invalidVector(
                    documentID: firstOwner,
                    reason: "the embedder returned \(embeddings.count) vectors for \(slice.count) texts")
            }
            for (entry, embedding) in zip(slice, embeddings) {
                if let problem = VectorBlob.problem(embedding.vector, dimension: dimension) {
                    throw StoreError.invalidVector(documentID: entry.owner, reason: problem)
                }
                vectors.append(embedding.vector)
            }
            start += slice.count
        }
        return vectors
    }
}
