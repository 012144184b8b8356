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
    /// SQLite failed.
    case database(String)

    public var description: String {
        switch self {
        case .schemaTooNew(let path, let found, let supported):
            return "\(path) uses store schema version \(found) but this Hush supports up to \(supported): "
                + "upgrade Hush to open it"
        case .notAStore(let path, let reason):
            return "\(path) is not a usable Hush store (\(reason)): check the path, or delete the file to start over"
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
        case .database(let reason):
            return "database error: \(reason)"
        }
    }
}
