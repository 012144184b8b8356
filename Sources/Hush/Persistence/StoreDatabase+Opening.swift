import Foundation
import GRDB

/// Opening a file: its schema version checked, a writable file migrated when it needs it, the embedder
/// identity read or stamped, and an old keyword index brought up to date.
extension StoreDatabase {
    /// Checks the file's schema version, migrates a writable file that needs it (a file already current is
    /// only read, so opening never waits for another process's write lock), and returns the stored embedder
    /// identity (stamping `current` into a new writable file) and any unfinished re-embed. A file whose vectors'
    /// identity cannot be read returns a stand-in identity and the reason (`unreadable`), and is never stamped.
    func checkSchema(readOnly: Bool, stamping current: EmbedderIdentity?) throws
        -> (stored: EmbedderIdentity, reembed: UnfinishedReembed?, unreadable: String?)
    {
        let migrator = StoreSchema.migrator
        let (found, superseded, complete) = try read("open the file") { db in
            (
                try StoreSchema.recordedVersion(db), try migrator.hasBeenSuperseded(db),
                try migrator.hasCompletedMigrations(db)
            )
        }
        if let found, found > StoreSchema.version {
            throw StoreError.schemaTooNew(path: displayPath, found: found, supported: StoreSchema.version)
        }
        if superseded {
            throw StoreError.schemaTooNew(
                path: displayPath, found: found ?? StoreSchema.version, supported: StoreSchema.version)
        }
        if !complete, readOnly, let found, found >= StoreSchema.oldestReadable {
            // An older file opened read-only: usable as it is (it has no memory image; the tables are loaded).
        } else if !complete {
            guard !readOnly else {
                if found == nil {
                    throw StoreError.notAStore(path: displayPath, reason: "the file has no Hush tables")
                }
                throw StoreError.readOnly(
                    path: displayPath,
                    operation: "upgrade its schema from version \(found ?? 0) to \(StoreSchema.version)")
            }
            do {
                try StoreSchema.migrate(writer)
            } catch {
                throw StoreError.wrapping(error, path: path, operation: "open the file")
            }
        }
        let (record, reembed) = try read("open the file") { db in
            (try StoreSchema.identityRecord(db), try Self.unfinishedReembed(db))
        }
        switch record {
        case .identity(let stored):
            return (stored, reembed, nil)
        case .unreadable(let reason):
            return (Self.unreadableIdentity, reembed, reason)
        case .none:
            break
        }
        guard let current else {
            throw StoreError.invalidOption(
                "\(displayPath) holds no vectors yet and no embedder was given: open it with one")
        }
        guard !readOnly else { return (current, nil, nil) }
        let stamped = try write("open the file") { transaction -> StoreSchema.IdentityRecord in
            // Another process may have stamped it (or written vectors) since the read above.
            let record = try StoreSchema.identityRecord(transaction.db)
            guard record == .none else { return record }
            try StoreSchema.stamp(transaction.db, identity: current)
            return .identity(current)
        }
        switch stamped {
        case .identity(let stored): return (stored, nil, nil)
        case .unreadable(let reason): return (Self.unreadableIdentity, nil, reason)
        case .none: return (current, nil, nil)
        }
    }

    /// What a store whose identity cannot be read stands on: no model matches it, and its vectors are never
    /// loaded.
    static let unreadableIdentity = EmbedderIdentity(
        model: "(unreadable)", weightsSHA256: "", dimension: 1, pooling: .mean, normalized: true)

