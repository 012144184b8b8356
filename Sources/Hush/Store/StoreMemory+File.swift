import Foundation

// The store's memory's dealings with the file, kept here in the store's layer: memory (Memory/, VectorIndex/) only
// changes memory and says what the file must store; StoreDatabase and StoreTransaction (Persistence/) only read
// and write the file. Loading memory from the file, the saved image, the graph's saves and the reason semantic
// search is off all need both.

extension StoreMemory {
    /// Why vectors of `current` cannot be compared with the stored ones right now, as the ``StoreError`` every
    /// caller reports (search, related items, interest ranking, summaries, writes), or `nil` when they can: the
    /// vectors are then in memory (loaded now when the open left them in the file). Throws when the file cannot
    /// say how far an unfinished re-embed got, or the vectors cannot be read.
    func readyForSemantic(current: EmbedderIdentity, database: StoreDatabase) throws -> StoreError? {
        let (gap, stored) = read { ($0.gap, $0.storedIdentity) }
        switch gap {
        case nil:
            try loadDeferredVectors()
            return nil
        case .mismatch:
            return StoreError.embedderMismatch(stored: stored, current: current)
        case .modelNotLoaded:
            return StoreError.modelNotLoaded(stored: stored)
        case .reembedUnfinished:
            let progress = try database.unfinishedReembed()
            return StoreError.reembedUnfinished(
                target: current, completed: progress?.completed ?? 0, total: progress?.total ?? 0)
        case .identityUnreadable(let reason):
            return StoreError.identityUnreadable(path: database.displayPath, reason: reason)
        }
    }
}

extension StoreMemory.State {
    // MARK: - Loading from the file

    /// Rebuilds the in-memory index from the file: documents, vectors at their stored rows (vectors without a row, e.g.
    /// from an older file, get one and it is written back), then the strategy: a saved HNSW graph is loaded
    /// and verified against the vector rows, and repaired (missing nodes inserted, extra ones removed) or
    /// rebuilt when they disagree; int8/binary codes are derived from the vectors.
    /// With `save: false` (a read-only store) nothing is written back: rows and repairs stay in memory.
    /// Within `transaction` (a write that found memory behind another process's commit) the file is read and
    /// written through it.
    ///
    /// With `vectors: false` only the documents are read (``vectorsDeferred``).
    mutating func load(
        from database: StoreDatabase, policy: IndexPolicy, save: Bool = true,
        within transaction: StoreTransaction? = nil, vectors: Bool = true
    ) throws {
        documents = DocumentTable()
        matrix = VectorMatrix(dimension: storedIdentity.dimension)
        ann = ANNState()
        vectorsDeferred = semanticReady && !vectors
        var unplaced: [(chunkID: Int64, slot: Int32, vector: [Float])] = []
        // A stored row is believed below twice the vectors the table holds (holes left by deletions included):
        // a damaged row number beyond it gets a fresh row like a vector without one, instead of growing the
        // matrix to it (row 2^31 would be gigabytes of holes).
        var rowLimit: Int64 = 0
        let (savedGraph, graphProblem) = try database.loadContents(
            documents: { documents.upsert($0) }, withVectors: semanticReady && vectors,
            vectorCount: {
                matrix.reserve(rows: $0)
                rowLimit = min(Int64($0) * 2 + 1024, Int64(Int32.max))
            },
            vectors: { loaded in
                guard let slot = documents.slot(ofRowid: loaded.documentID) else { return }
                // A damaged row (NaN or infinity, not of unit length, wrong length) is left out rather than poisoning every
                // score; `stats()` shows it as a vector in the file but not in memory.
                guard loaded.bytes.withUnsafeBytes({ Self.isUsable($0) }) else { return }
                let placed = loaded.bytes.withUnsafeBytes { bytes -> Bool in
                    guard let stored = loaded.row, stored >= 0, stored < rowLimit else { return false }
                    return matrix.load(
                        chunkID: loaded.chunkID, slot: slot, row: Int32(stored), bytes: bytes)
                }
                if !placed, let vector = VectorBlob.decode(loaded.bytes), vector.count == matrix.dimension {
                    unplaced.append((loaded.chunkID, slot, vector))
                }
            }, graph: { try HNSWIndex.load(from: $0, rows: matrix.rows, dimension: matrix.dimension) }, in: transaction)
        matrix.rebuildAllocator()
        guard semanticReady, vectors else { return }
        var allocator = matrix.allocator
        var placements: [(chunkID: Int64, row: Int32)] = []
        for entry in unplaced {
            let row = allocator.allocate()
            placements.append((entry.chunkID, row))
        }
        matrix.commit(allocator)
        for (entry, placement) in zip(unplaced, placements) {
            matrix.set(chunkID: entry.chunkID, slot: entry.slot, row: placement.row, vector: entry.vector)
        }

        // The index: keep a saved graph when it matches the vectors, else repair or rebuild it.
        let choice = policy.choose(
            vectorCount: matrix.liveRows, dimension: matrix.dimension,
            current: savedGraph != nil ? .hnsw : nil)
        var fullWrite = false
        var clear = false
        if choice.strategy == .hnsw, let saved = savedGraph, saved.dimension == matrix.dimension {
            do {
                ann.hnsw = try Self.reconcile(saved, with: matrix, full: &fullWrite)
            } catch {
                clear = true  // unpatchable: applyPolicy builds a fresh graph below
            }
        } else if savedGraph != nil || graphProblem != nil {
            clear = true
        }
        do {
            try applyPolicy(policy)
        } catch let error as ANNError {
            throw StoreError.database(
                DatabaseFailure(message: "cannot build the vector index: \(error)", cause: error))
        }
        if let graph = ann.hnsw, graph !== savedGraph { fullWrite = true }
        let graphDirty = ann.hnsw?.hasUnsavedChanges ?? false
        guard save, !placements.isEmpty || fullWrite || clear || graphDirty else { return }
        if let transaction {
            try transaction.setVectorRows(placements)
            try Self.saveGraph(ann.hnsw, full: fullWrite, in: transaction)
            return
        }
        try database.write("load the index") { transaction in
            try transaction.setVectorRows(placements)
            try Self.saveGraph(ann.hnsw, full: fullWrite, in: transaction)
        }
    }

