import Foundation
import GRDB

/// The file's size before and after ``HushStore/compact()``.
///
/// ```swift
/// let report = try await store.compact()
/// print(report.bytesBefore, report.bytesAfter)
/// ```
public struct CompactionReport: Sendable, Hashable, Codable {
    /// Bytes of the database file plus its write-ahead log before compacting (pages × page size in memory).
    public var bytesBefore: Int64
    /// The same after compacting.
    public var bytesAfter: Int64

    /// Creates a report.
    public init(bytesBefore: Int64, bytesAfter: Int64) {
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
    }

    /// Bytes returned to the file system (0 when the file grew).
    public var reclaimedBytes: Int64 { max(0, bytesBefore - bytesAfter) }
}

extension HushStore {
    /// Deletes old documents: those created before `olderThan`, and all but the newest `maxDocuments` (by
    /// creation time, then insertion order). Chunks, vectors and full-text rows go with them, in one
    /// transaction, and the in-memory index is updated under the same lock as ``delete(ids:)``. Returns how
    /// many documents were deleted. The file keeps its size until ``compact()``.
    ///
    /// ```swift
    /// let removed = try await store.prune(maxDocuments: 5_000, olderThan: Date(timeIntervalSinceNow: -365 * 86_400))
    /// ```
    ///
    /// - Throws: ``StoreError/invalidOption(_:)`` for a negative `maxDocuments`, ``StoreError/database(_:)``.
    /// - Complexity: O(documents log documents) to pick the victims, plus O(deleted chunks × log chunks).
    @discardableResult
    public func prune(maxDocuments: Int? = nil, olderThan: Date? = nil) async throws -> Int {
        try requireWritable("prune documents", needsModel: false)
        if let maxDocuments, maxDocuments < 0 {
            throw StoreError.invalidOption("maxDocuments must be at least 0 (got \(maxDocuments))")
        }
        guard maxDocuments != nil || olderThan != nil else { return 0 }
        do {
            return try writeThrough { db -> [(rowid: Int64, chunks: [Int64])] in
                var victims = Set<Int64>()
                if let olderThan {
                    victims.formUnion(
                        try Int64.fetchAll(
                            db, sql: "SELECT id FROM documents WHERE created_at < ?",
                            arguments: [olderThan.timeIntervalSince1970]))
                }
                if let maxDocuments {
                    victims.formUnion(
                        try Int64.fetchAll(
                            db, sql: "SELECT id FROM documents ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?",
                            arguments: [maxDocuments]))
                }
                guard !victims.isEmpty else { return [] }
                let list = JSONCoding.encode(victims.sorted())
                var chunks: [Int64: [Int64]] = [:]
                let rows = try Row.fetchCursor(
                    db,
                    sql: "SELECT document_id, id FROM chunks WHERE document_id IN (SELECT value FROM json_each(?))",
                    arguments: [list])
                while let row = try rows.next() { chunks[row[0], default: []].append(row[1]) }
                // The cascade removes chunks and vectors; the chunks trigger removes the full-text rows.
                try db.execute(
                    sql: "DELETE FROM documents WHERE id IN (SELECT value FROM json_each(?))", arguments: [list])
                return victims.sorted().map { ($0, chunks[$0] ?? []) }
            } apply: { state, removed, db in
                try state.remove(removed, policy: options.indexPolicy, db: db)
                return removed.count
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
    }

    /// Returns the space of deleted rows to the file system: `VACUUM`, then a `TRUNCATE` checkpoint of the
    /// write-ahead log. Rewrites the whole file, so run it rarely (after a large prune), not after every delete.
    ///
    /// ```swift
    /// try await store.prune(maxDocuments: 1_000)
    /// let report = try await store.compact()
    /// ```
    ///
    /// - Throws: ``StoreError/database(_:)`` (for example when the disk cannot hold the temporary copy).
    /// - Complexity: O(file size).
    public func compact() async throws -> CompactionReport {
        try requireWritable("compact the file", needsModel: false)
        do {
            let before = try storageBytes()
            try vacuumNow()
            return CompactionReport(bytesBefore: before, bytesAfter: try storageBytes())
        } catch {
            throw StoreError.wrapping(error, path: path, operation: "compact the file")
        }
    }

    /// `VACUUM` and a truncating checkpoint, synchronously (async callers would pick GRDB's async overloads).
    /// Both need every other connection to step aside, and SQLite answers them with SQLITE_BUSY at once
    /// rather than through the busy handler, so each is retried for up to the busy timeout.
    nonisolated func vacuumNow() throws {
        try Self.retryingWhileBusy(timeout: options.busyTimeout) { try writer.vacuum() }
        try Self.retryingWhileBusy(timeout: options.busyTimeout) {
            try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
    }

    /// The database file plus its write-ahead log, or the page count × page size for a store in memory.
    nonisolated func storageBytes() throws -> Int64 {
        guard let path else {
            return try readNow { db in
                let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
                return pages * size
            }
        }
        var total: Int64 = 0
        for file in [path, path + "-wal"] { total += FileStatus.size(file) ?? 0 }
        return total
    }
}
