import Foundation

/// The write part of a store: upsert, import, delete, prune, compact and re-embed. Each public write runs one
/// of these bodies on the store's write queue (`StoreQueues`), so they never overlap. Documents are prepared and
/// embedded outside any lock; each batch is then written through ``writeThrough(_:apply:)``: one SQLite
/// transaction and the matching in-memory update, under the index's write lock.
struct StoreWriter: Sendable {
    let database: StoreDatabase
    let memory: StoreMemory
    let embedder: any Embedder
    let preparer: DocumentPreparer
    let options: StoreOptions
    let readOnly: Bool
    /// The query vectors' cache, emptied when a re-embed swaps the model.
    let cache: QueryEmbeddingCache
    let testHooks: Locked<StoreTestHooks>
    /// Why the tidying after the last write's commit did not finish (``HushStore/pendingCleanup``).
    let pendingCleanup: Locked<String?>
    /// Whether writes pause (``HushStore/suspend()``).
    let suspension: WriteSuspension

    /// Threads for the per-document work of a batch before its transaction: two on two cores or more.
    static let preparationThreads = min(2, ProcessInfo.processInfo.activeProcessorCount)

    /// Throws unless this store may be written: opened writable, with the model its vectors were made with.
    func requireWritable(_ operation: String, needsModel: Bool) throws {
        try requireRunning()
        if readOnly { throw StoreError.readOnly(path: database.path ?? ":memory:", operation: operation) }
        guard needsModel else { return }
        if let blocker = try memory.readyForSemantic(current: embedder.identity, database: database) {
            throw blocker
        }
    }

    /// Waits here while the store is suspended, holding no transaction (before every write and between the
    /// batches of a long one); throws `CancellationError` when the write is cancelled meanwhile.
    func requireRunning() throws {
        try suspension.waitWhileSuspended()
    }