    /// Takes the re-embedded vectors in: `identity` becomes the stored one, semantic search is on again, and
    /// memory (graph included) is reloaded from the file.
    mutating func adopt(_ identity: EmbedderIdentity, from database: StoreDatabase, policy: IndexPolicy) throws {
        storedIdentity = identity
        gap = nil
        try load(from: database, policy: policy)
    }

    // MARK: - Saving the graph

    /// Stores what `write` says of the graph (see ``GraphWrite``) in `transaction`, the write transaction of
    /// the vectors the change came with.
    func save(_ write: GraphWrite, in transaction: StoreTransaction) throws {
        switch write {
        case .nothing:
            return
        case .changes:
            if let graph = ann.hnsw { try graph.save(to: transaction.graphWriter()) }
        case .whole:
            try Self.saveGraph(ann.hnsw, full: true, in: transaction)
        }
    }

    /// Saves `graph` in `transaction` (its changes, or all of it with `full`), or empties the graph tables when
    /// there is no graph.
    static func saveGraph(_ graph: HNSWIndex?, full: Bool, in transaction: StoreTransaction) throws {
        if let graph {
            try graph.save(to: transaction.graphWriter(), full: full)
        } else {
            try transaction.clearGraph()
        }
    }

    // MARK: - Opening from and keeping the image current

    /// Fills memory from the file at open: from the saved image when it is current and the policy still
    /// chooses HNSW (the f32 vectors then stay in the file), else from the tables; then, when `save`, a fresh
    /// image is written (an HNSW index's lets go of its f32 vectors), so the next open is a few large reads.
    ///
    /// With `deferringVectors` (nothing will compare vectors until the model loads), or when the vectors cannot
    /// be compared at all, only the documents are read: from the saved image, of either kind, when it is
    /// current, else from the tables; ``StoreMemory/loadDeferredVectors()`` runs the rest later.
    mutating func open(
        from database: StoreDatabase, policy: IndexPolicy, save: Bool, deferringVectors: Bool = false
    ) throws {
        if deferringVectors || !semanticReady {
            if try loadSavedDocuments(from: database) { return }
            try load(from: database, policy: policy, save: false, vectors: false)
            return
        }
        if try loadSavedImage(from: database, policy: policy) { return }
        try load(from: database, policy: policy, save: save)
        // An HNSW index's image spares the next open rebuilding or verifying the graph. A documents image is
        // written by writes only: an open never waits for another process's write.
        if save, ann.hnsw != nil { try saveImage(to: database) }
    }

