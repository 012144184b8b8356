import Foundation
import GRDB

/// A searchable collection of documents in one SQLite file: text, chunks, vectors and a full-text index,
/// with an exact in-memory vector index hydrated on open.
///
/// Writes (`upsert`, `delete`, `reembed`) run one at a time on the actor; searches run concurrently with
/// them and with each other, and always see a committed state.
///
/// ```swift
/// let store = try await HushStore.open(path: "notes.hush", embedder: HashingEmbedder())
/// try await store.upsert([Document(id: "n1", title: "Budget", body: "Cut travel costs by 10 %.")])
/// let results = try await store.search("travel budget", limit: 5)
/// ```
public actor HushStore {
    nonisolated let writer: any DatabaseWriter
    /// The file, or `nil` in memory.
    nonisolated let path: String?
    /// Whether the file was opened read-only: every write is refused with ``StoreError/readOnly(path:operation:)``.
    public nonisolated let readOnly: Bool
    nonisolated let embedder: any Embedder
    nonisolated let options: StoreOptions
    nonisolated let index: VectorIndex
    nonisolated let cache: QueryEmbeddingCache
    nonisolated let recorder = MetricsRecorder()
    nonisolated let preparer: DocumentPreparer
    nonisolated let analyzer: QueryAnalyzer
    var testHooks = TestHooks()

    /// Failure injection for tests.
    struct TestHooks: Sendable {
        /// Called inside the write transaction after each document of a batch is written.
        var afterDocumentWritten: (@Sendable (_ id: String) throws -> Void)?
        /// Called after each committed re-embed batch.
        var afterReembedBatch: (@Sendable (_ batch: Int) throws -> Void)?
    }

    /// Opens (or creates) the store at `path`, checks its schema and embedder, and loads its vectors.
    ///
    /// With `readOnly: true` the file is never written: no migration, no stamp, no graph repair saved (a
    /// graph that needs repair is repaired in memory only), no `-wal` or `-shm` beside a file in DELETE
    /// journal mode (as `hush build` writes them), and it works in a read-only folder such as an app bundle.
    /// Readers never take the write lock, so a read-only open runs beside another process's writes.
    ///
    /// Without an embedder (`nil`, for example when the model the store was made with is not installed),
    /// the store can still be read, searched by keyword, and have documents deleted; semantic search,
    /// related items and writes throw ``StoreError/modelNotLoaded(stored:)``.
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: url.path, embedder: try BERTEmbedder(modelDirectory: dir))
    /// let shipped = try await HushStore.open(path: bundled.path, embedder: embedder, readOnly: true)
    /// let keywordOnly = try await HushStore.open(path: url.path, embedder: nil)
    /// ```
    ///
    /// - Throws: ``StoreError/schemaTooNew(path:found:supported:)``, ``StoreError/notAStore(path:reason:)``,
    ///   ``StoreError/embedderMismatch(stored:current:)`` (unless `options.allowEmbedderMismatch`),
    ///   ``StoreError/busy(path:)`` when another process holds the write lock past the busy timeout (a
    ///   writable open of a new or old file only), ``StoreError/readOnly(path:operation:)``.
    /// - Complexity: O(chunks × dimension) to load the vectors.
    public static func open(
        path: String, embedder: (any Embedder)?, readOnly: Bool = false, options: StoreOptions = .init()
    ) async throws -> HushStore {
        let pool: DatabasePool
        var configuration = configuration()
        // Another process writing the same file: wait for it instead of failing at once.
        configuration.busyMode = .timeout(options.busyTimeout)
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw StoreError.notAStore(path: path, reason: "no such file")
            }
            configuration.readonly = true
            do {
                pool = try DatabasePool(path: path, configuration: configuration)
            } catch {
                throw StoreError.wrapping(error, path: path, operation: "open the file read-only")
            }
        } else {
            try createPrivateFile(path)
            do {
                pool = try openPool(path: path, configuration: configuration, timeout: options.busyTimeout)
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
            {
                throw StoreError.readOnly(
                    path: path,
                    operation: "open it for writing (\(error.message ?? "read-only")): check the file's and its "
                        + "folder's permissions, or open it read-only")
            } catch {
                throw StoreError.wrapping(error, path: path, operation: "open the file")
            }
        }
        return try HushStore(writer: pool, path: path, embedder: embedder, readOnly: readOnly, options: options)
    }

    /// Opens an empty store held in memory (tests, previews, throw-away indexes).
    ///
    /// ```swift
    /// let store = try await HushStore.inMemory(embedder: HashingEmbedder())
    /// ```
    public static func inMemory(embedder: any Embedder, options: StoreOptions = .init()) async throws -> HushStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw StoreError.database(String(describing: error))
        }
        return try HushStore(writer: queue, path: nil, embedder: embedder, readOnly: false, options: options)
    }

    /// Runs `body`, retrying for up to the busy timeout while SQLite answers SQLITE_BUSY or SQLITE_LOCKED
    /// without calling the busy handler (switching a new file to WAL, a checkpoint or VACUUM beside another
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

    /// Opens the pool, retrying while another process holds the lock that switching a new file to WAL needs:
    /// SQLite answers that `PRAGMA journal_mode` with SQLITE_BUSY at once, without the busy handler.
    static func openPool(path: String, configuration: Configuration, timeout: TimeInterval) throws -> DatabasePool {
        try retryingWhileBusy(timeout: timeout) { try DatabasePool(path: path, configuration: configuration) }
    }

    /// Creates a missing store file readable and writable by its owner only (0600, whatever the umask);
    /// SQLite gives the `-wal` and `-shm` files the same permissions. An existing file is left as it is.
    static func createPrivateFile(_ path: String) throws {
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // The umask can only remove bits, never add them, but set the mode explicitly anyway.
            fchmod(descriptor, 0o600)
            close(descriptor)
            return
        }
        let code = errno
        if code == EEXIST { return }
        throw StoreError.database(
            "cannot create \(path): \(String(cString: strerror(code))) (check that the folder exists and is writable)")
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            db.add(function: CosineFunction.function)
        }
        return configuration
    }

    init(
        writer: any DatabaseWriter, path: String?, embedder: (any Embedder)?, readOnly: Bool, options: StoreOptions
    ) throws {
        guard options.batchSize > 0, options.embeddingBatchSize > 0 else {
            throw StoreError.invalidOption("batchSize and embeddingBatchSize must be at least 1")
        }
        let displayPath = path ?? ":memory:"
        self.writer = writer
        self.path = path
        self.readOnly = readOnly
        self.options = options
        self.cache = QueryEmbeddingCache(capacity: options.queryCacheCapacity)
        self.analyzer = QueryAnalyzer()
        let opened: (stored: EmbedderIdentity, reembed: UnfinishedReembed?)
        do {
            opened = try Self.checkSchema(
                writer, path: displayPath, readOnly: readOnly, stamping: embedder?.identity)
        } catch {
            throw StoreError.wrapping(error, path: path, operation: "open the file")
        }
        if !readOnly {
            do {
                try Self.upgradeKeywordExtras(writer, cleaner: options.cleaner)
            } catch {
                throw StoreError.wrapping(error, path: path, operation: "index tags and handles by keyword")
            }
        }
        let stored = opened.stored
        let resolved = embedder ?? UnavailableEmbedder(identity: stored)
        self.embedder = resolved
        self.preparer = DocumentPreparer(embedder: resolved, chunking: options.chunking, cleaner: options.cleaner)
        let gap: SemanticGap?
        if embedder == nil {
            gap = .modelNotLoaded
        } else if stored == resolved.identity {
            gap = nil
        } else if let reembed = opened.reembed, reembed.target == resolved.identity {
            gap = .reembedUnfinished
        } else if options.allowEmbedderMismatch {
            gap = .mismatch
        } else {
            throw StoreError.embedderMismatch(stored: stored, current: resolved.identity)
        }
        // Without the model the vectors are not needed in memory; the documents still are (keyword search).
        self.index = VectorIndex(identity: stored, gap: gap)
        do {
            try Self.hydrate(index: index, from: writer, policy: options.indexPolicy, save: !readOnly)
        } catch {
            throw StoreError.wrapping(error, path: path, operation: "load the index")
        }
    }

    /// Checks the file's schema version, migrates a writable file that needs it (a file already current is
    /// only read, so opening never waits for another process's write lock), and returns the stored embedder
    /// identity (stamping `stamping` into a new writable file) and any unfinished re-embed.
    static func checkSchema(
        _ writer: any DatabaseWriter, path: String, readOnly: Bool, stamping current: EmbedderIdentity?
    ) throws -> (stored: EmbedderIdentity, reembed: UnfinishedReembed?) {
        let migrator = StoreSchema.migrator
        let (found, superseded, complete) = try writer.read { db in
            (
                try StoreSchema.recordedVersion(db), try migrator.hasBeenSuperseded(db),
                try migrator.hasCompletedMigrations(db)
            )
        }
        if let found, found > StoreSchema.version {
            throw StoreError.schemaTooNew(path: path, found: found, supported: StoreSchema.version)
        }
        if superseded {
            throw StoreError.schemaTooNew(
                path: path, found: found ?? StoreSchema.version + 1, supported: StoreSchema.version)
        }
        if !complete {
            guard !readOnly else {
                if found == nil {
                    throw StoreError.notAStore(path: path, reason: "the file has no Hush tables")
                }
                throw StoreError.readOnly(
                    path: path, operation: "upgrade its schema from version \(found ?? 0) to \(StoreSchema.version)")
            }
            try StoreSchema.migrate(writer)
        }
        let (stored, reembed) = try writer.read { db in
            (try StoreSchema.storedIdentity(db), try UnfinishedReembed.read(db))
        }
        if let stored { return (stored, reembed) }
        guard let current else {
            throw StoreError.invalidOption("\(path) holds no vectors yet and no embedder was given: open it with one")
        }
        guard !readOnly else { return (current, nil) }
        let stamped = try writer.write { db -> EmbedderIdentity in
            // Another process may have stamped it since the read above.
            if let stored = try StoreSchema.storedIdentity(db) { return stored }
            try StoreSchema.stamp(db, identity: current)
            return current
        }
        return (stamped, nil)
    }

    /// Loads the document table and (when the embedder matches) every vector into memory, then the index
    /// the policy chooses (see ``load(_:from:policy:save:)``).
    static func hydrate(index: VectorIndex, from writer: any DatabaseWriter, policy: IndexPolicy, save: Bool) throws {
        try index.write { state in try load(&state, from: writer, policy: policy, save: save) }
    }

    /// Rebuilds `state` from the file: documents, vectors at their stored rows (vectors without a row, e.g.
    /// from an older file, get one and it is written back), then the strategy: a saved HNSW graph is loaded
    /// and verified against the vector rows, and repaired (missing nodes inserted, extra ones removed) or
    /// rebuilt when they disagree; int8/binary codes are derived from the vectors.
    /// With `save: false` (a read-only store) nothing is written back: rows and repairs stay in memory.
    static func load(
        _ state: inout VectorIndex.State, from writer: any DatabaseWriter, policy: IndexPolicy, save: Bool = true
    ) throws {
        state.documents = DocumentTable()
        state.matrix = VectorMatrix(dimension: state.storedIdentity.dimension)
        state.ann = ANNState()
        var unplaced: [(chunkID: Int64, slot: Int32, vector: [Float])] = []
        var savedGraph: HNSWIndex?
        var graphProblem: String?
        try writer.read { db in
            let documents = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, external_id, language, source_type, tags, category, created_at, metadata
                    FROM documents
                    """)
            while let row = try documents.next() {
                state.documents.upsert(
                    DocumentRecord(
                        rowid: row[0], externalID: row[1], language: row[2], sourceType: row[3],
                        tags: JSONCoding.decodeTags(row[4]), category: row[5], createdAt: row[6],
                        metadata: JSONCoding.decodeMetadata(row[7])))
            }
            guard state.semanticReady else { return }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? 0
            state.matrix.reserve(rows: count)
            let vectors = try Row.fetchCursor(
                db,
                sql: """
                    SELECT v.chunk_id, c.document_id, v.vector, v.row
                    FROM vectors v JOIN chunks c ON c.id = v.chunk_id
                    ORDER BY v.row
                    """)
            while let row = try vectors.next() {
                let chunkID: Int64 = row[0]
                let documentID: Int64 = row[1]
                let stored: Int64? = row[3]
                guard let slot = state.documents.slot(ofRowid: documentID) else { continue }
                try row.withUnsafeData(atIndex: 2) { data in
                    guard let data else { return }
                    // A damaged row (NaN or infinity, wrong length) is left out rather than poisoning every
                    // score; `stats()` shows it as a vector in the file but not in memory.
                    guard data.withUnsafeBytes({ Self.isFinite($0) }) else { return }
                    let placed = data.withUnsafeBytes { bytes -> Bool in
                        guard let stored, stored >= 0, stored < Int64(Int32.max) else { return false }
                        return state.matrix.load(chunkID: chunkID, slot: slot, row: Int32(stored), bytes: bytes)
                    }
                    if !placed, let vector = VectorBlob.decode(data), vector.count == state.matrix.dimension {
                        unplaced.append((chunkID, slot, vector))
                    }
                }
            }
            do {
                savedGraph = try HNSWIndex.load(from: db)
            } catch {
                graphProblem = String(describing: error)
            }
        }
        state.matrix.rebuildAllocator()
        guard state.semanticReady else { return }
        var allocator = state.matrix.allocator
        var placements: [(chunkID: Int64, row: Int32)] = []
        for entry in unplaced {
            let row = allocator.allocate()
            placements.append((entry.chunkID, row))
        }
        state.matrix.commit(allocator)
        for (entry, placement) in zip(unplaced, placements) {
            state.matrix.set(chunkID: entry.chunkID, slot: entry.slot, row: placement.row, vector: entry.vector)
        }

        // The index: keep a saved graph when it matches the vectors, else repair or rebuild it.
        let choice = policy.choose(
            vectorCount: state.matrix.liveRows, dimension: state.matrix.dimension,
            current: savedGraph != nil ? .hnsw : nil)
        var fullWrite = false
        var clear = false
        if choice.strategy == .hnsw, let saved = savedGraph, saved.dimension == state.matrix.dimension {
            do {
                state.ann.hnsw = try reconcile(saved, with: state.matrix, full: &fullWrite)
            } catch {
                clear = true  // unpatchable: applyPolicy builds a fresh graph below
            }
        } else if savedGraph != nil || graphProblem != nil {
            clear = true
        }
        try state.applyPolicy(policy, db: nil)
        if let graph = state.ann.hnsw, graph !== savedGraph { fullWrite = true }
        let graphDirty = state.ann.hnsw.map { !$0.dirtyRows.isEmpty || !$0.removedRows.isEmpty } ?? false
        guard save, !placements.isEmpty || fullWrite || clear || graphDirty else { return }
        try writer.write { db in
            let setRow = try db.cachedStatement(sql: "UPDATE vectors SET row = ? WHERE chunk_id = ?")
            for placement in placements { try setRow.execute(arguments: [placement.row, placement.chunkID]) }
            try state.saveGraph(db, full: fullWrite)
        }
    }

    /// Checks a saved graph against the loaded vector rows and fixes it: tombstones are compacted away,
    /// rows without a node are inserted, nodes without a live row removed; a graph whose structure is broken
    /// (dangling neighbours, bad entry point, tombstone over a live row) is rebuilt. `full` is set when the
    /// result must be written in full.
    static func reconcile(_ graph: HNSWIndex, with matrix: VectorMatrix, full: inout Bool) throws -> HNSWIndex {
        let rowChunk = matrix.rowChunk
        let live = RowBitmap(count: matrix.rows) { rowChunk[$0] >= 0 }
        var check = graph.verify(against: matrix.rows, liveRows: live)
        var tombstoneOverLive = false
        for row in 0..<min(graph.slotCount, matrix.rows) where graph.isDeleted(row: row) && rowChunk[row] >= 0 {
            tombstoneOverLive = true
        }
        if tombstoneOverLive {
            check.problems.append("a tombstoned node has a live vector row")
            check.needsRebuild = true
        }
        if check.isConsistent && graph.deletedCount == 0 { return graph }
        return try matrix.withView { view in
            if check.needsRebuild {
                full = true
                return try graph.repaired(check, vectors: view, liveRows: live)
            }
            // Extra nodes: tombstone them; then compact every tombstone away before inserting missing rows.
            for row in check.extraRows where graph.contains(row: row) && !graph.isDeleted(row: row) {
                try graph.delete(row: row, vectors: view)
            }
            if graph.deletedCount > 0 { try graph.compact(vectors: view) }
            try graph.insert(rows: check.missingRows, vectors: view)
            return graph
        }
    }

    /// True when every f32 in `bytes` is finite (its exponent bits are not all ones).
    static func isFinite(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 4 <= bytes.count {
            let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            if bits & 0x7F80_0000 == 0x7F80_0000 { return false }
            offset += 4
        }
        return true
    }

    /// A synchronous read (async callers would otherwise pick GRDB's async overload).
    nonisolated func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.read(body)
    }

    func setTestHooks(_ hooks: TestHooks) {
        testHooks = hooks
    }

    // MARK: - Reading

    /// The stored document with this id, or `nil`.
    ///
    /// ```swift
    /// let stored = try await store.document(id: "note-42")
    /// ```
    ///
    /// - Complexity: O(log documents).
    public nonisolated func document(id: String) async throws -> StoredDocument? {
        do {
            return try readNow { db -> StoredDocument? in
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT d.external_id, d.title, d.body, d.quoted, d.fields, d.source_type, d.language,
                                   d.tags, d.category, d.metadata, d.created_at, d.updated_at, d.content_hash,
                                   (SELECT COUNT(*) FROM chunks c WHERE c.document_id = d.id)
                            FROM documents d WHERE d.external_id = ?
                            """, arguments: [id])
                else { return nil }
                let language: String = row[6]
                let document = Document(
                    id: row[0], title: row[1], body: row[2], quoted: row[3], fields: JSONCoding.decodeFields(row[4]),
                    sourceType: row[5], language: language, tags: JSONCoding.decodeTags(row[7]), category: row[8],
                    metadata: JSONCoding.decodeMetadata(row[9]),
                    createdAt: Date(timeIntervalSince1970: row[10]),
                    updatedAt: (row[11] as Double?).map { Date(timeIntervalSince1970: $0) })
                return StoredDocument(document: document, language: language, chunkCount: row[13], contentHash: row[12])
            }
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
    }

    /// The stored chunk vectors of a document, in chunk order (empty when it is unknown). For related-item
    /// features that start from a stored document instead of a query.
    ///
    /// ```swift
    /// let vectors = try await store.vectors(forDocument: "note-42")
    /// ```
    ///
    /// - Complexity: O(chunks of the document × dimension).
    public nonisolated func vectors(forDocument id: String) async throws -> [[Float]] {
        do {
            return try readNow { db in
                try Data.fetchAll(
                    db,
                    sql: """
                        SELECT v.vector FROM vectors v
                        JOIN chunks c ON c.id = v.chunk_id
                        JOIN documents d ON d.id = c.document_id
                        WHERE d.external_id = ? ORDER BY c.ordinal
                        """, arguments: [id]
                ).compactMap(VectorBlob.decode)
            }
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
    }

    /// Counts, sizes and the embedder identity.
    ///
    /// ```swift
    /// let stats = try await store.stats()
    /// ```
    ///
    /// - Complexity: O(documents + chunks) (SQLite counts).
    public nonisolated func stats() async throws -> StoreStats {
        let (identity, vectorBytes, choice, indexBytes) = index.read {
            ($0.storedIdentity, $0.matrix.vectorBytes, $0.ann.choice, $0.ann.bytes)
        }
        let counts: (Int, Int, Int)
        var graphFileBytes: Int64 = 0
        var reembed: UnfinishedReembed?
        do {
            reembed = try readNow { db in try UnfinishedReembed.read(db) }
            counts = try readNow { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? 0
                )
            }
            // Page accounting needs the dbstat table, which not every SQLite build has.
            graphFileBytes =
                (try? readNow { db in
                    try Int64.fetchOne(
                        db,
                        sql: "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE 'hnsw_%' OR name LIKE "
                            + "'sqlite_autoindex_hnsw_%'")
                }) ?? 0
        } catch {
            throw StoreError.wrapping(error, path: path)
        }
        var fileSize: Int64 = 0
        if let path {
            for file in [path, path + "-wal"] { fileSize += FileStatus.size(file) ?? 0 }
        }
        return StoreStats(
            documents: counts.0, chunks: counts.1, vectors: counts.2, embedder: identity, fileSizeBytes: fileSize,
            vectorBytes: vectorBytes, index: choice.strategy, indexReason: choice.reason, indexBytes: indexBytes,
            graphFileBytes: graphFileBytes, unfinishedReembed: reembed, readOnly: readOnly,
            modelLoaded: index.read { $0.gap } != .modelNotLoaded)
    }

    // MARK: - Deleting

    /// Deletes the documents with these ids (their chunks, vectors and full-text rows too). Returns how many
    /// existed.
    ///
    /// ```swift
    /// let removed = try await store.delete(ids: ["note-42"])
    /// ```
    ///
    /// - Complexity: O(deleted chunks × log chunks), one transaction.
    @discardableResult
    public func delete(ids: [String]) async throws -> Int {
        try requireWritable("delete documents", needsModel: false)
        let unique = Array(Set(ids))
        guard !unique.isEmpty else { return 0 }
        do {
            return try writeThrough { db -> [(rowid: Int64, chunks: [Int64])] in
                var removed: [(rowid: Int64, chunks: [Int64])] = []
                let find = try db.cachedStatement(sql: "SELECT id FROM documents WHERE external_id = ?")
                let chunks = try db.cachedStatement(sql: "SELECT id FROM chunks WHERE document_id = ?")
                let delete = try db.cachedStatement(sql: "DELETE FROM documents WHERE id = ?")
                for id in unique {
                    guard let rowid = try Int64.fetchOne(find, arguments: [id]) else { continue }
                    let chunkIDs = try Int64.fetchAll(chunks, arguments: [rowid])
                    try delete.execute(arguments: [rowid])
                    removed.append((rowid, chunkIDs))
                }
                return removed
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

    /// Runs `sql` and then `apply` (the in-memory update, including the graph's save) in ONE write
    /// transaction while holding the index write lock, so SQLite, the graph tables and memory change together.
    /// When `apply` or the commit fails after memory was touched, memory is reloaded from the file.
    func writeThrough<W, T>(
        _ sql: (Database) throws -> W, apply: (inout VectorIndex.State, W, Database) throws -> T
    ) throws -> T {
        let policy = options.indexPolicy
        return try index.write { state in
            var touched = false
            do {
                return try writer.write { db in
                    let written = try sql(db)
                    touched = true
                    return try apply(&state, written, db)
                }
            } catch {
                if touched { try? Self.load(&state, from: writer, policy: policy) }
                throw StoreError.wrapping(error, path: path)
            }
        }
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

    static func decodeTags(_ text: String?) -> [String] {
        decode([String].self, text) ?? []
    }

    static func decodeMetadata(_ text: String?) -> [String: String] {
        decode([String: String].self, text) ?? [:]
    }

    static func decodeFields(_ text: String?) -> [Document.Field] {
        decode([Document.Field].self, text) ?? []
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) -> T? {
        guard let text, let data = text.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}
