import Foundation

extension HushStore {
    /// Stores documents with vectors computed elsewhere (another program, an earlier export), without
    /// embedding anything: each document becomes ONE chunk (its title, if any, prefixed to its cleaned body
    /// as the chunker would) carrying the given vector.
    ///
    /// The vectors must come from the same model as this store's embedder (same dimension, same meaning);
    /// they are L2-normalised when the embedder normalises. Documents whose content is unchanged are skipped;
    /// the rest are written one transaction per 512 documents (or `options.batchSize` when larger), each
    /// all-or-nothing as with `upsert`. `progress` is called after each transaction.
    ///
    /// ```swift
    /// let summary = try await store.upsert(
    ///     [Document(id: "7", title: "Sleep", body: "Keep the same bedtime.")], precomputed: [vector])
    /// ```
    ///
    /// - Throws: ``StoreError/invalidOption(_:)`` when the counts differ,
    ///   ``StoreError/invalidVector(documentID:reason:)`` for a vector of the wrong dimension or with NaN or
    ///   infinity (nothing of its batch is written), ``StoreError/embedderMismatch(stored:current:)``,
    ///   ``StoreError/database(_:)``.
    /// - Complexity: O(documents × dimension) plus one SQLite insert per document; no embedding.
    @discardableResult
    public func upsert(
        _ documents: [Document], precomputed vectors: [[Float]], progress: (@Sendable (StoreProgress) -> Void)? = nil
    ) async throws -> UpsertSummary {
        let summary = try await queues.write { [writer] in
            try writer.upsert(documents, precomputed: vectors, progress: progress)
        }
        announceUpsert(documents, summary)
        return summary
    }
}

extension StoreWriter {
    /// See ``HushStore/upsert(_:precomputed:progress:)``.
    func upsert(
        _ documents: [Document], precomputed vectors: [[Float]], progress: (@Sendable (StoreProgress) -> Void)? = nil
    ) throws -> UpsertSummary {
        try requireWritable("import documents", needsModel: true)
        let documents = documents.map(\.withNormalizedID)
        guard documents.count == vectors.count else {
            throw StoreError.invalidOption(
                "upsert(_:precomputed:) needs one vector per document: got \(documents.count) documents and "
                    + "\(vectors.count) vectors")
        }
        var summary = UpsertSummary()
        let accepted = Self.acceptedPositions(documents, summary: &summary).map { (documents[$0], vectors[$0]) }
        let writer = self
        try inBatches(
            accepted, size: max(options.batchSize, Self.precomputedBatchSize), progress: progress,
            prepare: { writer.preparePrecomputed($0) }
        ) { prepared, graphSave in
            try writePrecomputed(prepared, graphSave: graphSave, summary: &summary)
        }
        settle()
        return summary
    }

    /// Documents per transaction when their vectors come with them (at least `options.batchSize`): with no
    /// embedding between transactions, larger ones spend less on commits and on saving the graph's changed
    /// lists, which a batch's new rows share.
    static let precomputedBatchSize = 512

    /// The preparation signature of single-chunk documents with precomputed vectors (so that a later plain
    /// `upsert` of the same document re-chunks and re-embeds it with this store's settings).
    var precomputedSignature: String { preparationSignature + ";whole-precomputed" }

    /// One document with its vector, and what its transaction needs computed beforehand.
    struct PreparedImport: Sendable {
        var document: Document
        var vector: [Float]
        var textHash: String
        var contentHash: String
        var cleaned: DocumentPreparer.CleanedDocument
        var tokens: Int
        /// What the keyword row adds to the chunk (see ``KeywordText/extras(_:cleaner:)``).
        var extras: String
    }

    /// The per-document work of a batch (hashes, cleaning, language, token count, keyword extras) on two
    /// threads, with no lock held and nothing read from the file; no chunking: the document is its one chunk.
    func preparePrecomputed(_ batch: [(Document, [Float])]) -> [PreparedImport] {
        let signature = precomputedSignature
        let (preparer, embedder, cleaner) = (self.preparer, self.embedder, options.cleaner)
        var prepared = batch.concurrentMap(threads: Self.preparationThreads) { document, vector in
            let textHash = ContentHash.text(of: document, preparation: signature)
            let cleaned = preparer.clean(document)
            return PreparedImport(
                document: document, vector: vector, textHash: textHash,
                contentHash: ContentHash.content(of: document, textHash: textHash), cleaned: cleaned,
                tokens: cleaned.titledText.isEmpty ? 0 : embedder.tokenCount(cleaned.titledText),
                extras: KeywordText.extras(document, cleaner: cleaner))
        }
        // Short texts by the batch's other documents (a batch is hundreds; the store is not read here).
        let languages = preparer.languages(
            guessed: prepared.map(\.cleaned.language), shortTexts: prepared.map(\.cleaned.shortText),
            storeLanguage: nil)
        for (index, language) in languages.enumerated() { prepared[index].cleaned.language = language }
        return prepared
    }

    /// Writes one prepared batch in one transaction: unchanged documents are skipped, every vector is checked
    /// first (nothing of the batch is written when one is bad).
    private func writePrecomputed(_ batch: [PreparedImport], graphSave: GraphSave, summary: inout UpsertSummary)
        throws
    {
        let existing = try database.storedVersions(ids: batch.map(\.document.id))
        let dimension = embedder.identity.dimension
        let now = Date().timeIntervalSince1970
        var pending: [PendingDocument] = []
        var extras: [String] = []
        for item in batch {
            let (document, cleaned) = (item.document, item.cleaned)
            let old = existing[document.id]
            if let old, old.contentHash == item.contentHash {
                summary.unchanged += 1
                continue
            }
            if let problem = VectorBlob.problem(item.vector, dimension: dimension) {
                throw StoreError.invalidVector(documentID: document.id, reason: problem)
            }
            guard !cleaned.titledText.isEmpty else {
                summary.errors.append(
                    .init(id: document.id, reason: "nothing to index: the title and body are empty after cleaning"))
                continue
            }
            let chunk = TextChunk(
                ordinal: 0, text: cleaned.titledText, range: 0..<cleaned.text.utf16.count, tokenCount: item.tokens,
                truncated: item.tokens > embedder.maxTokens,
                passageStart: cleaned.text.isEmpty ? 0 : cleaned.title.map { $0.utf16.count + 2 } ?? 0)
            var pendingItem = PendingDocument(
                document: document, existingRowid: old?.rowid,
                createdAt: document.createdAt?.timeIntervalSince1970 ?? old?.createdAt ?? now,
                language: document.language ?? cleaned.language, textHash: item.textHash,
                contentHash: item.contentHash, chunks: [chunk])
            pendingItem.vectors = [
                embedder.identity.normalized ? VectorMath.normalized(item.vector) ?? item.vector : item.vector
            ]
            pending.append(pendingItem)
            extras.append(item.extras)
        }
        let committed = try commit(pending, extras: extras, graphSave: graphSave)
        summary.added += committed.added
        summary.updated += committed.updated
        summary.unchanged += committed.unchanged
    }
}
