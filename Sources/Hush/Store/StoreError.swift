import GRDB

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
    /// SQLite failed.
    case database(String)

    public var description: String {
        switch self {
        case .schemaTooNew(let path, let found, let supported):
            return "\(path) uses store schema version \(found) but this Hush supports up to \(supported): "
                + "upgrade Hush to open it"
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
        case .database(let reason):
            return "database error: \(reason)"
        }
    }
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
        guard let database = error as? DatabaseError else { return StoreError.database(String(describing: error)) }
        switch database.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError.busy(path: displayPath)
        case .SQLITE_READONLY:
            return StoreError.readOnly(path: displayPath, operation: operation)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StoreError.notAStore(path: displayPath, reason: database.message ?? "not a database")
        default:
            return StoreError.database(String(describing: error))
        }
    }
}
