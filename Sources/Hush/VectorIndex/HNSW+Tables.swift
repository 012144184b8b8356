import Foundation

/// The graph in the store's file: what its rows hold (Persistence/GraphTables.swift has their SQL). A node is
/// saved under its vector row, with its top level, its tombstone flag and one neighbour list per level.
extension HNSWIndex {
    /// Writes the graph: only the nodes changed since the last save (or everything with `full`), plus the
    /// metadata. Call inside the store's write transaction.
    ///
    /// - Complexity: O(changed nodes × levels) statements.
    ///
    /// ```swift
    /// try dbQueue.write { try index.save(to: GraphTableWriter($0)) }
    /// ```
    package func save(to tables: GraphTableWriter, full: Bool = false) throws {
        // Nothing changed since the last save: writing the metadata again would count as a commit.
        if !full && !hasUnsavedChanges { return }
        if full {
            try tables.removeAllNodes()
        } else {
            for row in removedRows.sorted() { try tables.removeNode(row: row) }
        }
        let rows: [Int] = full ? (0..<slotCount).filter { levels[$0] >= 0 } : dirtyRows.sorted()
        for row in rows where contains(row: row) {
            let level = Int(levels[row])
            try tables.putNode(row: row, level: level, deleted: deletedFlags[row] != 0)
            for l in 0...level {
                try tables.putNeighbours(row: row, level: l, Self.blob(links(row, l)))
            }
        }
        try tables.putMeta([
            ("version", "1"), ("dimension", "\(dimension)"), ("M", "\(parameters.M)"), ("M0", "\(parameters.M0)"),
            ("efConstruction", "\(parameters.efConstruction)"), ("efSearch", "\(parameters.efSearch)"),
            ("seed", "\(parameters.seed)"), ("keepPrunedConnections", parameters.keepPrunedConnections ? "1" : "0"),
            ("exactFilterFraction", "\(parameters.exactFilterFraction)"), ("entryPoint", "\(entryPoint)"),
            ("maxLevel", "\(maxLevel)"), ("nodeCount", "\(liveCount + deletedCount)"),
        ])
        dirtyRows.removeAll()
        removedRows.removeAll()
        insertedSinceSave = 0
    }

    /// Whether nodes or lists changed since the last save.
    var hasUnsavedChanges: Bool { !dirtyRows.isEmpty || !removedRows.isEmpty }

    /// Whether a save that may wait (a batch of a bulk write other than its last) is due: once the nodes
    /// inserted since the last save reach an eighth of the graph, at least 4,096 and at most 32,768.
    ///
    /// Each batch's new nodes change the lists of neighbours spread over the whole table, so a save rewrites
    /// nearly every page of `hnsw_edges` however few nodes it saves; saving every 512 rows made the graph's
    /// saves and their commits a third of a 100k import. A crash before a due save leaves the saved graph
    /// short of at most this many nodes, which the next open inserts (see `reconcile`).
    var saveIsDue: Bool {
        insertedSinceSave >= max(4_096, min(liveCount / 8, 32_768))
    }

    /// A neighbour list (count first) as its saved BLOB: the ids as little-endian UInt32.
    static func blob(_ list: UnsafeMutablePointer<UInt32>) -> Data {
        let count = Int(list[0])
        #if _endian(little)
            return Data(bytes: list + 1, count: count * 4)
        #else
            var blob = Data(capacity: count * 4)
            for i in 0..<count { withUnsafeBytes(of: list[1 + i].littleEndian) { blob.append(contentsOf: $0) } }
            return blob
        #endif
    }

