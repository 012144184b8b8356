import Foundation
import GRDB

/// The outcome of `HNSWIndex.verify(against:liveRows:)`: what a store must fix after opening a saved graph.
///
/// ```swift
/// let check = index.verify(against: vectorCount)
/// if !check.isConsistent { index = try index.repaired(check, vectors: view) }
/// ```
package struct HNSWVerification: Sendable, Equatable {
    /// Human-readable problems (empty when consistent).
    package var problems: [String] = []
    /// Rows that have vectors but no node (written after the last graph save): insert them.
    package var missingRows: [Int] = []
    /// Nodes that must go (no vector any more, or not live in the store).
    package var extraRows: [Int] = []
    /// The graph cannot be patched (dangling neighbours, bad entry point): rebuild from the vectors.
    package var needsRebuild = false
    /// True when nothing needs fixing.
    package var isConsistent: Bool { problems.isEmpty }
}

extension HNSWIndex {
    /// Creates the graph tables if absent: `hnsw_meta(key, value)`, `hnsw_nodes(row, level, deleted)` and
    /// `hnsw_edges(row, level, neighbours)` (neighbours: u32 little-endian BLOB, one row per node and level).
    ///
    /// ```swift
    /// try dbQueue.write { try HNSWIndex.createTables(in: $0) }
    /// ```
    package static func createTables(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS hnsw_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS hnsw_nodes(
                    row INTEGER PRIMARY KEY, level INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE IF NOT EXISTS hnsw_edges(
                    row INTEGER NOT NULL, level INTEGER NOT NULL, neighbours BLOB NOT NULL,
                    PRIMARY KEY(row, level)) WITHOUT ROWID;
                """)
    }

    /// Writes the graph: only the nodes changed since the last save (or everything with `full`), plus the
    /// metadata. Call inside the store's write transaction.
    ///
    /// - Complexity: O(changed nodes × levels) statements.
    ///
    /// ```swift
    /// try dbQueue.write { try index.save(in: $0) }
    /// ```
    package func save(in db: Database, full: Bool = false) throws {
        try Self.createTables(in: db)
        if full {
            try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges;")
        }
        let deleteNode = try db.cachedStatement(sql: "DELETE FROM hnsw_nodes WHERE row = ?")
        let deleteEdges = try db.cachedStatement(sql: "DELETE FROM hnsw_edges WHERE row = ?")
        let putNode = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO hnsw_nodes(row, level, deleted) VALUES (?, ?, ?)")
        let putEdges = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO hnsw_edges(row, level, neighbours) VALUES (?, ?, ?)")
        if !full {
            for row in removedRows.sorted() {
                try deleteNode.execute(arguments: [row])
                try deleteEdges.execute(arguments: [row])
            }
        }
        let rows: [Int] = full ? (0..<slotCount).filter { levels[$0] >= 0 } : dirtyRows.sorted()
        var blob = Data()
        for row in rows where contains(row: row) {
            let level = Int(levels[row])
            try putNode.execute(arguments: [row, level, Int(deletedFlags[row])])
            for l in 0...level {
                let list = links(row, l)
                let count = Int(list[0])
                blob.removeAll(keepingCapacity: true)
                for i in 0..<count {
                    let value = list[1 + i].littleEndian
                    withUnsafeBytes(of: value) { blob.append(contentsOf: $0) }
                }
                try putEdges.execute(arguments: [row, l, blob])
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
        return index
    }

    func reserveUpper(_ total: Int) {
        guard total > upperCapacity else { return }
        let fresh = UnsafeMutablePointer<UInt32>.allocate(capacity: total)
        fresh.update(from: upper, count: upperUsed)
        (fresh + upperUsed).initialize(repeating: 0, count: total - upperUsed)
        upper.deallocate()
        upper = fresh
        upperCapacity = total
    }

    /// Checks a loaded graph against the vector store: nodes vs vector rows (`liveRows`, when given, are the
    /// rows that should be in the graph; otherwise all of `0..<vectorCount`), entry point valid and on the
    /// top level, no neighbour id out of range or naming a missing node.
    ///
    /// - Complexity: O(n × M0).
    ///
    /// ```swift
    /// let check = index.verify(against: store.vectorCount)
    /// ```
    package func verify(against vectorCount: Int, liveRows: RowBitmap? = nil) -> HNSWVerification {
        var result = HNSWVerification()
        for row in 0..<vectorCount {
            let wanted = liveRows?.contains(row) ?? true
            let present = contains(row: row) && deletedFlags[row] == 0
            if wanted && !present && !contains(row: row) { result.missingRows.append(row) }
            if !wanted && present { result.extraRows.append(row) }
        }
        for row in vectorCount..<max(vectorCount, slotCount) where contains(row: row) { result.extraRows.append(row) }
        if !result.missingRows.isEmpty {
            result.problems.append("\(result.missingRows.count) vector rows have no graph node")
        }
        if !result.extraRows.isEmpty {
            result.problems.append("\(result.extraRows.count) graph nodes have no live vector row")
        }
        var dangling = 0
        for node in 0..<slotCount where levels[node] >= 0 {
            for l in 0...Int(levels[node]) {
                let list = links(node, l)
                for i in 0..<Int(list[0]) {
                    let other = Int(list[1 + i])
                    if other >= vectorCount || other >= slotCount || Int(levels[other]) < l || other == node {
                        dangling += 1
                    }
                }
            }
        }
        if dangling > 0 {
            result.problems.append("\(dangling) neighbour ids are out of range or name no node")
            result.needsRebuild = true
        }
        if liveCount + deletedCount > 0 {
            if entryPoint < 0 || entryPoint >= slotCount || levels[entryPoint] < 0
                || Int(levels[entryPoint]) != maxLevel || entryPoint >= vectorCount
            {
                result.problems.append("entry point \(entryPoint) is not a node of the top level")
                result.needsRebuild = true
            }
        }
        if result.extraRows.contains(where: { $0 >= vectorCount }) { result.needsRebuild = true }
        return result
    }

    /// Fixes what `verify` found: rebuilds from the vectors when needed, otherwise deletes extra nodes and
    /// inserts missing rows. Returns the index to use (self, or a rebuilt one).
    ///
    /// - Complexity: missing rows × one insertion, or a full build.
    ///
    /// ```swift
    /// index = try index.repaired(check, vectors: view)
    /// ```
    package func repaired(_ verification: HNSWVerification, vectors: VectorView, liveRows: RowBitmap? = nil) throws
        -> HNSWIndex
    {
        guard !verification.isConsistent else { return self }
        if verification.needsRebuild {
            let rows = (0..<vectors.count).filter { liveRows?.contains($0) ?? true }
            let fresh = try HNSWIndex.build(
                dimension: dimension, parameters: parameters, rows: rows, vectors: vectors)
            fresh.removedRows = RowSet((0..<slotCount).filter { contains(row: $0) && !fresh.contains(row: $0) })
            return fresh
        }
        for row in verification.extraRows { try delete(row: row, vectors: vectors) }
        try insert(rows: verification.missingRows, vectors: vectors)
        return self
    }
}
