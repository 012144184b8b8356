/// What can go wrong opening or writing a store. Each case says what to fix.
///
/// ```swift
/// do {
///     let store = try await HushStore.open(path: "notes.hush", embedder: embedder)
/// } catch StoreError.embedderMismatch(let stored, let current) {
///     print("re-index: made with \(stored), now \(current)")
/// }
/// ```
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file was written by a newer Hush whose schema this version does not know.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// The file exists but is not a Hush store (or is damaged).
    case notAStore(path: String, reason: String)
    /// The file's vectors were made by another embedder.
    case embedderMismatch(stored: EmbedderIdentity, current: EmbedderIdentity)
    /// The embedder threw while embedding a document's chunks; nothing of that batch was written.
    case embeddingFailed(documentID: String, reason: String)
    /// The embedder returned a vector with the wrong dimension, NaN or infinity; nothing of that batch was
    /// written.
    case invalidVector(documentID: String, reason: String)
    /// An option is out of range.
    case invalidOption(String)
    /// Another process holds the file's write lock and did not release it within the busy timeout. Nothing
    /// was changed; the same call can be tried again.
    case busy(path: String)
    /// The store was opened read-only (or its file or folder is not writable), so `operation` cannot run.
    case readOnly(path: String, operation: String)
    /// The store's vectors were made with a model that is not loaded: semantic search, related items and
    /// writes need it; reading, keyword search and deleting work without it.
    case modelNotLoaded(stored: EmbedderIdentity)
    /// ``HushStore/open(path:model:threads:readOnly:options:)`` cannot find the model a store was made with
    /// (`model`, one Hush does not know by name) for a writable open; `reason` says what to do.
    case modelUnavailable(path: String, model: String, reason: String)
    /// A `reembed` to `target` stopped part-way (`completed` of `total` chunks): the file keeps searching
    /// with its old vectors until `reembed()` is called again with that model and finishes.
    case reembedUnfinished(target: EmbedderIdentity, completed: Int, total: Int)
    /// Another process finished re-embedding the file with `stored` while this store was writing with
    /// `current`: nothing of the write in flight was written (its vectors belong to the old model); open the
    /// store again, with `stored`'s model, and repeat it.
    case reembeddedMeanwhile(stored: EmbedderIdentity, current: EmbedderIdentity)
    /// ``HushStore/close()`` could not move the write-ahead log into the main file within the busy timeout,
    /// because another process was reading an older state of the file or writing to it. Nothing is lost
    /// (`walBytes` bytes of committed changes stay in the `-wal` file beside it, and the next write or
    /// ``HushStore/compact()`` moves them in), but until then a copy of the main file alone lacks them.
    case checkpointBlocked(path: String, walBytes: Int64)
    /// The database failed: ``DatabaseFailure`` says what, with SQLite's result code and GRDB's error as the
    /// cause.
    case database(DatabaseFailure)
    /// The file holds vectors but its record of the model that made them is missing or damaged (`reason`
    /// says which part): the store opens for reading, keyword search and deleting, and nothing that compares
    /// or writes vectors runs, since no model can be told to match them. ``HushStore/reembed(batchSize:progress:)``,
    /// from a store opened with the model wanted and `StoreOptions(allowEmbedderMismatch: true)`, makes the
    /// vectors again and records that model.
    case identityUnreadable(path: String, reason: String)
    /// The file's keyword index (the `chunks_fts` tables) is missing or damaged: keyword search cannot run,
    /// hybrid search answers by meaning alone (``HushStore/keywordIndexProblem``), and a writable open (any
    /// write, or ``HushStore/compact()``) builds the index again from the stored text.
    case keywordIndexMissing(path: String)

    public var description: String {
        switch self {
        case .keywordIndexMissing(let path):
            return "the keyword index of \(path) is missing or damaged: open the store writable once (any write, or "
                + "compact()) to build it again from the stored text; search by meaning works meanwhile"
        case .schemaTooNew(let path, let found, let supported) where found > supported:
            return "\(path) uses store schema version \(found) but this Hush supports up to \(supported): "
                + "upgrade Hush to open it"
        case .schemaTooNew(let path, let found, _):
            return "\(path) was changed by a newer Hush than this one (its schema version \(found) holds changes "
                + "this Hush does not know): upgrade Hush to open it"
        case .notAStore(let path, let reason):
            return "\(path) is not a usable Hush store (\(reason)): check the path, or give a new file name"
        case .embedderMismatch(let stored, let current):
            return "the store was indexed with \(stored) but the current embedder is \(current): use the same "
                + "model, or open with StoreOptions(allowEmbedderMismatch: true) and call reembed()"
        case .embeddingFailed(let id, let reason):
            return "embedding document \"\(id)\" failed (\(reason)); nothing from its batch was written: fix the "
                + "model or the text and upsert again"
        case .invalidVector(let id, let reason):
            return "the embedder returned an unusable vector for document \"\(id)\" (\(reason)); nothing from "
                + "its batch was written: the model is broken or mismatched"
        case .invalidOption(let what):
            return "invalid store option: \(what)"
        case .busy(let path):
            return "\(path) is busy: another process is writing to it; try again when it has finished"
        case .readOnly(let path, let operation):
            return "cannot \(operation): \(path) is open read-only (or its file or folder is not writable)"
        case .modelNotLoaded(let stored):
            return "this store's vectors were made with \(stored), which is not loaded: load that model for "
                + "semantic search and writes (reading, keyword search and deleting work without it)"
        case .modelUnavailable(let path, let model, let reason):
            return "\(path) was made with \(model), which cannot be loaded here: \(reason)"
        case .reembedUnfinished(let target, let completed, let total):
            return "a re-embed to \(target) stopped after \(completed) of \(total) chunks: call reembed() with that "
                + "model again to finish it (until then the store searches with its previous vectors)"
        case .reembeddedMeanwhile(let stored, let current):
            return "another process re-embedded the store with \(stored) while this one was writing with \(current): "
                + "nothing of the write in flight was written; open the store again (with \(stored)) and repeat it"
        case .checkpointBlocked(let path, let walBytes):
            return "\(path): the last changes (\(walBytes) bytes) are still in \(path)-wal, not yet in the file "
                + "itself, because another process is reading or writing it: they are safe there, and the next "
                + "write or compaction moves them in once that process has finished; until then copy both files "
                + "together"
        case .database(let failure):
            return "database error: \(failure.message)"
        case .identityUnreadable(let path, let reason):
            return "\(path) holds vectors but not which model made them (\(reason)): its documents can be read, "
                + "searched by keyword and deleted; to search by meaning again, re-embed it with a model"
        }
    }
}

