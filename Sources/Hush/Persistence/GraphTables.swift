import Foundation
import GRDB

/// The HNSW graph in the store's file: `hnsw_meta(key, value)`, `hnsw_nodes(row, level, deleted)` and
/// `hnsw_edges(row, level, neighbours)` (neighbours: u32 little-endian BLOB, one row per node and level).
/// Nodes are named by vector row, so the graph and the `vectors` table agree without a mapping.
extension HNSWIndex {
    /// Writes the graph: only the nodes changed since the last save (or everything with `full`), plus the
    /// metadata. Call inside the store's write transaction, in a file with the store's schema (the graph
    /// tables come with schema version 2, see `StoreSchema`).
    ///
    /// - Complexity: O(changed nodes × levels) statements.
    ///
    /// ```swift
    /// try dbQueue.write { try index.save(in: $0) }
    /// ```
    package func save(in db: Database, full: Bool = false) throws {
        // Nothing changed since the last save: writing the metadata again would count as a commit.
        if !full && !hasUnsavedChanges { return }
        if full {
            try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges;")
        }
        let deleteNode = try db.cachedStatement(sql: "DELETE FROM hnsw_nodes WHERE row = ?")
        let deleteEdges = try db.cachedStatement(sql: "DELETE FROM hnsw_edges WHERE row = ?")
        // Upserts: a node row that did not change (a neighbour whose list grew) is not written again.
        let putNode = try db.cachedStatement(
            sql: """
                INSERT INTO hnsw_nodes(row, level, deleted) VALUES (?, ?, ?)
                ON CONFLICT(row) DO UPDATE SET level = excluded.level, deleted = excluded.deleted
                WHERE level != excluded.level OR deleted != excluded.deleted
                """)
        let putEdges = try db.cachedStatement(
            sql: """
                INSERT INTO hnsw_edges(row, level, neighbours) VALUES (?, ?, ?)
                ON CONFLICT(row, level) DO UPDATE SET neighbours = excluded.neighbours
                """)
        if !full {
            for row in removedRows.sorted() {
                try deleteNode.execute(arguments: [row])
                try deleteEdges.execute(arguments: [row])
            }
        }
        let rows: [Int] = full ? (0..<slotCount).filter { levels[$0] >= 0 } : dirtyRows.sorted()
        for row in rows where contains(row: row) {
            let level = Int(levels[row])
            try putNode.execute(arguments: [row, level, Int(deletedFlags[row])])
            for l in 0...level {
                try putEdges.execute(arguments: [row, l, Self.blob(links(row, l))])
            }
        }
        let meta: [(String, String)] = [
            ("version", "1"), ("dimension", "\(dimension)"), ("M", "\(parameters.M)"), ("M0", "\(parameters.M0)"),
            ("efConstruction", "\(parameters.efConstruction)"), ("efSearch", "\(parameters.efSearch)"),
            ("seed", "\(parameters.seed)"), ("keepPrunedConnections", parameters.keepPrunedConnections ? "1" : "0"),
            ("exactFilterFraction", "\(parameters.exactFilterFraction)"), ("entryPoint", "\(entryPoint)"),
            ("maxLevel", "\(maxLevel)"), ("nodeCount", "\(liveCount + deletedCount)"),
        ]
        let putMeta = try db.cachedStatement(sql: "INSERT OR REPLACE INTO hnsw_meta(key, value) VALUES (?, ?)")
        for (key, value) in meta { try putMeta.execute(arguments: [key, value]) }
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
    /// - Complexity: O(nodes + edges) — about a second for a million nodes.
    ///
    /// ```swift
    /// let index = try dbQueue.read { try HNSWIndex.load(from: $0) }
    /// ```
    package static func load(from db: Database) throws -> HNSWIndex? {
        guard try db.tableExists("hnsw_meta"), try db.tableExists("hnsw_nodes"), try db.tableExists("hnsw_edges")
        else { return nil }
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM hnsw_meta") {
            if let key = row[0] as String?, let value = row[1] as String? { meta[key] = value }
        }
        guard !meta.isEmpty else { return nil }
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
        let index = try HNSWIndex(dimension: try int("dimension"), parameters: parameters)
        let maxRow = try Int.fetchOne(db, sql: "SELECT MAX(row) FROM hnsw_nodes") ?? -1
        let nodeCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM hnsw_nodes") ?? 0
        index.reserveSlots(maxRow + 1)
        // Upper lists: reserve what the levels need in one allocation.
        let upperSlots = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(level), 0) FROM hnsw_nodes") ?? 0
        index.reserveUpper(upperSlots * index.strideUpper)
        var top = -1
        let nodes = try Row.fetchCursor(db, sql: "SELECT row, level, deleted FROM hnsw_nodes ORDER BY row")
        while let node = try nodes.next() {
            let row: Int = node[0]
            let level: Int = node[1]
            let deleted: Int = node[2]
            guard row >= 0, level >= 0, level <= 32 else {
                throw ANNError.corruptGraph("node \(row) has level \(level)")
            }
            index.allocateNode(row, level: level)
            if deleted != 0 {
                index.deletedFlags[row] = 1
                index.deletedCount += 1
            } else {
                index.liveCount += 1
            }
            top = max(top, level)
        }
        guard index.liveCount + index.deletedCount == nodeCount else {
            throw ANNError.corruptGraph("node count changed while reading")
        }
        let edges = try Row.fetchCursor(db, sql: "SELECT row, level, neighbours FROM hnsw_edges")
        while let edge = try edges.next() {
            let row: Int = edge[0]
            let level: Int = edge[1]
            guard row >= 0, row < index.slotCount, level >= 0, level <= Int(index.levels[row]) else {
                throw ANNError.corruptGraph("edges of row \(row) on level \(level) belong to no node")
            }
            let maxDegree = index.maxDegree(level)
            let list = index.links(row, level)
            try edge.withUnsafeData(atIndex: 2) { data in
                let data = data ?? Data()
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
        }
        index.maxLevel = top
        index.entryPoint = (try? int("entryPoint")) ?? -1
        index.dirtyRows.removeAll()
        index.removedRows.removeAll()
        index.insertedSinceSave = 0
        return index
    }
}

extension StoreTransaction {
    /// Writes `graph` (its dirty nodes, or all of it with `full`), or empties the graph tables when there is
    /// no graph.
    func saveGraph(_ graph: HNSWIndex?, full: Bool = false) throws {
        if let graph {
            try graph.save(in: db, full: full)
        } else {
            try clearGraph()
        }
    }

    /// Empties the graph tables (the graph no longer matches the vectors, or the store needs none).
    func clearGraph() throws {
        try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges; DELETE FROM hnsw_meta;")
    }
}

extension HNSWIndex {
    /// A SQLite file with the store's schema (the graph tables among its tables), to save a graph in outside a
    /// store: the ANN benchmark and tests.
    ///
    /// ```swift
    /// let file = try HNSWIndex.graphFile(path: "graph.sqlite")
    /// try file.write { try index.save(in: $0, full: true) }
    /// ```
    package static func graphFile(path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        try StoreSchema.migrate(queue)
        return queue
    }
}
