import Foundation
import GRDB

// The HNSW graph's tables in the store's file: `hnsw_meta(key, value)`, `hnsw_nodes(row, level, deleted)` and
// `hnsw_edges(row, level, neighbours)` (neighbours: u32 little-endian BLOB, one row per node and level). Nodes are
// named by vector row, so the graph and the `vectors` table agree without a mapping. This file knows the rows
// and their SQL; what goes in them is the graph's business (HNSW+Tables.swift).

/// Writes a graph's rows into the graph tables, inside a write transaction.
///
/// ```swift
/// try dbQueue.write { db in try GraphTableWriter(db).putNode(row: 0, level: 0, deleted: false) }
/// ```
package struct GraphTableWriter {
    private let db: Database
    private let putNodeStatement: Statement
    private let putEdgesStatement: Statement

    /// A writer for the graph tables of `db` (a file with the store's schema: see `StoreSchema`).
    package init(_ db: Database) throws {
        self.db = db
        // Upserts: a node row that did not change (a neighbour whose list grew) is not written again.
        putNodeStatement = try db.cachedStatement(
            sql: """
                INSERT INTO hnsw_nodes(row, level, deleted) VALUES (?, ?, ?)
                ON CONFLICT(row) DO UPDATE SET level = excluded.level, deleted = excluded.deleted
                WHERE level != excluded.level OR deleted != excluded.deleted
                """)
        putEdgesStatement = try db.cachedStatement(
            sql: """
                INSERT INTO hnsw_edges(row, level, neighbours) VALUES (?, ?, ?)
                ON CONFLICT(row, level) DO UPDATE SET neighbours = excluded.neighbours
                """)
    }

    /// Empties the node and neighbour tables (before a whole graph is written).
    package func removeAllNodes() throws {
        try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges;")
    }

    /// Deletes the node of `row` and its neighbour lists.
    package func removeNode(row: Int) throws {
        try db.cachedStatement(sql: "DELETE FROM hnsw_nodes WHERE row = ?").execute(arguments: [row])
        try db.cachedStatement(sql: "DELETE FROM hnsw_edges WHERE row = ?").execute(arguments: [row])
    }

    /// Writes the node of `row`: its top level and whether it is a tombstone.
    package func putNode(row: Int, level: Int, deleted: Bool) throws {
        try putNodeStatement.execute(arguments: [row, level, deleted ? 1 : 0])
    }

    /// Writes the neighbour list of `row` on `level`: `neighbours` is the rows as little-endian UInt32.
    package func putNeighbours(row: Int, level: Int, _ neighbours: Data) throws {
        try putEdgesStatement.execute(arguments: [row, level, neighbours])
    }

    /// Writes the metadata (keys not given keep their values).
    package func putMeta(_ meta: [(key: String, value: String)]) throws {
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO hnsw_meta(key, value) VALUES (?, ?)")
        for (key, value) in meta { try statement.execute(arguments: [key, value]) }
    }
}

/// Reads a saved graph's rows from the graph tables.
///
/// ```swift
/// let meta = try dbQueue.read { db in try GraphTableReader(db).meta() }
/// ```
package struct GraphTableReader {
    private let db: Database

    /// A reader of the graph tables of `db`.
    package init(_ db: Database) { self.db = db }

    /// The saved metadata, or `nil` when no graph is saved (the tables are missing or hold no metadata).
    package func meta() throws -> [String: String]? {
        guard try db.tableExists("hnsw_meta"), try db.tableExists("hnsw_nodes"), try db.tableExists("hnsw_edges")
        else { return nil }
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM hnsw_meta") {
            if let key = row[0] as String?, let value = row[1] as String? { meta[key] = value }
        }
        return meta.isEmpty ? nil : meta
    }

    /// The lowest and highest node rows (-1 without nodes), the number of nodes, their lowest and highest levels
    /// and the sum of their levels (the upper lists to reserve), for the reader to check before it allocates.
    package func sizes() throws -> (
        minRow: Int, maxRow: Int, nodeCount: Int, minLevel: Int, maxLevel: Int, levelSum: Int
    ) {
        // A damaged file's levels could sum past 64 bits: they are summed as reals and clamped.
        let row = try Row.fetchOne(
            db,
            sql: "SELECT MIN(row), MAX(row), COUNT(*), MIN(level), MAX(level), TOTAL(level) FROM hnsw_nodes")
        let levelTotal: Double = row?[5] ?? 0
        return (
            row?[0] ?? -1, row?[1] ?? -1, row?[2] ?? 0, row?[3] ?? 0, row?[4] ?? -1,
            Int(min(levelTotal, 1e15))
        )
    }

    /// Every node in row order: its row, top level and whether it is a tombstone.
    package func forEachNode(_ visit: (_ row: Int, _ level: Int, _ deleted: Bool) throws -> Void) throws {
        let nodes = try Row.fetchCursor(db, sql: "SELECT row, level, deleted FROM hnsw_nodes ORDER BY row")
        while let node = try nodes.next() {
            let deleted: Int = node[2]
            try visit(node[0], node[1], deleted != 0)
        }
    }

    /// Every neighbour list: its row, level and the rows as little-endian UInt32 bytes (read in place, valid
    /// during the call).
    package func forEachNeighbourList(_ visit: (_ row: Int, _ level: Int, _ bytes: Data) throws -> Void) throws {
        let edges = try Row.fetchCursor(db, sql: "SELECT row, level, neighbours FROM hnsw_edges")
        while let edge = try edges.next() {
            let row: Int = edge[0]
            let level: Int = edge[1]
            try edge.withUnsafeData(atIndex: 2) { data in try visit(row, level, data ?? Data()) }
        }
    }
}

extension StoreTransaction {
    /// The graph tables of this transaction, to write a graph's rows into.
    func graphWriter() throws -> GraphTableWriter { try GraphTableWriter(db) }

    /// Empties the graph tables (the graph no longer matches the vectors, or the store needs none).
    func clearGraph() throws {
        try db.execute(sql: "DELETE FROM hnsw_nodes; DELETE FROM hnsw_edges; DELETE FROM hnsw_meta;")
    }
}

/// The graph tables outside a store.
package enum GraphTables {
    /// A SQLite file with the store's schema (the graph tables among its tables), to save a graph in outside a
    /// store: the ANN benchmark and tests.
    ///
    /// ```swift
    /// let file = try GraphTables.file(path: "graph.sqlite")
    /// try file.write { try graph.save(to: GraphTableWriter($0), full: true) }
    /// ```
    package static func file(path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        try StoreSchema.migrate(queue)
        return queue
    }
}
