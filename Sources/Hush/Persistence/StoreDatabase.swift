import Foundation
import GRDB
import HushEmbedding

/// Persistence: the store's one SQLite file, through GRDB.
///
/// Every table, every SQL statement and the migrations live in this folder (`Persistence/`), and it is the
/// only part of the engine that imports GRDB. The rest asks it for values (documents, chunks, vectors,
/// keyword matches, the saved graph) and writes through a ``StoreTransaction``, one per write batch, so
/// documents, chunks, vectors, full-text rows and the graph commit together.
///
/// Reads run on GRDB's reader connections (WAL: a reader never waits for a writer); every error leaves as a
/// ``StoreError`` naming the file, with GRDB's error kept as the cause where there is one.
struct StoreDatabase: Sendable {
    let writer: any DatabaseWriter
    /// The file, or `nil` in memory.
    let path: String?
    /// The file's commit counter (`meta.commit_counter`) that this store's memory reflects: set when memory is
    /// loaded from the file and advanced by each of its own write transactions. Another process's commit
    /// leaves it behind, and the next write reloads memory first, inside its transaction; `nil` before the first
    /// load.
    let synced = Locked<Int64?>(nil)
    /// Why the saved memory image was set aside when memory was loaded (damaged: a count past its bytes, an id
    /// out of range...), or nil.
    let imageProblem = Locked<String?>(nil)
    /// Which keyword tokens match half the index or more (see `KeywordIndexReader.isUninformative`), as counted
    /// at one commit: a search as you type asks again for the words typed before on every keystroke.
    let commonTokens = Locked(KeywordIndexReader.CommonTokens())
    /// Each keyword token's rows and bm25 terms, as read at one commit, for searches as you type (see
    /// `KeywordIndexReader.rows(orOf:limit:documents:)`).
    let tokenTerms = Locked(KeywordIndexReader.TokenTerms())

    /// Whether this open created the file (it was missing): a store that then fails to open removes it again
    /// (``abandon(readOnly:busyTimeout:)``), so a refused open leaves no empty store behind.
    var createdFile = false

    /// The path as messages show it.
    var displayPath: String { path ?? ":memory:" }

    // MARK: - Reading and writing

    /// A read transaction; any error leaves as a ``StoreError`` naming the file and `operation`.
    func read<T>(_ operation: String = "read", _ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch {
            throw StoreError.wrapping(error, path: path, operation: operation)
        }
    }

    /// One write transaction: everything `body` writes through the transaction commits together, or nothing
    /// does. Database and graph errors leave as ``StoreError``s; any other error `body` throws (a typed Hush
    /// error, a cancellation, a test's injected failure) passes through unchanged.
    func write<T>(_ operation: String = "write", _ body: (StoreTransaction) throws -> T) throws -> T {
        do {
            return try writer.write { db in
                let before = db.totalChangesCount
                let counter = try? MemoryImageTable.commitCounter(db)
                let result = try body(StoreTransaction(db: db))
                if db.totalChangesCount != before {
                    try Self.countCommit(db)
                    // Memory that reflected the file before this transaction reflects it after; memory already
                    // behind another process's commit stays behind (the next write reloads it).
                    if let counter { synced.withLock { if $0 == counter { $0 = counter + 1 } } }
                }
                return result
            }
        } catch  where error is DatabaseError || error is any FileContentError {
            throw StoreError.wrapping(error, path: path, operation: operation)
        }
    }

    /// Whether memory reflects the file as `transaction` sees it: false once another process (or connection)
    /// committed since memory was loaded or last written. Unknown (no load yet) counts as current.
    func memoryIsCurrent(_ transaction: StoreTransaction) throws -> Bool {
        guard let synced = synced.value else { return true }
        return synced == (try MemoryImageTable.commitCounter(transaction.db))
    }

    /// Records that memory no longer reflects any commit of the file (it could not be reloaded): the next write
    /// reloads it first, as after another process's commit.
    func markMemoryBehind() {
        synced.withLock { $0 = -1 }
    }

    /// Bumps `meta.commit_counter`: every write transaction that changed a row does, last, so a saved index
    /// image (stamped with the counter it was written at) is stale after any later change.
    static func countCommit(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO meta(key, value) VALUES (?, '1')
                ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
                """, arguments: [StoreSchema.Key.commitCounter])
    }
}

/// An error in what the file holds, thrown while a transaction reads or writes it (a saved graph that cannot be
/// read, for one): reported as a ``StoreError/database(_:)`` as SQLite's own errors are.
protocol FileContentError: Error {}

/// A write transaction of a ``StoreDatabase``: the statements a write batch runs, all in one transaction.
/// Values only cross it (documents, chunk ids, vectors, the graph); SQL stays inside.
struct StoreTransaction {
    let db: Database
}