    /// Brings an older file's keyword index up to date, once, in one transaction, at a writable open:
    ///
    /// - an index made with the tokenizer that cut words at their vowel signs (before
    ///   ``StoreSchema/keywordTokenizer`` counted marks as letters) is made again from the chunks, each row as
    ///   the write path makes it now (``KeywordText/row(chunk:extras:)``);
    /// - otherwise, in a file whose rows hold no extras or older ones (``StoreSchema/keywordExtrasVersion``),
    ///   each document's first row gets them;
    /// - and rows written before the dotless ı was written i (``StoreSchema/keywordTextVersion``) are
    ///   written again with it (only the rows holding one).
    ///
    /// `extras` gives a document's extras (its tags, category, metadata values, links and mentions; empty for
    /// none).
    ///
    /// - Complexity: O(chunks) row reads and FTS5 inserts when the index is made again (7,656 chunks of Debian
    ///   descriptions: 1.0 s on a Zen 3 core), O(documents) for the extras; nothing once the file is current.
    func upgradeKeywordIndex(extras: (Document) -> String) throws {
        let key = StoreSchema.Key.keywordExtras
        let textKey = StoreSchema.Key.keywordText
        let current = try read("update the keyword index") { db in
            let extrasDone = try StoreSchema.meta(db, key) == StoreSchema.keywordExtrasVersion
            let textDone = try StoreSchema.meta(db, textKey) == StoreSchema.keywordTextVersion
            return try StoreSchema.keywordIndexIsCurrent(db) && extrasDone && textDone
        }
        guard !current else { return }
        try write("update the keyword index") { transaction in
            let db = transaction.db
            // Another process may have brought it up to date since the read above.
            let tokenizerIsCurrent = try StoreSchema.keywordIndexIsCurrent(db)
            let extrasDone = try StoreSchema.meta(db, key) == StoreSchema.keywordExtrasVersion
            let textDone = try StoreSchema.meta(db, textKey) == StoreSchema.keywordTextVersion
            guard !tokenizerIsCurrent || !extrasDone || !textDone else { return }
            if tokenizerIsCurrent {
                // Rows kept: those holding a dotless ı are written again with i (FTS5 reads the new text).
                try db.execute(
                    sql: "UPDATE chunks_fts SET text = replace(text, '\u{131}', 'i') WHERE instr(text, '\u{131}') > 0")
            }
            try StoreSchema.setMeta(db, textKey, StoreSchema.keywordTextVersion)
            guard !tokenizerIsCurrent || !extrasDone else { return }
            // Each document's first chunk and its extras: the row it gets now (an index kept as it is), or the
            // extras to add to that chunk's row (an index made again, below).
            var updates: [(text: String, chunkID: Int64)] = []
            var extrasOfFirst: [Int64: String] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.title, d.body, d.quoted, d.fields, d.tags, d.category, c.id, d.metadata, c.text
                    FROM documents d JOIN chunks c ON c.document_id = d.id
                    WHERE c.ordinal = (SELECT MIN(ordinal) FROM chunks WHERE document_id = d.id)
                    """)
            while let row = try rows.next() {
                let document = Document(
                    id: "", title: row[0], body: row[1], quoted: row[2], fields: JSONCoding.decodeFields(row[3]),
                    tags: JSONCoding.decodeTags(row[4]), category: row[5], metadata: JSONCoding.decodeMetadata(row[7]))
                let found = extras(document)
                guard !found.isEmpty else { continue }
                if tokenizerIsCurrent {
                    updates.append((KeywordText.row(chunk: row[8], extras: found), row[6]))
                } else {
                    extrasOfFirst[row[6]] = found
                }
            }
            if tokenizerIsCurrent {
                let update = try KeywordIndexRows.update(db)
                for (text, chunkID) in updates { try update.execute(arguments: [text, chunkID]) }
            } else {
                try StoreSchema.recreateKeywordIndex(db)
                let insert = try KeywordIndexRows.insert(db)
                let chunks = try Row.fetchCursor(db, sql: "SELECT id, text FROM chunks ORDER BY id")
                while let chunk = try chunks.next() {
                    let chunkID: Int64 = chunk[0]
                    let text: String = chunk[1]
                    try insert.execute(arguments: [
                        chunkID, KeywordText.row(chunk: text, extras: extrasOfFirst[chunkID] ?? ""),
                    ])
                }
            }
            try StoreSchema.setMeta(db, key, StoreSchema.keywordExtrasVersion)
        }
    }

    /// What the file records of the model that made its vectors (``StoreSchema/IdentityRecord/none`` for a new or
    /// empty file).
    func identityRecord() throws -> StoreSchema.IdentityRecord {
        try read("open the file") { db in
            try db.tableExists("meta") ? try StoreSchema.identityRecord(db) : .none
        }
    }
}

/// Opening a file: the connections, their configuration, a file created private, a busy file waited for.
extension StoreDatabase {
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
}
