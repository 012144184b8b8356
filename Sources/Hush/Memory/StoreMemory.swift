/// The in-memory side of a store, its mirror of the file: the vector matrix, the document table and the
/// approximate index (graph or codes), behind a readers-writer lock.
///
/// Writers (ingestion) hold the write lock across their SQLite commit and the matching in-memory update, so
/// a reader that holds the read lock sees SQLite and memory in the same state. Every write bumps
/// `State.generation`, so a reader that reads the file between two holds of the read lock can tell whether a
/// write landed in between (slots are reused; see `Searcher`).
final class StoreMemory: @unchecked Sendable {
    struct State: Sendable {
        /// Bumped by every write (committed or rolled back): equal generations mean the same documents.
        fileprivate(set) var generation: UInt64 = 0
        /// Who made the vectors in the file.
        var storedIdentity: EmbedderIdentity
        /// Why semantic search is off, or `nil` when the matrix holds the file's vectors and they match the
        /// current embedder.
        var gap: SemanticGap?
        /// Whether the matrix holds the file's vectors and they match the current embedder.
        var semanticReady: Bool { gap == nil }
        var matrix: VectorMatrix
        var documents = DocumentTable()
        /// The approximate index in use (graph or codes), chosen by `IndexStrategy.choose`.
        var ann = ANNState()
        /// The store's file, where a matrix that does not hold its vectors reads them (`nil` for a store in
        /// memory, which never lets go of them).
        let file: VectorFile?
        /// Vector rows added or freed since the saved image was last written or read (what decides when a
        /// write refreshes it).
        var rowsChangedSinceImage = 0
        /// Whether the open left the vectors (and the index over them) in the file because nothing would compare
        /// them yet (the model was not loaded): the documents are in memory for reading and keyword search, and
        /// the first semantic call or write loads the rest (``StoreMemory/loadDeferredVectors()``).
        var vectorsDeferred = false
    }

    private let lock = ReadWriteLock()
    private var state: State
    /// Fills a state whose vectors were deferred (the store's open, run again with the vectors).
    private let vectorLoader: (@Sendable (inout State) throws -> Void)?
    /// The document centres and the generation they were computed at (see ``documentCentres(of:)``).
    private let centres = Locked<(generation: UInt64, value: DocumentCentres?)?>(nil)

    init(
        identity: EmbedderIdentity, gap: SemanticGap?, file: VectorFile? = nil,
        vectorLoader: (@Sendable (inout State) throws -> Void)? = nil
    ) {
        state = State(
            storedIdentity: identity, gap: gap, matrix: VectorMatrix(dimension: identity.dimension), file: file)
        self.vectorLoader = vectorLoader
    }

    /// Loads the vectors the open left in the file (``State/vectorsDeferred``), once, under the write lock;
    /// nothing when they are in memory.
    func loadDeferredVectors() throws {
        guard read({ $0.vectorsDeferred }), let vectorLoader else { return }
        try write { state in
            guard state.vectorsDeferred else { return }
            try vectorLoader(&state)
        }
    }

    func read<T>(_ body: (State) throws -> T) rethrows -> T {
        try lock.withReadLock { try body(state) }
    }

    func write<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try lock.withWriteLock {
            defer { state.generation &+= 1 }
            return try body(&state)
        }
    }

    /// Lets go of the vectors and the index over them (the documents stay), as an open that deferred them
    /// leaves memory: the next semantic call or write reads them again (``loadDeferredVectors()``). Nothing
    /// for a store without a loader, or whose vectors are not in use.
    func deferVectors() {
        guard vectorLoader != nil else { return }
        write { state in
            guard state.semanticReady, !state.vectorsDeferred else { return }
            state.matrix = VectorMatrix(dimension: state.storedIdentity.dimension)
            state.ann = ANNState()
            state.vectorsDeferred = true
        }
    }

    /// ``State/documentCentres()`` of `state` (read under this memory's read lock), computed once per generation:
    /// related items and interest ranking ask for them on every call, and a store whose vectors stay in the file
    /// would read its sampled rows (up to 4,096 per language) from it each time.
    func documentCentres(of state: State) throws -> DocumentCentres? {
        if let cached = centres.value, cached.generation == state.generation { return cached.value }
        let value = try state.documentCentres()
        centres.value = (state.generation, value)
        return value
    }

    /// `limit` clamped to the number of documents (at least 1): any `Int` is a valid limit, and no buffer is
    /// ever sized by more than what exists.
    func clampedLimit(_ limit: Int) -> Int {
        min(limit, max(1, read { $0.documentCount }))
    }

}