    /// See ``HushStore/deleteDocuments(ids:)``.
    func delete(ids: [String]) throws -> DeletionSummary {
        try requireWritable("delete documents", needsModel: false)
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return DeletionSummary(deleted: 0, notFound: []) }
        let summary = try writeThrough { _, transaction in
            try transaction.deleteDocuments(ids: unique)
        } apply: { state, result, transaction in
            try state.save(try state.remove(result.removed, policy: options.indexPolicy), in: transaction)
            return DeletionSummary(deleted: result.removed.count, notFound: result.notFound)
        }
        var settled = summary
        settled.pendingCleanup = settle()
        return settled
    }

    /// See ``HushStore/prune(maxDocuments:olderThan:)``.
    func prune(maxDocuments: Int?, olderThan: Date?, progress: (@Sendable (StoreProgress) -> Void)? = nil) throws
        -> Int
    {
        try requireWritable("prune documents", needsModel: false)
        if let maxDocuments, maxDocuments < 0 {
            throw StoreError.invalidOption("maxDocuments must be at least 0 (got \(maxDocuments))")
        }
        guard maxDocuments != nil || olderThan != nil else { return 0 }
        // In transactions of `pruneBatchSize` documents, checking for a cancel before each: a cancelled prune
        // keeps what it deleted, and the same call again deletes the rest.
        var pending: ArraySlice<PruneVictim>?
        var removed = 0
        do {
            repeat {
                try CancellationFlag.checkCurrent()
                try requireRunning()
                removed += try writeThrough { _, transaction in
                    if pending == nil {
                        pending = try transaction.pruneVictims(createdBefore: olderThan, keepingNewest: maxDocuments)[
                            ...]
                    }
                    return try transaction.deleteDocuments(pending?.prefix(Self.pruneBatchSize) ?? [])
                } apply: { state, removed, transaction in
                    try state.save(try state.remove(removed, policy: options.indexPolicy), in: transaction)
                    return removed.count
                }
                pending = pending?.dropFirst(Self.pruneBatchSize)
                progress?(StoreProgress(completed: removed, total: removed + (pending?.count ?? 0)))
            } while pending?.isEmpty == false
        } catch {
            // The batches committed keep their graph changes (see `inBatches`).
            try? saveGraphChanges()
            throw error
        }
        settle()
        return removed
    }

    /// The most chunks whose keyword index a write purges of the words of the rows it removed, at its end
    /// (``StoreDatabase/purgeDeletedWords(upTo:)``: about 0.5 s for 25,000 chunks); a larger store keeps them
    /// until ``HushStore/compact()``.
    static let purgeLimit = 25_000

    /// Documents a prune deletes per transaction: a few tens of milliseconds of work, so that a cancel is
    /// heard soon.
    static let pruneBatchSize = 500

    /// See ``HushStore/compact()``.
    func compact() throws -> CompactionReport {
        try requireWritable("compact the file", needsModel: false)
        let before = try database.storageBytes()
        let folded = try database.vacuum(busyTimeout: options.busyTimeout)
        let walBytes = database.path.flatMap { FileStatus.size($0 + "-wal") } ?? 0
        return CompactionReport(
            bytesBefore: before, bytesAfter: try database.storageBytes(), walBytesLeft: folded ? 0 : walBytes)
    }

    /// The tidying step that purges the words of removed rows (``settle()``, and a writable open).
    static let purgeStep = "purging the deleted documents' words from the keyword index"
    /// Who finishes a tidying step that failed.
    static let finishedLater = "the next write, compact() or writable open finishes it"

    /// "`step` failed (why)": a database failure by its SQLite message.
    static func failure(_ step: String, _ error: any Error) -> String {
        let reason = if case .database(let failure)? = error as? StoreError { failure.message } else { "\(error)" }
        return "\(step) failed (\(reason))"
    }

    /// Ends a public write, after its commit: purges the keyword index of the words of removed rows, saves
    /// what its batches left unsaved in the graph (see ``GraphSave``), then refreshes the saved memory image
    /// when the write changed enough rows (see ``StoreMemory/State/refreshImageIfStale(database:fraction:)``).
    ///
    /// None of it is the write: when a step fails (the disk is full, say) the write stands, the step is left for
    /// the next write, `compact()` or writable open (each is marked in the file or in memory: `meta.keyword_purge`,
    /// the graph's unsaved changes, a stale image), and the reason is returned and kept in ``pendingCleanup``.
    @discardableResult
    func settle() -> String? {
        let database = database
        let steps: [(String, () throws -> Void)] = [
            (
                Self.purgeStep,
                {
                    try database.purgeDeletedWords(upTo: Self.purgeLimit)
                }
            ),
            ("saving the vector index", { try saveGraphChanges() }),
            (
                "saving the memory image",
                {
                    try memory.write { state in try state.refreshImageIfStale(database: database) }
                }
            ),
        ]
        var problems: [String] = []
        for (what, step) in steps {
            do {
                try step()
            } catch {
                problems.append(Self.failure(what, error))
            }
        }
        let problem =
            problems.isEmpty
            ? nil
            : "the write is committed, but " + problems.joined(separator: "; ") + ": " + Self.finishedLater
        pendingCleanup.value = problem
        return problem
    }

    /// Saves the graph's changes not saved yet (batches of a bulk write save only when due), in a
    /// transaction of their own; nothing when there are none.
    func saveGraphChanges() throws {
        let database = database
        try memory.write { state in
            guard state.hnsw?.hasUnsavedChanges == true else { return }
            try database.write("save the vector index") { transaction in
                // Memory behind another process's commit: the next write reloads it (and its graph) first.
                guard try database.memoryIsCurrent(transaction) else { return }
                try state.save(.changes, in: transaction)
            }
        }
    }

    /// Runs `write` (the file's side, reading the in-memory state as it is) and then `apply` (the in-memory
    /// update, including the graph's save) in ONE write transaction while holding the index write lock, so the
    /// file, the graph tables and memory change together. When `apply` or the commit fails after memory was
    /// touched, memory is reloaded from the file; when that reload fails too, the error says so (a
    /// ``StoreError/database(_:)`` naming both failures) and the next write reloads memory first.
    ///
    /// Another process may have committed since memory was loaded or last written (two `hush index` runs on
    /// one file): then memory is reloaded from the file inside the transaction, which holds the write lock,
    /// before `write` reads it, so every write acts on the file as it is, never on an older view of it.
    func writeThrough<W, T>(
        _ write: (StoreMemory.State, StoreTransaction) throws -> W,
        apply: (inout StoreMemory.State, W, StoreTransaction) throws -> T
    ) throws -> T {
        let policy = options.indexPolicy
        let database = database
        return try memory.write { state in
            var touched = false
            do {
                return try database.write { transaction in
                    let behind = try !database.memoryIsCurrent(transaction)
                    // Another process re-embedded the file meanwhile: what this store prepared (vectors of the old
                    // model, or a plan made on the old vectors) no longer fits it.
                    if behind, let stored = try transaction.storedIdentity(), stored != state.storedIdentity {
                        throw StoreError.reembeddedMeanwhile(stored: stored, current: state.storedIdentity)
                    }
                    // Memory behind another process's commit, or opened without its vectors: read it all first.
                    if behind || state.vectorsDeferred {
                        touched = true
                        try state.load(from: database, policy: policy, within: transaction)
                    }
                    let written = try write(state, transaction)
                    touched = true
                    return try apply(&state, written, transaction)
                }
            } catch {
                guard touched else { throw error }
                do {
                    try state.load(from: database, policy: policy)
                } catch let reloadError {
                    // Memory is not what the file holds: the next write reloads it first, and the caller hears
                    // of both failures.
                    database.markMemoryBehind()
                    throw StoreError.database(
                        DatabaseFailure(
                            message: "\(error); memory could not be reloaded from the file after it (\(reloadError)): "
                                + "the next write reloads it, or reopen the store", cause: error))
                }
                throw error
            }
        }
    }
}
