import Foundation
import GRDB

/// Closing, checkpointing and compacting the file, and the space it takes.
extension StoreDatabase {
    /// Closes the connections (the file can then be renamed or removed).
    func close() throws {
        do {
            try writer.close()
        } catch {
            throw StoreError.wrapping(error, path: path, operation: "close the file")
        }
    }

    /// Ends the file's use: with `checkpointing` (a writable file), moves every page of the write-ahead log
    /// into the main file and empties the log (a TRUNCATE checkpoint, waiting up to `busyTimeout` for other
    /// processes' readers and writers), so that the main file alone holds everything committed; then closes
    /// the reader connections before the writer, so that the last one to close can remove the `-wal` and
    /// `-shm` files when no other process has the file open.
    ///
    /// The connections are closed even when the checkpoint cannot finish; it then throws
    /// ``StoreError/checkpointBlocked(path:walBytes:)`` (nothing is lost: the log stays beside the file).
    func finish(checkpointing: Bool, busyTimeout: TimeInterval) throws {
        var blocked: (any Error)?
        if checkpointing, path != nil {
            do {
                try Self.retryingWhileBusy(timeout: busyTimeout) {
                    try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
                }
            } catch {
                blocked = error
            }
        }
        // GRDB closes the writer before the readers; closing the idle readers first leaves the writer last,
        // and SQLite removes the log of a file no other connection has open when its last connection closes.
        if let pool = writer as? DatabasePool { pool.releaseMemory() }
        try close()
        guard let blocked, let path else { return }
        let walBytes = FileStatus.size(path + "-wal") ?? 0
        guard walBytes > 0 else { return }
        if let database = blocked as? DatabaseError,
            database.resultCode == .SQLITE_BUSY || database.resultCode == .SQLITE_LOCKED
        {
            throw StoreError.checkpointBlocked(path: path, walBytes: walBytes)
        }
        throw StoreError.wrapping(blocked, path: path, operation: "move the write-ahead log into the file")
    }

    /// Removes the chunks whose document is gone, with their vectors and keyword rows: SQLite's foreign keys
    /// hold for Hush's own writes, not for a file damaged or edited by another program. The saved graph goes too
    /// (it may link their rows) and memory is marked behind the file, so the next write reloads it and the next
    /// open builds the graph again from the vectors. Returns how many chunks went.
    ///
    /// - Complexity: O(chunks) (one pass over the chunks' document ids).
    @discardableResult
    func removeOrphanChunks() throws -> Int {
        // One pass: a file without orphans changes nothing (no commit is counted, the graph stays).
        let removed = try write("remove the chunks of missing documents") { transaction in
            try transaction.db.execute(sql: "DELETE FROM chunks WHERE document_id NOT IN (SELECT id FROM documents)")
            let removed = transaction.db.changesCount
            if removed > 0 { try transaction.clearGraph() }
            return removed
        }
        if removed > 0 { markMemoryBehind() }
        return removed
    }

    /// The keyword index's 'optimize' (which drops the words of every deleted or replaced row, see
    /// ``purgeDeletedWords(upTo:)``), `VACUUM` and a truncating checkpoint. Those need every other connection to
    /// step aside, and SQLite answers them with SQLITE_BUSY at once rather than through the busy handler, so each
    /// is retried for up to `busyTimeout`. Returns false when the VACUUM committed but another process's reader kept the
    /// checkpoint from emptying the log (the compaction is done; the log is moved in later).
    ///
    /// A cancelled call (``CancellationFlag/current``) stops the VACUUM where it is: SQLite rolls it back, the file
    /// is as before, and the call throws `CancellationError`.
    func vacuum(busyTimeout: TimeInterval) throws -> Bool {
        try removeOrphanChunks()
        let flag = CancellationFlag.current
        do {
            try Self.retryingWhileBusy(timeout: busyTimeout) {
                try writer.writeWithoutTransaction { db in
                    try db.interruptible(by: flag) {
                        // The keyword index without the words of removed rows (those of files written before
                        // `meta.keyword_purge` existed too) and no stale image, then the file without their free
                        // pages.
                        try db.inTransaction {
                            try Self.purgeDeletedWords(db)
                            return .commit
                        }
                        try db.execute(sql: "VACUUM")
                    }
                }
            }
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            throw StoreError.wrapping(error, path: path, operation: "compact the file")
        }
        do {
            try Self.retryingWhileBusy(timeout: busyTimeout) {
                try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            }
            return true
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            return false
        } catch {
            throw StoreError.wrapping(error, path: path, operation: "move the compacted file out of its log")
        }
    }

    /// Drops the words of deleted and replaced rows from the keyword index, when a write left some
    /// (`meta.keyword_purge`) and the index holds at most `limit` chunks (`nil`: whatever its size). FTS5 keeps a
    /// deleted row's entries, with their positions, in its older segments until they are merged, so the words of
    /// a deleted entry could be read back from the file; its 'optimize' merges every segment into one without
    /// them. Returns whether words of removed rows may remain (a larger index waits for ``vacuum(busyTimeout:)``,
    /// which purges first).
    ///
    /// A saved memory image made before the removal goes too (``dropIfStale(_:)``): it names the removed
    /// documents. The purge is not a commit (no document changes), so a current image stays current.
    ///
    /// - Complexity: O(size of the keyword index) when it purges (7,656 chunks: 0.15 s), one `meta` read
    ///   otherwise.
    @discardableResult
    func purgeDeletedWords(upTo limit: Int?) throws -> Bool {
        let key = StoreSchema.Key.keywordPurge
        guard try read("purge deleted words", { try StoreSchema.meta($0, key) }) != nil else { return false }
        do {
            return try writer.write { db in
                guard try StoreSchema.meta(db, key) != nil else { return false }
                if let limit, try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks") ?? 0 > limit { return true }
                try Self.purgeDeletedWords(db)
                return false
            }
        } catch  where error is DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "purge deleted words")
        }
    }

    /// The keyword index merged into one segment without the entries of removed rows, a stale image deleted,
    /// and `meta.keyword_purge` cleared.
    private static func purgeDeletedWords(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')")
        try dropIfStale(db)
        try StoreSchema.setMeta(db, StoreSchema.Key.keywordPurge, nil)
    }

    /// Whether a write left words of removed rows in the keyword index (see ``purgeDeletedWords(upTo:)``).
    func deletedWordsRemain() throws -> Bool {
        try read("read the file") { try StoreSchema.meta($0, StoreSchema.Key.keywordPurge) != nil }
    }

    /// The database file plus its write-ahead log, or the page count × page size for a database in memory.
    func storageBytes() throws -> Int64 {
        guard let path else {
            return try read { db in
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
