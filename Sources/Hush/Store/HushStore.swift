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
    nonisolated let embedder: any Embedder
    nonisolated let options: StoreOptions
    nonisolated let index: VectorIndex
    nonisolated let cache: QueryEmbeddingCache
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
    /// ```swift
    /// let store = try await HushStore.open(path: url.path, embedder: try BERTEmbedder(modelDirectory: dir))
    /// ```
    ///
    /// - Throws: ``StoreError/schemaTooNew(path:found:supported:)``, ``StoreError/notAStore(path:reason:)``,
    ///   ``StoreError/embedderMismatch(stored:current:)`` (unless `options.allowEmbedderMismatch`).
    /// - Complexity: O(chunks × dimension) to load the vectors.
    public static func open(path: String, embedder: any Embedder, options: StoreOptions = .init()) async throws
        -> HushStore
    {
        try createPrivateFile(path)
        let pool: DatabasePool
        do {
            var configuration = configuration()
            // Another process writing the same file: wait for it instead of failing at once.
            configuration.busyMode = .timeout(busyTimeout)
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
        {
            throw StoreError.database(
                "cannot open \(path) for writing (\(error.message ?? "read-only")): check the file's and its folder's "
                    + "permissions, or that the disk is not mounted read-only")
        } catch {
            throw StoreError.notAStore(path: path, reason: String(describing: error))
        }
        return try HushStore(writer: pool, path: path, embedder: embedder, options: options)
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
        return try HushStore(writer: queue, path: nil, embedder: embedder, options: options)
    }

    /// How long a write waits for another process's write transaction on the same file.
    static let busyTimeout: TimeInterval = 10

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

    init(writer: any DatabaseWriter, path: String?, embedder: any Embedder, options: StoreOptions) throws {
        guard options.batchSize > 0, options.embeddingBatchSize > 0 else {
            throw StoreError.invalidOption("batchSize and embeddingBatchSize must be at least 1")
        }
        self.writer = writer
        self.path = path
        self.embedder = embedder
        self.options = options
        self.cache = QueryEmbeddingCache(capacity: options.queryCacheCapacity)
        self.preparer = DocumentPreparer(embedder: embedder)
        self.analyzer = QueryAnalyzer()
        let displayPath = path ?? ":memory:"
        let current = embedder.identity
        let stored: EmbedderIdentity
        do {
            let found = try writer.read { db in try StoreSchema.recordedVersion(db) }
            if let found, found > StoreSchema.version {
                throw StoreError.schemaTooNew(path: displayPath, found: found, supported: StoreSchema.version)
            }
            let migrator = StoreSchema.migrator
            if try writer.read({ db in try migrator.hasBeenSuperseded(db) }) {
                throw StoreError.schemaTooNew(
                    path: displayPath, found: found ?? StoreSchema.version + 1, supported: StoreSchema.version)
            }
            try migrator.migrate(writer)
            stored = try writer.write { db in
                if let stored = try StoreSchema.storedIdentity(db) { return stored }
                try StoreSchema.stamp(db, identity: current)
                return current
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        {
            throw StoreError.notAStore(path: displayPath, reason: error.message ?? "not a database")
        } catch {
            throw StoreError.database(String(describing: error))
        }
        if stored != current && !options.allowEmbedderMismatch {
            throw StoreError.embedderMismatch(stored: stored, current: current)
        }
        self.index = VectorIndex(identity: stored, semanticReady: stored == current)
        do {
            try Self.hydrate(index: index, from: writer)
        } catch {
            throw StoreError.database("loading the index: \(error)")
        }
    }

    /// Loads the document table and (when the embedder matches) every vector into memory.
    static func hydrate(index: VectorIndex, from writer: any DatabaseWriter) throws {
        try index.write { state in
            state.documents = DocumentTable()
            state.matrix = VectorMatrix(dimension: state.storedIdentity.dimension)
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
                        SELECT v.chunk_id, c.document_id, v.vector
                        FROM vectors v JOIN chunks c ON c.id = v.chunk_id
                        ORDER BY c.document_id, c.ordinal
                        """)
                while let row = try vectors.next() {
                    let chunkID: Int64 = row[0]
                    let documentID: Int64 = row[1]
                    guard let slot = state.documents.slot(ofRowid: documentID) else { continue }
                    try row.withUnsafeData(atIndex: 2) { data in
                        guard let data else { return }
                        data.withUnsafeBytes { bytes in
                            // A damaged row (NaN or infinity, wrong length) is left out rather than poisoning
                            // every score; `stats()` shows it as vectors in the file but not in memory.
                            guard Self.isFinite(bytes) else { return }
                            _ = state.matrix.append(chunkID: chunkID, slot: slot, bytes: bytes)
                        }
                    }
                }
            }
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
            throw StoreError.database(String(describing: error))
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
            throw StoreError.database(String(describing: error))
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
        let (identity, vectorBytes) = index.read { ($0.storedIdentity, $0.matrix.vectorBytes) }
        let counts: (Int, Int, Int)
        do {
            counts = try readNow { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chunks") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vectors") ?? 0
                )
            }
        } catch {
            throw StoreError.database(String(describing: error))
        }
        var fileSize: Int64 = 0
        if let path {
            for file in [path, path + "-wal"] { fileSize += FileStatus.size(file) ?? 0 }
        }
        return StoreStats(
            documents: counts.0, chunks: counts.1, vectors: counts.2, embedder: identity, fileSizeBytes: fileSize,
            vectorBytes: vectorBytes)
    }

    /// Loads the embedder and touches the vector matrix, so that the first search is not slower than the rest.
    ///
    /// ```swift
    /// try await store.warmUp()
    /// ```
    ///
    /// - Complexity: one query embedding plus one scan.
    public nonisolated func warmUp() async throws {
        _ = try await search("warm up", mode: .semantic, limit: 1)
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
        let unique = Array(Set(ids))
        guard !unique.isEmpty else { return 0 }
        do {
            return try index.write { state in
                let removed = try writer.write { db -> [(rowid: Int64, chunks: [Int64])] in
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
                }
                for entry in removed {
                    for chunk in entry.chunks { state.matrix.remove(chunkID: chunk) }
                    state.documents.remove(rowid: entry.rowid)
                }
                return removed.count
            }
        } catch {
            throw StoreError.database(String(describing: error))
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