/// The best chunk of every document for one query vector, by document slot.
struct DocumentScores {
    /// Best chunk score per slot; `-infinity` for slots that were not scored (filtered out or empty).
    var best: [Float]
    /// The matrix row of that best chunk per slot; `-1` when not scored.
    var bestRow: [Int32]

    /// The `k` best slots, best first.
    ///
    /// - Complexity: O(slots × log k).
    func top(_ k: Int) -> [(id: Int, score: Float)] {
        var heap = TopK(capacity: k)
        for slot in 0..<best.count where bestRow[slot] >= 0 {
            let score = best[slot]
            if score > heap.threshold || score == heap.threshold { heap.offer(id: slot, score: score) }
        }
        return heap.sorted()
    }
}

extension StoreMemory.State {
    /// Scores every chunk of the documents allowed by `mask` (all when `nil`) against `query` through the
    /// exact scan, and keeps the best chunk per document; a document of several chunks scores its best chunk
    /// blended with its lead chunk (``DocumentScoring``).
    ///
    /// - Complexity: O(rows × dimension) for the scan (blocks of rows per kernel call), plus O(rows) for the
    ///   per-document maximum and lead.
    func scoreDocuments(query: [Float], mask: Bitset?) -> DocumentScores {
        var best = [Float](repeating: -.infinity, count: documents.capacity)
        var bestRow = [Int32](repeating: -1, count: documents.capacity)
        guard matrix.rows > 0, query.count == matrix.dimension else {
            return DocumentScores(best: best, bestRow: bestRow)
        }
        let rowSlot = matrix.rowSlot
        // The lead rows of the documents of several chunks (the others need no lead): a bit test per row.
        let leadRows = matrix.leadRows
        let severalRows = matrix.slotsWithSeveralRows
        var leads = Bitset(count: severalRows.isEmpty ? 0 : matrix.rows)
        for key in severalRows where Int(key) < leadRows.count { leads.insert(Int(leadRows[Int(key)])) }
        var leadScore = [Float](repeating: .nan, count: severalRows.isEmpty ? 0 : documents.capacity)
        let rows = mask.map { rowBitmap(mask: $0) }
        matrix.withView { view in
            query.withUnsafeBufferPointer { q in
                guard let qBase = q.baseAddress else { return }
                ExactScan.forEachScore(qBase, vectors: view, filter: rows) { row, score in
                    let slot = Int(rowSlot[row])
                    guard slot >= 0, !score.isNaN else { return }  // a hole, or a damaged row
                    if bestRow[slot] < 0 || score > best[slot] {
                        best[slot] = score
                        bestRow[slot] = Int32(row)
                    }
                    if leads.contains(row) { leadScore[slot] = score }
                }
            }
        }
        for key in severalRows {
            let slot = Int(key)
            guard slot < best.count, bestRow[slot] >= 0, !leadScore[slot].isNaN else { continue }
            best[slot] = DocumentScoring.blend(best: best[slot], lead: leadScore[slot])
        }
        return DocumentScores(best: best, bestRow: bestRow)
    }
}

/// Why a store cannot compare vectors with its embedder.
enum SemanticGap: Sendable, Hashable {
    /// The file's vectors were made by another embedder (opened with `allowEmbedderMismatch` to re-embed).
    case mismatch
    /// No embedder was given: the model the file was made with is not loaded.
    case modelNotLoaded
    /// The embedder is the target of a re-embed that stopped part-way.
    case reembedUnfinished
    /// The file's record of the model that made its vectors is missing or damaged (``StoreError/identityUnreadable(path:reason:)``).
    case identityUnreadable(reason: String)
}
