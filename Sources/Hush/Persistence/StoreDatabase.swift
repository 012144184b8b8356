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
    /// Why the saved index image was set aside when memory was loaded (damaged: a count past its bytes, an id
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

    // MARK: - Opening

    /// Opens the file at `path` (created 0600 when missing and writable), waiting up to `busyTimeout` for
    /// another process's lock.
    static func open(path: String, readOnly: Bool, busyTimeout: TimeInterval) throws -> StoreDatabase {
        var configuration = configuration()
        // Another process writing the same file: wait for it instead of failing at once.
        configuration.busyMode = .timeout(busyTimeout)
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw StoreError.notAStore(path: path, reason: "no such file")
            }
            try requireStoreOrEmpty(path: path, busyTimeout: busyTimeout)
            configuration.readonly = true
            do {
                let location = readOnlyLocation(path)
                return StoreDatabase(
                    writer: try DatabasePool(path: location, configuration: configuration), path: path)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
                throw cannotOpen(path: path, error)
            } catch {
                throw StoreError.wrapping(error, path: path, operation: "open the file read-only")
            }
        }
        // Opening a pool switches the file to WAL and the migrations add tables: refuse another program's
        // database (or any file that is not a store) before anything can change it.
        try requireStoreOrEmpty(path: path, busyTimeout: busyTimeout)
        let created = try createPrivateFile(path)
        do {
            // Switching a new file to WAL answers SQLITE_BUSY at once, without the busy handler.
            let pool = try retryingWhileBusy(timeout: busyTimeout) {
                try DatabasePool(path: path, configuration: configuration)
            }
            var database = StoreDatabase(writer: pool, path: path)
            database.createdFile = created
            return database
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
        {
            if created { removeFiles(of: path) }
            throw StoreError.readOnly(
                path: path,
                operation: "open it for writing (\(error.message ?? "read-only")): check the file's and its "
                    + "folder's permissions, or open it read-only")
        } catch {
            if created { removeFiles(of: path) }
            throw StoreError.wrapping(error, path: path, operation: "open the file")
        }
    }

    /// Removes the store file at `path` with its write-ahead log and its index (`-wal`, `-shm`).
    static func removeFiles(of path: String) {
        for file in files(of: path) { unlink(file) }
    }

    /// The store file at `path` with its write-ahead log and its index.
    static func files(of path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Gives the store file and the companions it has now the data-protection class `protection` (`setting`
    /// is Foundation's call but in tests). SQLite makes a new `-wal` when a process opens the file after the
    /// last one closed it, so every writable open sets the class again.
    func protect(
        _ protection: StoreFileProtection,
        setting: (FileProtectionType, String) throws -> Void = { type, file in
            try FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: file)
        }
    ) throws {
        guard let path else { return }
        for file in Self.files(of: path) where FileManager.default.fileExists(atPath: file) {
            do {
                try setting(protection.fileProtectionType, file)
            } catch {
                throw StoreError.readOnly(
                    path: file,
                    operation: "give it the protection class \(protection.rawValue) (\(error.localizedDescription))")
            }
        }
    }

    /// Ends a store's open that failed: removes the file when this open created it (an open that is refused
    /// leaves no empty store behind, whose model a later open would then take for the user's choice), and
    /// otherwise finishes it as ``finish(checkpointing:busyTimeout:)`` does, so that what the open wrote (a
    /// migration, a stamp) is in the file itself.
    func abandon(readOnly: Bool, busyTimeout: TimeInterval) {
        if createdFile, let path {
            try? close()
            Self.removeFiles(of: path)
        } else {
            try? finish(checkpointing: !readOnly, busyTimeout: busyTimeout)
        }
    }

    /// Throws ``StoreError/notAStore(path:reason:)`` unless the file at `path` is missing, empty, a SQLite
    /// database without any table (a new store before its first migration) or a Hush store (a `meta` table
    /// recording a schema version, and the `documents`, `chunks` and `vectors` tables). It is read through a read-only connection, so a file that
    /// is refused is left byte for byte as it was.
    static func requireStoreOrEmpty(path: String, busyTimeout: TimeInterval) throws {
        guard let size = FileStatus.size(path), size > 0 else { return }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw StoreError.notAStore(path: path, reason: "it is a folder: give a file name, such as notes.hush")
        }
        let tables: [String]
        let version: String?
        do {
            (tables, version) = try readOnce(path: path, busyTimeout: busyTimeout) { db in
                let names = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
                let version = names.contains("meta") ? try StoreSchema.meta(db, StoreSchema.Key.schemaVersion) : nil
                return (names, version)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            throw StoreError.busy(path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
            throw cannotOpen(path: path, error)
        } catch let error as DatabaseError {
            throw StoreError.notAStore(path: path, reason: error.message ?? "not a database")
        } catch {
            throw StoreError.notAStore(path: path, reason: DatabaseMessage.text(error))
        }
        // No table, or only GRDB's list of migrations: a new store whose first migration another process is
        // running (GRDB creates that table before the migration's transaction).
        if tables.isEmpty || tables == ["grdb_migrations"] { return }
        if version != nil, Set(tables).isSuperset(of: ["documents", "chunks", "vectors"]) { return }
        let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw StoreError.notAStore(
            path: path,
            reason: "it is another program's SQLite database (tables: \(shown)) and Hush writes only its own "
                + "files; it was left unchanged")
    }

    /// Why SQLite could not open the file at `path` (SQLITE_CANTOPEN), in words that say what to do: most
    /// often a write-ahead log beside it without its `-shm` index, in a folder this user cannot write (SQLite
    /// must create the index to read the log, and reading the file without the log would miss changes).
    static func cannotOpen(path: String, _ error: DatabaseError) -> StoreError {
        let manager = FileManager.default
        let walBytes = FileStatus.size(path + "-wal")
        if let walBytes, !manager.fileExists(atPath: path + "-shm") {
            let folder = (path as NSString).deletingLastPathComponent
            return StoreError.readOnly(
                path: path,
                operation: "read it: \(path)-wal (\(walBytes) bytes of changes not yet in the file) can only be read "
                    + "with its index \(path)-shm, which is missing and cannot be created in "
                    + "\(folder.isEmpty ? "." : folder) by this user; let its owner run any writing command on it "
                    + "once (for example `hush compact`), which moves the log into the file, or copy the file and "
                    + "its -wal together to a folder you can write")
        }
        return StoreError.readOnly(
            path: path,
            operation: "open it (\(error.message ?? "cannot open")): check the file's and its folder's permissions")
    }

    /// Where to open `path` read-only: the path itself, or, for a file in write-ahead-log mode whose log is
    /// empty or gone, in a folder this user cannot write (a backup on read-only media, another user's file),
    /// the same file as an immutable URI (`file:…?immutable=1`). SQLite reads such a file only through its
    /// `-shm` index, which it cannot create there; with no log, the file alone holds every commit, and an
    /// immutable read needs no index. A file whose log holds changes is opened as it is (and refused with
    /// ``cannotOpen(path:_:)``'s advice), since an immutable read would miss them.
    static func readOnlyLocation(_ path: String) -> String {
        guard (FileStatus.size(path + "-wal") ?? 0) == 0, !FileManager.default.fileExists(atPath: path + "-shm")
        else { return path }
        let folder = (path as NSString).deletingLastPathComponent
        guard access(folder.isEmpty ? "." : folder, W_OK) != 0 else { return path }
        // Bytes 18 and 19 of the header, the file format's write and read versions: 2 in WAL mode.
        guard let handle = FileHandle(forReadingAtPath: path) else { return path }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20, header[18] == 2, header[19] == 2
        else { return path }
        var encoded = "file:"
        for character in path.unicodeScalars {
            switch character {
            case "%", "?", "#": encoded += String(format: "%%%02X", character.value)
            default: encoded.unicodeScalars.append(character)
            }
        }
        return encoded + "?immutable=1"
    }

    /// An empty database held in memory.
    static func inMemory() throws -> StoreDatabase {
        do {
            return StoreDatabase(writer: try DatabaseQueue(configuration: configuration()), path: nil)
        } catch {
            throw StoreError.wrapping(error, path: nil, operation: "open a database in memory")
        }
    }

    /// Runs `body`, retrying for up to `timeout` while SQLite answers SQLITE_BUSY or SQLITE_LOCKED without
    /// calling the busy handler (switching a new file to WAL, a checkpoint or VACUUM beside another
    /// connection, a lock upgrade that would deadlock).
    static func retryingWhileBusy<T>(timeout: TimeInterval, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 2_000
        while true {
            do {
                return try body()
            } catch let error as DatabaseError
                where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline
            {
                usleep(pause)
                pause = min(pause * 2, 100_000)
            }
        }
    }

    /// Creates a missing store file readable and writable by its owner only (0600, whatever the umask);
    /// SQLite gives the `-wal` and `-shm` files the same permissions. An existing file is left as it is.
    /// Returns whether it created the file.
    @discardableResult
    static func createPrivateFile(_ path: String) throws -> Bool {
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // The umask can only remove bits, never add them, but set the mode explicitly anyway.
            fchmod(descriptor, 0o600)
            _ = Foundation.close(descriptor)
            return true
        }
        let code = errno
        if code == EEXIST { return false }
        throw StoreError.database(
            DatabaseFailure(
                message: "cannot create \(path): \(String(cString: strerror(code))) (check that the folder exists "
                    + "and is writable)"))
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            // What a person deletes leaves the file: SQLite overwrites a deleted row's bytes with zeros instead of
            // leaving them in free space (Debian's build does by default; this makes it so with any build).
            try db.execute(sql: "PRAGMA secure_delete = ON")
            db.add(function: CosineFunction.function)
            try KeywordRankFunction.register(db)
        }
        return configuration
    }

    /// Reads from the `meta` table of the file at `path` through a read-only connection that waits for another
    /// process's lock, without opening a store: `nil` when there is no file or no `meta` table.
    ///
    /// - Throws: ``StoreError/busy(path:)`` past the busy timeout, ``StoreError/notAStore(path:reason:)`` for
    ///   anything else (not a database, damaged).
    static func readMeta(path: String, key: String, busyTimeout: TimeInterval = 10) throws -> String? {
        try readMeta(path: path, busyTimeout: busyTimeout) { db in try StoreSchema.meta(db, key) }
    }

    /// The embedder identity stamped in the file at `path`, read the same way as ``readMeta(path:key:busyTimeout:)``.
    static func storedIdentity(path: String, busyTimeout: TimeInterval = 10) throws -> EmbedderIdentity? {
        try readMeta(path: path, busyTimeout: busyTimeout) { db in try StoreSchema.storedIdentity(db) }
    }

    /// One read through a read-only connection opened for it and closed after (nothing is written, no `-wal`
    /// of this connection's making is left); errors are the caller's to translate.
    private static func readOnce<T>(path: String, busyTimeout: TimeInterval, _ body: (Database) throws -> T) throws
        -> T
    {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: readOnlyLocation(path), configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    private static func readMeta<T>(path: String, busyTimeout: TimeInterval, _ body: (Database) throws -> T?) throws
        -> T?
    {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try readOnce(path: path, busyTimeout: busyTimeout) { db in
                try db.tableExists("meta") ? body(db) : nil
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            throw StoreError.busy(path: path)
        } catch {
            throw StoreError.notAStore(path: path, reason: DatabaseMessage.text(error))
        }
    }

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
                let counter = try? IndexImageTable.commitCounter(db)
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
        return synced == (try IndexImageTable.commitCounter(transaction.db))
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
    /// A saved index image made before the removal goes too (``dropIfStale(_:)``): it names the removed
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

/// An error in what the file holds, thrown while a transaction reads or writes it (a saved graph that cannot be
/// read, for one): reported as a ``StoreError/database(_:)`` as SQLite's own errors are.
protocol FileContentError: Error {}

/// A write transaction of a ``StoreDatabase``: the statements a write batch runs, all in one transaction.
/// Values only cross it (documents, chunk ids, vectors, the graph); SQL stays inside.
struct StoreTransaction {
    let db: Database
}

extension StoreError {
    /// The store error for `error`, which a database call on the file at `path` threw: a busy or locked file
    /// is ``busy(path:)`` (never "not a store"), a write refused by the file system is
    /// ``readOnly(path:operation:)``, a file that is not a database is ``notAStore(path:reason:)``, and Hush's
    /// own typed errors pass through unchanged.
    static func wrapping(_ error: any Error, path: String?, operation: String = "write") -> any Error {
        if error is StoreError || error is SearchError || error is RankingError || error is CancellationError {
            return error
        }
        let displayPath = path ?? ":memory:"
        guard let database = error as? DatabaseError else {
            return StoreError.database(DatabaseFailure(message: DatabaseMessage.text(error), cause: error))
        }
        switch database.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError.busy(path: displayPath)
        case .SQLITE_READONLY:
            return StoreError.readOnly(path: displayPath, operation: operation)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StoreError.notAStore(path: displayPath, reason: database.message ?? "not a database")
        default:
            return StoreError.database(
                DatabaseFailure(
                    message: DatabaseMessage.text(database), resultCode: database.resultCode.primaryResultCode.rawValue,
                    cause: database))
        }
    }
}