    /// Loads the saved HNSW image when it is current and the policy chooses HNSW for its rows; `false` otherwise
    /// (memory untouched).
    mutating func loadSavedImage(from database: StoreDatabase, policy: IndexPolicy) throws -> Bool {
        var loaded = self
        guard try database.readImage({ try loaded.loadImage($0, policy: policy) }) else { return false }
        loaded.rowsChangedSinceImage = 0
        loaded.vectorsDeferred = false
        self = loaded
        return true
    }

    /// Loads the documents of the saved image, of either kind, when it is current; `false` otherwise (memory
    /// untouched).
    mutating func loadSavedDocuments(from database: StoreDatabase) throws -> Bool {
        var loaded = self
        guard try database.readImage({ try loaded.loadImageDocuments($0) }) else { return false }
        loaded.rowsChangedSinceImage = 0
        self = loaded
        return true
    }

    /// Writes the image to the file: for an HNSW index the documents, the graph and its codes, and then, when
    /// the matrix holds the vectors, lets go of them (the image's 4-bit codes become the guide; searches read the
    /// vectors they rescore from the file); for any other index the documents alone. Nothing for a store in
    /// memory, or an HNSW index whose vectors cannot be compared.
    mutating func saveImage(to database: StoreDatabase) throws {
        // A store in memory has no file to leave its vectors in (and nothing to open fast later).
        guard file != nil else { return }
        guard ann.hnsw != nil else {
            let state = self
            // A few hundred kilobytes: the log keeps its size (see `writeImage(emptyingLog:_:)`).
            let written = try database.writeImage(emptyingLog: false) { output in
                try state.writeImage(codes: nil, to: output)
            }
            guard written else { return }
            rowsChangedSinceImage = 0
            return
        }
        guard semanticReady else { return }
        // The codes of a store opened from its image are kept (its new rows were encoded as they came); others
        // are made from the vectors in memory.
        let codes: QuantizedMatrix
        if let guide = ann.guide, case .int4 = guide.encoding {
            codes = guide
        } else {
            guard matrix.isResident else { return }
            codes = buildImageCodes()
        }
        let state = self
        guard try database.writeImage({ output in try state.writeImage(codes: codes, to: output) }) else { return }
        ann.guide = codes
        rowsChangedSinceImage = 0
        if matrix.isResident {
            matrix = try VectorMatrix(dimension: matrix.dimension, fileRows: matrix.rowChunk, slots: matrix.rowSlot)
        }
    }

    /// Documents up to which a store without an HNSW index refreshes its documents image after every write that
    /// left it stale (a few milliseconds for 10,000 documents); larger ones do when the rows changed reach the
    /// fraction, as an HNSW index does.
    static let documentsImageEveryWrite = 20_000

    /// After a write: refreshes the image once the rows changed since it reach `fraction` of the live rows
    /// (a bulk write), so that small writes stay cheap and a store that took many of them still opens fast; the
    /// documents image of a store of up to ``documentsImageEveryWrite`` documents after any write that left it
    /// stale (when it can: see below).
    mutating func refreshImageIfStale(database: StoreDatabase, fraction: Double = 0.01) throws {
        guard file != nil else { return }
        let changedEnough =
            rowsChangedSinceImage > 0
            && Double(rowsChangedSinceImage) >= fraction * Double(max(1, matrix.liveRows))
        if ann.hnsw == nil {
            guard changedEnough || documents.count <= Self.documentsImageEveryWrite else { return }
            // Only a shortcut for the next open: one that cannot be written (the disk full, another process
            // writing) stays stale, and that open reads the tables.
            do {
                if try !database.imageIsCurrent(header: Self.imageHeader) { try saveImage(to: database) }
            } catch {}
            return
        } else {
            guard semanticReady, changedEnough else { return }
        }
        try saveImage(to: database)
    }
}

extension StoreDatabase {
    /// Reads vectors from this file for an index that does not hold them.
    var vectorFile: VectorFile {
        let database = self
        return VectorFile(
            read: { chunkIDs, visit in try database.withVectors(chunkIDs: chunkIDs, visit) },
            all: { visit in try database.allVectors(visit) })
    }
}