/// A failure of the SQLite file under a store: what failed, SQLite's result code, and the error it came from.
///
/// ```swift
/// do { try await store.upsert(notes) } catch StoreError.database(let failure) {
///     if failure.resultCode == 13 { print("the disk is full") }  // SQLITE_FULL
///     print(failure.cause ?? failure)
/// }
/// ```
public struct DatabaseFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, in words (SQLite's message and the statement, when there was one).
    public let message: String
    /// SQLite's primary result code (for example 13, `SQLITE_FULL`), or `nil` when the failure did not come
    /// from SQLite (a file that cannot be created, a graph that cannot be built).
    public let resultCode: Int32?
    private let box: Cause?

    /// The error this failure came from: GRDB's `DatabaseError` for a SQLite failure, or `nil`.
    public var cause: (any Error)? { box?.error }

    /// A failure described by `message`, with SQLite's `resultCode` and the `cause` when there are.
    public init(message: String, resultCode: Int32? = nil, cause: (any Error)? = nil) {
        self.message = message
        self.resultCode = resultCode
        self.box = cause.map(Cause.init)
    }

    public var description: String { message }

    public static func == (lhs: DatabaseFailure, rhs: DatabaseFailure) -> Bool {
        lhs.message == rhs.message && lhs.resultCode == rhs.resultCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(message)
        hasher.combine(resultCode)
    }

    /// Holds the cause. Sendable because it is never mutated and the errors it holds (GRDB's `DatabaseError`,
    /// Hush's own) are immutable values.
    private final class Cause: @unchecked Sendable {
        let error: any Error
        init(_ error: any Error) { self.error = error }
    }
}

extension StoreError: TypedError {}