    /// Reads a saved graph (nil when no graph was saved). Neighbour lists are bulk-read BLOBs.
    ///
    /// The file is not trusted: a node's row must be one of the `rows` vector rows and its level at most 32,
    /// and the graph's dimension `dimension` when given, all checked before anything is allocated, so a damaged
    /// row or level is an ``ANNError/corruptGraph(_:)`` (the store then builds the graph again) rather than a
    /// reservation of gigabytes.
    ///
    /// - Complexity: O(nodes + edges) — about a second for a million nodes.
    ///
    /// ```swift
    /// let index = try dbQueue.read { try HNSWIndex.load(from: GraphTableReader($0), rows: vectorRows) }
    /// ```
    package static func load(from tables: GraphTableReader, rows: Int, dimension: Int? = nil) throws -> HNSWIndex? {
        guard let meta = try tables.meta() else { return nil }
        func int(_ key: String) throws -> Int {
            guard let text = meta[key], let value = Int(text) else {
                throw ANNError.corruptGraph("hnsw_meta.\(key) is missing or not a number")
            }
            return value
        }
        guard meta["version"] == "1" else {
            throw ANNError.corruptGraph("unknown hnsw_meta.version \(meta["version"] ?? "nil")")
        }
        let parameters = HNSWParameters(
            M: try int("M"), M0: try int("M0"), efConstruction: try int("efConstruction"),
            efSearch: try int("efSearch"), seed: UInt64(meta["seed"] ?? "") ?? HNSWParameters().seed,
            keepPrunedConnections: meta["keepPrunedConnections"] == "1",
            exactFilterFraction: Double(meta["exactFilterFraction"] ?? "") ?? 0.02)
        let graphDimension = try int("dimension")
        if let dimension, graphDimension != dimension {
            throw ANNError.corruptGraph("hnsw_meta.dimension is \(graphDimension), the vectors' \(dimension)")
        }
        guard graphDimension > 0, graphDimension <= 65_536 else {
            throw ANNError.corruptGraph("hnsw_meta.dimension is \(graphDimension)")
        }
        let index = try HNSWIndex(dimension: graphDimension, parameters: parameters)
        let sizes = try tables.sizes()
        if sizes.nodeCount > 0 {
            guard sizes.minRow >= 0, sizes.maxRow < rows else {
                throw ANNError.corruptGraph(
                    "hnsw_nodes names rows \(sizes.minRow)...\(sizes.maxRow) of \(rows) vector rows")
            }
            guard sizes.minLevel >= 0, sizes.maxLevel <= 32 else {
                throw ANNError.corruptGraph(
                    "hnsw_nodes has levels \(sizes.minLevel)...\(sizes.maxLevel) (at most 32)")
            }
        }
        index.reserveSlots(sizes.maxRow + 1)
        // Upper lists: reserve what the levels need in one allocation.
        index.reserveUpper(sizes.levelSum * index.strideUpper)
        var top = -1
        try tables.forEachNode { row, level, deleted in
            guard row >= 0, level >= 0, level <= 32 else {
                throw ANNError.corruptGraph("node \(row) has level \(level)")
            }
            index.allocateNode(row, level: level)
            if deleted {
                index.deletedFlags[row] = 1
                index.deletedCount += 1
            } else {
                index.liveCount += 1
            }
            top = max(top, level)
        }
        guard index.liveCount + index.deletedCount == sizes.nodeCount else {
            throw ANNError.corruptGraph("node count changed while reading")
        }
        try tables.forEachNeighbourList { row, level, data in
            guard row >= 0, row < index.slotCount, level >= 0, level <= Int(index.levels[row]) else {
                throw ANNError.corruptGraph("edges of row \(row) on level \(level) belong to no node")
            }
            let maxDegree = index.maxDegree(level)
            let list = index.links(row, level)
            let count = data.count / 4
            guard data.count % 4 == 0, count <= maxDegree else {
                throw ANNError.corruptGraph("row \(row) level \(level) has a neighbour list of \(data.count) bytes")
            }
            list[0] = UInt32(count)
            data.withUnsafeBytes { raw in
                for i in 0..<count {
                    list[1 + i] = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                }
            }
        }
        index.maxLevel = top
        index.entryPoint = (try? int("entryPoint")) ?? -1
        index.dirtyRows.removeAll()
        index.removedRows.removeAll()
        index.insertedSinceSave = 0
        return index
    }
}
