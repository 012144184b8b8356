import Foundation

extension VectorIndex.State {
    /// Rebuilds the in-memory index from the file: documents, vectors at their stored rows (vectors without a row, e.g.
    /// from an older file, get one and it is written back), then the strategy: a saved HNSW graph is loaded
    /// and verified against the vector rows, and repaired (missing nodes inserted, extra ones removed) or
    /// rebuilt when they disagree; int8/binary codes are derived from the vectors.
    /// With `save: false` (a read-only store) nothing is written back: rows and repairs stay in memory.
    /// Within `transaction` (a write that found memory behind another process's commit) the file is read and
    /// written through it.
    mutating func load(
        from database: StoreDatabase, policy: IndexPolicy, save: Bool = true,
        within transaction: StoreTransaction? = nil
    ) throws {
        documents = DocumentTable()
        matrix = VectorMatrix(dimension: storedIdentity.dimension)
        ann = ANNState()
        var unplaced: [(chunkID: Int64, slot: Int32, vector: [Float])] = []
        let (savedGraph, graphProblem) = try database.loadContents(
            documents: { documents.upsert($0) }, withVectors: semanticReady,
            vectorCount: { matrix.reserve(rows: $0) },
            vectors: { loaded in
                guard let slot = documents.slot(ofRowid: loaded.documentID) else { return }
                // A damaged row (NaN or infinity, wrong length) is left out rather than poisoning every
                // score; `stats()` shows it as a vector in the file but not in memory.
                guard loaded.bytes.withUnsafeBytes({ Self.isFinite($0) }) else { return }
                let placed = loaded.bytes.withUnsafeBytes { bytes -> Bool in
                    guard let stored = loaded.row, stored >= 0, stored < Int64(Int32.max) else { return false }
                    return matrix.load(
                        chunkID: loaded.chunkID, slot: slot, row: Int32(stored), bytes: bytes)
                }
                if !placed, let vector = VectorBlob.decode(loaded.bytes), vector.count == matrix.dimension {
                    unplaced.append((loaded.chunkID, slot, vector))
                }
            }, in: transaction)
        matrix.rebuildAllocator()
        guard semanticReady else { return }
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
            try applyPolicy(policy, transaction: nil)
        } catch let error as ANNError {
            throw StoreError.database(
                DatabaseFailure(message: "cannot build the vector index: \(error)", cause: error))
        }
        if let graph = ann.hnsw, graph !== savedGraph { fullWrite = true }
        let graphDirty = ann.hnsw?.hasUnsavedChanges ?? false
        guard save, !placements.isEmpty || fullWrite || clear || graphDirty else { return }
        if let transaction {
            try transaction.setVectorRows(placements)
            try transaction.saveGraph(ann.hnsw, full: fullWrite)
            return
        }
        try database.write("load the index") { transaction in
            try transaction.setVectorRows(placements)
            try transaction.saveGraph(ann.hnsw, full: fullWrite)
        }
    }

    /// Checks a saved graph against the loaded vector rows and fixes it: tombstones are compacted away,
    /// rows without a node are inserted, nodes without a live row removed; a graph whose structure is broken
    /// (dangling neighbours, bad entry point, tombstone over a live row) is rebuilt. `full` is set when the
    /// result must be written in full.
    static func reconcile(_ graph: HNSWIndex, with matrix: VectorMatrix, full: inout Bool) throws -> HNSWIndex {
        let rowChunk = matrix.rowChunk
        let live = Bitset(count: matrix.rows) { rowChunk[$0] >= 0 }
        var check = graph.verify(against: matrix.rows, liveRows: live)
        var tombstoneOverLive = false
        for row in 0..<min(graph.slotCount, matrix.rows) where graph.isDeleted(row: row) && rowChunk[row] >= 0 {
            tombstoneOverLive = true
        }
        if tombstoneOverLive {
            check.problems.append("a tombstoned node has a live vector row")
            check.needsRebuild = true
        }
        if check.isConsistent && graph.deletedCount == 0 { return graph }
        return try matrix.withView { view in
            if check.needsRebuild {
                full = true
                return try graph.repaired(check, vectors: view, liveRows: live)
            }
            // Extra nodes: tombstone them; then compact every tombstone away before inserting missing rows.
            for row in check.extraRows where graph.contains(row: row) && !graph.isDeleted(row: row) {
                try graph.delete(row: row, vectors: view)
            }
            if graph.deletedCount > 0 { try graph.compact(vectors: view) }
            try graph.insert(
                rows: check.missingRows, vectors: view,
                threads: Self.threads(linking: check.missingRows.count, into: graph.liveCount))
            return graph
        }
    }

    /// True when every f32 in `bytes` is finite (its exponent bits are not all ones).
    static func isFinite(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 4 <= bytes.count {
            let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            if bits & 0x7F80_0000 == 0x7F80_0000 { return false }
            offset += 4
        }
        return true
    }
}

extension VectorIndex.State {
    /// Takes the re-embedded vectors in: `identity` becomes the stored one, semantic search is on again, and
    /// memory (graph included) is reloaded from the file.
    mutating func adopt(_ identity: EmbedderIdentity, from database: StoreDatabase, policy: IndexPolicy) throws {
        storedIdentity = identity
        gap = nil
        try load(from: database, policy: policy)
    }
}
