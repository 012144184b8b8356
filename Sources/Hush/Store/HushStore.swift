import Foundation

/// A searchable collection of documents in one SQLite file: text, chunks, vectors and a full-text index,
/// with an exact in-memory vector index hydrated on open.
///
/// Writes (`upsert`, `delete`, `prune`, `compact`, `reembed`) run one at a time, in call order, on the
/// store's own write queue (never on Swift's cooperative pool); reads (searches, related items, ranking,
/// lookups) run in the caller's task, concurrently with writes and with each other, and always see a
/// committed state (see ARCHITECTURE.md, "Concurrency").
///
/// ```swift
/// let store = try await HushStore.open(path: "notes.hush", embedder: HashingEmbedder())
/// try await store.upsert([Document(id: "n1", title: "Budget", body: "Cut travel costs by 10 %.")])
/// let results = try await store.search("travel budget", limit: 5)
/// ```
public final class HushStore: Sendable {
    /// The file and every statement run on it.
    let database: StoreDatabase
    /// The file, or `nil` in memory.
    var path: String? { database.path }
    /// Whether the file was opened read-only: every write is refused with ``StoreError/readOnly(path:operation:)``.
    public let readOnly: Bool
    let embedder: any Embedder
    /// Whether the store made its embedder itself (opened by model name): its close then gives the model back
    /// (other stores of the process sharing it keep it).
    let ownsModel: Bool
    let options: StoreOptions
    let memory: StoreMemory
    let cache: QueryEmbeddingCache
    let recorder: MetricsRecorder
    /// Searches: the semantic and keyword arms, fusion, boosts and the hits' text.
    let searcher: Searcher
    /// Writes: upsert, import, delete, prune, compact and re-embed (run on `queues`).
    let writer: StoreWriter
    /// Related items, interest ranking, MMR and summaries.
    let ranker: Ranker
    /// Where writes run.
    let queues: StoreQueues
    /// Whether writes pause (``suspend()``), and whether one is running.
    let suspension: WriteSuspension
    /// This store's observers of ``suspendNotification`` and ``resumeNotification``.
    private let suspensionObservers = SuspensionObservers()
    let testHooks = Locked(StoreTestHooks())
    /// How long `init` took to open the file and fill memory (see ``StoreStats/openMilliseconds``).
    let openMilliseconds: Double
    /// Whether ``close()`` ran (then `deinit` has nothing left to do).
    let closed = Locked(false)
    /// The ``changes`` streams being iterated.
    let changeObservers = Locked<[UUID: AsyncStream<StoreChange>.Continuation]>([:])

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
        let database = try StoreDatabase.open(path: path, readOnly: readOnly, busyTimeout: options.busyTimeout)
        do {
            return try HushStore(database: database, embedder: embedder, readOnly: readOnly, options: options)
        } catch {
            database.abandon(readOnly: readOnly, busyTimeout: options.busyTimeout)
            throw error
        }
    }

    /// Opens an empty store held in memory (tests, previews, throw-away indexes).
    ///
    /// ```swift
    /// let store = try await HushStore.inMemory(embedder: HashingEmbedder())
    /// ```
    public static func inMemory(embedder: any Embedder, options: StoreOptions = .init()) async throws -> HushStore {
        try HushStore(database: try StoreDatabase.inMemory(), embedder: embedder, readOnly: false, options: options)
    }

    init(
        database: StoreDatabase, embedder: (any Embedder)?, readOnly: Bool, options: StoreOptions,
        ownsModel: Bool = false
    ) throws {
        self.ownsModel = ownsModel
        guard options.batchSize > 0, options.embeddingBatchSize > 0 else {
            throw StoreError.invalidOption("batchSize and embeddingBatchSize must be at least 1")
        }
        let started = DispatchTime.now().uptimeNanoseconds
        Self.warmQueryTables()
        self.database = database
        self.readOnly = readOnly
        self.options = options
        let cache = QueryEmbeddingCache(capacity: options.queryCacheCapacity)
        let recorder = MetricsRecorder()
        self.cache = cache
        self.recorder = recorder
        let pendingCleanup = Locked<String?>(nil)
        let suspension = WriteSuspension()
        self.suspension = suspension
        self.queues = StoreQueues(suspension: suspension)
        let opened = try database.checkSchema(readOnly: readOnly, stamping: embedder?.identity)
        if !readOnly {
            if let protection = options.fileProtection { try database.protect(protection) }
            let cleaner = options.cleaner
            try database.upgradeKeywordIndex { KeywordText.extras($0, cleaner: cleaner) }
            // Words of rows a write removed before its process ended. A purge that cannot run now (a full disk)
            // is no reason to refuse the store: it stays marked, and the next write tries again.
            do {
                try database.purgeDeletedWords(upTo: StoreWriter.purgeLimit)
            } catch {
                pendingCleanup.value =
                    StoreWriter.failure(StoreWriter.purgeStep, error) + ": " + StoreWriter.finishedLater
            }
        }
        let stored = opened.stored
        let resolved = embedder ?? UnavailableEmbedder(identity: stored)
        self.embedder = resolved
        let gap: SemanticGap?
        if let reason = opened.unreadable {
            // No model can be told to match vectors whose identity is lost: they are never loaded or written,
            // unless a re-embed was asked for (a mismatch allowed), which makes them again.
            gap = embedder != nil && options.allowEmbedderMismatch ? .mismatch : .identityUnreadable(reason: reason)
        } else if embedder == nil {
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
        let chunking = try Self.chunking(
            options: options, database: database, embedder: resolved, sameModel: gap == nil || embedder == nil)
        let preparer = DocumentPreparer(embedder: resolved, chunking: chunking, cleaner: options.cleaner)
        // Without the model the vectors are not needed in memory; the documents still are (keyword search). With
        // a model not loaded yet, the vectors wait in the file for the first semantic call or write.
        let policy = options.indexPolicy
        let memory = StoreMemory(
            identity: stored, gap: gap, file: database.path == nil ? nil : database.vectorFile,
            vectorLoader: { state in try state.open(from: database, policy: policy, save: !readOnly) })
        self.memory = memory
        self.searcher = Searcher(
            database: database, memory: memory, embedder: resolved, cache: cache, analyzer: QueryAnalyzer(),
            cleaner: options.cleaner, recorder: recorder, testHooks: testHooks)
        self.ranker = Ranker(
            database: database, memory: memory, embedder: resolved, cleaner: options.cleaner,
            embeddingBatchSize: options.embeddingBatchSize)
        self.writer = StoreWriter(
            database: database, memory: memory, embedder: resolved, preparer: preparer, options: options,
            readOnly: readOnly, cache: cache, testHooks: testHooks, pendingCleanup: pendingCleanup,
            suspension: suspension)
        let deferring = (resolved as? LazyEmbedder)?.isLoaded == false
        try memory.write { state in
            try state.open(from: database, policy: policy, save: !readOnly, deferringVectors: deferring)
        }
        openMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        suspensionObservers.observe(for: suspension, owner: ObjectIdentifier(self))
    }

    /// Builds the tables a query's analysis reads (the Latin languages' word and letter-group profiles, the
    /// stop words: about 1.5 ms of work, once per process) on another thread, the first time a store opens, so
    /// that the first search typed into the app finds them ready instead of building them.
    static func warmQueryTables() {
        _ = queryTablesWarming
    }

    private static let queryTablesWarming: Void = {
        DispatchQueue.global(qos: .userInitiated).async {
            _ = QueryAnalyzer().analyze("Warming the tables of the languages", fallbackLanguage: nil)
        }
    }()

    /// Ends the store: waits for the writes submitted before it, moves everything committed from the
    /// write-ahead log into the main file (a TRUNCATE checkpoint) and closes the file, so that the store file
    /// alone (a copy, a backup, a sync) holds every change, a deletion included, and gives back the memory the
    /// store held: its vectors, its caches and, opened by model name, its hold on the model (which other stores
    /// of the process opened by that model share; the last one's close frees it). Calls after it fail. A store
    /// that is released without `close()` does the same when it is freed, without reporting a failure.
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: "notes.hush", embedder: HashingEmbedder())
    /// _ = try await store.delete(ids: ["private-entry"])
    /// try await store.close()  // notes.hush alone no longer holds the entry
    /// ```
    ///
    /// - Throws: ``StoreError/checkpointBlocked(path:walBytes:)`` when another process reading an older
    ///   state of the file (or writing it) kept the log from being moved in for the busy timeout: the file is
    ///   closed and nothing is lost, but the changes stay in the `-wal` file beside it until the next write.
    public func close() async throws {
        try await queues.write { [database, readOnly, options, closed] in
            guard
                closed.withLock({ wasClosed in
                    defer { wasClosed = true }
                    return !wasClosed
                })
            else { return }
            try database.finish(checkpointing: !readOnly, busyTimeout: options.busyTimeout)
        }
        // What memory the store holds goes back with the file: its vectors, its query vectors, its keyword rows
        // and, for a store opened by model name, its hold on the model (freed once no other store uses it).
        cache.removeAll()
        database.tokenTerms.withLock { $0 = KeywordIndexReader.TokenTerms() }
        memory.deferVectors()
        if ownsModel, let lazy = embedder as? LazyEmbedder { lazy.release() }
    }

    /// Suspends writing, for an app moving to the background: iOS suspends the process soon after, and one that
    /// holds a lock on a file in a shared (app group) container then is ended (`0xdead10cc`). A write in
    /// progress pauses after the batch it is committing, holding no lock; new writes wait; this returns once no
    /// write of the store is running. Reads and searches go on (SQLite's log lets them read without a lock that
    /// blocks). ``resume()`` lets the writes go on where they paused: nothing committed is redone or lost. A
    /// paused write that is cancelled (a background task's expiry) throws `CancellationError`, keeping its
    /// batches.
    ///
    /// Posting ``suspendNotification`` and ``resumeNotification`` does the same to every store of the process.
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     Task { phase == .background ? await store.suspend() : store.resume() }
    /// }
    /// ```
    public func suspend() async {
        suspension.suspend()
        while suspension.isWriting { try? await Task.sleep(for: .milliseconds(2)) }
    }

    /// Lets writes go on after ``suspend()``.
    public func resume() {
        suspension.resume()
    }

    /// Whether writes are suspended (``suspend()``).
    public var isSuspended: Bool { suspension.isSuspended }

    /// Posted (by the app) to suspend every store of the process, as ``suspend()`` does; with a store as the
    /// notification's object, that store alone.
    public static let suspendNotification = Notification.Name("HushStore.suspend")
    /// Posted (by the app) to resume every store of the process, as ``resume()`` does; with a store as the
    /// notification's object, that store alone.
    public static let resumeNotification = Notification.Name("HushStore.resume")

    deinit {
        for continuation in changeObservers.withLock({ Array($0.values) }) { continuation.finish() }
        guard !closed.value else { return }
        // Best effort: a failure here has no one to report to, and nothing is lost (the log stays).
        try? database.finish(checkpointing: !readOnly, busyTimeout: options.busyTimeout)
    }

    /// How this store cuts documents: `options.chunking` when given; else how its chunks were cut, when they
    /// were cut for this model (recorded in the file; a file with documents and no record was cut at
    /// ``ChunkSize/standard``); else, in a new store or one turning to another model, the model's own sizes;
    /// with `options.chunkTokens` and `options.chunkOverlapTokens` put in.
    ///
    /// - Throws: ``StoreError/invalidOption(_:)`` for a target under 8 tokens or above the model's window, an
    ///   overlap not below the target, or a given `options.chunking` whose window exceeds the model's.
    static func chunking(
        options: StoreOptions, database: StoreDatabase, embedder: any Embedder, sameModel: Bool
    ) throws -> ChunkingConfiguration {
        if let chunking = options.chunking {
            switch chunking.checked(window: embedder.maxTokens, modelName: embedder.identity.model) {
            case .success(let configuration):
                return configuration
            case .failure(let problem):
                throw StoreError.invalidOption(
                    problem.reason(target: "chunking.targetTokens", overlap: "chunking.overlapTokens"))
            }
        }
        let (recorded, hasDocuments) = try database.recordedChunking()
        let chunking: ChunkingConfiguration
        if !sameModel {
            chunking = ChunkingConfiguration(for: embedder)
        } else if let recorded, recorded.maxTokens <= embedder.maxTokens {
            chunking = recorded
        } else if hasDocuments {
            chunking = ChunkingConfiguration(maxTokens: embedder.maxTokens)
        } else {
            chunking = ChunkingConfiguration(for: embedder)
        }
        let resolved = ChunkingConfiguration.resolving(
            chunking, model: embedder.preferredChunkSize, modelName: embedder.identity.model,
            targetTokens: options.chunkTokens, overlapTokens: options.chunkOverlapTokens)
        switch resolved {
        case .success(let configuration):
            return configuration
        case .failure(let problem):
            throw StoreError.invalidOption(problem.reason(target: "chunkTokens", overlap: "chunkOverlapTokens"))
        }
    }

    /// How documents are cut into chunks in this store (see ``StoreOptions/chunking``).
    ///
    /// ```swift
    /// let store = try await HushStore.open(path: "notes.hush", embedder: try E5Embedder())
    /// store.chunking.targetTokens  // 256 in a new store
    /// ```
    public var chunking: ChunkingConfiguration { writer.preparer.chunker.configuration }

    func setTestHooks(_ hooks: StoreTestHooks) {
        testHooks.value = hooks
    }

    // MARK: - Reading

    /// The stored document with this id, or `nil`.
    ///
    /// ```swift
    /// let stored = try await store.document(id: "note-42")
    /// ```
    ///
    /// - Complexity: O(log documents).
    public func document(id: String) async throws -> StoredDocument? {
        try database.document(id: id)
    }

    /// The stored chunk vectors of a document, in chunk order (empty when it is unknown). For related-item
    /// features that start from a stored document instead of a query.
    ///
    /// ```swift
    /// let vectors = try await store.vectors(forDocument: "note-42")
    /// ```
    ///
    /// - Complexity: O(chunks of the document × dimension).
    public func vectors(forDocument id: String) async throws -> [[Float]] {
        try database.vectors(forDocument: id)
    }

    /// Counts, sizes and the embedder identity.
    ///
    /// ```swift
    /// let stats = try await store.stats()
    /// ```
    ///
    /// - Complexity: O(documents + chunks) (SQLite counts).
    public func stats() async throws -> StoreStats {
        let (identity, footprint) = memory.read { ($0.storedIdentity, $0.footprint) }
        let reembed = try database.unfinishedReembed()
        let counts = try database.counts()
        let graphFileBytes = database.graphFileBytes()
        var fileSize: Int64 = 0
        if let path {
            for file in [path, path + "-wal"] { fileSize += FileStatus.size(file) ?? 0 }
        }
        return StoreStats(
            documents: counts.documents, chunks: counts.chunks, vectors: counts.vectors, embedder: identity,
            fileSizeBytes: fileSize,
            vectorBytes: footprint.vectorBytes, index: footprint.choice.strategy, indexReason: footprint.choice.reason,
            indexBytes: footprint.indexBytes,
            graphFileBytes: graphFileBytes, unfinishedReembed: reembed, readOnly: readOnly,
            modelLoaded: memory.read { $0.gap } != .modelNotLoaded, modelInMemory: modelInMemory,
            openMilliseconds: openMilliseconds,
            vectorsInFile: memory.read { !$0.isResident }, imageBytes: database.imageBytes(),
            imageCurrent: (try? database.imageIsCurrent(header: StoreMemory.State.imageHeader)) ?? false,
            chunking: chunking, documentsPerLanguage: try database.documentsPerLanguage(),
            deletedWordsRemain: try database.deletedWordsRemain(), imageProblem: imageProblem,
            keywordIndexProblem: keywordIndexProblem,
            pendingCleanup: pendingCleanup)
    }

    /// Why the tidying after the last write's commit did not finish, or `nil`: purging the words of deleted
    /// documents from the keyword index, saving the vector index or its image, which a full disk, say, can
    /// stop after the write itself committed. The write stands (its call did not throw for it); what it left is
    /// marked and finished by the next write, ``compact()`` or writable open.
    ///
    /// ```swift
    /// let summary = try await store.deleteDocuments(ids: ["draft-3"])
    /// if let pending = summary.pendingCleanup ?? store.pendingCleanup { log(pending) }
    /// ```
    public var pendingCleanup: String? { writer.pendingCleanup.value }

    /// What is wrong with the file's keyword index, or `nil` when it is whole: a file whose `chunks_fts` tables
    /// are missing (damaged, or edited by hand) cannot be searched by keyword, and hybrid search answers by
    /// meaning alone until a writable open (any write, or ``compact()``) builds the index again.
    ///
    /// ```swift
    /// if let problem = store.keywordIndexProblem { log(problem) }
    /// ```
    public var keywordIndexProblem: String? {
        guard (try? database.keywordIndexIsMissing()) == true else { return nil }
        return StoreError.keywordIndexMissing(path: path ?? ":memory:").description
    }

    /// Why the saved memory image was set aside at the open (see ``StoreStats/imageProblem``), or `nil`.
    ///
    /// ```swift
    /// if let problem = store.imageProblem { log("memory image damaged (\(problem)); read from the tables") }
    /// ```
    public var imageProblem: String? { database.imageProblem.value }

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
        try await deleteDocuments(ids: ids).deleted
    }

    /// Deletes the documents with these ids, as ``delete(ids:)`` does, and says how many it deleted and which
    /// ids it found no document for. Both are read inside the transaction that deleted them, so they always add
    /// up to the distinct ids asked for, even while another process writes the same ids.
    ///
    /// ```swift
    /// let summary = try await store.deleteDocuments(ids: ["note-42", "note-43"])
    /// if !summary.notFound.isEmpty { print("already gone: \(summary.notFound)") }
    /// ```
    ///
    /// - Complexity: O(deleted chunks × log chunks), one transaction.
    @discardableResult
    public func deleteDocuments(ids: [String]) async throws -> DeletionSummary {
        let summary = try await queues.write { [writer] in try writer.delete(ids: ids) }
        if summary.deleted > 0 { announce(StoreChange(kind: .deleted, documentIDs: ids, count: summary.deleted)) }
        return summary
    }
}

/// What ``HushStore/deleteDocuments(ids:)`` did: the documents it deleted, and the ids (distinct, in the order
/// asked) that named no document when it ran.
public struct DeletionSummary: Sendable, Equatable {
    /// How many documents were deleted.
    public var deleted: Int
    /// The ids that named no document.
    public var notFound: [String]
    /// What the deletion committed but could not tidy after (purging the deleted words from the keyword index,
    /// when the disk is full, say), and that the next write finishes; `nil` when nothing is pending. The
    /// documents are deleted either way. See ``HushStore/pendingCleanup``.
    public var pendingCleanup: String?

    /// Creates a summary.
    public init(deleted: Int, notFound: [String], pendingCleanup: String? = nil) {
        self.deleted = deleted
        self.notFound = notFound
        self.pendingCleanup = pendingCleanup
    }
}