/// What a failure says to a person: for SQLite, its result code and message without the statement (GRDB's
/// description of a `DatabaseError` appends the SQL that failed, which is Hush's business, not the user's).
///
/// ```swift
/// DatabaseMessage.text(error)  // "SQLite error 19: UNIQUE constraint failed: documents.external_id"
/// ```
enum DatabaseMessage {
    static func text(_ error: any Error) -> String {
        guard let database = error as? DatabaseError else { return String(describing: error) }
        let code = database.resultCode.rawValue
        return "SQLite error \(code): \(database.message ?? "unknown error")"
    }
}

/// JSON columns: tags (array of strings), metadata (object of strings), fields (array of label/value).
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return "null"
        }
        return text
    }

    /// A store's open reads every document's tags and metadata: the empty ones (most of them, in many stores)
    /// skip the decoder, which costs about 10 µs a call.
    static func decodeTags(_ text: String?) -> [String] {
        guard let text, text != "[]" else { return [] }
        return decode([String].self, text) ?? []
    }

    static func decodeMetadata(_ text: String?) -> [String: String] {
        guard let text, text != "{}" else { return [:] }
        return decode([String: String].self, text) ?? [:]
    }

    static func decodeFields(_ text: String?) -> [Document.Field] {
        decode([Document.Field].self, text) ?? []
    }

    static func decodeStagedChunks(_ text: String?) -> [StagedDocument.Chunk] {
        decode([StagedDocument.Chunk].self, text) ?? []
    }

    static func decodeChunking(_ text: String?) -> ChunkingConfiguration? {
        decode(ChunkingConfiguration.self, text)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) -> T? {
        guard let text, let data = text.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}
